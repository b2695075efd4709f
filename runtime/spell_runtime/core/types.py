"""Type predicates and ``type`` (language.md §3.1, §14.5).

Spell functions, macros and future handles *are* maps, so the predicates that
Spell changed from Clojure look at their marker keys: ``map?`` is false for a
map with a truthy ``:spell/fn`` or ``:spell/future``; ``fn?`` is true for Spell
functions and for host functions and closures (plain Python callables and
``EnvFn``), but not for keywords, symbols or collections, which are callable in
Spell without being functions. ``type`` answers with a string.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..data.atoms import BigInt, Float32, Keyword, Symbol
from ..data.fn import SpellFn, is_truthy
from ..data.hashmap import SpellMap, SpellSet
from ..data.plist import PList
from ..data.vector import LineVector, PVector, VectorView
from .hostnames import class_name
from .registry import EnvFn, builtin

_K_SPELL_FN = Keyword("fn", "spell")
_K_SPELL_FUTURE = Keyword("future", "spell")
_NUMBER_TYPES = frozenset({int, BigInt, float, Float32, Fraction, Decimal})


def is_fn(x: Any) -> bool:
    """``fn?``: Spell functions, host builtins and host closures."""
    t = type(x)
    if t is SpellFn or t is EnvFn:
        return True
    if isinstance(x, SpellMap):
        return is_truthy(x.get(_K_SPELL_FN))
    return callable(x) and t is not Keyword and t is not Symbol and not isinstance(x, type)


@builtin("string?")
def is_string(x: Any) -> bool:
    return type(x) is str


@builtin("keyword?")
def is_keyword(x: Any) -> bool:
    return type(x) is Keyword


@builtin("symbol?")
def is_symbol(x: Any) -> bool:
    return type(x) is Symbol


@builtin("list?")
def is_list(x: Any) -> bool:
    return type(x) is PList and not x.is_seq


@builtin("seq?")
def is_seq(x: Any) -> bool:
    return type(x) is PList


@builtin("vector?")
def is_vector(x: Any) -> bool:
    t = type(x)
    return t is PVector or t is LineVector or t is VectorView


@builtin("set?")
def is_set(x: Any) -> bool:
    return isinstance(x, SpellSet)


@builtin("map?", host="map?")
def is_map(x: Any) -> bool:
    if type(x) is SpellFn:
        return False
    return isinstance(x, SpellMap) and not is_truthy(x.get(_K_SPELL_FN)) and not is_truthy(x.get(_K_SPELL_FUTURE))


@builtin("coll?")
def is_coll(x: Any) -> bool:
    t = type(x)
    return t is PVector or t is PList or t is LineVector or t is VectorView or isinstance(x, (SpellMap, SpellSet))


@builtin("sequential?")
def is_sequential(x: Any) -> bool:
    t = type(x)
    return t is PVector or t is PList or t is LineVector or t is VectorView


@builtin("fn?", host="fn?")
def is_fn_builtin(x: Any) -> bool:
    return is_fn(x)


def type_name(x: Any) -> str:
    """The string ``(type x)`` returns."""
    if x is None:
        return "nil"
    t = type(x)
    if t is str:
        return "string"
    if t in _NUMBER_TYPES:
        return "number"
    if t is bool:
        return "boolean"
    if t is Keyword:
        return "keyword"
    if t is Symbol:
        return "symbol"
    if t is PVector or t is LineVector or t is VectorView:
        return "vector"
    if isinstance(x, SpellMap):
        return "function" if t is SpellFn or is_truthy(x.get(_K_SPELL_FN)) else "map"
    if isinstance(x, SpellSet):
        return "set"
    if t is PList:
        return "list"
    if is_fn(x):
        return "function"
    return "class " + class_name(x)


@builtin("type", host="type")
def type_(x: Any) -> str:
    return type_name(x)
