"""Python source text of a generated module (what ``spellc build`` writes, and the dual-path tests
compile): ``ast.unparse`` with two-space indentation.

Why two spaces: generated code nests deeply (a function body's ``try``, scopes, loops), and four
spaces per level were 11% of a built module (15 of 134 KB for ``compile-300.spl``, issue 12.3).
The indentation is the only change: CPython's unparser writes string constants on one line (their
``repr``), and docstrings — the one multi-line case — are written verbatim, so no value changes.
"""

from __future__ import annotations

import ast

INDENT = "  "

_Unparser: type = getattr(ast, "_Unparser", object)


class _TwoSpaceUnparser(_Unparser):  # type: ignore[misc]
    def fill(self, text: str = "") -> None:
        self.maybe_newline()
        self.write(INDENT * self._indent + text)


def python_text(node: ast.AST) -> str:
    """The source of ``node``, as ``ast.unparse`` writes it but indented by two spaces per level."""
    if _Unparser is object:  # an interpreter without the private unparser: plain unparse
        return ast.unparse(node)
    return str(_TwoSpaceUnparser().visit(node))


__all__ = ["python_text", "INDENT"]
