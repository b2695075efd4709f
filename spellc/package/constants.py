"""Share the repeated Spell forms among a built module's constants (a package's libraries only).

A built module writes each constant as its own expression, so a fn's body form appears three
times (the ``(fn …)`` form kept for recompiling stale code, the body tuple used for error paths,
the body list of the fn value), each constructed separately at import. Constants are immutable
Spell data, so one object can stand for all equal copies: this pass hoists every form that
occurs more than once into a name defined at its first use and refers to that name afterwards.
It rewrites only the one-line ``_kN = …`` constant definitions and keeps every line where it was
(hoisted definitions share the line, separated by ``;``), so code positions — which the module's
position table is keyed by — do not move. A line it cannot parse is left as it is.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Final, Optional

CONSTANT: Final = re.compile(r"^(_k\d+) = (.+)$")
FORM_BUILDERS: Final = frozenset({"plist", "vec"})
MIN_DUMP: Final = 80
"""Forms whose ``ast.dump`` is shorter are cheaper to build again than to name."""


def _form_key(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORM_BUILDERS:
        key = ast.dump(node)
        return key if len(key) >= MIN_DUMP else None
    return None


def share_constants(source: str) -> str:
    """``source`` with repeated form constructions among its constants built once."""
    lines = source.split("\n")
    parsed: dict[int, tuple[str, ast.expr]] = {}
    counts: Counter[str] = Counter()
    for i, line in enumerate(lines):
        m = CONSTANT.match(line)
        if m is None:
            continue
        try:
            expr = ast.parse(m.group(2), mode="eval").body
        except SyntaxError:
            continue
        parsed[i] = (m.group(1), expr)
        for node in ast.walk(expr):
            key = _form_key(node)
            if key is not None:
                counts[key] += 1
    names: dict[str, str] = {}
    sharer = _Share(counts, names)
    for i, (name, expr) in parsed.items():
        new, hoisted = sharer.rewrite(name, expr)
        if new is not expr or hoisted:
            parts = ["%s = %s" % (alias, ast.unparse(node)) for alias, node in hoisted]
            parts.append("%s = %s" % (name, ast.unparse(new)))
            lines[i] = "; ".join(parts)
    return "\n".join(lines)


class _Share(ast.NodeTransformer):
    """Replaces forms already built (or hoists those that will be needed again) in one constant at a time."""

    def __init__(self, counts: Counter[str], names: dict[str, str]) -> None:
        self.counts = counts
        self.names = names
        self.aliases = 0
        self.root: Optional[ast.expr] = None
        self.name = ""
        self.hoisted: list[tuple[str, ast.expr]] = []

    def rewrite(self, name: str, expr: ast.expr) -> tuple[ast.expr, list[tuple[str, ast.expr]]]:
        self.root, self.name, self.hoisted = expr, name, []
        new = self.visit(expr)
        assert isinstance(new, ast.expr)
        return new, self.hoisted

    def visit_Call(self, node: ast.Call) -> ast.expr:
        key = _form_key(node)
        if key is not None and key in self.names:
            return ast.Name(id=self.names[key], ctx=ast.Load())
        self.generic_visit(node)
        if key is not None and self.counts[key] > 1:
            if node is self.root:
                self.names[key] = self.name
                return node
            self.aliases += 1
            alias = "_ks%d" % self.aliases
            self.hoisted.append((alias, node))
            self.names[key] = alias
            return ast.Name(id=alias, ctx=ast.Load())
        return node
