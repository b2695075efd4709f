"""Vectors the compiler proved to hold only longs (issue 13 item 3), remembered for ``reduce``.

``(reduce + v)`` over a 10⁵-element vector spends most of its fast path (``core/bulk.py``)
proving what the compiler often knew already: that every element is a long, and whether a
partial sum could overflow. When a loop vector built in a Python list (``spellc.analyze.linear``)
is proven to receive only longs — and, often, only longs ``>= 0`` (``spellc.analyze.elements``)
— the emitter freezes it with ``vec_of_longs`` instead of ``vec``, which records that fact
against the new vector. ``long_facts(v)`` reads it back.

Why a side table: the C vector type cannot carry extra fields (it cannot be subclassed), and
the vector is immutable, so a fact about its elements stays true for as long as it lives. The
table holds a weak reference per vector, keyed by ``id``; the entry goes when the vector dies,
and a lookup also compares the referent, so an ``id`` reused by another object never matches.
Short vectors are not recorded: checking them costs less than the record.

Legality: nothing here changes a value; the facts only let ``core/bulk.py`` skip a check whose
outcome is known (its docstring says what each fact allows). The switch that turns off every
optimisation (``spell_runtime.optimise``) makes the compiler emit plain ``vec`` again, so
nothing is recorded.
"""

from __future__ import annotations

import weakref
from typing import Any, Optional

from ..data.vector import vec

MIN_RECORDED = 256
"""Vectors shorter than this are not recorded (checking their elements is already cheap)."""

_FACTS: dict[int, tuple[Any, bool]] = {}
"""``id(vector)`` → (weak reference to it, whether every element is also ``>= 0``)."""


def _forget(key: int) -> Any:
    def drop(_ref: Any) -> None:
        _FACTS.pop(key, None)
    return drop


def vec_of_longs(items: list[Any], nonneg: bool) -> Any:
    """``vec(items)`` for a list the compiler proved holds only longs (``>= 0`` too if ``nonneg``)."""
    v = vec(items)
    if len(items) >= MIN_RECORDED:
        key = id(v)
        _FACTS[key] = (weakref.ref(v, _forget(key)), nonneg)
    return v


def long_facts(v: Any) -> Optional[bool]:
    """None when nothing is known about ``v``; False when every element is a long; True when every
    element is a long ``>= 0``."""
    entry = _FACTS.get(id(v))
    if entry is None or entry[0]() is not v:
        return None
    return entry[1]


__all__ = ["MIN_RECORDED", "long_facts", "vec_of_longs"]
