"""Vectors known to hold only longs, with bounds (issue 13 items 3–4), remembered for ``reduce``,
``map`` and ``filter``.

``(reduce + v)`` over a 10⁵-element vector spends most of its fast path (``core/bulk.py``)
proving what the compiler often knew already: that every element is a long, and whether a
partial sum could overflow. When a loop vector built in a Python list (``spellc.analyze.linear``)
is proven to receive only longs — and, often, only longs ``>= 0`` (``spellc.analyze.elements``)
— the emitter freezes it with ``vec_of_longs`` instead of ``vec``, which records that fact
against the new vector. ``range`` of longs records its vector with its exact least and greatest
element (``range_vector``), and the whole-vector ``map``/``filter`` paths of ``core/bulk.py``
record what they know of their results (``inc`` of longs below the top, ``filter`` of longs).
``long_bounds(v)`` reads a fact back: ``(lo, hi)`` with every element a long in ``[lo, hi]``.

Why a side table: the C vector type cannot carry extra fields (it cannot be subclassed), and
the vector is immutable, so a fact about its elements stays true for as long as it lives. The
table holds a weak reference per vector, keyed by ``id``; the entry goes when the vector dies,
and a lookup also compares the referent, so an ``id`` reused by another object never matches.
Short vectors are not recorded: checking them costs less than the record.

Legality: nothing here changes a value; the facts only let ``core/bulk.py`` skip a check whose
outcome is known (its docstring says what each fact allows). A fact is recorded only where it is
certain: proven by the compiler, or known from how the vector was made (a range's ends, ``x + 1``
of longs below ``LONG_MAX``, a subset of a known vector). The switch that turns off every
optimisation (``spell_runtime.optimise``) makes the compiler emit plain ``vec`` again and
``range`` record nothing (and ``bulk`` reads no facts).
"""

from __future__ import annotations

from typing import Any, Optional

from ..data.atoms import LONG_MAX, LONG_MIN
from ..data.sidetable import IdentitySideTable
from ..data.vector import vec
from ..optimise import ENABLED

MIN_RECORDED = 256
"""Vectors shorter than this are not recorded (checking their elements is already cheap)."""

Bounds = tuple[int, int]
"""``(lo, hi)``: every element is a long with ``lo <= x <= hi``."""

_FACTS: IdentitySideTable[Bounds] = IdentitySideTable()
"""What is known of each recorded vector (``data.sidetable``: by identity, dropped when it dies)."""


def record(v: Any, lo: int, hi: int) -> Any:
    """Remember that every element of the C vector ``v`` is a long in ``[lo, hi]``; returns ``v``."""
    if len(v) >= MIN_RECORDED:
        _FACTS.put(v, (lo, hi))
    return v


def vec_of_longs(items: list[Any], nonneg: bool) -> Any:
    """``vec(items)`` for a list the compiler proved holds only longs (``>= 0`` too if ``nonneg``)."""
    return record(vec(items), 0 if nonneg else LONG_MIN, LONG_MAX)


def range_vector(r: range) -> Any:
    """``vec(r)`` for a range of longs, recorded with its least and greatest element (when
    optimisations are on: off, nothing is recorded)."""
    v = vec(r)
    if ENABLED[0] and len(r):
        first, last = r[0], r[-1]
        record(v, min(first, last), max(first, last))
    return v


def long_bounds(v: Any) -> Optional[Bounds]:
    """``(lo, hi)`` when every element of ``v`` is known to be a long in ``[lo, hi]``; else None."""
    return _FACTS.get(v)


__all__ = ["MIN_RECORDED", "Bounds", "long_bounds", "range_vector", "record", "vec_of_longs"]
