"""Small constructors for Python ``ast`` nodes, so the emitter reads like the code it makes."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any, Optional, TypeVar

Pos = tuple[int, int, int, int]


def name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def store(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Store())


def const(v: Any) -> ast.Constant:
    return ast.Constant(value=v)


def call(func: ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[])


def callname(fn: str, *args: ast.expr) -> ast.Call:
    return call(name(fn), *args)


def attr(obj: ast.expr, a: str) -> ast.Attribute:
    return ast.Attribute(value=obj, attr=a, ctx=ast.Load())


def subscript(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    return ast.Subscript(value=obj, slice=key, ctx=ast.Load())


def subscript_store(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    return ast.Subscript(value=obj, slice=key, ctx=ast.Store())


def assign(target: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[store(target)], value=value)


def assign_item(obj: ast.expr, key: ast.expr, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[subscript_store(obj, key)], value=value)


def walrus(target: str, value: ast.expr) -> ast.NamedExpr:
    return ast.NamedExpr(target=store(target), value=value)


def is_(a: ast.expr, b: ast.expr) -> ast.Compare:
    return ast.Compare(left=a, ops=[ast.Is()], comparators=[b])


def is_not(a: ast.expr, b: ast.expr) -> ast.Compare:
    return ast.Compare(left=a, ops=[ast.IsNot()], comparators=[b])


def compare(a: ast.expr, op: ast.cmpop, b: ast.expr) -> ast.Compare:
    return ast.Compare(left=a, ops=[op], comparators=[b])


def and_(*vals: ast.expr) -> ast.expr:
    if len(vals) == 1:
        return vals[0]
    return ast.BoolOp(op=ast.And(), values=list(vals))


def or_(*vals: ast.expr) -> ast.expr:
    if len(vals) == 1:
        return vals[0]
    return ast.BoolOp(op=ast.Or(), values=list(vals))


def not_(v: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=v)


def bitand(*vals: ast.expr) -> ast.expr:
    """``a & b & c``: evaluates every operand (no short circuit), keeping left-to-right order."""
    out = vals[0]
    for v in vals[1:]:
        out = ast.BinOp(left=out, op=ast.BitAnd(), right=v)
    return out


def ifexp(test: ast.expr, body: ast.expr, orelse: ast.expr) -> ast.IfExp:
    return ast.IfExp(test=test, body=body, orelse=orelse)


def tuple_(items: Sequence[ast.expr]) -> ast.Tuple:
    return ast.Tuple(elts=list(items), ctx=ast.Load())


def list_(items: Sequence[ast.expr]) -> ast.List:
    return ast.List(elts=list(items), ctx=ast.Load())


def expr_stmt(v: ast.expr) -> ast.Expr:
    return ast.Expr(value=v)


def if_(test: ast.expr, body: Sequence[ast.stmt], orelse: Optional[Sequence[ast.stmt]] = None) -> ast.If:
    return ast.If(test=test, body=list(body) or [ast.Pass()], orelse=list(orelse or []))


def raise_(exc: ast.expr) -> ast.Raise:
    return ast.Raise(exc=exc, cause=None)


def ret(v: ast.expr) -> ast.Return:
    return ast.Return(value=v)


def try_(body: Sequence[ast.stmt], handler_name: str, handler_body: Sequence[ast.stmt],
         finalbody: Optional[Sequence[ast.stmt]] = None, exc_type: str = "BaseException") -> ast.Try:
    handlers = []
    if handler_body:
        handlers = [ast.ExceptHandler(type=name(exc_type), name=handler_name, body=list(handler_body))]
    return ast.Try(body=list(body) or [ast.Pass()], handlers=handlers, orelse=[], finalbody=list(finalbody or []))


def while_true(body: list[ast.stmt]) -> ast.While:
    return ast.While(test=const(True), body=body or [ast.Pass()], orelse=[])


def for_(target: str, it: ast.expr, body: list[ast.stmt]) -> ast.For:
    return ast.For(target=store(target), iter=it, body=body or [ast.Pass()], orelse=[])


def fndef(fname: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=fname, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None)


A = TypeVar("A", bound=ast.AST)


def stamp(node: A, pos: Optional[Pos]) -> A:
    """Give ``node`` (not its children) a source position, unless it has one."""
    if pos is None or not hasattr(node, "lineno") and not isinstance(node, (ast.expr, ast.stmt)):
        return node
    if getattr(node, "lineno", None) is None:
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = pos  # type: ignore[attr-defined]
    return node


def stamp_tree(node: ast.AST, pos: Optional[Pos]) -> None:
    """Position every unpositioned node under ``node`` (stopping at positioned subtrees)."""
    if pos is None:
        return
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.expr, ast.stmt)):
            if getattr(n, "lineno", None) is not None and n is not node:
                continue
            if getattr(n, "lineno", None) is None:
                n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = pos
        stack.extend(ast.iter_child_nodes(n))
