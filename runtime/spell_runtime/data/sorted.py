"""Sorted maps and sets (``sorted-map``, ``sorted-set`` and their ``-by`` forms).

A sorted map must be a map everywhere — ``get``, ``=``, hashing, destructuring,
calling it as a function, printing — so ``SortedMap`` *is* a ``SpellMap``: it
keeps the entries in the inherited hash storage (so every inherited read works
unchanged and never calls the comparator) and adds ``_keys``, the stored keys in
comparator order, which drives iteration. Writes are overridden to keep
``_keys`` in order: a new key is placed by binary search with the comparator,
so a key the comparator cannot order raises the comparator's host error, as
Clojure's ``PersistentTreeMap`` does.

Keys are found by Spell equality, not by the comparator. The two disagree only
for keys that compare 0 without being ``=`` (``1`` and ``1.0``); for those the
write keeps the first key and replaces its value, as Clojure does, but ``get``
of the other spelling answers nil where Clojure would find the entry.

A sorted set is a plain ``SpellSet`` whose inner map is a ``SortedMap``:
``SpellSet`` iterates, conjs and disjs through its inner map, so ordering comes
for free and code that tests ``type(x) is SpellSet`` keeps treating it as a set.

Writes copy ``_keys`` (O(n)); sorted collections are rare and small in Spell
programs, and whole-collection builds (``sorted_map``, ``into``) sort once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cmp_to_key
from typing import Any, Optional

from .hashmap import SpellMap, SpellSet

Comparator = Callable[[Any, Any], int]
"""``cmp(a, b)``: negative, zero or positive, like Java's ``Comparator.compare``."""

_natural: Optional[Comparator] = None


def set_natural_compare(compare: Comparator) -> None:
    """Install Spell's ``compare`` as the default order (``core/compare.py`` does when it loads:
    it sits above the data types, which may not import it)."""
    global _natural
    _natural = compare


def natural_compare() -> Comparator:
    """Spell's ``compare``, the order of ``sorted-map`` and ``sorted-set`` without a comparator."""
    if _natural is None:
        raise RuntimeError("spell_runtime.core.compare was not loaded (it installs the natural order)")
    return _natural


def _copy_storage(dst: SpellMap, src: SpellMap) -> None:
    dst._d = src._d
    dst._r = src._r
    dst._h = src._h
    dst._ord = src._ord
    dst._n = src._n
    dst._next = src._next
    dst.span = None
    dst.child_spans = None


class SortedMap(SpellMap):
    """A Spell map that iterates its keys in comparator order."""

    __slots__ = ("_keys", "_cmp")

    _keys: tuple[Any, ...]
    _cmp: Comparator

    def __init__(self, cmp: Optional[Comparator] = None) -> None:
        """An empty sorted map ordered by ``cmp`` (default: ``compare``)."""
        super().__init__()
        self._keys = ()
        self._cmp = cmp if cmp is not None else natural_compare()

    @staticmethod
    def _adopt(base: SpellMap, keys: tuple[Any, ...], cmp: Comparator) -> SortedMap:
        out = SortedMap.__new__(SortedMap)
        _copy_storage(out, base)
        out._keys = keys
        out._cmp = cmp
        return out

    @staticmethod
    def build(pairs: Iterable[tuple[Any, Any]], cmp: Optional[Comparator] = None) -> SortedMap:
        """A sorted map of ``pairs`` with the semantics of assoc'ing them one by one."""
        comparator = cmp if cmp is not None else natural_compare()
        pairs = list(pairs)
        base = SpellMap.from_pairs(pairs)
        keys = sorted(base.keys(), key=cmp_to_key(comparator))
        for i in range(1, len(keys)):
            if comparator(keys[i - 1], keys[i]) == 0:
                # Distinct keys the comparator calls equal (1 and 1.0): replay the
                # writes in order so the first key and the last value win.
                out = SortedMap(comparator)
                for k, v in pairs:
                    out = out.assoc(k, v)
                return out
        return SortedMap._adopt(base, tuple(keys), comparator)

    @property
    def comparator(self) -> Comparator:
        """The ordering of this map (shared by everything built from it)."""
        return self._cmp

    def _plain(self) -> SpellMap:
        """A plain map sharing this map's entry storage (for the inherited writes)."""
        out = SpellMap.__new__(SpellMap)
        _copy_storage(out, self)
        return out

    def _search(self, k: Any) -> tuple[int, bool]:
        """(insertion index, whether ``_keys[index]`` compares equal to ``k``)."""
        keys = self._keys
        cmp = self._cmp
        lo, hi = 0, len(keys)
        while lo < hi:
            mid = (lo + hi) // 2
            c = cmp(keys[mid], k)
            if c < 0:
                lo = mid + 1
            elif c > 0:
                hi = mid
            else:
                return mid, True
        return lo, False

    # -- iteration in comparator order ---------------------------------------------
    def items(self) -> Iterator[tuple[Any, Any]]:
        get = SpellMap.get
        return ((k, get(self, k)) for k in self._keys)

    def keys(self) -> Iterator[Any]:
        return iter(self._keys)

    def values(self) -> Iterator[Any]:
        get = SpellMap.get
        return (get(self, k) for k in self._keys)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._keys)

    # -- persistent writes -----------------------------------------------------------
    def assoc(self, k: Any, v: Any) -> SortedMap:
        if self.contains(k):
            return SortedMap._adopt(self._plain().assoc(k, v), self._keys, self._cmp)
        i, same = self._search(k)
        if same:
            return SortedMap._adopt(self._plain().assoc(self._keys[i], v), self._keys, self._cmp)
        keys = self._keys[:i] + (k,) + self._keys[i:]
        return SortedMap._adopt(self._plain().assoc(k, v), keys, self._cmp)

    def dissoc(self, k: Any) -> SortedMap:
        e = self.entry(k)
        if e is None:
            return self
        stored = e[0]
        keys = self._keys
        idx = next(i for i, key in enumerate(keys) if key is stored)
        return SortedMap._adopt(self._plain().dissoc(k), keys[:idx] + keys[idx + 1:], self._cmp)


def sorted_map(pairs: Iterable[tuple[Any, Any]] = (), cmp: Optional[Comparator] = None) -> SortedMap:
    """A sorted map of ``pairs`` ordered by ``cmp`` (default ``compare``)."""
    return SortedMap.build(pairs, cmp)


def sorted_set(items: Iterable[Any] = (), cmp: Optional[Comparator] = None) -> SpellSet:
    """A set of ``items`` that iterates in ``cmp`` order (default ``compare``)."""
    return SpellSet(SortedMap.build(((x, x) for x in items), cmp))


def is_sorted_map(x: Any) -> bool:
    return type(x) is SortedMap


def is_sorted_set(x: Any) -> bool:
    return isinstance(x, SpellSet) and type(x._m) is SortedMap


def sorted_like(template: Any, items: Iterable[Any]) -> Any:
    """A sorted map (of pairs) or sorted set (of items) with the ordering of ``template``."""
    if type(template) is SortedMap:
        return SortedMap.build(items, template._cmp)
    m = template._m
    return SpellSet(SortedMap.build(((x, x) for x in items), m._cmp))
