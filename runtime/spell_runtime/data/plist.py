"""Spell lists and seqs as immutable cons cells.

A ``PList`` cell holds ``first``, ``rest`` (another cell, ending in ``EMPTY``) and
its ``count``, so ``rest`` and ``cons`` are O(1) and ``count`` is O(1). One class
serves both Clojure lists (``list?`` true) and other seqs (``concat``, ``cons``,
``rest`` of a vector...; ``list?`` false): the ``is_seq`` flag tells them apart.

Forms read from source are ``PList`` too; the reader records the list's source
``span`` (line, column, end line, end column; 1-based lines, 0-based columns) and
the spans of its children in ``child_spans`` (``None`` for a child that has none).
Symbols are interned and cannot carry their own position, so the parent carries it.

Views (issue 16 item 7): a cell may instead be a *view* of ``count`` elements of
an indexable source (a C vector, or an append-only Python list) from offset
``_off``. Its ``first`` and ``rest`` slots start unset; the first read of either
falls through to ``__getattr__``, which fills the slot from the source (so every
later read is a plain slot read, and an eager cell never pays anything). A view
is a ``PList`` like any other — ``type(x) is PList``, ``count``, ``is_seq``,
printing, equality and hashing cannot tell it from the cells ``plist`` would
build — but ``rest`` of a vector, ``seq``, ``butlast`` and ``concat`` (see
``core/seqviews.py``) become O(1) or O(new elements) instead of copying.

A Python-list source is *append-only*: elements below its length never change,
so every view of it stays valid while ``concat`` extends it in place for the view
that ends exactly at its end (``extend_view``), the way Go's ``append`` shares a
slice's array. That makes ``(concat acc [x])`` in a loop linear overall.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, Optional

Span = tuple[int, int, int, int]


class PList:
    """An immutable singly linked list cell (or the empty list)."""

    __slots__ = ("first", "rest", "count", "is_seq", "span", "child_spans", "_src", "_off", "_seq_chain")

    first: Any
    rest: PList
    count: int
    is_seq: bool
    span: Optional[Span]
    child_spans: Optional[tuple[Optional[Span], ...]]
    _src: Any  # a view's source (None for an eager cell)
    _off: int  # a view's offset into ``_src``
    _seq_chain: bool  # an eager cell known to be followed only by seq cells and then a view

    def __init__(self, first: Any, rest: PList | None, count: int, is_seq: bool = False) -> None:
        self.first = first
        self.rest = rest if rest is not None else self  # only EMPTY points at itself
        self.count = count
        self.is_seq = is_seq
        self.span = None
        self.child_spans = None
        self._src = None

    def __getattr__(self, name: str) -> Any:
        # Only reached when a slot is unset: the lazy ``first``/``rest`` of a view, or
        # ``_src``/``_off`` of an eager cell (which never sets them).
        if name == "first":
            src = object.__getattribute__(self, "_src")
            value = src[object.__getattribute__(self, "_off")] if self.count else None
            self.first = value
            return value
        if name == "rest":
            n = self.count
            tail = EMPTY if n <= 1 else _materialise_after(self, n)
            self.rest = tail
            return tail
        if name == "_src":
            return None
        if name == "_off":
            return 0
        if name == "_seq_chain":
            return False
        raise AttributeError(name)

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        # Python truthiness of a collection object; Spell truthiness never asks this.
        return True

    def __iter__(self) -> Iterator[Any]:
        src = self._src
        n = self.count
        if src is not None:
            return view_items(src, self._off, n)
        return self._iter_cells(n)

    def _iter_cells(self, n: int) -> Iterator[Any]:
        cell = self
        while n:
            src = cell._src
            if src is not None:  # the chain continues as a view: read its source directly
                yield from view_items(src, cell._off, n)
                return
            yield cell.first
            cell = cell.rest
            n -= 1

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
        src = self._src
        if src is not None:
            return src[self._off + index]
        cell = self
        while index:
            cell = cell.rest
            index -= 1
        return cell.first

    def cons(self, item: Any, is_seq: bool | None = None) -> PList:
        return PList(item, self, self.count + 1, self.is_seq if is_seq is None else is_seq)

    def tolist(self) -> list[Any]:
        return list(self)

    def with_span(self, span: Optional[Span], child_spans: Optional[tuple[Optional[Span], ...]] = None) -> PList:
        self.span = span
        self.child_spans = child_spans
        return self


def _make_empty() -> PList:
    empty = PList.__new__(PList)
    empty.first = None
    empty.rest = empty
    empty.count = 0
    empty.is_seq = False
    empty.span = None
    empty.child_spans = None
    empty._src = None
    return empty


EMPTY: PList = _make_empty()


def plist(items: Iterable[Any], is_seq: bool = False) -> PList:
    """A list (or, with ``is_seq``, a non-list seq) of ``items`` in order."""
    seq = items if isinstance(items, (list, tuple)) else list(items)
    result = EMPTY
    n = 0
    # Each cell filled in place: ``PList(item, ...)`` is a call of ``__init__`` per cell, most of the
    # cost of a short list (the reader builds one per list form: issue 12's cold compile).
    new = PList.__new__
    for item in reversed(seq):
        n += 1
        cell = new(PList)
        cell.first = item
        cell.rest = result
        cell.count = n
        cell.is_seq = is_seq
        cell.span = None
        cell.child_spans = None
        cell._src = None
        result = cell
    return result


VIEW_MIN = 32
"""From this length on, ``owned_plist`` presents its list as a view instead of building cells."""


def owned_plist(items: list[Any]) -> PList:
    """``plist(items)`` for a Python list the caller hands over and never changes again: a long one
    becomes a view of it (O(1) to make, C-speed to iterate). The reader's lists and the turn
    loop's programs go through here: a long session's program body is rebuilt every turn, and
    building and walking its cells was most of the turn's cost growth (issue 14)."""
    n = len(items)
    if n < VIEW_MIN:
        return plist(items)
    return view(items, 0, n, False)


def plist_of(*items: Any) -> PList:
    """``plist`` of the arguments."""
    return plist(items)


# -- views ------------------------------------------------------------------------------


_CHUNK = 32
"""How many cells one ``rest`` of a view materialises: walking a view by ``rest`` then
costs a plain slot read per step, and one ``__getattr__`` call per chunk."""


def _materialise_after(cell: PList, n: int) -> PList:
    """The next ``_CHUNK`` cells after view ``cell`` (of count ``n`` > 1), linked and filled,
    the last one left lazy; returns the first of them."""
    src = object.__getattribute__(cell, "_src")
    off = object.__getattribute__(cell, "_off")
    is_seq = cell.is_seq
    start = off + 1
    end = start + min(n - 1, _CHUNK)
    new = PList.__new__
    nxt: Optional[PList] = None
    for j in range(end - 1, start - 1, -1):
        c = new(PList)
        c.first = src[j]
        c.count = n - (j - off)
        c.is_seq = is_seq
        c.span = None
        c.child_spans = None
        c._src = src
        c._off = j
        if nxt is not None:
            c.rest = nxt
        nxt = c
    assert nxt is not None
    return nxt


def view(src: Any, off: int, count: int, is_seq: bool = True) -> PList:
    """A cell presenting ``src[off:off + count]`` (``count`` ≥ 1) without copying it.

    ``src`` must never change below ``off + count``: a C vector, a tuple, or a list
    that is only ever extended (see ``extend_view``).
    """
    cell = PList.__new__(PList)
    cell.count = count
    cell.is_seq = is_seq
    cell.span = None
    cell.child_spans = None
    cell._src = src
    cell._off = off
    return cell


def seq_chain_onto(items: list[Any], tail: PList) -> PList:
    """``items`` consed as seq cells onto ``tail`` (a view, or a chain this function built),
    each cell marked as being followed by seq cells only, so ``concat`` can share it again."""
    out = tail
    for x in reversed(items):
        out = PList(x, out, out.count + 1, True)
        out._seq_chain = True
    return out


def shares_as_seq_tail(cell: PList) -> bool:
    """True when every cell of ``cell`` is a seq cell, so it can end a ``concat`` result
    (an eager seq may end in list cells, ``(cons 1 '(2))``, which ``rest`` would expose)."""
    return cell.is_seq and (cell._src is not None or cell._seq_chain)


def view_items(src: Any, off: int, n: int) -> Iterator[Any]:
    """A lazy iterator over ``src[off:off + n]`` whose cost is O(elements consumed).

    Near the start of the source ``islice`` skips the offset at C speed; deeper in
    (a view reached by many ``rest``s) it would skip O(offset) elements — and a
    slice would copy O(n) — for consumers that read two (``take``, ``some``), which
    in a loop is quadratic again, so there each element is fetched by index."""
    if off == 0 and type(src) is not list and n == len(src):
        return iter(src)  # an immutable source: never extended under the iterator
    if off <= _SKIP:
        return islice(src, off, off + n)
    return map(src.__getitem__, range(off, off + n))


_SKIP = 64
"""Largest offset ``view_items`` skips with ``islice`` rather than indexing."""


def view_slice(cell: PList) -> Any:
    """The elements of a view as an indexable value (a list slice or C-vector slice), or None
    for an eager cell."""
    src = cell._src
    if src is None:
        return None
    off = cell._off
    if off == 0 and type(src) is not list and cell.count == len(src):
        return src
    return src[off:off + cell.count]


_append_lock = threading.Lock()


def extend_view(cell: PList, more: list[Any]) -> Optional[PList]:
    """A view of ``cell``'s elements followed by ``more``, sharing ``cell``'s source when the
    view ends at the end of an append-only list (amortised O(len(more))); None otherwise."""
    src = cell._src
    if type(src) is not list:
        return None
    off = cell._off
    end = off + cell.count
    with _append_lock:  # the end-of-list test and the extension must not interleave
        if end != len(src):
            return None
        src.extend(more)
    return view(src, off, cell.count + len(more), True)
