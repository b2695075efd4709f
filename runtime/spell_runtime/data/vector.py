"""Spell vectors.

A vector is pyrsistent's C ``PVector`` used raw (architecture.md §3: wrapping a C
collection in a Python class costs ×2.6–×10 on hot operations). Map entries are
plain two-element vectors. The C type cannot be subclassed, so the one vector
that carries extra data — the line-numbered vector made by ``first-line``
(language.md §10.3.4) — is a small separate class, ``LineVector``; code that
accepts vectors asks ``is_vector`` and converts with ``as_pvector`` where it only
needs the elements.

The third kind, ``VectorView``, is what makes ``pop``, ``drop``, ``drop-last`` and
``subvec`` (and ``drop-while``, ``split-at``, ``split-with``) cheap inside loops (issue 16 item 7). The C vector has no offset and no
O(1) pop: its slices, ``delete`` and evolvers all copy, so
``(loop [xs v] (if (empty? xs) ... (recur (pop xs) ...)))`` copied the remaining
elements at every step (quadratic). A view is a backing C vector plus a
``[start, end)`` window, like Clojure's ``subvec`` (``APersistentVector$SubVector``):
making one is O(1), and ``count``, ``empty?``, ``first``, ``nth``, ``peek``,
iteration and ``=`` read the backing in place, while taking a view of a view
re-bases onto the same backing (``subvector``). ``conj``/``assoc``/``into`` onto a
view set one slot of a new backing (``view_assoc``: the C type's ``set``/``append``
share all but one path, O(log n)), so a pop-then-conj stack loop shares too.
Everything else converts once (``as_pvector``, O(n)), so no code that needs the C
type ever sees a view: every runtime and compiler type test of a vector names the
three kinds (or asks ``is_vector``), the bulk fast paths of ``reduce``/``map``/
``filter`` copy a view into a C vector first (C speed; they are O(n) anyway), and
the emitter's inline fast paths test ``type(v) is PVector`` and fall back to the
library function for the other two kinds; the analyzer never types a view as a
vector (``analyze/types.py``). To Spell a view *is* a vector: same ``=`` and hash,
printing, snapshots, ``vector?``, ``type``/``class`` text, map-key use,
destructuring and errors; pickling gives the plain C vector.

Python code handed Spell values (Python-module namespaces, exported fns,
``eval_string``) may get a view: it reads like the C vector (``len``, indexing,
iteration, the C vector's methods) and ``as_pvector`` gives the C type. Python's
own ``==`` is Spell's from the view's side only: the C type's ``__eq__`` answers
False for anything but a C vector or list, as it already does for ``LineVector``;
Spell code compares with ``spell_eq`` and hashes with ``spell_hash``, never those.

Chosen over the alternative of keeping plain C vectors and rewriting the loop
pattern in the compiler: that only helps loops the analysis recognises, while a
view makes the builtins themselves O(1) wherever they are called.

Memory: a view keeps its whole backing vector alive (Clojure's ``subvec`` does
too). To keep that bounded, ``subvector`` copies instead of viewing when the
result would be small (``_COPY_BELOW`` elements, where a copy costs about what a
view does) or under a quarter of its backing, so a view never pins more than
four times its own size; in a ``pop`` loop the copies this triggers shrink
geometrically (n/4 + n/16 + ...), which keeps the loop linear.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
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


_PVECTOR_METHODS = frozenset(
    {"append", "count", "delete", "evolver", "extend", "index", "mset", "remove", "set", "tolist", "transform"})


class VectorView:
    """The elements ``backing[start:end]`` of a C vector, without copying them (see the module docstring).

    Reads (``len``, indexing, iteration) work in place; a slice is a plain C vector (a copy,
    as the C type's own slices are); any other C-vector method (``append``, ``set``,
    ``tolist``...) runs on a converted copy and returns what the C type returns, so code
    written for the C type gets the same results from a view. ``=`` and hash are Spell's,
    installed by ``equality.py`` as for the other collections.
    """

    __slots__ = ("backing", "start", "end", "__weakref__")

    backing: Any
    start: int
    end: int

    def __init__(self, backing: Any, start: int, end: int) -> None:
        self.backing = backing
        self.start = start
        self.end = end

    def __len__(self) -> int:
        return self.end - self.start

    def __iter__(self) -> Iterator[Any]:
        if self.start == 0:
            return islice(self.backing, self.end)
        return map(self.backing.__getitem__, range(self.start, self.end))

    def __reversed__(self) -> Iterator[Any]:
        return map(self.backing.__getitem__, range(self.end - 1, self.start - 1, -1))

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int:
            n = self.end - self.start
            i = index + n if index < 0 else index
            if 0 <= i < n:
                return self.backing[self.start + i]
            raise IndexError("Index out of range: %d" % index)
        if type(index) is slice:
            a, b, step = index.indices(self.end - self.start)
            if step == 1:
                return self.backing[self.start + a:self.start + max(a, b)]
        return self.pvector()[index]

    def pvector(self) -> Any:
        """The elements as a plain C vector (a copy: O(n))."""
        return self.backing[self.start:self.end]

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the view lacks: the C vector's methods run on a copy; any other
        # name is missing, as on the C type (``getattr(v, "span", None)`` must not copy).
        if name in _PVECTOR_METHODS:
            return getattr(self.pvector(), name)
        raise AttributeError(name)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_pvector, (list(self),))

    def __repr__(self) -> str:
        return repr(self.pvector())


_COPY_BELOW = 32
"""Results shorter than this are copied rather than viewed (a copy this small costs what a view does)."""


def subvector(v: Any, start: int, end: int) -> Any:
    """The vector of ``v[start:end]`` (``0 <= start <= end <= len(v)``, checked by the caller) for a
    C vector or view ``v``: a view sharing ``v``'s backing, or a plain copy when that is as cheap or
    when a view would pin a backing over four times its size (module docstring)."""
    if type(v) is VectorView:
        backing, offset = v.backing, v.start
    else:
        backing, offset = v, 0
    n = end - start
    size = len(backing)
    if n == size:
        return backing
    if n < _COPY_BELOW or 4 * n < size:
        return backing[offset + start:offset + end]
    return VectorView(backing, offset + start, offset + end)


def view_assoc(v: VectorView, index: int, x: Any) -> Any:
    """``(assoc v index x)`` for ``0 <= index <= len(v)`` (checked by the caller) without copying:
    the backing's ``set``/``append`` share all but one path of it (O(log n)), so a loop that pops
    and conjs (a stack) stays linear."""
    backing, start, at = v.backing, v.start, v.start + index
    new = backing.append(x) if at == len(backing) else backing.set(at, x)
    end = max(v.end, at + 1)
    if start == 0 and end == len(new):
        return new
    return VectorView(new, start, end)


def is_vector(x: object) -> bool:
    """True for every Spell vector kind."""
    t = type(x)
    return t is PVector or t is LineVector or t is VectorView


def as_pvector(x: Any) -> Any:
    """The plain C vector behind any Spell vector (a view is copied: O(n))."""
    t = type(x)
    if t is LineVector:
        return x.items
    if t is VectorView:
        return x.pvector()
    return x
