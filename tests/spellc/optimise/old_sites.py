"""Rewrites a fresh build's rare-path sites into those an earlier spellc wrote, so that tests can
check that such modules still run with the helpers kept in ``abi.LEGACY``."""

from __future__ import annotations

import ast

NAMED_TO_LIST = {"_macro_named": "_macro_here", "_late_named": "_late_here",
                 "_macro_pub_named": "_macro_pub_set", "_late_pub_named": "_late_pub_set"}
"""The helpers given an undo local's name (``frame_paths.macro_named`` …) and the ones sites called
before them with the list made at the site (``_u3 := _u3 or []``)."""


class UndoListSites(ast.NodeTransformer):
    """Each ``_macro_named(…, '_u3', …)`` (and the other ``NAMED_TO_LIST`` keys) becomes
    ``_macro_here(…, _u3 := _u3 or [], …)``: the site as spellc wrote it before the helpers made the
    scope's undo list themselves. (The undo local's name is the call's only string constant.)"""

    def __init__(self) -> None:
        self.sites = 0

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if not (isinstance(node.func, ast.Name) and node.func.id in NAMED_TO_LIST):
            return node
        self.sites += 1
        args: list[ast.expr] = []
        for a in node.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                made = ast.BoolOp(ast.Or(), [ast.Name(a.value, ast.Load()), ast.List([], ast.Load())])
                a = ast.NamedExpr(ast.Name(a.value, ast.Store()), made)
            args.append(a)
        return ast.Call(func=ast.Name(NAMED_TO_LIST[node.func.id], ast.Load()), args=args, keywords=[])


def undo_list_sites(text: str) -> tuple[str, int]:
    """``text`` with every named-undo site rewritten (``UndoListSites``), and how many there were."""
    old = UndoListSites()
    tree = old.visit(ast.parse(text))
    return ast.unparse(ast.fix_missing_locations(tree)), old.sites
