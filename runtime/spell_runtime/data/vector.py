"""Spell vectors.

A vector is pyrsistent's C ``PVector`` used raw (architecture.md §3: wrapping a C
collection in a Python class costs ×2.6–×10 on hot operations). Map entries are
plain two-element vectors. The C type cannot be subclassed, so the one vector
that carries extra data — the line-numbered vector made by ``first-line``
(language.md §10.3.4) — is a small separate class, ``LineVector``; code that
accepts vectors asks ``is_vector`` and converts with ``as_pvector`` where it only
needs the elements.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Optional

from .pvec import pvector as _pvector

EMPTY_VECTOR: Any = _pvector()
PVector: type = type(EMPTY_VECTOR)
"""The C vector type (``pvectorc.PVector``)."""


def vec(items: Iterable[Any] = ()) -> Any:
    """A vector of ``items``."""
    return _pvector(items)


# (start line or None, number of rows) for each source segment of a numbered vector.
Segment = tuple[Optional[int], int]


class LineVector:
    """A vector whose rows remember the source lines they came from.

    Equality, hashing and ``pr-str`` treat it as the plain vector ``items``; the
    source renderer and bounded display print it back as a ``(first-line ...)``
    form, and ``subvec`` re-bases the segments.
    """

    __slots__ = ("items", "segments")

    items: Any
    segments: tuple[Segment, ...]

    def __init__(self, items: Any, segments: tuple[Segment, ...]) -> None:
        self.items = items
        self.segments = segments

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __getitem__(self, index: int) -> Any:
        return self.items[index]


    def row_groups(self) -> list[tuple[Optional[int], list[Any]]]:
        """(start line, rows) per position segment, as a ``(first-line ...)`` form lays them out;
        rows no segment covers get a nil start, and an empty vector keeps its first start."""
        rows = list(self.items)
        groups: list[tuple[Optional[int], list[Any]]] = []
        offset = 0
        for start, count in self.segments:
            if count <= 0:
                continue
            groups.append((start, rows[offset:offset + count]))
            offset += count
        if offset < len(rows):
            groups.append((None, rows[offset:]))
        if not groups:
            groups.append((self.segments[0][0] if self.segments else None, []))
        return groups

    def line_of(self, index: int) -> Optional[int]:
        """The source line of row ``index``, or None for a synthetic row."""
        offset = 0
        for start, count in self.segments:
            if index < offset + count:
                return None if start is None else start + (index - offset)
            offset += count
        return None

    def subvec(self, start: int, end: int) -> LineVector:
        """The rows ``[start, end)`` with their line numbers kept."""
        segments: list[Segment] = []
        offset = 0
        for seg_start, count in self.segments:
            lo = max(start, offset)
            hi = min(end, offset + count)
            if lo < hi:
                line = None if seg_start is None else seg_start + (lo - offset)
                prev = segments[-1] if segments else None
                # Run-length grouping (runtime.md §4.6.2): adjacent position-less rows share a segment too.
                if prev is not None and ((prev[0] is None and line is None) or
                                         (prev[0] is not None and line is not None and prev[0] + prev[1] == line)):
                    segments[-1] = (prev[0], prev[1] + hi - lo)
                else:
                    segments.append((line, hi - lo))
            offset += count
        return LineVector(self.items[start:end], tuple(segments))


def is_vector(x: object) -> bool:
    """True for every Spell vector kind."""
    t = type(x)
    return t is PVector or t is LineVector


def as_pvector(x: Any) -> Any:
    """The plain C vector behind any Spell vector."""
    return x.items if type(x) is LineVector else x
