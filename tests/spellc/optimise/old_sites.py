"""Rewrites a fresh build's rare-path sites into those an earlier spellc wrote, so that tests can
check that such modules still run with the helpers kept in ``abi.LEGACY``."""

from __future__ import annotations

import ast

NAMED_TO_LIST = {"_macro_named": "_macro_here", "_late_named": "_late_here",
                 "_macro_pub_named": "_macro_pub_here", "_late_pub_named": "_late_pub_here"}
"""The helpers given an undo local's name (``frame_paths.macro_named`` …) and the ones sites called
before them with the list made at the site (``_u3 := _u3 or []``)."""

PUBLISHED = frozenset({"_macro_pub_named", "_late_pub_named"})
"""Of those, the ones that write the parameters back into the frame: before them, the site reloaded
the parameter locals from the older helper's answer."""


class UndoListSites(ast.NodeTransformer):
    """Each ``_macro_named(…, '_u3', …)`` (and the other ``NAMED_TO_LIST`` keys) becomes
    ``_macro_here(…, _u3 := _u3 or [], …)``: the site as spellc wrote it before the helpers made the
    scope's undo list themselves. (The undo local's name is the call's only string constant.) A
    published site also reloads the parameters of the function it is in (its ``_p`` arguments)
    from the answer, as before the helpers wrote them into the frame:
    ``[(_p0 := (_mr := _macro_pub_here(…))[0]), …, _mr[n]][n]``."""

    def __init__(self) -> None:
        self.sites = 0
        self.params = 0

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        saved, self.params = self.params, sum(1 for a in node.args.args if a.arg.startswith("_p"))
        self.generic_visit(node)
        self.params = saved
        return node

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
        old = ast.Call(func=ast.Name(NAMED_TO_LIST[node.func.id], ast.Load()), args=args, keywords=[])
        if node.func.id not in PUBLISHED:
            return old
        n, mr = self.params, "_mr_old%d" % self.sites
        source: ast.expr = ast.NamedExpr(ast.Name(mr, ast.Store()), old)
        parts: list[ast.expr] = []
        for i in range(n):
            parts.append(ast.NamedExpr(ast.Name("_p%d" % i, ast.Store()), ast.Subscript(source, ast.Constant(i),
                                                                                         ast.Load())))
            source = ast.Name(mr, ast.Load())
        parts.append(ast.Subscript(source, ast.Constant(n), ast.Load()))
        return ast.Subscript(ast.List(parts, ast.Load()), ast.Constant(n), ast.Load())


def undo_list_sites(text: str) -> tuple[str, int]:
    """``text`` with every named-undo site rewritten (``UndoListSites``), and how many there were."""
    old = UndoListSites()
    tree = old.visit(ast.parse(text))
    return ast.unparse(ast.fix_missing_locations(tree)), old.sites
