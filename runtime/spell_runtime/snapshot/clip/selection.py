"""Keeping the head and tail of a vector with one truthful gap (runtime.md §4.5.4, §4.6).

A plain vector's gap is the marker ``{:spell/omitted W}``; a numbered vector's
gap is a position-less row ``... [omitted W rows; source A..B] ...`` and every
kept row keeps its own source line. ``W`` sums the weights of the omitted
elements, so markers and gap rows left by earlier clipping are counted as the
elements they already stand for (decision D1).

Summing weights means looking at omitted elements, and an omitted range can be
ten million elements long. ``Allowance`` bounds that work: pass 1 shares one
allowance (the snapshot's grace, in elements) across the whole traversal and
counts omitted elements beyond it as weight 1 — exact for every omitted range
that a snapshot could itself have produced, and flat in the input size. Pass 2
only clips values pass 1 already bounded and counts exactly.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Optional

from ...data.hashmap import SpellMap
from ...data.vector import LineVector, PVector, Segment, vec
from .shapes import UNKNOWN, add_weight, element_weight, gap_row, marker, parse_gap_row, row_weight


class Allowance:
    """How many omitted elements may still be inspected for their weight (-1: no limit)."""

    __slots__ = ("left",)

    left: int

    def __init__(self, left: int) -> None:
        self.left = left

    def take(self, m: int) -> int:
        """Reserve up to ``m`` inspections; returns how many were granted."""
        if self.left < 0:
            return m
        granted = min(m, self.left)
        self.left -= granted
        return granted


class Selection:
    """The selected elements of a vector and, for a numbered vector, their positions."""

    __slots__ = ("items", "positions", "fallback")

    items: list[Any]
    positions: Optional[list[Optional[int]]]
    fallback: Optional[int]

    def __init__(self, items: list[Any], positions: Optional[list[Optional[int]]], fallback: Optional[int]) -> None:
        self.items = items
        self.positions = positions
        self.fallback = fallback

    def unchanged(self, v: Any) -> bool:
        """True when ``v`` (all of whose elements were selected) already has exactly these positions."""
        if self.positions is None:
            return type(v) is PVector
        return type(v) is LineVector and group_positions(self.positions, self.fallback) == v.segments

    def build(self, rows: list[Any]) -> Any:
        """A vector of ``rows`` (one per selected element) carrying the selection's positions."""
        if self.positions is None:
            return vec(rows)
        return LineVector(vec(rows), group_positions(self.positions, self.fallback))


def group_positions(positions: list[Optional[int]], fallback: Optional[int]) -> tuple[Segment, ...]:
    """Run-length segments of per-row positions (runtime.md §4.6.2); no rows → ``(fallback, 0)``."""
    segments: list[Segment] = []
    for p in positions:
        if segments:
            start, count = segments[-1]
            if (start is None and p is None) or (start is not None and p is not None and p == start + count):
                segments[-1] = (start, count + 1)
                continue
        segments.append((p, 1))
    if not segments:
        return ((fallback, 0),)
    return tuple(segments)


def positions_between(segments: tuple[Segment, ...], a: int, b: int) -> list[Optional[int]]:
    """Source positions of rows ``[a, b)``; rows no segment covers have none."""
    out: list[Optional[int]] = []
    offset = 0
    for start, count in segments:
        if offset >= b:
            break
        lo = max(a, offset)
        hi = min(b, offset + count)
        for i in range(lo, hi):
            out.append(None if start is None else start + (i - offset))
        offset += count
    while len(out) < b - a:
        out.append(None)
    return out


def first_line_of(v: LineVector) -> Optional[int]:
    return v.segments[0][0] if v.segments else None


def _plain_weight(v: Any, a: int, b: int, allowance: Allowance, marks: Optional[list[tuple[int, int]]]) -> int:
    m = b - a
    if marks is not None:
        total = m
        for i, w in marks:
            if a <= i < b:
                total = add_weight(total, UNKNOWN if w == UNKNOWN else w - 1)
        return total
    look = allowance.take(m)
    total = m - look
    for x in islice(iter(v), a, a + look):
        total = add_weight(total, element_weight(x) if isinstance(x, SpellMap) else 1)
    return total


def _unpositioned(segments: tuple[Segment, ...], n: int, a: int, b: int) -> list[tuple[int, int]]:
    """The ranges of rows in ``[a, b)`` without a source position."""
    out: list[tuple[int, int]] = []
    offset = 0
    for start, count in segments:
        if offset >= b:
            break
        if start is None:
            lo = max(a, offset)
            hi = min(b, offset + count)
            if lo < hi:
                out.append((lo, hi))
        offset += count
    if offset < b:
        out.append((max(a, offset), b))
    return out


def _numbered_weight(v: LineVector, a: int, b: int, allowance: Allowance) -> int:
    total = b - a
    items = v.items
    for lo, hi in _unpositioned(v.segments, len(v), a, b):
        look = allowance.take(hi - lo)
        for i in range(lo, lo + look):
            w = row_weight(items[i])
            total = add_weight(total, UNKNOWN if w == UNKNOWN else w - 1)
    return total


def _gap_end(v: LineVector, i: int, pos: Optional[int], first: bool) -> Optional[int]:
    """The source line a gap reports for its first (or last) omitted row ``i``."""
    if pos is not None:
        return pos
    parsed = parse_gap_row(v.items[i])
    if parsed is None:
        return None
    return parsed[1] if first else parsed[2]


def select(v: Any, head: int, tail: int, allowance: Allowance, marks: Optional[list[tuple[int, int]]]) -> Selection:
    """Elements ``[0, head)``, a gap for ``[head, n - tail)`` when non-empty, then ``[n - tail, n)``.

    ``marks``, when known, lists the (index, weight) of every element of a plain
    vector whose weight is not 1, so the gap's weight needs no scan.
    """
    n = len(v)
    cut = n - tail
    if type(v) is LineVector:
        items = v.items
        kept = list(items[:head])
        positions = positions_between(v.segments, 0, head)
        if head < cut:
            edge = positions_between(v.segments, head, head + 1) + positions_between(v.segments, cut - 1, cut)
            a = _gap_end(v, head, edge[0], True)
            b = _gap_end(v, cut - 1, edge[1], False)
            kept.append(gap_row(_numbered_weight(v, head, cut, allowance), a, b))
            positions.append(None)
        if tail:
            kept.extend(items[cut:])
            positions.extend(positions_between(v.segments, cut, n))
        return Selection(kept, positions, first_line_of(v))
    kept = list(v[:head])
    if head < cut:
        kept.append(marker(_plain_weight(v, head, cut, allowance, marks)))
    if tail:
        kept.extend(v[cut:])
    return Selection(kept, None, None)
