"""The intermediate representation between expanded Spell forms and Python ``ast``.

Every node is frozen and carries the Spell ``form`` it came from, that form's
source ``pos`` (line, col, end line, end col; or None for forms that macros
built) and its ``ctx``: where its value goes (ClojureScript's ``:context``).

* ``EXPR``   — the value is used by an enclosing expression;
* ``STMT``   — the value is discarded (a non-last element of a body sequence);
* ``RETURN`` — the value is the value of the enclosing compiled function (a ``fn`` body or the unit);
* ``LOOP``   — the value leaves through the enclosing ``loop`` (the tail of its body).

The analyzer sets the context once; the emitter reads it to choose between an
expression, statements, and a tail exit (``return`` / store-and-break), and has
no notion of tail position of its own. ``Recur`` also records its target, which
follows from its context: ``"loop"`` (LOOP), ``"fn"`` (RETURN inside a ``fn``
body), or None (anywhere else: the recur request value).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, ClassVar, Optional

from spell_runtime.data import Keyword, Span, Symbol

from .native_ops import BY_NAME


class Record:
    """An immutable record whose fields are its annotations (own and inherited, in order).

    Like a frozen dataclass, but made without generating code per class: the compiler's
    import time is part of every ``spellc`` start-up, and thirty ``@dataclass`` decorations
    cost tens of milliseconds."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls) -> None:
        fields: list[str] = []
        defaults: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__annotations__", {}):
                if name.startswith("_"):
                    continue
                if name not in fields:
                    fields.append(name)
                if name in klass.__dict__:
                    defaults[name] = klass.__dict__[name]
        cls._fields = tuple(fields)
        cls._defaults = defaults
        # The unrolled initialiser of its arity when it has one (below), else the general one.
        fixed = _FIXED_INITS.get(len(fields)) if not defaults else None
        cls.__init__ = fixed if fixed is not None else Record.__init__  # type: ignore[method-assign]

    def __init__(self, *args: Any) -> None:
        fields = self._fields
        # Straight into the instance dict (``__setattr__`` refuses) — analysis makes a node per form,
        # and this was a fifth of the analyzer's time. Stored one by one by index: ``update(zip(...))``
        # built a pair tuple per field and cost ~1,100 machine instructions a field, this ~800 (issue 12).
        # Kinds with defaults or another arity come here; the others have an unrolled ``_initN``.
        if len(args) == len(fields):
            values = self.__dict__
            i = 0
            for name in fields:
                values[name] = args[i]
                i += 1
            return
        if len(args) > len(fields):
            raise TypeError("%s takes %d fields" % (type(self).__name__, len(fields)))
        values = dict(zip(fields, args))
        for name in fields[len(args):]:
            if name not in self._defaults:
                raise TypeError("%s: missing field %s" % (type(self).__name__, name))
            values[name] = self._defaults[name]
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError  # error path only: dataclasses costs start-up

        raise FrozenInstanceError("cannot assign to field %r" % name)

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (f, getattr(self, f)) for f in self._fields))


# Fixed-arity initialisers: a record kind with 3 to 7 fields and no defaults (most IR nodes: 4 for
# ``Const``/``Local``/``Global``, 5-7 for calls, ``If``, ``Seq``...) gets the one of its arity as its
# ``__init__`` (``Record.__init_subclass__``). Unrolled, the stores cost about 2,000 machine
# instructions less per node than ``Record.__init__``'s loop over the fields (~7% of the analysis
# of compile-300, issue 12); generating an ``__init__`` per kind would cost a ``compile`` per kind.
# Same fields, same order, straight into the instance dict, as ``Record.__init__`` does.


def _init3(self: Record, a: Any, b: Any, c: Any) -> None:
    values, names = self.__dict__, self._fields
    values[names[0]] = a
    values[names[1]] = b
    values[names[2]] = c


def _init4(self: Record, a: Any, b: Any, c: Any, d: Any) -> None:
    values, names = self.__dict__, self._fields
    values[names[0]] = a
    values[names[1]] = b
    values[names[2]] = c
    values[names[3]] = d


def _init5(self: Record, a: Any, b: Any, c: Any, d: Any, e: Any) -> None:
    values, names = self.__dict__, self._fields
    values[names[0]] = a
    values[names[1]] = b
    values[names[2]] = c
    values[names[3]] = d
    values[names[4]] = e


def _init6(self: Record, a: Any, b: Any, c: Any, d: Any, e: Any, f: Any) -> None:
    values, names = self.__dict__, self._fields
    values[names[0]] = a
    values[names[1]] = b
    values[names[2]] = c
    values[names[3]] = d
    values[names[4]] = e
    values[names[5]] = f


def _init7(self: Record, a: Any, b: Any, c: Any, d: Any, e: Any, f: Any, g: Any) -> None:
    values, names = self.__dict__, self._fields
    values[names[0]] = a
    values[names[1]] = b
    values[names[2]] = c
    values[names[3]] = d
    values[names[4]] = e
    values[names[5]] = f
    values[names[6]] = g


_FIXED_INITS: dict[int, Callable[..., None]] = {3: _init3, 4: _init4, 5: _init5, 6: _init6, 7: _init7}


class Ctx(Enum):
    """Where a node's value goes (see the module docstring)."""

    EXPR = "expr"
    STMT = "stmt"
    RETURN = "return"
    LOOP = "loop"


TAIL_CTXS = frozenset({Ctx.RETURN, Ctx.LOOP})
"""Contexts whose value leaves the enclosing compiled function or loop."""


class Node(Record):
    form: Any
    pos: Optional[Span]
    ctx: Ctx


class Const(Node):
    """A self-evaluating or quoted value."""

    value: Any


class Local(Node):
    """A symbol certainly bound in the env here (a parameter or local): plain ``D[sym]``."""

    sym: Symbol


class Global(Node):
    """A symbol resolved at run time: env, then builtins, else an error."""

    sym: Symbol


class BuiltinRef(Node):
    """A core builtin that no code has ever bound: referenced directly."""

    sym: Symbol
    value: Any


class NsRef(Node):
    """A qualified symbol ``root/k1/.../kn``; ``static_root`` is the namespace map when it is a constant."""

    whole: Symbol
    root: Symbol
    keys: tuple[Keyword, ...]
    static_root: Any
    has_static_root: bool


class VectorLit(Node):
    items: tuple[Node, ...]


class MapLit(Node):
    """A map literal: keys are not evaluated (Q10), values are, in order."""

    keys: tuple[Any, ...]
    vals: tuple[Node, ...]


class If(Node):
    test: Node
    then: Node
    else_: Node
    test_is_bool: bool


class Seq(Node):
    """A body sequence (``do``, and the bodies of let/loop/try/catch/fn): annotates ``:containing-form``.

    ``body`` has one node per element of ``elems``, except that it may start with one
    ``SubUnits`` node standing for all elements but the last, or be one ``SubUnits`` node
    standing for them all.
    """

    body: tuple[Node, ...]
    elems: tuple[Any, ...]


class SubUnits(Node):
    """Leading elements of a long body sequence, each compiled (and cached) as its own unit.

    A completion grows by a form or two per turn and is re-evaluated whole; compiling each
    element separately, keyed by its source text, makes a turn cost what its new forms cost.
    ``keys`` are the cache keys (indexable like ``elems``: the elements' source text, or None
    to use printed text; cut lazily, see ``analyzer.SourceKeys``).

    ``value``: the node stands for *every* element, the last one included, and its value is
    the last element's (issue 14: a body with no recur target, so the program's code does not
    depend on any of its elements and the compiler can reuse it turn after turn, see
    ``spellc.compiler.templates``).
    """

    elems: tuple[Any, ...]
    keys: Any
    value: bool = False


class Def(Node):
    """``def``/``persist``/the name binding of ``quine``: records the old value in the scope's undo list."""

    sym: Any
    value: Node


class Binding(Record):
    pattern: Any
    syms: tuple[Symbol, ...]
    value: Node


class Let(Node):
    """``private``: the names live in Python locals, because nothing in scope can observe the env."""

    bindings: tuple[Binding, ...]
    body: Seq
    syms: tuple[Symbol, ...]
    private: bool = False


class FnBody(Record):
    """The compiled body of a ``fn``: parameters are bound positionally by destructuring."""

    params: tuple[Any, ...]
    syms: tuple[Symbol, ...]
    body: Seq
    form: Any
    private: bool = False
    published: bool = False
    """Parameters in Python locals, published to ``D`` only around call sites (``privacy.publishable``,
    ``spell_runtime.published``); never together with ``private``."""
    closed_self: Optional[Symbol] = None
    """The fn's own name, when every call in the body is of it and the body is closed
    (``selfcalls.closed_self``): the emitter adds a second body without per-call checks, entered
    from verified self-calls."""
    self_longs: bool = False
    """With ``closed_self``: the body is long-typed too (parameters and every value in that second body are longs)."""
    second: Optional[Seq] = None
    """With ``closed_self``: the sequence the second body is emitted from when it differs from ``body``
    (``analyze.late``: ``body``'s references after a possible user macro are dynamic, the second
    body's need not be)."""
    self_name: Optional[Symbol] = None
    """A published body's own name (the ``def`` it is the value of): only a call whose head is that
    symbol gets the direct-call test of the body (``emit.published_calls``); other heads are taken
    by the helper without it, as a direct call needs the head's value to be this very body."""


class Fn(Node):
    params: Any
    body_forms: Any
    body: Optional[FnBody]


class Quine(Node):
    sym: Any
    last: Node


class Reopen(Node):
    quine: Node
    extras: tuple[Node, ...]


class Loop(Node):
    inits: tuple[Node, ...]
    patterns: tuple[Any, ...]
    syms: tuple[Symbol, ...]
    body: Seq
    private: bool = False


class Recur(Node):
    """``(recur ...)``: a jump when ``target`` is "loop" or "fn", else the recur marker value."""

    args: tuple[Node, ...]
    target: Optional[str]


class ForIter(Record):
    pattern: Any
    syms: tuple[Symbol, ...]
    coll: Node


class ForWhen(Record):
    test: Node


class ForLet(Record):
    bindings: tuple[Binding, ...]


class For(Node):
    clauses: tuple[Any, ...]
    body: Node
    syms: tuple[Symbol, ...]


class Try(Node):
    body: Seq
    catch_sym: Any
    handler: Optional[Seq]


class Call(Node):
    """Application of a computed head; ``maybe_macro`` when the head symbol could name a user macro."""

    head: Node
    args: tuple[Node, ...]
    maybe_macro: bool


class BuiltinCall(Node):
    """A call of an unshadowed core builtin, made directly."""

    sym: Symbol
    value: Any
    args: tuple[Node, ...]
    env: bool


class NativeOp(Node):
    """A fixed-arity core operator lowered to Python operations with Spell semantics; ``op`` is its
    name in ``native_ops``."""

    op: str
    args: tuple[Node, ...]


class KeywordCall(Node):
    """``(:k m)`` / ``(:k m default)``; ``inline`` when optimising (the map read is written inline,
    ``emit.natives.NativeEmitter.keyword_lookup``)."""

    kw: Keyword
    args: tuple[Node, ...]
    inline: bool


class Throw(Node):
    arg: Node


class Late(Node):
    """A static reference (``node``: a builtin reference or call, a native operator, ``throw``, a
    static namespace path) that runs after something may have bound names in this activation's
    frame at run time (``analyze.late``): the emitted code takes ``node``'s static code while the
    activation's flag says nothing did, else evaluates ``form`` afresh, dynamically."""

    node: Node


class Fail(Node):
    """A form the compiler knows fails when evaluated, with this message (after evaluating ``pre``)."""

    message: str
    pre: tuple[Node, ...]


NODE_KINDS: tuple[type, ...] = (
    Const, Local, Global, BuiltinRef, NsRef, VectorLit, MapLit, If, Seq, Def, Let, Fn, Quine, Reopen, Loop,
    Recur, For, Try, Call, BuiltinCall, NativeOp, KeywordCall, Throw, Fail, SubUnits, Late,
)


CHILDREN: dict[type, tuple[str, ...]] = {
    Const: (), Local: (), Global: (), BuiltinRef: (), NsRef: (), SubUnits: (),
    VectorLit: ("items",), MapLit: ("vals",), If: ("test", "then", "else_"), Seq: ("body",),
    Def: ("value",), Binding: ("value",), Let: ("bindings", "body"), FnBody: ("body", "second"), Fn: ("body",),
    Quine: ("last",), Reopen: ("quine", "extras"), Loop: ("inits", "body"), Recur: ("args",),
    ForIter: ("coll",), ForWhen: ("test",), ForLet: ("bindings",), For: ("clauses", "body"),
    Try: ("body", "handler"), Call: ("head", "args"), BuiltinCall: ("args",), NativeOp: ("args",),
    KeywordCall: ("args",), Throw: ("arg",), Fail: ("pre",), Late: ("node",),
}
"""Each record kind's fields that hold IR records (one record, a tuple of them, or None): what IR
walkers visit, in field order (``test_ir`` checks the table against the records)."""


def children(node: Record) -> Sequence[Record]:
    """The IR records directly inside ``node`` (see ``CHILDREN``), in field order.

    A sequence rather than a generator: the walkers (``privacy``, ``late``, ``selfcalls``...) ask
    every node of every compiled function, most of them leaves, and making and resuming a
    generator per node cost more than the walk itself (issue 12)."""
    names = CHILDREN[type(node)]
    if not names:
        return ()
    fields = node.__dict__
    if len(names) == 1:
        value = fields[names[0]]
        if type(value) is tuple:
            return value
        return () if value is None else (value,)
    out: list[Record] = []
    for name in names:
        value = fields[name]
        if type(value) is tuple:
            out.extend(value)
        elif value is not None:
            out.append(value)
    return out


def may_be_map(node: Node) -> bool:
    """Could the node's value be a recur request (a map, Q17)? False only when certainly not."""
    if isinstance(node, Const):
        from spell_runtime.data import SpellMap
        from spell_runtime.data.fn import recur_vals

        return isinstance(node.value, SpellMap) and recur_vals(node.value) is not None  # decided now: a constant
    if isinstance(node, NativeOp):
        return BY_NAME[node.op].may_be_map
    if isinstance(node, (VectorLit, For, Fn)):
        return False
    if isinstance(node, Loop):
        # Every value that leaves a loop body and may be a request is tested there, and a request
        # re-binds the loop instead of leaving it (``emit.scopes`` ``deliver``): never its value.
        return False
    if isinstance(node, MapLit):
        # A map, but a recur request only with a truthy :spell/recur entry (Q17): its keys are
        # constants (Q10), so a literal without that key never is one.
        from spell_runtime.data.atoms import K_SPELL_RECUR

        return any(k is K_SPELL_RECUR for k in node.keys)
    if isinstance(node, BuiltinCall):
        name = node.sym.name
        if name.endswith("?") or name in NEVER_MAP_BUILTINS:
            return False
        return not (name in NEVER_MAP_OVER_COLL and len(node.args) >= 2)
    return True


NEVER_MAP_BUILTINS = frozenset({
    "str", "subs", "name", "keyword", "symbol", "parse-number", "+", "-", "*", "/", "inc", "dec", "count",
    "vec", "vector", "list", "range", "sort", "reverse", "keys", "vals", "concat",
})
"""Builtins whose value is never a map (so never a recur request, Q17): strings, numbers, sequences
and vectors, or nil. A ``BuiltinCall`` is a direct reference to the builtin (a body compiled before
the name was rebound is compiled again, ``support.stale``), so the table speaks for the call. The
recur-request test it spares is ~28 ``ast`` nodes per returned value (issue 12, code shape)."""

NEVER_MAP_OVER_COLL = frozenset({"map", "filter", "remove", "mapv", "filterv", "sort-by"})
"""Builtins that build a sequence from a collection argument: never a map when given one (with the
function alone their value would be something else)."""
