"""Small constructors for Python ``ast`` nodes, so the emitter reads like the code it makes."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any, Optional, TypeVar

from spell_runtime.abi import H

Pos = tuple[int, int, int, int]

# Every node is positioned when it is made, from this stack (the emitter pushes the position
# of the Spell form it is emitting). Walking finished trees to fill positions in
# (``ast.fix_missing_locations``) cost more than the rest of code generation together.
# The compiler driver holds a lock while emitting, so one module-level stack suffices.
_STACK: list[Pos] = [(1, 0, 1, 0)]
STACK = _STACK  # for the emitter's dispatch, which pushes and pops without ``at`` (the hottest path)

N = TypeVar("N", bound=ast.AST)

# Nodes are built with positional fields (about a quarter faster than keywords; emitting is a third
# of a cold compile). Contexts and operators carry no data, so one instance of each serves every node (as in the trees
# ``ast.parse`` builds); it saves tens of thousands of allocations per large module.
LOAD = ast.Load()
STORE = ast.Store()
_IS = ast.Is()
_ISNOT = ast.IsNot()
_AND = ast.And()
_OR = ast.Or()
_NOT = ast.Not()
_BITAND = ast.BitAnd()
_USUB = ast.USub()


def _s(node: N) -> N:
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = _STACK[-1]  # type: ignore[attr-defined]
    return node


class at:
    """``with at(pos):`` — nodes made inside take ``pos`` (None keeps the current position)."""

    __slots__ = ("pos",)

    def __init__(self, pos: Optional[Pos]) -> None:
        self.pos = pos

    def __enter__(self) -> None:
        _STACK.append(self.pos if self.pos is not None else _STACK[-1])

    def __exit__(self, *exc: object) -> None:
        _STACK.pop()


def node(n: N) -> N:
    """Position a node built directly with ``ast``."""
    return _s(n)


def cont() -> ast.Continue:
    return _s(ast.Continue())


def brk() -> ast.Break:
    return _s(ast.Break())


def binop(a: ast.expr, op: ast.operator, b: ast.expr) -> ast.BinOp:
    return _s(ast.BinOp(a, op, b))


def neg(a: ast.expr) -> ast.UnaryOp:
    return _s(ast.UnaryOp(_USUB, a))


def chain(left: ast.expr, ops: list[ast.cmpop], comparators: list[ast.expr]) -> ast.Compare:
    return _s(ast.Compare(left, ops, comparators))


# Loaded names are shared: one ``Name`` node per (name, position) serves every place that reads it
# there (a call site reads ``D`` and its temporaries several times at one position), as ``ast.parse``
# shares its context nodes. CPython compiles and unparses shared nodes like copies. Nothing edits a
# node in place except ``build_module``'s renaming of constants, which renames each node once and
# runs after emitting; ``reset_names`` empties the table for the next emitter. About a third of the
# names made for compile-300 were repeats (issue 12: emitting is a third of a cold compile).
_NAMES: dict[tuple[str, Pos], ast.Name] = {}
_Name = ast.Name  # the hottest classes, bound once (no ``ast.`` attribute lookup per node)
_Call = ast.Call


def reset_names() -> None:
    """Forget the shared names (each emitter starts with an empty table: see ``_NAMES``)."""
    _NAMES.clear()


# The constructors below are the emitter's hottest (a name is a third of all nodes): they position
# their node in place rather than through ``_s``, one Python call fewer per node.
def name(n: str) -> ast.Name:
    key = (n, _STACK[-1])
    node = _NAMES.get(key)
    if node is None:
        node = _NAMES[key] = _Name(n, LOAD)
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = key[1]
    return node


def store(n: str) -> ast.Name:
    node = ast.Name(n, STORE)
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = _STACK[-1]
    return node


def const(v: Any) -> ast.Constant:
    node = ast.Constant(v)
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = _STACK[-1]
    return node


def call(func: ast.expr, *args: ast.expr) -> ast.Call:
    node = _Call(func, list(args), [])
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = _STACK[-1]
    return node


def callname(fn: str, *args: ast.expr) -> ast.Call:
    pos = _STACK[-1]
    func = _NAMES.get((fn, pos))
    if func is None:
        func = _NAMES[fn, pos] = _Name(fn, LOAD)
        func.lineno, func.col_offset, func.end_lineno, func.end_col_offset = pos
    node = _Call(func, list(args), [])
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = pos
    return node


def attr(obj: ast.expr, a: str) -> ast.Attribute:
    return _s(ast.Attribute(obj, a, LOAD))


def subscript(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    return _s(ast.Subscript(obj, key, LOAD))


def subscript_store(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    return _s(ast.Subscript(obj, key, STORE))


def assign(target: str, value: ast.expr) -> ast.Assign:
    return _s(ast.Assign([store(target)], value))


def assign_item(obj: ast.expr, key: ast.expr, value: ast.expr) -> ast.Assign:
    return _s(ast.Assign([subscript_store(obj, key)], value))


def walrus(target: str, value: ast.expr) -> ast.NamedExpr:
    return _s(ast.NamedExpr(store(target), value))


def _literal(e: ast.expr) -> bool:
    """A literal CPython warns about in an ``is`` test ("is" with a literal: SyntaxWarning)."""
    return isinstance(e, ast.Constant) and not (e.value is None or e.value is True or e.value is False)


def is_(a: ast.expr, b: ast.expr) -> ast.expr:
    """``a is b``; with a literal operand (``(true? 1)``), the runtime's ``_is`` so CPython never warns."""
    if _literal(a) or _literal(b):
        return call(name(H.IS), a, b)
    return _s(ast.Compare(a, [_IS], [b]))


def is_not(a: ast.expr, b: ast.expr) -> ast.expr:
    """``a is not b`` (see ``is_``)."""
    if _literal(a) or _literal(b):
        return not_(call(name(H.IS), a, b))
    return _s(ast.Compare(a, [_ISNOT], [b]))


def compare(a: ast.expr, op: ast.cmpop, b: ast.expr) -> ast.Compare:
    return _s(ast.Compare(a, [op], [b]))


def and_(*vals: ast.expr) -> ast.expr:
    if len(vals) == 1:
        return vals[0]
    return _s(ast.BoolOp(_AND, list(vals)))


def or_(*vals: ast.expr) -> ast.expr:
    if len(vals) == 1:
        return vals[0]
    return _s(ast.BoolOp(_OR, list(vals)))


def not_(v: ast.expr) -> ast.UnaryOp:
    return _s(ast.UnaryOp(_NOT, v))


def bitand(*vals: ast.expr) -> ast.expr:
    """``a & b & c``: evaluates every operand (no short circuit), keeping left-to-right order."""
    out = vals[0]
    for v in vals[1:]:
        out = _s(ast.BinOp(out, _BITAND, v))
    return out


def ifexp(test: ast.expr, body: ast.expr, orelse: ast.expr) -> ast.IfExp:
    return _s(ast.IfExp(test, body, orelse))


def tuple_(items: Sequence[ast.expr]) -> ast.Tuple:
    return _s(ast.Tuple(list(items), LOAD))


def list_(items: Sequence[ast.expr]) -> ast.List:
    return _s(ast.List(list(items), LOAD))


def expr_stmt(v: ast.expr) -> ast.Expr:
    return _s(ast.Expr(v))


def if_(test: ast.expr, body: Sequence[ast.stmt], orelse: Optional[Sequence[ast.stmt]] = None) -> ast.If:
    return _s(ast.If(test=test, body=list(body) or [_s(ast.Pass())], orelse=list(orelse or [])))


def raise_(exc: ast.expr) -> ast.Raise:
    return _s(ast.Raise(exc, None))


def ret(v: ast.expr) -> ast.Return:
    return _s(ast.Return(v))


def try_(body: Sequence[ast.stmt], handler_name: Optional[str], handler_body: Sequence[ast.stmt],
         finalbody: Optional[Sequence[ast.stmt]] = None, exc_type: str = "BaseException") -> ast.Try:
    """``try``/``except exc_type [as handler_name]``/``finally``; a handler whose helper takes the
    exception from ``sys.exc_info()`` (``spell_runtime.frame_paths``) binds no name."""
    handlers = []
    if handler_body:
        handlers = [_s(ast.ExceptHandler(type=name(exc_type), name=handler_name, body=list(handler_body)))]
    return _s(ast.Try(body=list(body) or [_s(ast.Pass())], handlers=handlers, orelse=[], finalbody=list(finalbody or [])))


def while_true(body: list[ast.stmt]) -> ast.While:
    return _s(ast.While(test=const(True), body=body or [_s(ast.Pass())], orelse=[]))


def for_(target: str, it: ast.expr, body: list[ast.stmt]) -> ast.For:
    return _s(ast.For(target=store(target), iter=it, body=body or [_s(ast.Pass())], orelse=[]))


def fndef(fname: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[_s(ast.arg(arg=p)) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    return _s(ast.FunctionDef(name=fname, args=args, body=body or [_s(ast.Pass())], decorator_list=[], returns=None))


A = TypeVar("A", bound=ast.AST)


def stamp(node: A, pos: Optional[Pos]) -> A:
    """Override ``node``'s own position (children keep theirs); None leaves it as made."""
    if pos is not None and isinstance(node, (ast.expr, ast.stmt)):
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = pos
    return node
