"""Spell equality (``=``) and the hash consistent with it (language.md §4.2–§4.3).

Numbers are equal only within a category — integer (long, BigInt), ratio,
floating (double, float), decimal — so ``(= 1 1.0)`` is false while
``(= 1 1N)`` is true; booleans equal only themselves; sequential values (lists,
seqs, vectors) compare element-wise regardless of kind; maps and sets ignore
order. Keywords and symbols are interned, so identity decides for them.

This module sits above the collection types and installs ``=`` and ``hash`` on them when it
loads (``install``), rather than the types importing it from inside their dunders (an import
per call, and an import circle; house-review.md change 6). ``data/__init__`` imports it second,
so every importer of ``spell_runtime.data`` gets collections that compare the Spell way.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from . import hashmap
from .atoms import BigInt, Char, Float32, Keyword, Symbol
from .hashmap import SpellMap, SpellSet
from .plist import PList
from .vector import LineVector, PVector, VectorView

_MASK = (1 << 61) - 1

_INT_TYPES = (int, BigInt)
_FLOAT_TYPES = (float, Float32)
_NUMBER_CATEGORY: dict[type, int] = {int: 1, BigInt: 1, Fraction: 2, float: 3, Float32: 3, Decimal: 4}
_SEQUENTIAL = (PList, PVector, LineVector, VectorView)


def is_sequential(x: Any) -> bool:
    t = type(x)
    return t is PVector or t is PList or t is LineVector or t is VectorView


def spell_eq(a: Any, b: Any) -> bool:
    """Clojure ``=`` on two Spell values."""
    ta = type(a)
    tb = type(b)
    if a is b:
        return not (ta is float and a != a)
    if ta is str or tb is str:
        return ta is tb and a == b
    ca = _NUMBER_CATEGORY.get(ta)
    if ca is not None:
        cb = _NUMBER_CATEGORY.get(tb)
        return ca == cb and bool(a == b)
    if ta is bool or tb is bool or a is None or b is None:
        return False
    if ta is Keyword or ta is Symbol or tb is Keyword or tb is Symbol:
        return False
    if ta is Char:
        return tb is Char and a.ch == b.ch
    if ta in _SEQUENTIAL:
        if tb not in _SEQUENTIAL or len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if x is not y and not spell_eq(x, y):
                return False
        return True
    if isinstance(a, SpellMap):
        if not isinstance(b, SpellMap) or len(a) != len(b):
            return False
        missing = _MISSING
        for k, v in a.items():
            w = b.get(k, missing)
            if w is missing or not (v is w or spell_eq(v, w)):
                return False
        return True
    if isinstance(a, SpellSet):
        if not isinstance(b, SpellSet) or len(a) != len(b):
            return False
        return all(b.contains(x) for x in a)
    return False


class _Missing:
    __slots__ = ()


_MISSING = _Missing()


def spell_hash(x: Any) -> int:
    """A hash consistent with ``spell_eq``."""
    t = type(x)
    if t is str or t is int or t is BigInt or t is Fraction:
        return hash(x)
    if x is None:
        return 0
    if t is bool:
        return 1231 if x else 1237
    if t is float or t is Float32:
        return hash(("f", float(x)))
    if t is Decimal:
        return hash(("d", hash(x)))
    if t is Keyword or t is Symbol or t is Char:
        return hash(x)
    if t in _SEQUENTIAL:
        h = 1
        for e in x:
            h = (31 * h + spell_hash(e)) & _MASK
        return h
    if isinstance(x, SpellMap):
        h = 0
        for k, v in x.items():
            h = (h + (spell_hash(k) ^ spell_hash(v))) & _MASK
        return h
    if isinstance(x, SpellSet):
        h = 0
        for e in x:
            h = (h + spell_hash(e)) & _MASK
        return h
    return object.__hash__(x)


def install() -> None:
    """Give the collection types Spell ``=`` and ``hash`` (subclasses such as ``SpellFn`` inherit them)."""
    for cls in (SpellMap, SpellSet, PList, LineVector, VectorView):
        cls.__eq__ = spell_eq  # type: ignore[method-assign]
        cls.__hash__ = spell_hash  # type: ignore[method-assign,assignment]
    hashmap.key_hash = spell_hash
    hashmap.key_equal = spell_eq


install()
