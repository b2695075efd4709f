"""Maps, sets and associative updates (language.md §14.6).

Lookups go through ``data.lookup.get`` (the one ``get`` shared with keywords,
destructuring and the evaluator). Whole-collection builds — ``zipmap``,
``frequencies``, ``group-by``, ``select-keys``, ``into``, ``merge`` of big maps —
collect their pairs first and build the map once with ``SpellMap.from_pairs``
(whose "later duplicate replaces the value in place" rule is exactly the result
of assoc'ing the pairs in order), never an assoc per element on a growing map.

Nested updates (``assoc-in``, ``update-in``) walk the path iteratively, so a deep
path cannot exhaust Python's stack.

Host error texts are the JVM's (``contains? not supported on type: ...``, the
``ClassCastException`` of assoc'ing into a list...), via ``hostnames``.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..data.atoms import BigInt, Keyword
from ..data.hashmap import EMPTY_MAP, SpellMap, SpellSet, map_contains, normkey
from ..data.lookup import get as lookup_get
from ..data.plist import PList, plist
from ..data.pvec import pvector as _pvector
from ..data.sorted import Comparator, SortedMap
from ..data.sorted import sorted_map as build_sorted_map
from ..data.sorted import sorted_set as build_sorted_set
from ..data.text import utf16_len
from ..data.transient import TransientMap
from ..data.vector import LineVector, PVector, VectorView, view_assoc
from ..errors import HostError
from . import compare as _compare  # noqa: F401  (installs the natural order sorted-map and sorted-set use)
from .calling import call_fn, caller
from .hostnames import INT_MAX, INT_MIN, cast_error, class_name, is_integer, simple_class_name
from .registry import builtin
from .seqs import ABSENT, conj1, conj_all, seq_items, to_iter

_K_SPELL_FN = Keyword("fn", "spell")
_K_SPELL_FUTURE = Keyword("future", "spell")

get = builtin("get")(lookup_get)


@builtin("get-in")
def get_in(m: Any, ks: Any, not_found: Any = ABSENT) -> Any:
    if not_found is ABSENT:
        for k in to_iter(ks):
            m = lookup_get(m, k)
        return m
    for k in to_iter(ks):
        m = lookup_get(m, k, ABSENT)
        if m is ABSENT:
            return not_found
    return m


# -- assoc / dissoc -------------------------------------------------------------------


def assoc1(m: Any, k: Any, v: Any) -> Any:
    """``(assoc m k v)`` for one key."""
    t = type(m)
    if t is SpellMap:
        return m.assoc(k, v)
    if t is PVector or t is LineVector or t is VectorView:
        if t is LineVector:
            m = m.items
        if is_integer(k):
            n = len(m)
            if t is VectorView and 0 <= k <= n:
                return view_assoc(m, k, v)
            if 0 <= k < n:
                return m.set(k, v)
            if k == n:
                return m.append(v)
            raise HostError("")
        raise HostError("Key must be integer")
    if m is None:
        return EMPTY_MAP.assoc(k, v)
    if isinstance(m, SpellMap):
        return m.assoc(k, v)
    raise cast_error(m, "clojure.lang.Associative")


@builtin("assoc")
def assoc(m: Any, k: Any, v: Any, *kvs: Any) -> Any:
    if kvs and not len(kvs) % 2 and (m is None or type(m) is SpellMap):
        return (EMPTY_MAP if m is None else m).assoc_pairs((k, v, *kvs))  # one dict copy for a small map
    m = assoc1(m, k, v)
    if kvs:
        n = len(kvs) - 1
        for i in range(0, n, 2):
            m = assoc1(m, kvs[i], kvs[i + 1])
        if len(kvs) % 2:
            raise HostError("assoc expects even number of arguments after map/vector, found odd number")
    return m


def _path(ks: Any) -> list[Any]:
    """The keys of a ``[k & ks]`` path; an empty path is ``[nil]`` as in Clojure's destructuring."""
    keys = list(seq_items(ks))
    return keys if keys else [None]


@builtin("assoc-in")
def assoc_in(m: Any, ks: Any, v: Any) -> Any:
    keys = _path(ks)
    maps = [m]
    for k in keys[:-1]:
        maps.append(lookup_get(maps[-1], k))
    for i in range(len(keys) - 1, -1, -1):
        v = assoc1(maps[i], keys[i], v)
    return v


@builtin("dissoc")
def dissoc(m: Any, *ks: Any) -> Any:
    if not ks or m is None:
        return m
    if isinstance(m, SpellMap):
        for k in ks:
            m = m.dissoc(k)
        return m
    raise cast_error(m, "clojure.lang.IPersistentMap")


@builtin("disj")
def disj(s: Any, *xs: Any) -> Any:
    if not xs or s is None:
        return s
    if isinstance(s, SpellSet):
        for x in xs:
            s = s.disj(x)
        return s
    raise cast_error(s, "clojure.lang.IPersistentSet")


@builtin("update", env=True, host="update")
def update(D: Any, m: Any, k: Any, f: Any, *args: Any) -> Any:
    return assoc1(m, k, call_fn(D, f, (lookup_get(m, k),) + args))


@builtin("update-in", env=True, host="update-in")
def update_in(D: Any, m: Any, ks: Any, f: Any, *args: Any) -> Any:
    keys = _path(ks)
    maps = [m]
    for k in keys[:-1]:
        maps.append(lookup_get(maps[-1], k))
    v = call_fn(D, f, (lookup_get(maps[-1], keys[-1]),) + args)
    for i in range(len(keys) - 1, -1, -1):
        v = assoc1(maps[i], keys[i], v)
    return v


# -- membership and entries ----------------------------------------------------------


@builtin("contains?")
def contains(coll: Any, key: Any) -> bool:
    if type(coll) is SpellMap:
        return map_contains(coll, key)
    if isinstance(coll, (SpellMap, SpellSet)):
        return coll.contains(key)
    t = type(coll)
    if t is PVector or t is LineVector or t is VectorView:
        return is_integer(key) and 0 <= key < len(coll)
    if coll is None:
        return False
    if t is str:
        if _is_number(key):
            return 0 <= _int_value(key) < utf16_len(coll)
        raise HostError("contains? not supported on type: java.lang.String")
    raise HostError("contains? not supported on type: " + class_name(coll))


def _is_number(x: Any) -> bool:
    return type(x) is not bool and isinstance(x, (int, float, Fraction, Decimal))


def _int_value(x: Any) -> int:
    """Java ``Number.intValue()``: doubles saturate, integers keep their low 32 bits."""
    if isinstance(x, float):
        if x != x:
            return 0
        return INT_MAX if x >= INT_MAX else (INT_MIN if x <= INT_MIN else int(x))
    n = int(x) & 0xFFFFFFFF
    return n - (1 << 32) if n > INT_MAX else n


@builtin("find")
def find(m: Any, k: Any) -> Any:
    if m is None:
        return None
    if isinstance(m, SpellMap):
        e = m.entry(k)
        return None if e is None else _pvector(e)
    t = type(m)
    if t is PVector or t is LineVector or t is VectorView:
        if is_integer(k) and INT_MIN <= k <= INT_MAX and 0 <= k < len(m):
            return _pvector((k, m[k]))
        return None
    raise cast_error(m, "java.util.Map")


def _entry_part(e: Any, index: int, method: str) -> Any:
    t = type(e)
    if (t is PVector or t is LineVector or t is VectorView) and len(e) == 2:
        return e[index]
    if e is None:
        raise HostError(f'Cannot invoke "java.util.Map$Entry.{method}()" because "e" is null')
    raise cast_error(e, "java.util.Map$Entry")


@builtin("key")
def key(e: Any) -> Any:
    return _entry_part(e, 0, "getKey")


@builtin("val")
def val(e: Any) -> Any:
    return _entry_part(e, 1, "getValue")


def _entries_part(m: Any, index: int) -> Any:
    if isinstance(m, SpellMap):
        if not len(m):
            return None
        return plist(list(m.keys()) if index == 0 else list(m.values()), is_seq=True)
    if m is None:
        return None
    parts = [_entry_part(e, index, "getKey" if index == 0 else "getValue") for e in seq_items(m)]
    return plist(parts, is_seq=True) if parts else None


@builtin("keys")
def keys(m: Any) -> Any:
    return _entries_part(m, 0)


@builtin("vals")
def vals(m: Any) -> Any:
    return _entries_part(m, 1)


# -- whole-map operations -------------------------------------------------------------


@builtin("merge", host="merge")
def merge(*maps: Any) -> Any:
    if all(m is None or m is False for m in maps):
        return None
    acc = maps[0]
    for m in maps[1:]:
        acc = conj1(acc if acc is not None and acc is not False else EMPTY_MAP, m)
    return acc


def kv_pairs(m: Any) -> Any:
    """The (key, value) pairs ``reduce-kv`` visits: map entries, or vector indexes and items."""
    if m is None:
        return ()
    if isinstance(m, SpellMap):
        return m.items()
    t = type(m)
    if t is PVector or t is LineVector or t is VectorView:
        return enumerate(m)
    raise HostError("No implementation of method: :kv-reduce of protocol: "
                    "#'clojure.core.protocols/IKVReduce found for class: " + class_name(m))


@builtin("merge-with", env=True, host="merge-with")
def merge_with(D: Any, f: Any, *maps: Any) -> SpellMap:
    g = caller(D, f, 2)
    acc: SpellMap = EMPTY_MAP
    for m in maps:
        for k, v in kv_pairs(m):
            e = acc.entry(k)
            acc = acc.assoc(k, v if e is None else g(e[1], v))
    return acc


@builtin("select-keys")
def select_keys(m: Any, ks: Any) -> SpellMap:
    out = TransientMap()
    for k in to_iter(ks):
        e = find(m, k)
        if e is not None:
            out.assoc(e[0], e[1])
    return out.freeze()


def _kv_of(x: Any) -> tuple[Any, Any]:
    """Destructure ``x`` as ``[k v]`` the way the reference's ``(fn [[k v]] ...)`` does."""
    t = type(x)
    if t is PVector or t is LineVector or t is VectorView or t is PList:
        n = len(x)
        return (x[0] if n > 0 else None, x[1] if n > 1 else None)
    if x is None:
        return (None, None)
    if t is str:
        units = seq_items(x)
        assert isinstance(units, list)
        return (units[0] if units else None, units[1] if len(units) > 1 else None)
    raise HostError("nth not supported on this type: " + simple_class_name(x))


@builtin("update-keys", env=True, host="update-keys")
def update_keys(D: Any, m: Any, f: Any) -> SpellMap:
    g = caller(D, f, 1)
    pairs = [_kv_of(x) for x in seq_items(m)]
    return SpellMap.from_pairs([(g(k), v) for k, v in pairs])


@builtin("update-vals", env=True, host="update-vals")
def update_vals(D: Any, m: Any, f: Any) -> SpellMap:
    g = caller(D, f, 1)
    pairs = [_kv_of(x) for x in seq_items(m)]
    return SpellMap.from_pairs([(k, g(v)) for k, v in pairs])


@builtin("zipmap")
def zipmap(ks: Any, vs: Any) -> SpellMap:
    return TransientMap().assoc_all(zip(to_iter(ks), to_iter(vs), strict=False)).freeze()


@builtin("into", host="into")
def into(to: Any, frm: Any) -> Any:
    return conj_all(to, seq_items(frm))


@builtin("frequencies")
def frequencies(coll: Any) -> SpellMap:
    counts: dict[Any, list[Any]] = {}
    for x in seq_items(coll):
        k = normkey(x)
        c = counts.get(k)
        if c is None:
            counts[k] = [x, 1]
        else:
            c[1] += 1
    return SpellMap.adopt({nk: (c[0], c[1]) for nk, c in counts.items()})  # built privately, frozen once


@builtin("group-by", env=True, host="group-by")
def group_by(D: Any, f: Any, coll: Any) -> SpellMap:
    g = caller(D, f, 1)
    return grouped((g(x), x) for x in seq_items(coll))


def grouped(pairs: Iterable[tuple[Any, Any]]) -> SpellMap:
    """``group-by``'s map from its (key, element) pairs, in order: each key's first spelling, its
    elements in a vector, keys in order of first occurrence. Shared with the inline ``group-by``
    of compiled code (``spellc.emit.pipelines``), so both build the same map."""
    groups: dict[Any, tuple[Any, list[Any]]] = {}
    for k, x in pairs:
        nk = normkey(k)
        grp = groups.get(nk)
        if grp is None:
            groups[nk] = (k, [x])
        else:
            grp[1].append(x)
    return SpellMap.adopt({nk: (k, _pvector(xs)) for nk, (k, xs) in groups.items()})


# -- sorted collections ---------------------------------------------------------------


def _sign(r: Any) -> int:
    if r is None:
        raise HostError('Cannot invoke "java.lang.Number.intValue()" because "n" is null')
    t = type(r)
    if t is bool or not (t is int or t is BigInt or _is_number(r)):
        raise cast_error(r, "java.lang.Number")
    return 1 if r > 0 else (-1 if r < 0 else 0)


def spell_comparator(D: Any, f: Any) -> Comparator:
    """A Python comparator from a Spell comparator function (Clojure ``AFunction.compare``).

    A boolean result means "less than" (and the reverse call decides between
    greater and equal); a number counts by its sign (language.md §14.6).
    """
    g = caller(D, f, 2)

    def cmp(a: Any, b: Any) -> int:
        r = g(a, b)
        if r is True:
            return -1
        if r is False:
            back = g(b, a)
            return 1 if back is not None and back is not False else 0
        return _sign(r)

    return cmp


def _pairs_of(kvs: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    if len(kvs) % 2:
        from ..printer import display_str

        k = kvs[-1]
        raise HostError("No value supplied for key: " + ("null" if k is None else display_str(k)))
    return list(zip(kvs[::2], kvs[1::2], strict=True))


@builtin("sorted-map", host="sorted-map")
def sorted_map(*kvs: Any) -> SortedMap:
    return build_sorted_map(_pairs_of(kvs))


@builtin("sorted-set", host="sorted-set")
def sorted_set(*xs: Any) -> SpellSet:
    return build_sorted_set(xs)


@builtin("sorted-map-by", env=True, host="sorted-map-by")
def sorted_map_by(D: Any, cmp: Any, *kvs: Any) -> SortedMap:
    return build_sorted_map(_pairs_of(kvs), spell_comparator(D, cmp))


@builtin("sorted-set-by", env=True, host="sorted-set-by")
def sorted_set_by(D: Any, cmp: Any, *xs: Any) -> SpellSet:
    return build_sorted_set(xs, spell_comparator(D, cmp))
