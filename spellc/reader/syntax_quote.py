"""Syntax-quote (`` `form ``) expanded at read time, as Clojure's reader does.

Spell has no syntax-quote of its own: the reference reads `` ` `` with the Clojure
reader, which qualifies symbols and rewrites collections into
``(clojure.core/seq (clojure.core/concat ...))``-style forms that then fail to
evaluate with ``Unbound symbol: clojure.core`` (language.md §2.8, A2). Producing
the same forms reproduces that behaviour, and the value of a syntax-quoted
symbol, without special cases in the evaluator.

The walk is iterative so a deeply nested syntax-quoted form cannot exhaust the
Python stack. Metadata is dropped by this reader, so the ``with-meta`` wrapping
Clojure adds for annotated forms never appears.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final

from spell_runtime.data.atoms import BigInt, Char, Keyword, Symbol
from spell_runtime.data.hashmap import SpellMap, SpellSet
from spell_runtime.data.plist import PList, plist
from spell_runtime.data.vector import is_vector
from spell_runtime.gensym import next_id

from .core_names import CLOJURE_CORE, DEFAULT_IMPORTS, SPECIAL_FORMS
from .errors import ReadFailure
from .tokens import CURRENT_NS

_CORE: Final = "clojure.core"
QUOTE: Final = Symbol("quote")
UNQUOTE: Final = Symbol("unquote", _CORE)
UNQUOTE_SPLICING: Final = Symbol("unquote-splicing", _CORE)
_SEQ: Final = Symbol("seq", _CORE)
_CONCAT: Final = Symbol("concat", _CORE)
_LIST: Final = Symbol("list", _CORE)
_APPLY: Final = Symbol("apply", _CORE)
_VECTOR: Final = Symbol("vector", _CORE)
_HASH_MAP: Final = Symbol("hash-map", _CORE)
_HASH_SET: Final = Symbol("hash-set", _CORE)

_SELF_QUOTING: Final = (Keyword, int, BigInt, float, Fraction, Decimal, Char, str)


def _head_is(form: Any, head: Symbol) -> bool:
    return type(form) is PList and form.count > 0 and form.first is head


def resolve_symbol(sym: Symbol) -> Symbol:
    """Clojure's ``Compiler.resolveSymbol`` in a fresh ``user`` namespace."""
    if sym.name.find(".") > 0 or sym.ns is not None:
        return sym
    if sym.name in CLOJURE_CORE:
        return Symbol(sym.name, _CORE)
    cls = DEFAULT_IMPORTS.get(sym.name)
    if cls is not None:
        return Symbol(cls)
    return Symbol(sym.name, CURRENT_NS)


def _quote_symbol(sym: Symbol, gensyms: dict[Symbol, Symbol]) -> Any:
    if sym in SPECIAL_FORMS_SYMS:
        return plist((QUOTE, sym))
    name = sym.name
    if sym.ns is None and name.endswith("#"):
        found = gensyms.get(sym)
        if found is None:
            found = Symbol(f"{name[:-1]}__{next_id()}__auto__")
            gensyms[sym] = found
        sym = found
    elif sym.ns is None and name.endswith("."):
        sym = Symbol(resolve_symbol(Symbol(name[:-1])).name + ".")
    elif sym.ns is None and name.startswith("."):
        pass
    elif sym.ns is not None and sym.ns in DEFAULT_IMPORTS:
        sym = Symbol(sym.name, DEFAULT_IMPORTS[sym.ns])
    else:
        sym = resolve_symbol(sym)
    return plist((QUOTE, sym))


SPECIAL_FORMS_SYMS: Final = frozenset(
    Symbol(n) if n != "clojure.core/import*" else Symbol("import*", _CORE) for n in SPECIAL_FORMS
)


def _atom(form: Any, gensyms: dict[Symbol, Symbol]) -> Any:
    t = type(form)
    if t is Symbol:
        return _quote_symbol(form, gensyms)
    if t is not bool and isinstance(form, _SELF_QUOTING):
        return form
    return plist((QUOTE, form))


def _children(form: Any) -> list[Any] | None:
    """The elements to expand for a collection, or None for an atom."""
    t = type(form)
    if t is PList:
        return list(form)
    if t is SpellMap:
        flat: list[Any] = []
        for k, v in form.items():
            flat.append(k)
            flat.append(v)
        return flat
    if t is SpellSet or is_vector(form):
        return list(form)
    return None


def _wrap(form: Any, concat_args: list[Any]) -> Any:
    t = type(form)
    body = plist([_SEQ, plist([_CONCAT, *concat_args])])
    if t is PList:
        return body
    if t is SpellMap:
        return plist((_APPLY, _HASH_MAP, body))
    if t is SpellSet:
        return plist((_APPLY, _HASH_SET, body))
    return plist((_APPLY, _VECTOR, body))


class Budget:
    """How many more expansion steps one read may spend on syntax-quote.

    Nested syntax-quotes grow about five-fold per level (Clojure's too), so a
    short text like ten backticks would otherwise run for minutes; the budget is
    shared by all syntax-quotes of one read so no text can spend more than it.
    """

    __slots__ = ("left",)

    def __init__(self, steps: int = 300_000) -> None:
        self.left = steps


def syntax_quote(form: Any, budget: Budget | None = None) -> Any:
    """The form Clojure's reader produces for `` `form ``."""
    if budget is None:
        budget = Budget()
    gensyms: dict[Symbol, Symbol] = {}
    results: list[Any] = []
    # Work items: (action, payload). Actions run in LIFO order.
    work: list[tuple[Callable[[Any], None], Any]] = []

    def expand(x: Any) -> None:
        if _head_is(x, UNQUOTE):
            results.append(x.rest.first)
            return
        if _head_is(x, UNQUOTE_SPLICING):
            raise ReadFailure("splice not in list")
        items = _children(x)
        if items is None:
            results.append(_atom(x, gensyms))
            return
        if type(x) is PList and x.count == 0:
            results.append(plist((_LIST,)))
            return
        work.append((build, (x, len(items))))
        for item in items[::-1]:  # not ``reversed(items)``: mypyc fails on it (an internal error)
            work.append((expand_item, item))

    def expand_item(item: Any) -> None:
        if _head_is(item, UNQUOTE):
            results.append(plist((_LIST, item.rest.first)))
        elif _head_is(item, UNQUOTE_SPLICING):
            results.append(item.rest.first)
        else:
            work.append((wrap_list, None))
            work.append((expand, item))

    def wrap_list(_: Any) -> None:
        results.append(plist((_LIST, results.pop())))

    def build(payload: Any) -> None:
        coll, n = payload
        args = results[len(results) - n:]
        del results[len(results) - n:]
        results.append(_wrap(coll, args))

    work.append((expand, form))
    left = budget.left
    while work:
        left -= 1
        if left < 0:
            budget.left = 0
            raise ReadFailure("Syntax-quote expansion too large")
        action, payload = work.pop()
        action(payload)
    budget.left = left
    return results[0]

