"""Which body forms evaluate deterministically and with no effect but their definitions (issue 14, item 3).

The turn loop re-evaluates the whole program every turn (runtime.md §5.1), so
``replay`` keeps the environment reached after the longest leading run of body
forms whose evaluation can be *replayed* instead: forms that only compute values
from literals, from names defined earlier in that same run and from a fixed set of
deterministic core functions, and whose only effect is to bind names. ``facts``
decides this per form (remembered per form object) and conservatively: anything it
does not recognise — ``eval``, effect builtins, model calls, randomness, ``gensym``,
depth or frame reads, user functions or macros, reader-time ``#()``, namespaced
names, destructuring with defaults, a ``def`` anywhere but at the top — makes the
form impure, and an impure form ends the run (it is evaluated as always).

A pure form may *call* only the core functions in ``PURE_FUNCTIONS``; the
higher-order ones in ``HIGHER_ORDER`` also call their function arguments, so those
must be inline ``fn`` forms with pure bodies, pure core names, or names defined in
the run whose values are plain data (maps, keywords, sets and vectors are callable
data) — the last is checked on the values, when the run is recorded
(``Facts.data_args``).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, Optional

from .data.atoms import BigInt, Char, Float32, Keyword, Pattern, Symbol
from .data.hashmap import SpellMap, SpellSet
from .data.plist import PList
from .data.vector import LineVector, PVector, VectorView
from .pure_names import PURE_NAMES

PURE_FUNCTIONS: Final = frozenset(Symbol(n) for n in PURE_NAMES)

HIGHER_ORDER: Final = frozenset(Symbol(n) for n in """
map filter remove reduce keep some every? sort-by group-by mapcat map-indexed update update-in
take-while drop-while partition-by
""".split())

S_DEF: Final = Symbol("def")
S_DEFN: Final = Symbol("defn")
S_PERSIST: Final = Symbol("persist")
S_THINK: Final = Symbol("think")
S_QUOTE: Final = Symbol("quote")
S_FN: Final = Symbol("fn")
S_FN_STAR: Final = Symbol("fn*")
S_DO: Final = Symbol("do")
S_LET: Final = Symbol("let")
S_AMP: Final = Symbol("&")
_PLAIN_FORMS: Final = frozenset(Symbol(n) for n in ("if", "when", "when-not", "and", "or", "cond", "do"))
_ATOMS: Final = (type(None), bool, int, float, str, Keyword, BigInt, Float32, Fraction, Decimal, Char, Pattern)


class Facts:
    """What replaying a form depends on.

    ``uses``: the core functions it names; ``needs``: the names it reads that an
    earlier form of the run must define; ``defines``: the names it binds (top level
    only); ``data_args``: names passed to higher-order functions, whose values must
    be plain data.
    """

    __slots__ = ("uses", "needs", "defines", "data_args")

    def __init__(self) -> None:
        self.uses: set[Symbol] = set()
        self.needs: set[Symbol] = set()
        self.defines: list[Symbol] = []
        self.data_args: set[Symbol] = set()


class _Impure(Exception):
    pass


_facts: dict[int, tuple[Any, Optional[Facts]]] = {}
_LIMIT: Final = 200_000


def facts(form: Any) -> Optional[Facts]:
    """The replay facts of one body form, or None when its evaluation must never be replayed."""
    key = id(form)
    hit = _facts.get(key)
    if hit is not None and hit[0] is form:
        return hit[1]
    found: Optional[Facts] = Facts()
    try:
        _top(form, found)  # type: ignore[arg-type]
    except (_Impure, RecursionError):
        found = None
    if len(_facts) >= _LIMIT:
        _facts.clear()
    _facts[key] = (form, found)
    return found


def _top(form: Any, out: Facts) -> None:
    """A body form: definitions are allowed here (and directly inside ``do``/``think``)."""
    if type(form) is PList and form.count:
        head = form.first
        args = list(form)[1:]
        if head is S_DEF or head is S_PERSIST:
            if not args or len(args) > 2 or type(args[0]) is not Symbol or args[0].ns is not None:
                raise _Impure
            name = args[0]
            if name in PURE_FUNCTIONS or name in HIGHER_ORDER:
                raise _Impure
            if len(args) == 2:
                _expr(args[1], frozenset(), out)
            elif head is S_PERSIST:
                _symbol(name, frozenset(), out)  # (persist name) means (persist name name)
            out.defines.append(name)
            return
        if head is S_DEFN:
            if not args or type(args[0]) is not Symbol or args[0].ns is not None:
                raise _Impure
            if args[0] in PURE_FUNCTIONS or args[0] in HIGHER_ORDER:
                raise _Impure
            out.defines.append(args[0])  # a function value: its body runs only when called
            return
        if head is S_DO:
            for x in args:
                _top(x, out)
            return
        if head is S_THINK:
            for x in args[1:]:
                _top(x, out)
            return
    _expr(form, frozenset(), out)


def _expr(form: Any, local: frozenset[Symbol], out: Facts) -> None:
    t = type(form)
    if t in _ATOMS:
        return
    if t is Symbol:
        _symbol(form, local, out)
        return
    if t is PVector or t is LineVector or t is VectorView or t is SpellSet:
        for x in form:
            _expr(x, local, out)
        return
    if t is SpellMap:
        for k, v in form.items():
            _expr(k, local, out)
            _expr(v, local, out)
        return
    if t is not PList:
        raise _Impure
    if not form.count:
        return
    head = form.first
    args = list(form)[1:]
    if head is S_QUOTE:
        return
    if head is S_FN or head is S_FN_STAR:
        return  # a function value; its body runs only when called
    if type(head) is Symbol and head not in local:
        if head in _PLAIN_FORMS:
            for x in args:
                _expr(x, local, out)
            return
        if head is S_LET:
            _let(args, local, out)
            return
        if head in PURE_FUNCTIONS:
            out.uses.add(head)
            for x in args:
                _expr(x, local, out)
            return
        if head in HIGHER_ORDER:
            out.uses.add(head)
            for x in args:
                _callable_arg(x, local, out)
            return
        raise _Impure
    if type(head) is Keyword or type(head) is PVector or type(head) is VectorView or type(head) is SpellMap or type(head) is SpellSet:
        _expr(head, local, out)
        for x in args:
            _expr(x, local, out)
        return
    raise _Impure


def _symbol(sym: Symbol, local: frozenset[Symbol], out: Facts) -> None:
    if sym in local:
        return
    if sym.ns is not None:
        raise _Impure
    if sym in PURE_FUNCTIONS:
        out.uses.add(sym)
    elif sym in HIGHER_ORDER:
        raise _Impure  # passed on as a value, it could be called with anything
    else:
        out.needs.add(sym)


def _callable_arg(x: Any, local: frozenset[Symbol], out: Facts) -> None:
    """An argument of a higher-order function: it may be called."""
    if type(x) is Symbol:
        if x in local:
            raise _Impure
        _symbol(x, local, out)
        if x not in PURE_FUNCTIONS:
            out.data_args.add(x)
        return
    if type(x) is PList and x.count and (x.first is S_FN or x.first is S_FN_STAR):
        _fn_body(x, local, out)
        return
    _expr(x, local, out)


def _fn_body(form: PList, local: frozenset[Symbol], out: Facts) -> None:
    """``(fn name? [params] body...)`` with plain symbol parameters: its body must be pure."""
    args = list(form)[1:]
    if args and type(args[0]) is Symbol:
        local = local | {args[0]}
        args = args[1:]
    params_form: Any = args[0] if args else None
    if not _is_pvector(params_form):
        raise _Impure
    params = list(params_form)
    if any(type(p) is not Symbol or p.ns is not None for p in params):
        raise _Impure
    inner = local | {p for p in params if p is not S_AMP}
    for x in args[1:]:
        _expr(x, inner, out)


def _let(args: list[Any], local: frozenset[Symbol], out: Facts) -> None:
    """``(let [name expr ...] body...)`` with plain symbol names only."""
    bindings_form: Any = args[0] if args else None
    if not _is_pvector(bindings_form) or len(bindings_form) % 2:
        raise _Impure
    bindings = list(bindings_form)
    for i in range(0, len(bindings), 2):
        name = bindings[i]
        if type(name) is not Symbol or name.ns is not None or name is S_AMP:
            raise _Impure
        _expr(bindings[i + 1], local, out)
        local = local | {name}
    for x in args[1:]:
        _expr(x, local, out)


def _is_pvector(x: Any) -> bool:
    return type(x) is PVector or type(x) is VectorView
