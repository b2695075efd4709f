"""Spell lists and seqs as immutable cons cells.

A ``PList`` cell holds ``first``, ``rest`` (another cell, ending in ``EMPTY``) and
its ``count``, so ``rest`` and ``cons`` are O(1) and ``count`` is O(1). One class
serves both Clojure lists (``list?`` true) and other seqs (``concat``, ``cons``,
``rest`` of a vector...; ``list?`` false): the ``is_seq`` flag tells them apart.

Forms read from source are ``PList`` too; the reader records the list's source
``span`` (line, column, end line, end column; 1-based lines, 0-based columns) and
the spans of its children in ``child_spans`` (``None`` for a child that has none).
Symbols are interned and cannot carry their own position, so the parent carries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Optional

Span = tuple[int, int, int, int]


class PList:
    """An immutable singly linked list cell (or the empty list)."""

    __slots__ = ("first", "rest", "count", "is_seq", "span", "child_spans")

    first: Any
    rest: PList
    count: int
    is_seq: bool
    span: Optional[Span]
    child_spans: Optional[tuple[Optional[Span], ...]]

    def __init__(self, first: Any, rest: PList | None, count: int, is_seq: bool = False) -> None:
        self.first = first
        self.rest = rest if rest is not None else self  # only EMPTY points at itself
        self.count = count
        self.is_seq = is_seq
        self.span = None
        self.child_spans = None

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        # Python truthiness of a collection object; Spell truthiness never asks this.
        return True

    def __iter__(self) -> Iterator[Any]:
        cell = self
        n = self.count
        while n:
            yield cell.first
            cell = cell.rest
            n -= 1

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
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

    def __eq__(self, other: object) -> bool:
        from .equality import spell_eq

        return spell_eq(self, other)

    def __hash__(self) -> int:
        from .equality import spell_hash

        return spell_hash(self)

    def __repr__(self) -> str:
        from ..printer import pr_str

        return pr_str(self)


def _make_empty() -> PList:
    empty = PList.__new__(PList)
    empty.first = None
    empty.rest = empty
    empty.count = 0
    empty.is_seq = False
    empty.span = None
    empty.child_spans = None
    return empty


EMPTY: PList = _make_empty()


def plist(items: Iterable[Any], is_seq: bool = False) -> PList:
    """A list (or, with ``is_seq``, a non-list seq) of ``items`` in order."""
    seq = items if isinstance(items, (list, tuple)) else list(items)
    result = EMPTY
    n = 0
    for item in reversed(seq):
        n += 1
        result = PList(item, result, n, is_seq)
    return result


def plist_of(*items: Any) -> PList:
    """``plist`` of the arguments."""
    return plist(items)
