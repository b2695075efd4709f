"""Seqable values, and the builtins that take them apart and build them (language.md §14.6–§14.7).

Every sequence builtin accepts anything Clojure can ``seq``: nil, vectors
(``LineVector`` included), lists and seqs, maps (as ``[k v]`` entry vectors),
sets and strings (one ``Char`` per UTF-16 code unit). ``to_iter``/``seq_items``
are the single place that knows this; anything else is the host error
``Don't know how to create ISeq from: <class>``, raised eagerly (before any
element is produced) so that a failing builtin never half-runs.

Result kinds follow the reference, because ``list?``/``seq?`` and printing
observe them: Spell's own sequence functions return vectors, while ``rest``,
``next``, ``seq``, ``cons``, ``concat``, ``list*`` and ``butlast`` return seqs
(``PList`` cells with ``is_seq``); ``cons`` onto nil and ``conj`` onto a list
keep list-ness exactly where Clojure does. Only ``subvec`` keeps a
``LineVector``'s line numbers; every other vector operation returns a plain
vector (runtime.md decision D7).

``pop``, ``subvec`` (and ``drop``/``drop-last`` in ``slicing``) return a ``VectorView``
sharing the vector they take apart, and ``conj`` onto a view shares its backing too, so
shrinking a vector in a loop is linear (issue 16 item 7; ``data/vector.py``). A view is a
plain vector to Spell; the functions here read it in place where that is O(1) per element.

The hot builtins (``first``, ``count``, ``nth``, ``conj``) test the C vector and
the cons cell before anything else and take fixed arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..data.atoms import Char
from ..data.hashmap import SpellMap, SpellSet
from ..data.plist import EMPTY, PList, extend_view, plist, seq_chain_onto, shares_as_seq_tail, view, view_slice
from ..data.pvec import pvector as _pvector
from ..data.sorted import SortedMap, sorted_like
from ..data.text import to_units, utf16_len
from ..data.transient import TransientMap
from ..data.vector import EMPTY_VECTOR, LineVector, PVector, Segment, VectorView, subvector, view_assoc
from ..errors import HostError
from .hostnames import cast_error, int_cast, not_seqable, simple_class_name
from .registry import builtin


class _Absent:
    """Marks an argument that was not passed (nil is a value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()


def _make_empty_seq() -> PList:
    cell = PList.__new__(PList)
    cell.first = None
    cell.rest = EMPTY
    cell.count = 0
    cell.is_seq = True
    cell.span = None
    cell.child_spans = None
    return cell


EMPTY_SEQ: PList = _make_empty_seq()
"""The empty non-list seq (``(concat)``): prints ``()``, ``seq?`` true, ``list?`` false."""

_ASCII_CHARS = tuple(Char(chr(i)) for i in range(128))


def chars_of(s: str) -> list[Char]:
    """The characters of ``s`` as the JVM sees them: one ``Char`` per UTF-16 code unit."""
    cache = _ASCII_CHARS
    return [cache[o] if (o := ord(c)) < 128 else Char(c) for c in to_units(s)]


def char_at(s: str, i: int) -> Char:
    """The ``Char`` at UTF-16 index ``i`` (caller checks the bounds)."""
    c = to_units(s)[i] if not s.isascii() else s[i]
    o = ord(c)
    return _ASCII_CHARS[o] if o < 128 else Char(c)


def entry(k: Any, v: Any) -> Any:
    """A map entry: the two-element vector ``[k v]``."""
    return _pvector((k, v))


def to_iter(x: Any) -> Iterator[Any]:
    """An iterator over the elements of seqable ``x``; raises the ISeq host error otherwise."""
    t = type(x)
    if t is PVector or t is PList:
        return iter(x)
    if x is None:
        return iter(())
    if t is LineVector:
        return iter(x.items)
    if t is VectorView:
        return iter(x)
    if isinstance(x, SpellMap):
        return (_pvector(kv) for kv in x.items())
    if isinstance(x, SpellSet):
        return iter(x)
    if t is str:
        return iter(chars_of(x))
    raise not_seqable(x)


def seq_items(x: Any) -> Iterable[Any]:
    """The elements of seqable ``x`` as a re-iterable collection (no copy for vectors, lists, sets)."""
    t = type(x)
    if t is PVector or t is PList:
        return x  # type: ignore[no-any-return]
    if x is None:
        return ()
    if t is LineVector:
        return x.items  # type: ignore[no-any-return]
    if t is VectorView:
        return x  # type: ignore[no-any-return]
    if isinstance(x, SpellMap):
        return [_pvector(kv) for kv in x.items()]
    if isinstance(x, SpellSet):
        return x
    if t is str:
        return chars_of(x)
    raise not_seqable(x)


def as_indexable(x: Any) -> Any:
    """The elements of seqable ``x`` as something with ``len``, indexing and slicing."""
    t = type(x)
    if t is PVector or t is VectorView:
        return x
    if t is LineVector:
        return x.items
    if t is PList and x._src is not None:
        return view_slice(x)
    return list(seq_items(x))


def is_sequential(x: Any) -> bool:
    """Clojure ``sequential?``: lists, seqs and vectors."""
    t = type(x)
    return t is PVector or t is PList or t is LineVector or t is VectorView


def seq_of(items: list[Any]) -> Any:
    """A non-list seq of ``items``, or nil when there are none (what ``seq`` returns)."""
    return view(items, 0, len(items), True) if items else None


def seq_view(items: Any, start: int) -> PList:
    """The non-list seq of ``items[start:]`` as an O(1) view (``EMPTY`` when nothing is left).

    ``items`` must be immutable or an append-only list nobody else extends (a fresh copy)."""
    n = len(items) - start
    return view(items, start, n, True) if n > 0 else EMPTY


# -- access ---------------------------------------------------------------------------


@builtin("first")
def first(coll: Any) -> Any:
    t = type(coll)
    if t is PVector or t is VectorView:
        return coll[0] if len(coll) else None
    if t is PList:
        return coll.first
    if coll is None:
        return None
    if t is str:
        return char_at(coll, 0) if coll else None
    for x in to_iter(coll):
        return x
    return None


@builtin("second")
def second(coll: Any) -> Any:
    t = type(coll)
    if t is PVector or t is VectorView:
        return coll[1] if len(coll) > 1 else None
    if t is PList:
        return coll.rest.first if coll.count > 1 else None
    if coll is None:
        return None
    it = to_iter(coll)
    next(it, None)
    return next(it, None)


@builtin("last")
def last(coll: Any) -> Any:
    t = type(coll)
    if t is PVector or t is LineVector or t is VectorView:
        return coll[-1] if len(coll) else None
    if t is PList and coll._src is not None:
        return coll[coll.count - 1]
    result = None
    for x in to_iter(coll):
        result = x
    return result


@builtin("ffirst", host="ffirst")
def ffirst(coll: Any) -> Any:
    return first(first(coll))


@builtin("rest")
def rest(coll: Any) -> Any:
    t = type(coll)
    if t is PList:
        return coll.rest if coll.count else EMPTY
    if t is PVector:
        return seq_view(coll, 1)
    if coll is None:
        return EMPTY
    if t is LineVector:
        return seq_view(coll.items, 1)
    if t is VectorView:
        return view(coll.backing, coll.start + 1, len(coll) - 1, True) if len(coll) > 1 else EMPTY
    return seq_view(list(seq_items(coll)), 1)


@builtin("next", host="next")
def next_(coll: Any) -> Any:
    r = rest(coll)
    return r if r.count else None


@builtin("seq", host="seq")
def seq(coll: Any) -> Any:
    t = type(coll)
    if t is PList:
        return coll if coll.count else None
    if coll is None:
        return None
    if t is PVector:
        return view(coll, 0, len(coll), True) if len(coll) else None
    if t is LineVector:
        return seq(coll.items)
    if t is VectorView:
        return view(coll.backing, coll.start, len(coll), True) if len(coll) else None
    return seq_of(list(seq_items(coll)))


@builtin("nth", host="nth")
def nth(coll: Any, index: Any, not_found: Any = ABSENT) -> Any:
    t = type(coll)
    if t is PVector or t is LineVector or t is VectorView:
        if type(index) is int and 0 <= index < len(coll):
            return coll[index]
        i = int_cast(index)
        if 0 <= i < len(coll):
            return coll[i]
        if not_found is ABSENT:
            raise HostError("")
        return not_found
    i = int_cast(index)
    if t is PList:
        if 0 <= i < coll.count:
            return coll[i]
        if not_found is ABSENT:
            raise HostError("")
        return not_found
    if coll is None:
        return None if not_found is ABSENT else not_found
    if t is str:
        n = utf16_len(coll)
        if 0 <= i < n:
            return char_at(coll, i)
        if not_found is ABSENT:
            raise HostError(f"index {i}, length {n}")
        return not_found
    raise HostError("nth not supported on this type: " + simple_class_name(coll))


@builtin("count")
def count(coll: Any) -> int:
    t = type(coll)
    if t is PVector:
        return len(coll)
    if t is PList:
        return coll.count  # type: ignore[no-any-return]
    if coll is None:
        return 0
    if t is str:
        return utf16_len(coll)
    if t is LineVector or t is VectorView or isinstance(coll, (SpellMap, SpellSet)):
        return len(coll)
    raise HostError("count not supported on this type: " + simple_class_name(coll))


@builtin("empty?")
def is_empty(coll: Any) -> bool:
    t = type(coll)
    if t is PVector or t is str or t is LineVector or t is VectorView:
        return len(coll) == 0
    if t is PList:
        return coll.count == 0  # type: ignore[no-any-return]
    if coll is None:
        return True
    if isinstance(coll, (SpellMap, SpellSet)):
        return len(coll) == 0
    raise not_seqable(coll)


@builtin("not-empty")
def not_empty(coll: Any) -> Any:
    return None if is_empty(coll) else coll


@builtin("peek")
def peek(coll: Any) -> Any:
    t = type(coll)
    if t is PVector or t is LineVector or t is VectorView:
        return coll[-1] if len(coll) else None
    if t is PList:
        return coll.first
    if coll is None:
        return None
    raise cast_error(coll, "clojure.lang.IPersistentStack")


@builtin("pop")
def pop(coll: Any) -> Any:
    t = type(coll)
    if t is PVector or t is LineVector or t is VectorView:
        n = len(coll)
        if not n:
            raise HostError("Can't pop empty vector")
        return subvector(coll.items if t is LineVector else coll, 0, n - 1)
    if t is PList:
        if not coll.count:
            raise HostError("Can't pop empty list")
        return coll.rest
    if coll is None:
        return None
    raise cast_error(coll, "clojure.lang.IPersistentStack")


@builtin("butlast")
def butlast(coll: Any) -> Any:
    t = type(coll)
    if t is PList and coll._src is not None:
        return view(coll._src, coll._off, coll.count - 1, True) if coll.count > 1 else None
    items = as_indexable(coll)
    if type(items) is VectorView:
        return view(items.backing, items.start, len(items) - 1, True) if len(items) > 1 else None
    if type(items) is not PVector and type(items) is not list:
        items = list(items)
    return view(items, 0, len(items) - 1, True) if len(items) > 1 else None


def _empty_line_vector(v: LineVector, start: int) -> LineVector:
    """``(subvec v start start)``: no rows, but the position ``start`` would have (runtime.md §4.6.4)."""
    n = len(v)
    line: Any
    if start < n:
        line = v.line_of(start)
    elif n:
        prev = v.line_of(n - 1)
        line = None if prev is None else prev + 1
    else:
        line = v.segments[0][0] if v.segments else None
    segment: Segment = (line, 0)
    return LineVector(EMPTY_VECTOR, (segment,))


@builtin("subvec", host="subvec")
def subvec(v: Any, start: Any, end: Any = ABSENT) -> Any:
    t = type(v)
    if t is not PVector and t is not LineVector and t is not VectorView:
        if v is None:
            raise HostError('Cannot invoke "clojure.lang.IPersistentVector.count()" because "v" is null')
        raise cast_error(v, "clojure.lang.IPersistentVector")
    n = len(v)
    s = int_cast(start)
    e = n if end is ABSENT else int_cast(end)
    if e < s or s < 0 or e > n:
        raise HostError("")
    if t is LineVector:
        return v.subvec(s, e) if s < e else _empty_line_vector(v, s)
    return subvector(v, s, e)


@builtin("reverse", host="reverse")
def reverse(coll: Any) -> Any:
    items = as_indexable(coll)
    return _pvector(items[::-1]) if type(items) is list else _pvector(reversed(items))


# -- construction ---------------------------------------------------------------------


@builtin("list")
def list_(*items: Any) -> PList:
    return plist(items)


@builtin("list*")
def list_star(arg: Any, *more: Any) -> Any:
    args = (arg,) + more
    result: Any = seq(args[-1])
    for x in reversed(args[:-1]):
        if result is None:
            result = PList(x, EMPTY, 1, False)
        else:
            result = PList(x, result, result.count + 1, True)
    return result


@builtin("vector")
def vector(*items: Any) -> Any:
    return _pvector(items)


@builtin("vec")
def vec(coll: Any) -> Any:
    t = type(coll)
    if t is PVector:
        return coll
    if t is LineVector:
        return coll.items
    if t is VectorView:
        return coll.pvector()
    return _pvector(seq_items(coll))


@builtin("set")
def set_(coll: Any) -> SpellSet:
    if isinstance(coll, SpellSet):
        return coll
    return SpellSet.from_items(seq_items(coll))


@builtin("cons")
def cons(x: Any, coll: Any) -> PList:
    t = type(coll)
    if t is PList:
        return PList(x, coll, coll.count + 1, True)
    if coll is None:
        return PList(x, EMPTY, 1, False)
    if t is PVector:
        return PList(x, seq_view(coll, 0), len(coll) + 1, True)
    if t is VectorView:
        tail = view(coll.backing, coll.start, len(coll), True) if len(coll) else EMPTY
        return PList(x, tail, len(coll) + 1, True)
    items = list(seq_items(coll))
    return PList(x, seq_view(items, 0), len(items) + 1, True)


@builtin("concat")
def concat(*colls: Any) -> PList:
    """All elements of ``colls`` as one seq, sharing structure so that building with
    ``concat`` in a loop is linear (issue 16 item 7):

    * ``(concat acc more...)`` where ``acc`` is a view ending at the end of its
      append-only list extends that list in place (``extend_view``): O(more);
    * ``(concat more... tail)`` where ``tail`` is a view or a chain built here (a seq
      all of whose cells are seqs, ``shares_as_seq_tail``) conses the earlier elements
      onto ``tail``: O(more);
    * anything else copies the elements once into a fresh list (C speed) and returns
      a view of it, which later concats can extend.
    Every part is checked seqable first, in order, so a bad part fails before any work.
    """
    if len(colls) == 1 and type(colls[0]) is PList and colls[0].count:
        c: PList = colls[0]
        return c if c.is_seq else seq_view(list(c), 0)
    parts: list[Any] = [p for p in (seq_items(c) for c in colls) if len(p)]  # type: ignore[arg-type]
    if not parts:
        return EMPTY_SEQ
    head = parts[0]
    if type(head) is PList and len(parts) > 1 and head._src is not None:
        more: list[Any] = []
        for p in parts[1:]:
            more.extend(p)
        extended = extend_view(head, more)
        if extended is not None:
            return extended
    last = parts[-1]
    if type(last) is PList and len(parts) > 1 and shares_as_seq_tail(last):
        before: list[Any] = []
        for p in parts[:-1]:
            before.extend(p)
        return seq_chain_onto(before, last)
    items: list[Any] = []
    for p in parts:
        items.extend(p)
    return view(items, 0, len(items), True)


# -- conj -----------------------------------------------------------------------------


def entry_pairs(x: Any) -> list[tuple[Any, Any]]:
    """The (key, value) pairs ``(conj map x)`` adds: a ``[k v]`` vector, a map, or a seq of entries."""
    t = type(x)
    if t is PVector or t is LineVector or t is VectorView:
        if len(x) != 2:
            raise HostError("Vector arg to map conj must be a pair")
        return [(x[0], x[1])]
    if x is None:
        return []
    if isinstance(x, SpellMap):
        return list(x.items())
    pairs = []
    for e in to_iter(x):
        te = type(e)
        if (te is PVector or te is LineVector or te is VectorView) and len(e) == 2:
            pairs.append((e[0], e[1]))
        else:
            raise cast_error(e, "java.util.Map$Entry")
    return pairs


def map_put_all(m: SpellMap, pairs: list[tuple[Any, Any]]) -> SpellMap:
    """``m`` with every pair assoc'ed in order, rebuilt in one pass when that is cheaper."""
    if not pairs:
        return m
    if type(m) is SortedMap:
        return SortedMap.build(list(m.items()) + pairs, m.comparator)
    if len(pairs) > 8 and 4 * len(pairs) >= len(m):
        return TransientMap(m).assoc_all(pairs).freeze()
    for k, v in pairs:
        m = m.assoc(k, v)
    return m


def conj1(coll: Any, x: Any) -> Any:
    """``(conj coll x)``: vectors append, lists and seqs prepend, sets add, maps take entries."""
    t = type(coll)
    if t is PVector:
        return coll.append(x)
    if t is PList:
        return PList(x, coll, coll.count + 1, coll.is_seq)
    if coll is None:
        return PList(x, EMPTY, 1, False)
    if isinstance(coll, SpellMap):
        tx = type(x)
        if (tx is PVector or tx is LineVector or tx is VectorView) and len(x) == 2:
            return coll.assoc(x[0], x[1])
        return map_put_all(coll, entry_pairs(x))
    if isinstance(coll, SpellSet):
        return coll.conj(x)
    if t is LineVector:
        return coll.items.append(x)
    if t is VectorView:
        return view_assoc(coll, len(coll), x)
    raise cast_error(coll, "clojure.lang.IPersistentCollection")


@builtin("conj")
def conj(coll: Any = ABSENT, x: Any = ABSENT, *xs: Any) -> Any:
    if x is ABSENT:
        return EMPTY_VECTOR if coll is ABSENT else coll
    if not xs:
        return conj1(coll, x)
    t = type(coll)
    if t is PVector:
        return coll.append(x).extend(xs)
    coll = conj1(coll, x)
    for y in xs:
        coll = conj1(coll, y)
    return coll


def conj_all(to: Any, items: Iterable[Any]) -> Any:
    """``to`` with every element of ``items`` conj'ed, built in one pass for each collection kind."""
    t = type(to)
    if t is PVector:
        return to.extend(items)
    if t is LineVector:
        return to.items.extend(items)
    if t is VectorView:  # one slot of a new backing at a time (``conj1``): O(len(items)), no copy of ``to``
        for y in items:
            to = conj1(to, y)
        return to
    if isinstance(to, SpellMap):
        pairs: list[tuple[Any, Any]] = []
        for e in items:
            te = type(e)
            if (te is PVector or te is LineVector or te is VectorView) and len(e) == 2:
                pairs.append((e[0], e[1]))
            else:
                pairs.extend(entry_pairs(e))
        return map_put_all(to, pairs)
    if isinstance(to, SpellSet):
        if type(to._m) is SortedMap:
            return sorted_like(to, list(to) + list(items))
        added = list(items)
        if len(added) > 8 and 4 * len(added) >= len(to):
            return SpellSet.from_items(list(to) + added)
        for y in added:
            to = to.conj(y)
        return to
    if t is PList or to is None:
        for y in items:
            to = conj1(to, y)
        return to
    for y in items:
        return conj1(to, y)  # raises the reference's cast error
    return to


__all__ = [
    "ABSENT", "EMPTY_SEQ", "as_indexable", "butlast", "char_at", "chars_of", "concat", "conj",
    "conj1", "conj_all", "cons", "count", "entry", "entry_pairs", "ffirst", "first", "is_empty", "is_sequential",
    "last", "list_", "list_star", "map_put_all", "next_", "not_empty", "nth", "peek", "pop", "rest", "reverse",
    "second", "seq", "seq_items", "seq_of", "set_", "subvec", "to_iter", "vec", "vector",
]

