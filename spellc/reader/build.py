"""Turning what the reader collected into Spell values, with Clojure's checks.

Map and set literals reject duplicates the way Clojure's ``createWithCheck``
does, and name the same key in the message: array maps (up to 8 entries)
report the first key that has a later duplicate, hash maps and sets the first
repeat. Hashing a key recurses into it, so a pathologically deep key is turned
into a reader error instead of a ``RecursionError``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from spell_runtime.data.atoms import BigInt, Keyword, Symbol
from spell_runtime.data.equality import spell_eq
from spell_runtime.data.hashmap import SpellMap, SpellSet
from spell_runtime.data.plist import PList, Span
from spell_runtime.data.positions import set_span, span_of
from spell_runtime.data.vector import EMPTY_VECTOR, is_vector

from .errors import ReadFailure
from .hosttext import host_text


def _first_repeat(items: list[Any]) -> Any:
    seen = SpellSet()
    for x in items:
        if seen.contains(x):
            return x
        seen = seen.conj(x)
    return items[-1]  # pragma: no cover - only called when a duplicate exists


def _duplicate_in_map(keys: list[Any]) -> Any:
    if len(keys) <= 8:
        for i, k in enumerate(keys):
            for other in keys[i + 1:]:
                if spell_eq(k, other):
                    return k
    return _first_repeat(keys)


def make_map(items: list[Any], even_message: str) -> SpellMap:
    """The map of ``k1 v1 k2 v2 ...``; ``even_message`` names the literal in the odd-count error."""
    if len(items) & 1:
        raise ReadFailure(even_message)
    try:
        keys = items[0::2]
        m = SpellMap.from_pairs(zip(keys, items[1::2], strict=True))
        if len(m) != len(keys):
            raise ReadFailure("Duplicate key: " + host_text(_duplicate_in_map(keys)))
    except RecursionError:
        raise ReadFailure("Map key nested too deeply") from None
    return m


def make_set(items: list[Any]) -> SpellSet:
    """The set of ``items``, which must be distinct."""
    try:
        s = SpellSet.from_items(items)
        if len(s) != len(items):
            raise ReadFailure("Duplicate key: " + host_text(_first_repeat(items)))
    except RecursionError:
        raise ReadFailure("Set element nested too deeply") from None
    return s


def qualify_keys(items: list[Any], ns: str) -> list[Any]:
    """``#:ns{...}``: unqualified keyword/symbol keys get ``ns``; the ``_`` namespace means none."""
    out = list(items)
    for i in range(0, len(out), 2):
        key = out[i]
        t = type(key)
        if t is Keyword or t is Symbol:
            if key.ns is None:
                out[i] = t(key.name, ns)
            elif key.ns == "_":
                out[i] = t(key.name)
    return out


def java_int_value(x: Any) -> int:
    """``Number.intValue()``: integers wrap to 32 bits, floating values saturate."""
    if type(x) is float or type(x) is Fraction:
        f = float(x)
        if f != f:
            return 0
        if f >= 2**31 - 1:
            return 2**31 - 1
        if f <= -(2**31):
            return -(2**31)
        return int(f)
    value = int(x)
    return ((value + 2**31) % 2**32) - 2**31


def is_number(x: Any) -> bool:
    t = type(x)
    return t is int or t is BigInt or t is float or t is Fraction or t is Decimal


def is_imeta(x: Any) -> bool:
    """Can carry metadata in Clojure: symbols and collections."""
    t = type(x)
    return t is Symbol or t is PList or t is SpellMap or t is SpellSet or is_vector(x)


def stamp(form: Any, span: Span) -> None:
    """Give forms the reader synthesized (syntax-quote output) the span of the text they came from."""
    todo = [form]
    while todo:
        f = todo.pop()
        t = type(f)
        if t is PList:
            if f.count == 0:
                continue
        elif not (t is SpellMap or t is SpellSet or (is_vector(f) and f is not EMPTY_VECTOR)):
            continue
        if span_of(f) is not None:
            continue
        if t is SpellMap:
            kids = [x for kv in f.items() for x in kv]
        else:
            kids = list(f)
        set_span(f, span, tuple(span_of(k) or span for k in kids))
        todo.extend(kids)
