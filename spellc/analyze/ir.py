"""The intermediate representation between expanded Spell forms and Python ``ast``.

Every node is frozen and carries the Spell ``form`` it came from, that form's
source ``pos`` (line, col, end line, end col; or None for forms that macros
built) and its ``ctx``: where its value goes (ClojureScript's ``:context``).

* ``EXPR``   — the value is used by an enclosing expression;
* ``STMT``   — the value is discarded (a non-last element of a body sequence);
* ``RETURN`` — the value is the value of the enclosing compiled function.

Nodes that may jump (``Recur`` in tail position) also record their target. The
emitter relies on these facts instead of re-deriving them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Optional

from spell_runtime.data import Keyword, Span, Symbol


class Ctx(Enum):
    EXPR = "expr"
    STMT = "stmt"
    RETURN = "return"


@dataclass(frozen=True, slots=True)
class Node:
    form: Any
    pos: Optional[Span]
    ctx: Ctx


@dataclass(frozen=True, slots=True)
class Const(Node):
    """A self-evaluating or quoted value."""

    value: Any


@dataclass(frozen=True, slots=True)
class Local(Node):
    """A symbol certainly bound in the env here (a parameter or local): plain ``D[sym]``."""

    sym: Symbol


@dataclass(frozen=True, slots=True)
class Global(Node):
    """A symbol resolved at run time: env, then builtins, else an error."""

    sym: Symbol


@dataclass(frozen=True, slots=True)
class BuiltinRef(Node):
    """A core builtin that no code has ever bound: referenced directly."""

    sym: Symbol
    value: Any


@dataclass(frozen=True, slots=True)
class NsRef(Node):
    """A qualified symbol ``root/k1/.../kn``; ``static_root`` is the namespace map when it is a constant."""

    whole: Symbol
    root: Symbol
    keys: tuple[Keyword, ...]
    static_root: Any
    has_static_root: bool


@dataclass(frozen=True, slots=True)
class VectorLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class MapLit(Node):
    """A map literal: keys are not evaluated (Q10), values are, in order."""

    keys: tuple[Any, ...]
    vals: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class If(Node):
    test: Node
    then: Node
    else_: Node
    test_is_bool: bool


@dataclass(frozen=True, slots=True)
class Seq(Node):
    """A body sequence (``do``, and the bodies of let/loop/try/catch/fn): annotates ``:containing-form``.

    ``body`` has one node per element of ``elems``, except that it may start with one
    ``SubUnits`` node standing for all elements but the last.
    """

    body: tuple[Node, ...]
    elems: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class SubUnits(Node):
    """Leading elements of a long body sequence, each compiled (and cached) as its own unit.

    A completion grows by a form or two per turn and is re-evaluated whole; compiling each
    element separately, keyed by its source text, makes a turn cost what its new forms cost.
    ``keys`` are the cache keys (the elements' source text, or None to use printed text).
    """

    elems: tuple[Any, ...]
    keys: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Def(Node):
    """``def``/``persist``/the name binding of ``quine``: records the old value in the scope's undo list."""

    sym: Any
    value: Node


@dataclass(frozen=True, slots=True)
class Binding:
    pattern: Any
    syms: tuple[Symbol, ...]
    value: Node


@dataclass(frozen=True, slots=True)
class Let(Node):
    """``private``: the names live in Python locals, because nothing in scope can observe the env."""

    bindings: tuple[Binding, ...]
    body: Seq
    syms: tuple[Symbol, ...]
    private: bool = False


@dataclass(frozen=True, slots=True)
class FnBody:
    """The compiled body of a ``fn``: parameters are bound positionally by destructuring."""

    params: tuple[Any, ...]
    syms: tuple[Symbol, ...]
    body: Seq
    form: Any
    private: bool = False


@dataclass(frozen=True, slots=True)
class Fn(Node):
    params: Any
    body_forms: Any
    body: Optional[FnBody]


@dataclass(frozen=True, slots=True)
class Quine(Node):
    sym: Any
    last: Node


@dataclass(frozen=True, slots=True)
class Reopen(Node):
    quine: Node
    extras: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Loop(Node):
    inits: tuple[Node, ...]
    patterns: tuple[Any, ...]
    syms: tuple[Symbol, ...]
    body: Seq
    private: bool = False


@dataclass(frozen=True, slots=True)
class Recur(Node):
    """``(recur ...)``: a jump when ``target`` is "loop" or "fn", else the recur marker value."""

    args: tuple[Node, ...]
    target: Optional[str]


@dataclass(frozen=True, slots=True)
class ForIter:
    pattern: Any
    syms: tuple[Symbol, ...]
    coll: Node


@dataclass(frozen=True, slots=True)
class ForWhen:
    test: Node


@dataclass(frozen=True, slots=True)
class ForLet:
    bindings: tuple[Binding, ...]


@dataclass(frozen=True, slots=True)
class For(Node):
    clauses: tuple[Any, ...]
    body: Node
    syms: tuple[Symbol, ...]


@dataclass(frozen=True, slots=True)
class Try(Node):
    body: Seq
    catch_sym: Any
    handler: Optional[Seq]


@dataclass(frozen=True, slots=True)
class Call(Node):
    """Application of a computed head; ``maybe_macro`` when the head symbol could name a user macro."""

    head: Node
    args: tuple[Node, ...]
    maybe_macro: bool


@dataclass(frozen=True, slots=True)
class BuiltinCall(Node):
    """A call of an unshadowed core builtin, made directly."""

    sym: Symbol
    value: Any
    args: tuple[Node, ...]
    env: bool


@dataclass(frozen=True, slots=True)
class NativeOp(Node):
    """A fixed-arity core operator lowered to Python operations with Spell semantics."""

    op: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class KeywordCall(Node):
    """``(:k m)`` / ``(:k m default)``."""

    kw: Keyword
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Throw(Node):
    arg: Node


@dataclass(frozen=True, slots=True)
class Fail(Node):
    """A form the compiler knows fails when evaluated, with this message (after evaluating ``pre``)."""

    message: str
    pre: tuple[Node, ...]


NODE_KINDS: tuple[type, ...] = (
    Const, Local, Global, BuiltinRef, NsRef, VectorLit, MapLit, If, Seq, Def, Let, Fn, Quine, Reopen, Loop,
    Recur, For, Try, Call, BuiltinCall, NativeOp, KeywordCall, Throw, Fail, SubUnits,
)


MAP_VALUED_OPS = frozenset({"conj", "get", "nth", "first", "assoc"})
"""Natively lowered operations whose result can be any value (including a map)."""


def may_be_map(node: Node) -> bool:
    """Could the node's value be a map (and so a recur request)? False only when certainly not."""
    if isinstance(node, Const):
        from spell_runtime.data import SpellMap

        return isinstance(node.value, SpellMap)
    if isinstance(node, NativeOp):
        return node.op in MAP_VALUED_OPS
    if isinstance(node, (VectorLit, For, Fn)):
        return False
    if isinstance(node, BuiltinCall):
        return not node.sym.name.endswith("?")
    return True
