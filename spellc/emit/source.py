"""Python source text of a generated module (what ``spellc build`` writes, and the dual-path tests
compile): ``ast.unparse`` with one-space indentation.

Why one space: generated code nests deeply (a function body's ``try``, scopes, loops, often six
levels and more): four spaces per level were 11% of a built module (15 of 134 KB for
``compile-300.spl``, issue 12.3) and two spaces still a tenth (one space: 98,309 → 94,051 bytes,
the margin under the 100 KB target). Every block opens with a ``try:``/``if``/``while``/``for``/``def`` line, so the level
stays visible.
Besides the indentation, assignment expressions lose the parentheses Python does not need
(``f(x := g())`` rather than ``f((x := g()))``, ``x := a if c else b`` rather than
``x := (a if c else b)``, ``(x := g(), y)`` rather than ``((x := g()), y)``): generated code
has hundreds of them (``type((_v := …))`` at every checked return), and the text parses back to
the same tree. CPython's unparser writes string constants on one line (their ``repr``), and
docstrings — the one multi-line case — are written verbatim, so no value changes.
"""

from __future__ import annotations

import ast
from typing import Any

INDENT = " "

_Unparser: type = getattr(ast, "_Unparser", object)


_Precedence: Any = getattr(ast, "_Precedence", None)


class _OneSpaceUnparser(_Unparser):  # type: ignore[misc]
    def fill(self, text: str = "") -> None:
        self.maybe_newline()
        self.write(INDENT * self._indent + text)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        # The value of ``x := value`` is any expression but another unparenthesized walrus (TEST
        # precedence); the stock unparser parenthesizes everything but an atom.
        with self.require_parens(_Precedence.NAMED_EXPR, node):
            self.set_precedence(_Precedence.ATOM, node.target)
            self.set_precedence(_Precedence.TEST, node.value)
            self.traverse(node.target)
            self.write(" := ")
            self.traverse(node.value)

    def visit_Call(self, node: ast.Call) -> None:
        # A positional argument may be a bare walrus (``f(x := 1)``); the emitter writes no
        # keyword arguments and no starred walrus.
        for e in node.args:
            if type(e) is ast.NamedExpr:
                self.set_precedence(_Precedence.NAMED_EXPR, e)
        super().visit_Call(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        # Inside the parentheses a tuple display is written with, an element may be a bare walrus
        # (``c and (a := x, b := y)``: the arguments a published call site stores, ``emit.calls``);
        # a tuple written without them (``return a, b``) keeps its walruses parenthesized.
        if self.get_precedence(node) > _Precedence.TUPLE:
            for e in node.elts:
                if type(e) is ast.NamedExpr:
                    self.set_precedence(_Precedence.NAMED_EXPR, e)
        super().visit_Tuple(node)


def python_text(node: ast.AST) -> str:
    """The source of ``node``, as ``ast.unparse`` writes it but indented by one space per level."""
    if _Unparser is object:  # an interpreter without the private unparser: plain unparse
        return ast.unparse(node)
    return str(_OneSpaceUnparser().visit(node))


__all__ = ["python_text", "INDENT"]
