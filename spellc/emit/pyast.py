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
# Typed ``Any``, not ``Pos``: compiled by mypyc (``spellc.native``), a ``Pos`` read off the stack is
# unboxed into a C struct and boxed again as a new tuple, and ``name``'s identity test would never hold.
_STACK: list[Any] = [(1, 0, 1, 0)]
STACK = _STACK  # for the emitter's dispatch, which pushes and pops without ``at`` (the hottest path)

N = TypeVar("N", bound=ast.AST)

# Contexts and operators carry no data, so one instance of each serves every node (as in the trees
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
# shared comparison and arithmetic operators for the emitter's modules (``P.IN`` …), as above
IN = ast.In()
NOT_IN = ast.NotIn()
EQ = ast.Eq()
NOT_EQ = ast.NotEq()
LT = ast.Lt()
LT_E = ast.LtE()
GT_E = ast.GtE()
ADD = ast.Add()
SUB = ast.Sub()


# Nodes are made by giving a bare instance its whole ``__dict__`` as one literal: ``ast.X(...)``
# stores each field through ``setattr`` (after looking ``_fields`` up on the class) and four more
# stores position it, and the node's dict is resized when its fifth entry arrives; a dict literal
# is built at its final size. About 1,100 machine instructions fewer per node, built and freed
# (issue 12: emitting compile-300 made ~12,000 nodes). ``compile()``, ``ast.dump``/``unparse`` and
# the field iterators read the same attributes either way; fields a constructor leaves unset
# (``kind``, ``type_comment``) stay unset, falling back to the class default (None) as before.
# Rarer nodes (``try``, ``def``...) are still built with ``ast.X(...)`` and positioned by ``_s``.
_new = ast.AST.__new__


def _s(node: N) -> N:
    node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = _STACK[-1]  # type: ignore[attr-defined]
    return node


class _Pop:
    """What ``at`` returns: leaving the ``with`` block pops the position ``at`` pushed."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        _STACK.pop()


_POP = _Pop()


def at(pos: Optional[Pos]) -> _Pop:
    """``with at(pos):`` — nodes made inside take ``pos`` (None keeps the current position).

    The position is pushed by the call, and one shared object pops it: making a context-manager
    object per use cost more than the push itself (the emitter positions ~700 blocks per module).
    Only ever use it as ``with at(pos):``."""
    _STACK.append(pos if pos is not None else _STACK[-1])
    return _POP


def node(n: N) -> N:
    """Position a node built directly with ``ast``."""
    return _s(n)


def cont() -> ast.Continue:
    return _s(ast.Continue())


def brk() -> ast.Break:
    return _s(ast.Break())


def binop(a: ast.expr, op: ast.operator, b: ast.expr) -> ast.BinOp:
    p = _STACK[-1]
    node = _new(ast.BinOp)
    node.__dict__ = {"left": a, "op": op, "right": b,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def neg(a: ast.expr) -> ast.UnaryOp:
    p = _STACK[-1]
    node = _new(ast.UnaryOp)
    node.__dict__ = {"op": _USUB, "operand": a,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def chain(left: ast.expr, ops: list[ast.cmpop], comparators: list[ast.expr]) -> ast.Compare:
    p = _STACK[-1]
    node = _new(ast.Compare)
    node.__dict__ = {"left": left, "ops": ops, "comparators": comparators,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


# Loaded names are shared: the ``Name`` node last made for a name serves every later read of that
# name at the same position (a call site reads ``D`` and its temporaries several times at one
# position), as ``ast.parse`` shares its context nodes. CPython compiles and unparses shared nodes
# like copies. Nothing edits a node in place except ``build_module``'s renaming of constants, which
# renames each node once and runs after emitting; ``reset_names`` empties the table for the next
# emitter. The table is keyed by the name alone and a hit needs the very position tuple on
# ``_STACK`` (``is``): reads at one position come while it is pushed. Keyed by (name, position), a
# tuple built and hashed (four ints) per read and one entry per node, it found a few more repeats
# (812 against 708 of compile-300's 3,991 reads) and cost ~2.7 M more machine instructions
# (issue 12: emitting is a third of a cold compile).
_NAMES: dict[str, tuple[Any, ast.Name]] = {}
_Name = ast.Name  # the hottest classes, bound once (no ``ast.`` attribute lookup per node)
_Call = ast.Call


def reset_names() -> None:
    """Forget the shared names (each emitter starts with an empty table: see ``_NAMES``)."""
    _NAMES.clear()


# The constructors below are the emitter's hottest (a name is a third of all nodes): they position
# their node in place rather than through ``_s``, one Python call fewer per node.
def name(n: str) -> ast.Name:
    p = _STACK[-1]
    last = _NAMES.get(n)
    if last is not None and last[0] is p:
        return last[1]
    node = _new(_Name)
    node.__dict__ = {"id": n, "ctx": LOAD,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    _NAMES[n] = (p, node)
    return node


def store(n: str) -> ast.Name:
    p = _STACK[-1]
    node = _new(ast.Name)
    node.__dict__ = {"id": n, "ctx": STORE,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def const(v: Any) -> ast.Constant:
    p = _STACK[-1]
    node = _new(ast.Constant)
    node.__dict__ = {"value": v, "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def call(func: ast.expr, *args: ast.expr) -> ast.Call:
    p = _STACK[-1]
    node = _new(_Call)
    node.__dict__ = {"func": func, "args": list(args), "keywords": [],
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def callname(fn: str, *args: ast.expr) -> ast.Call:
    p = _STACK[-1]
    last = _NAMES.get(fn)
    if last is not None and last[0] is p:
        func = last[1]
    else:
        func = _new(_Name)
        func.__dict__ = {"id": fn, "ctx": LOAD,
                         "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
        _NAMES[fn] = (p, func)
    node = _new(_Call)
    node.__dict__ = {"func": func, "args": list(args), "keywords": [],
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def attr(obj: ast.expr, a: str) -> ast.Attribute:
    p = _STACK[-1]
    node = _new(ast.Attribute)
    node.__dict__ = {"value": obj, "attr": a, "ctx": LOAD,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def subscript(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    p = _STACK[-1]
    node = _new(ast.Subscript)
    node.__dict__ = {"value": obj, "slice": key, "ctx": LOAD,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def subscript_store(obj: ast.expr, key: ast.expr) -> ast.Subscript:
    p = _STACK[-1]
    node = _new(ast.Subscript)
    node.__dict__ = {"value": obj, "slice": key, "ctx": STORE,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def assign(target: str, value: ast.expr) -> ast.Assign:
    p = _STACK[-1]
    node = _new(ast.Assign)
    node.__dict__ = {"targets": [store(target)], "value": value,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def assign_item(obj: ast.expr, key: ast.expr, value: ast.expr) -> ast.Assign:
    p = _STACK[-1]
    node = _new(ast.Assign)
    node.__dict__ = {"targets": [subscript_store(obj, key)], "value": value,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def walrus(target: str, value: ast.expr) -> ast.NamedExpr:
    p = _STACK[-1]
    node = _new(ast.NamedExpr)
    node.__dict__ = {"target": store(target), "value": value,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def _literal(e: ast.expr) -> bool:
    """A literal CPython warns about in an ``is`` test ("is" with a literal: SyntaxWarning)."""
    return isinstance(e, ast.Constant) and not (e.value is None or e.value is True or e.value is False)


def is_(a: ast.expr, b: ast.expr) -> ast.expr:
    """``a is b``; with a literal operand (``(true? 1)``), the runtime's ``_is`` so CPython never warns."""
    if _literal(a) or _literal(b):
        return call(name(H.IS), a, b)
    return chain(a, [_IS], [b])


def is_not(a: ast.expr, b: ast.expr) -> ast.expr:
    """``a is not b`` (see ``is_``)."""
    if _literal(a) or _literal(b):
        return not_(call(name(H.IS), a, b))
    return chain(a, [_ISNOT], [b])


def compare(a: ast.expr, op: ast.cmpop, b: ast.expr) -> ast.Compare:
    p = _STACK[-1]
    node = _new(ast.Compare)
    node.__dict__ = {"left": a, "ops": [op], "comparators": [b],
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def and_(*vals: ast.expr) -> ast.expr:
    if len(vals) == 1:
        return vals[0]
    p = _STACK[-1]
    node = _new(ast.BoolOp)
    node.__dict__ = {"op": _AND, "values": list(vals),
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def or_(*vals: ast.expr) -> ast.expr:
    if len(vals) == 1:
        return vals[0]
    p = _STACK[-1]
    node = _new(ast.BoolOp)
    node.__dict__ = {"op": _OR, "values": list(vals),
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def not_(v: ast.expr) -> ast.UnaryOp:
    p = _STACK[-1]
    node = _new(ast.UnaryOp)
    node.__dict__ = {"op": _NOT, "operand": v,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def types_are(a: ast.expr, b: ast.expr, t: ast.expr) -> ast.Compare:
    """``type(a) is type(b) is t``: true when both values' exact type is ``t``. Both ``type(...)``
    operands are evaluated before the chain's first test, so walrus stores inside them both happen,
    as with ``(type(a) is t) & (type(b) is t)`` — in one comparison node with no parenthesised groups:
    fewer nodes to compile, fewer tokens in a built module, and faster (issue 12). Two values only:
    a third ``type(c)`` would be evaluated only if the first test held."""
    return chain(callname("type", a), [_IS, _IS], [callname("type", b), t])


def bitand(*vals: ast.expr) -> ast.expr:
    """``a & b & c``: evaluates every operand (no short circuit), keeping left-to-right order."""
    out = vals[0]
    for v in vals[1:]:
        out = binop(out, _BITAND, v)
    return out


def ifexp(test: ast.expr, body: ast.expr, orelse: ast.expr) -> ast.IfExp:
    p = _STACK[-1]
    node = _new(ast.IfExp)
    node.__dict__ = {"test": test, "body": body, "orelse": orelse,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def tuple_(items: Sequence[ast.expr]) -> ast.Tuple:
    p = _STACK[-1]
    node = _new(ast.Tuple)
    node.__dict__ = {"elts": list(items), "ctx": LOAD,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def list_(items: Sequence[ast.expr]) -> ast.List:
    p = _STACK[-1]
    node = _new(ast.List)
    node.__dict__ = {"elts": list(items), "ctx": LOAD,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def expr_stmt(v: ast.expr) -> ast.Expr:
    p = _STACK[-1]
    node = _new(ast.Expr)
    node.__dict__ = {"value": v, "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def if_(test: ast.expr, body: Sequence[ast.stmt], orelse: Optional[Sequence[ast.stmt]] = None) -> ast.If:
    p = _STACK[-1]
    node = _new(ast.If)
    node.__dict__ = {"test": test, "body": list(body) or [_s(ast.Pass())], "orelse": list(orelse or []),
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def raise_(exc: ast.expr) -> ast.Raise:
    p = _STACK[-1]
    node = _new(ast.Raise)
    node.__dict__ = {"exc": exc, "cause": None,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def ret(v: ast.expr) -> ast.Return:
    p = _STACK[-1]
    node = _new(ast.Return)
    node.__dict__ = {"value": v, "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def try_(body: Sequence[ast.stmt], handler_name: Optional[str], handler_body: Sequence[ast.stmt],
         finalbody: Optional[Sequence[ast.stmt]] = None, exc_type: str = "BaseException") -> ast.Try:
    """``try``/``except exc_type [as handler_name]``/``finally``; a handler whose helper takes the
    exception from ``sys.exc_info()`` (``spell_runtime.frame_paths``) binds no name.

    A ``BaseException`` handler that binds no name is a bare ``except:`` — the same handler (it
    catches everything) one ``ast`` node smaller and without the exception-type test at run time;
    about a hundred of them in compile-300 (issue 12: compile time is paid per node)."""
    p = _STACK[-1]
    handlers = []
    if handler_body:
        exc = None if exc_type == "BaseException" and handler_name is None else name(exc_type)
        handler = _new(ast.ExceptHandler)
        handler.__dict__ = {"type": exc, "name": handler_name, "body": list(handler_body), "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
        handlers = [handler]
    node = _new(ast.Try)
    node.__dict__ = {"body": list(body) or [_s(ast.Pass())], "handlers": handlers, "orelse": [],
                     "finalbody": list(finalbody or []), "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


def while_true(body: list[ast.stmt]) -> ast.While:
    return _s(ast.While(test=const(True), body=body or [_s(ast.Pass())], orelse=[]))


def for_(target: str, it: ast.expr, body: list[ast.stmt]) -> ast.For:
    return _s(ast.For(target=store(target), iter=it, body=body or [_s(ast.Pass())], orelse=[]))


def fndef(fname: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    # Every compiled body is a def with three or more parameters: its ``arguments`` and ``arg``
    # nodes are made like the others (``ast.arguments(...)`` and ``ast.arg(...)`` went through
    # ``ast_type_init``: ~3,000 machine instructions each, 320 of them for compile-300).
    p = _STACK[-1]
    made: list[ast.arg] = []
    for a in params:
        arg = _new(ast.arg)
        arg.__dict__ = {"arg": a, "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
        made.append(arg)
    args = _new(ast.arguments)
    args.__dict__ = {"posonlyargs": [], "args": made, "vararg": None, "kwonlyargs": [], "kw_defaults": [],
                     "kwarg": None, "defaults": []}
    node = _new(ast.FunctionDef)
    node.__dict__ = {"name": fname, "args": args, "body": body or [_s(ast.Pass())], "decorator_list": [], "returns": None,
                     "lineno": p[0], "col_offset": p[1], "end_lineno": p[2], "end_col_offset": p[3]}
    return node


A = TypeVar("A", bound=ast.AST)


def stamp(node: A, pos: Optional[Pos]) -> A:
    """Override ``node``'s own position (children keep theirs); None leaves it as made."""
    if pos is not None and isinstance(node, (ast.expr, ast.stmt)):
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = pos
    return node
