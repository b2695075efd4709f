"""Transient (mutable, single-owner) builders that freeze into persistent vectors and maps
(issue 13 item 3; architecture.md §3).

Building a persistent value one ``conj``/``assoc`` at a time copies (small maps)
or allocates a new trie path (vectors, large maps) per step. When the value being
built is private to one builder — a builtin's loop, or (later) a compiled loop
whose accumulator never escapes before the loop ends — the same value can be
built in a Python list or dict and frozen once:

* ``TransientVector``: ``conj`` appends to a list; ``freeze()`` makes the C vector.
* ``TransientMap``: ``assoc``/``dissoc`` write a dict ``normkey → (key, value)``
  (Python dicts keep insertion order and keep a re-assigned key in place, which
  is exactly Spell's map order, language.md §4.5); ``freeze()`` hands the dict to
  ``SpellMap`` without copying, at any size (a large map built whole keeps it and
  builds its HAMT tier only when first written: ``hashmap``'s docstring).

Ownership rule (what makes this unobservable): a transient is never itself a
Spell value — no Spell code can see it, only its frozen result — and after
``freeze()`` it refuses further use (``RuntimeError``: a runtime bug, never a
Spell error), so a frozen value can never change underneath a program. A
compiled loop that uses one must freeze it at every exit, including a failure,
so an error's env shows the persistent value built so far.

Entry points for builtins and the emitter: ``TransientVector(initial)``,
``.conj(x)``, ``.extend(xs)``, ``.freeze()``; ``TransientMap(initial)``,
``.assoc(k, v)``, ``.dissoc(k)``, ``.get(k, default)``, ``.contains(k)``,
``.freeze()``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional

from .hashmap import _FIRST, _RAW_KEY_TYPES, EMPTY_MAP, Key, SpellMap, normkey
from .pvec import pvector


class TransientVector:
    """A list being built into a vector by one owner."""

    __slots__ = ("_items",)

    _items: Optional[list[Any]]

    def __init__(self, initial: Any = None) -> None:
        """Start empty, or from a C vector's elements (``initial`` is copied, never changed)."""
        self._items = [] if initial is None else initial.tolist()

    def _live(self) -> list[Any]:
        items = self._items
        if items is None:
            raise RuntimeError("transient vector used after freeze()")
        return items

    def conj(self, x: Any) -> TransientVector:
        self._live().append(x)
        return self

    def extend(self, xs: Iterable[Any]) -> TransientVector:
        self._live().extend(xs)
        return self

    def __len__(self) -> int:
        return len(self._live())

    def freeze(self) -> Any:
        """The persistent vector of everything conj'ed; the transient is unusable afterwards."""
        items = self._live()
        self._items = None
        return pvector(items)


class TransientMap:
    """A dict being built into a ``SpellMap`` by one owner, with Spell key equality."""

    __slots__ = ("_d",)

    _d: Optional[dict[Any, tuple[Any, Any]]]

    def __init__(self, initial: Optional[SpellMap] = None) -> None:
        """Start empty, or from a map's entries in its order (``initial`` is never changed)."""
        if initial is None or not len(initial):
            self._d = {}
        elif initial._d is not None:  # small or built whole: its dict already maps normkey → entry
            self._d = initial._d.copy()
        else:
            self._d = {normkey(k): (k, v) for k, v in initial.items()}

    def _live(self) -> dict[Any, tuple[Any, Any]]:
        d = self._d
        if d is None:
            raise RuntimeError("transient map used after freeze()")
        return d

    def assoc(self, k: Any, v: Any) -> TransientMap:
        """Set ``k`` to ``v``; an existing key keeps its place and its first spelling (``1`` vs ``1N``)."""
        d = self._live()
        nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
        old = d.get(nk)
        d[nk] = (k, v) if old is None else (old[0], v)
        return self

    def assoc_all(self, pairs: Iterable[tuple[Any, Any]]) -> TransientMap:
        """``assoc`` of every (key, value) 2-tuple in order. A pair whose key is new becomes the entry
        itself (tuples are immutable: one tuple per entry, not two, issue 13.3); into an empty
        transient, a list of pairs whose keys are distinct and of the raw key types is taken in C
        loops (``SpellMap.from_distinct_pairs``' test)."""
        d = self._live()
        if not d and type(pairs) is list and len(pairs) > 1 and _RAW_KEY_TYPES.issuperset(map(type, map(_FIRST, pairs))):
            fresh = dict(zip(map(_FIRST, pairs), pairs))
            if len(fresh) == len(pairs):  # distinct keys: exactly what the loop below would build
                self._d = fresh
                return self
        raw = _RAW_KEY_TYPES
        for p in pairs:
            k = p[0]
            nk = k if type(k) in raw else Key(k)
            old = d.get(nk)
            d[nk] = p if old is None else (old[0], p[1])
        return self

    def dissoc(self, k: Any) -> TransientMap:
        self._live().pop(normkey(k), None)
        return self

    def get(self, k: Any, default: Any = None) -> Any:
        e = self._live().get(normkey(k))
        return default if e is None else e[1]

    def contains(self, k: Any) -> bool:
        return normkey(k) in self._live()

    def __len__(self) -> int:
        return len(self._live())

    def freeze(self) -> SpellMap:
        """The persistent map; the transient is unusable afterwards (its dict now belongs to the map)."""
        d = self._live()
        self._d = None
        if not d:
            return EMPTY_MAP
        return SpellMap.adopt(d)


__all__ = ["TransientMap", "TransientVector"]
