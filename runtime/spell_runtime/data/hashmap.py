"""Insertion-ordered persistent maps and sets with Spell key equality.

Order: maps and sets iterate in insertion order at every size (language.md Q6/Q7,
fixed); re-associating a key keeps its place, ``dissoc`` removes it.

Keys: Python's ``1 == 1.0 == True`` must not leak into Spell (``1`` and ``1N`` are
one key; ``1``, ``1.0`` and ``true`` are three). ``normkey`` leaves the common key
types raw (strings, longs, keywords, symbols, nil, ratios, chars — for these
Python's hash/eq already agree with Spell's) and wraps the rest in ``Key``,
which hashes and compares with Spell semantics.

Storage: a map of at most ``SMALL`` entries is a plain dict (normkey → (key,
value)) copied on write — cheapest for the small maps programs mostly build.
Larger maps written persistently keep an index normkey → position for lookup
plus a pvector of the (key, value) entries in insertion order, so each entry
costs one tuple (issue 13.3: the index used to hold a second (key, value,
position) tuple per entry). The index is an ``immutables.Map`` (C HAMT: O(log n)
persistent ``set``).

A large map *built whole* (``adopt``: a transient's freeze, ``from_pairs``,
``frequencies``...) is a third shape: it keeps the builder's dict as ``_d``,
exactly as a small map does, whatever its size (issue 13.3, session 5). Freezing
is then O(1) (no order vector, no index: building them was most of the cost of
freezing a 10⁴-entry map), every read — ``get``, the emitter's inline
``(get m :k)``/``(:k m)``, iteration, ``entry_chunks`` — takes the dict path, and
each entry is the builder's one tuple. The HAMT tier is built from the dict only
when the map is first written persistently (``_tier``), and kept on the map
(``_h``/``_ord`` beside ``_d``) so later writes from the same map share it; a
write never copies a large dict. So the tiers are: ``_d`` set and at most
``SMALL`` entries — small, copied on write; ``_d`` set and more — built whole,
written through its lazily built HAMT tier; ``_d`` None — the HAMT tier.
Nothing can observe the difference: the dict is owned by the map and never
changed, both answer ``get``/``in`` alike and iterate in the same (insertion)
order, and a write yields the same map either way. Re-associating a key
replaces its entry in the pvector and leaves the HAMT untouched; removing one
leaves a tombstone that iteration skips and a rebuild drops once tombstones
dominate.

Equality, hashing and printing sit *above* this module (house-review.md change 6): the
collection dunders (``__eq__``, ``__hash__``, ``__repr__``) are installed on ``SpellMap`` and
``SpellSet`` by ``equality.py`` and ``printer.py``, and ``Key`` reads the two functions it needs
from ``key_hash``/``key_equal``, which ``equality.py`` sets when it loads. ``data/__init__``
imports ``equality`` right after the atoms, so no map exists before they are set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from itertools import islice
from operator import itemgetter
from typing import Any, Optional

from .atoms import BigInt, Char, Keyword, Symbol
from .pvec import pvector

SMALL = 16


def _equality_not_installed(*values: Any) -> Any:
    raise RuntimeError("spell_runtime.data.equality was not loaded (import spell_runtime.data)")


# Spell hash and equality of wrapped keys: set by equality.py when it loads (module docstring).
key_hash: Callable[[Any], int] = _equality_not_installed
key_equal: Callable[[Any, Any], bool] = _equality_not_installed


class _Dead:
    """Marks a removed entry in a large map's insertion-order vector."""

    __slots__ = ()


_DEAD: Any = _Dead()

_RAW_KEY_TYPES = frozenset({str, int, BigInt, Keyword, Symbol, type(None), Fraction, Char})

_FIRST = itemgetter(0)

NO_ENTRY: tuple[None, None] = (None, None)
"""What a map's read of an absent key finds: ``m._r.get(k, NO_ENTRY)[1]`` is nil (the compiled
``(:k m)``/``(get m :k)``, ``spellc.emit.natives``)."""


class TierReader:
    """A HAMT-tier map's entries read as a dict-tier map's dict reads them: ``get(normkey, default)``
    is the ``(key, value)`` entry or ``default``. Every ``SpellMap`` holds one reader in ``_r`` (its
    dict, or this), so the emitter's inline keyword read is ``m._r.get(k, _NO_ENTRY)[1]`` behind the
    one test ``type(m) is _SpellMap``, with no tier test (issue 12: five ``ast`` nodes fewer at each
    of the most frequent call sites).  A removed key is absent from the index, so no tombstone is
    ever read."""

    __slots__ = ("_h", "_ord")

    def __init__(self, h: Any, order: Any) -> None:
        self._h = h
        self._ord = order

    def get(self, nk: Any, default: Any = None) -> Any:
        pos = self._h.get(nk)
        return default if pos is None else self._ord[pos]


class Key:
    """Wraps a map key whose Python hash/eq would disagree with Spell's."""

    __slots__ = ("value", "_hash")

    def __init__(self, value: Any) -> None:
        self.value = value
        self._hash = key_hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if type(other) is not Key:
            return False
        return self._hash == other._hash and key_equal(self.value, other.value)


def normkey(k: Any) -> Any:
    """The dict key under which Spell value ``k`` is stored."""
    if type(k) in _RAW_KEY_TYPES:
        return k
    return Key(k)


class SpellMap:
    """A persistent, insertion-ordered Spell map. Supports Python's Mapping reads."""

    __slots__ = ("_d", "_r", "_h", "_ord", "_n", "_next", "span", "child_spans", "__weakref__")

    _d: Optional[dict[Any, tuple[Any, Any]]]  # small maps and maps built whole: normkey → (key, value)
    _r: Any  # the entry reader: ``_d`` itself, or the HAMT tier's ``TierReader`` (see ``TierReader``)
    _h: Any  # the HAMT tier (or a built-whole map's, once written): immutables.Map, normkey → position in _ord
    _ord: Any  # pvector[(key, value) | _DEAD] in insertion order; _next = its length
    _n: int
    _next: int

    def __init__(self, d: Optional[dict[Any, tuple[Any, Any]]] = None) -> None:
        self._d = self._r = {} if d is None else d
        self._h = None
        self._ord = None
        self._n = len(self._d)
        self._next = 0
        self.span = None
        self.child_spans = None

    # -- construction -------------------------------------------------------------
    def _new(self, d: dict[Any, tuple[Any, Any]]) -> SpellMap:
        """A map of the same class as ``self`` holding ``d`` (small tier)."""
        if len(d) > SMALL:
            return SpellMap.adopt(d)
        out = SpellMap.__new__(SpellMap)
        out._d = out._r = d
        out._h = None
        out._ord = None
        out._n = len(d)
        out._next = 0
        out.span = None
        out.child_spans = None
        return out

    @staticmethod
    def adopt(d: dict[Any, tuple[Any, Any]]) -> SpellMap:
        """The map whose entries are ``d`` (normkey → (key, value), in order), taking ownership of
        ``d``: the caller must never change it again (``transient.TransientMap.freeze``). A large
        ``d`` is kept as it is, its HAMT tier built only when first written (module docstring)."""
        out = SpellMap.__new__(SpellMap)
        out._d = out._r = d
        out._h = None
        out._ord = None
        out._n = len(d)
        out._next = 0
        out.span = None
        out.child_spans = None
        return out

    @staticmethod
    def from_pairs(pairs: Iterable[tuple[Any, Any]]) -> SpellMap:
        """A map of the pairs in order; a later duplicate key replaces the value in place."""
        d: dict[Any, tuple[Any, Any]] = {}
        raw = _RAW_KEY_TYPES
        for k, v in pairs:
            nk = k if type(k) in raw else Key(k)
            old = d.get(nk)
            d[nk] = (k, v) if old is None else (old[0], v)
        return SpellMap.adopt(d)

    @staticmethod
    def from_distinct_pairs(pairs: list[tuple[Any, Any]]) -> SpellMap:
        """``from_pairs`` of pairs whose keys are distinct, built in C loops when every key is of a
        type that is its own map key (``normkey``): the snapshot clipper's maps of thousands of
        entries (issue 14)."""
        if len(pairs) > SMALL and _RAW_KEY_TYPES.issuperset(map(type, map(_FIRST, pairs))):
            d = dict(zip(map(_FIRST, pairs), pairs))
            if len(d) == len(pairs):
                return SpellMap.adopt(d)
        return SpellMap.from_pairs(pairs)

    def _tier(self) -> tuple[Any, Any]:
        """The large tier's (HAMT index, order pvector), for a persistent write; a map built whole
        (``_d`` of more than ``SMALL`` entries) builds them from its dict once and keeps them."""
        h = self._h
        if h is None:
            d = self._d
            assert d is not None and len(d) > SMALL
            import immutables  # here, not at import: ~1 ms of every start-up, for maps most programs never grow

            order = pvector(list(d.values()))
            h = immutables.Map(zip(d, range(len(d))))
            self._ord = order  # written before _h: a reader that finds _h finds _ord too
            self._next = len(d)
            self._h = h
        return h, self._ord

    # -- reads --------------------------------------------------------------------
    def get(self, k: Any, default: Any = None) -> Any:
        nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
        d = self._d
        if d is not None:
            e = d.get(nk)
            return default if e is None else e[1]
        pos = self._h.get(nk)
        return default if pos is None else self._ord[pos][1]

    def entry(self, k: Any) -> Optional[tuple[Any, Any]]:
        """``(stored key, value)`` for ``k``, or None when absent."""
        nk = normkey(k)
        if self._d is not None:
            return self._d.get(nk)
        pos = self._h.get(nk)
        return None if pos is None else self._ord[pos]

    def contains(self, k: Any) -> bool:
        nk = normkey(k)
        return (nk in self._d) if self._d is not None else (nk in self._h)

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return True

    def items(self) -> Iterator[tuple[Any, Any]]:
        """(key, value) pairs in insertion order."""
        if self._d is not None:
            return iter(self._d.values())
        return self._iter_large()

    def _iter_large(self) -> Iterator[tuple[Any, Any]]:
        dead = _DEAD
        for e in self._ord:
            if e is not dead:
                yield e

    def entry_chunks(self, size: int) -> Iterator[list[tuple[Any, Any]]]:
        """The (key, value) pairs in insertion order, as lists of at most ``size`` (at least one).

        For a reader that works a batch of entries at a time at C speed (the snapshot's walk of
        a large map, issue 14): a large map's chunks are slices of its order vector, with no
        Python step per entry.
        """
        d = self._d
        if d is not None:
            if len(d) <= size:
                yield list(d.values())
                return
            values = iter(d.values())
            while part := list(islice(values, max(1, size))):
                yield part
            return
        order = self._ord
        dead = _DEAD
        step = max(1, size)
        holes = self._next != self._n  # removed entries left tombstones in the order vector
        for start in range(0, self._next, step):
            part = list(order[start:start + step])
            if holes:
                part = [e for e in part if e is not dead]
            if part:
                yield part

    def keys(self) -> Iterator[Any]:
        return (k for k, _ in self.items())

    def values(self) -> Iterator[Any]:
        return (v for _, v in self.items())

    def __iter__(self) -> Iterator[Any]:
        return self.keys()

    def __getitem__(self, k: Any) -> Any:
        e = self.entry(k)
        if e is None:
            raise KeyError(k)
        return e[1]

    def __contains__(self, k: object) -> bool:
        return self.contains(k)

    # -- writes (persistent) --------------------------------------------------------
    def assoc(self, k: Any, v: Any) -> SpellMap:
        nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
        d = self._d
        if d is not None and len(d) <= SMALL:
            old = d.get(nk)
            if old is None:
                nd = d.copy()
                nd[nk] = (k, v)
                if len(nd) > SMALL:
                    return SpellMap.adopt(nd)
            else:
                if old[1] is v:
                    return self if type(self) is SpellMap else self._new(d.copy())
                nd = d.copy()
                nd[nk] = (old[0], v)
            return self._new(nd)
        h, order = self._tier()
        pos = h.get(nk)
        out = SpellMap.__new__(SpellMap)
        out._d = None
        out.span = None
        out.child_spans = None
        if pos is None:
            out._h = h.set(nk, self._next)
            out._ord = order.append((k, v))
            out._n = self._n + 1
            out._next = self._next + 1
        else:
            old = order[pos]
            out._h = h
            out._ord = order.set(pos, (old[0], v))
            out._n = self._n
            out._next = self._next
        out._r = TierReader(out._h, out._ord)
        return out

    def assoc_pairs(self, kvs: tuple[Any, ...]) -> SpellMap:
        """``assoc`` of the pairs ``k1 v1 k2 v2 ...`` (an even number of items) in order.

        A small map of exactly this class copies its dict once and writes every pair into the
        copy, where one ``assoc`` per pair would copy it and make a map each time (issue 13.3:
        the builtin ``assoc`` and the compiled keyword ``assoc``, ``spell_runtime.keyword_assoc``).
        The steps are ``assoc``'s: a new key goes at the end as ``(key, value)``, a present key
        keeps its place and its stored spelling; when every pair leaves its value in place the
        result is the map itself, as the chain of single steps would be. The result is made by
        ``adopt``, so past ``SMALL`` entries it is a map built whole where the steps would give
        the HAMT tier, which no program can tell apart (module docstring). Any other map steps.
        """
        d = self._d
        if type(self) is SpellMap and d is not None and len(d) <= SMALL:
            nd = d.copy()
            same = True
            for i in range(0, len(kvs), 2):
                k = kvs[i]
                v = kvs[i + 1]
                nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
                old = nd.get(nk)
                if old is None:
                    nd[nk] = (k, v)
                    same = False
                elif old[1] is not v:
                    nd[nk] = (old[0], v)
                    same = False
            return self if same else SpellMap.adopt(nd)
        m = self
        for i in range(0, len(kvs), 2):
            m = m.assoc(kvs[i], kvs[i + 1])
        return m

    def dissoc(self, k: Any) -> SpellMap:
        nk = normkey(k)
        d = self._d
        if d is not None and len(d) <= SMALL:
            if nk not in d:
                return self if type(self) is SpellMap else self._new(d.copy())
            nd = d.copy()
            del nd[nk]
            return self._new(nd)
        if d is not None and nk not in d:
            return self
        h, order = self._tier()
        pos = h.get(nk)
        if pos is None:
            return self
        n = self._n - 1
        if n <= SMALL // 2 or self._next > 2 * n + 32:  # small again, or mostly tombstones: rebuild
            return SpellMap.from_pairs(p for p in self.items() if normkey(p[0]) != nk)
        out = SpellMap.__new__(SpellMap)
        out._d = None
        out.span = None
        out.child_spans = None
        out._h = h.delete(nk)
        out._n = n
        out._next = self._next
        out._ord = order.set(pos, _DEAD)
        out._r = TierReader(out._h, out._ord)
        return out


EMPTY_MAP = SpellMap()


def map_get(m: SpellMap, k: Any, default: Any = None) -> Any:
    """``m.get(k, default)`` as a plain function: one Python frame per lookup instead of two
    for the callers that already know ``type(m) is SpellMap`` (``get``, keyword calls)."""
    nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
    d = m._d
    if d is not None:
        e = d.get(nk)
        return default if e is None else e[1]
    pos = m._h.get(nk)
    return default if pos is None else m._ord[pos][1]


def map_contains(m: SpellMap, k: Any) -> bool:
    """``m.contains(k)`` as a plain function (see ``map_get``)."""
    nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
    d = m._d
    return (nk in d) if d is not None else (nk in m._h)


def spell_map(*kvs: Any) -> SpellMap:
    """``spell_map(k1, v1, k2, v2, ...)``."""
    return SpellMap.from_pairs(zip(kvs[::2], kvs[1::2]))


class SpellSet:
    """A persistent, insertion-ordered Spell set."""

    __slots__ = ("_m", "span", "child_spans")

    _m: SpellMap

    def __init__(self, m: SpellMap | None = None) -> None:
        self._m = EMPTY_MAP if m is None else m
        self.span = None
        self.child_spans = None

    @staticmethod
    def from_items(items: Iterable[Any]) -> SpellSet:
        return SpellSet(SpellMap.from_pairs((x, x) for x in items))

    def contains(self, x: Any) -> bool:
        return self._m.contains(x)

    def get(self, x: Any, default: Any = None) -> Any:
        e = self._m.entry(x)
        return default if e is None else e[0]

    def conj(self, x: Any) -> SpellSet:
        if self._m.contains(x):
            return self
        return SpellSet(self._m.assoc(x, x))

    def disj(self, x: Any) -> SpellSet:
        if not self._m.contains(x):
            return self
        return SpellSet(self._m.dissoc(x))

    def __len__(self) -> int:
        return len(self._m)

    def __bool__(self) -> bool:
        return True

    def __iter__(self) -> Iterator[Any]:
        return self._m.keys()

    def __contains__(self, x: object) -> bool:
        return self._m.contains(x)


EMPTY_SET = SpellSet()
