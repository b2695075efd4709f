"""The canonical renderer ``R`` applied to value forms, measured in UTF-16 units and capped (runtime.md §4.3).

Clipping asks "does ``R(value_form(v))`` fit in ``b`` units?" thousands of
times, mostly about values far larger than ``b``. Building the value form and
rendering it whole would cost the size of the input each time, so this module
renders *values* straight to text as if their value form had been built, and
stops the moment the running length passes the cap. ``value_form`` +
``printer.render_form`` remain the definition; a property test holds this
module to them.

Two walks:

* ``data`` renders an object as a form (``R`` itself). It walks with an explicit
  stack because Spell function bodies are forms of any depth.
* ``vf`` renders a value's value form. It recurses: it only ever sees snapshot
  values, whose depth pass 1 caps at 64.

Whether a map, set or list is *literal data* (and so quoted whole) needs its
whole subtree, so the answer is memoised per object in ``Ctx`` for the duration
of one snapshot; the memo holds the objects so their ids cannot be reused.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from operator import itemgetter
from typing import Any, Final, Optional

from ...data.atoms import K_BODY, K_PARAMS, K_SPELL_FN, BigInt, Char, Float32, Keyword, Pattern, Symbol
from ...data.hashmap import SpellMap, SpellSet
from ...data.plist import PList, plist
from ...data.vector import LineVector, PVector, VectorView, vec
from ...errors import HostError
from ...printer import host_object_text, pr_str, quote_string
from ...readable import is_reader_keyword, is_reader_number, is_reader_symbol
from .batch import least_total
from .shapes import K_ERR, K_EXIT, K_OK, K_OMITTED, K_OUT, K_STATUS, K_TRUNCATED, int_or_nil, is_envelope, marker_count
from .text import escapes, units

NO_SOURCE_MESSAGE: Final = "Value has no ordinary source representation"

_END: Final = object()

FIRST_LINE: Final = Symbol("first-line")

_reader_symbols: dict[Symbol, bool] = {}
_reader_keywords: dict[Keyword, bool] = {}


class Overflow(Exception):
    """Raised inside a capped render as soon as the text passes its cap."""


class EntrySource:
    """Where a lazy ``LargeMap`` gets its further entries: pass 1's walk of a map, continued on demand."""

    def more(self, pairs: list[tuple[Any, Any]]) -> bool:
        """Append the next normalised entry (or the walk's closing marker entry) to ``pairs``, or
        nothing for a dropped key; False once the walk is over."""
        return False

    def extend(self, pairs: list[tuple[Any, Any]], n: int) -> bool:
        """``more`` until ``pairs`` has at least ``n`` entries (it may add more); False once the walk is over."""
        while len(pairs) < n:
            if not self.more(pairs):
                return False
        return True

    def unchanged(self) -> Optional[SpellMap]:
        """Once the walk is over: the map walked, when every entry came out as it was (pass 1 then
        hands back the map itself, and so does ``materialize``)."""
        return None


class LargeMap:
    """A map pass 1 produced with too many entries to ever be shown whole (more than ``grace / 4``).

    Pass 2 always rebuilds such a map from a prefix of its entries, so building a
    full ``SpellMap`` for it (with its hash trie) would be wasted work that grows
    with the target. It is only ever a map *value* inside the snapshot's working
    data — never a key or a set element — and ``materialize`` turns any that
    survive into ordinary maps before the snapshot is returned.

    Lazy (issue 14): the snapshot's top-level map is handed over by pass 1 after a
    few entries, with the ``EntrySource`` that continues its walk. ``pairs`` then
    holds the entries normalised so far; ``fill`` extends them as far as a reader
    needs (the width bound, ``short_map``), and ``complete`` walks to the end when
    a reader needs them all — so a clip costs what its output shows, not the fuel.
    """

    __slots__ = ("pairs", "fn_flag", "source", "whole")

    pairs: list[tuple[Any, Any]]
    fn_flag: bool
    source: Optional[EntrySource]
    whole: Optional[SpellMap]

    def __init__(self, pairs: list[tuple[Any, Any]], source: Optional[EntrySource] = None,
                 fn_flag: Optional[bool] = None) -> None:
        """``fn_flag`` must be given (and exact) for a lazy map: it cannot be found without its entries."""
        self.pairs = pairs
        self.source = source
        self.whole = None
        if fn_flag is None:
            fn_flag = False
            for k, v in pairs:
                if k is K_SPELL_FN and v is not None and v is not False:
                    fn_flag = True
        self.fn_flag = fn_flag

    def fill(self, n: int) -> int:
        """Normalise entries until there are at least ``n`` (or no more); how many there are now."""
        source = self.source
        pairs = self.pairs
        if source is not None and len(pairs) < n and not source.extend(pairs, n):
            self.whole = source.unchanged()
            self.source = None
        return len(pairs)

    def is_complete(self) -> bool:
        return self.source is None

    def complete(self) -> list[tuple[Any, Any]]:
        """Every entry."""
        while self.source is not None:
            self.fill(len(self.pairs) + 1024)
        return self.pairs

    def iter_pairs(self) -> Iterator[tuple[Any, Any]]:
        """The entries in order, normalising further ones only as they are reached."""
        i = 0
        while i < len(self.pairs) or self.fill(i + 1) > i:
            yield self.pairs[i]
            i += 1

    def is_empty(self) -> bool:
        return self.fill(1) == 0

    def __len__(self) -> int:
        return len(self.complete())


def wider_than(m: LargeMap, cap: int) -> bool:
    """True when map ``m`` renders (as data or as a value form, however spelled) to more than ``cap``
    units, decided from as few leading entries as that takes; False only once all are known."""
    width = 1  # "{" and "}", less the separator the first entry does not need
    i = 0
    pairs = m.pairs
    while i < len(pairs) or m.fill(i + 1) > i:
        end = min(len(pairs), i + _WIDTH_RUN)
        if end - i == _WIDTH_RUN:
            # A run of entries is bounded in a few C loops (batch.py).
            width += least_total(pairs[i:end]) + 2 * _WIDTH_RUN
            if width > cap:
                return True
            i = end
            continue
        k, v = pairs[i]
        width += _least_atom(k) + _least_atom(v) + 2  # "k v" and a separator
        if width > cap:
            return True
        i += 1
    return False


_WIDTH_RUN: Final = 64
_ATOMS: Final = frozenset({int, str, Keyword, Symbol, bool, type(None), Char})
_KEY: Final = itemgetter(0)
_VALUE: Final = itemgetter(1)


def _least_atom(x: Any) -> int:
    """A lower bound of ``x``'s width as data and as a value form (a value form is never narrower)."""
    w = _atom_width(x, -1, False)
    return w if w >= 1 else 1


def _materialize(x: Any) -> Any:
    t = type(x)
    if t is LargeMap:
        pairs = x.complete()
        if x.whole is not None:
            return x.whole
        return SpellMap.from_pairs([(k, _materialize(v)) for k, v in pairs])
    if t is PVector or t is LineVector or t is VectorView or t is PList or isinstance(x, SpellSet):
        items = list(x)
        done = [_materialize(e) for e in items]
        if all(a is b for a, b in zip(items, done)):
            return x
        if t is PVector or t is VectorView:
            return vec(done)
        if t is LineVector:
            return LineVector(vec(done), x.segments)
        if t is PList:
            return plist(done)
        return SpellSet.from_items(done)
    if isinstance(x, SpellMap):
        pairs = list(x.items())
        if _ATOMS.issuperset(map(type, map(_VALUE, pairs))):
            return x  # nothing inside to materialise (one C loop: a clipped map can hold thousands)
        new = [(k, _materialize(v)) for k, v in pairs]
        if all(a[1] is b[1] for a, b in zip(pairs, new)):
            return x
        return SpellMap.from_pairs(new)
    return x


def is_map(x: Any) -> bool:
    """A Spell map or a pass-1 ``LargeMap``."""
    return isinstance(x, SpellMap) or type(x) is LargeMap


class MapInfo:
    """What the clipper asks of a map, answered once: is it a function, an envelope, a marker?"""

    __slots__ = ("fn", "flagged", "envelope", "marker", "weight")

    fn: Optional[tuple[Any, Any]]
    flagged: bool
    envelope: bool
    marker: bool
    weight: int

    def __init__(self, fn: Optional[tuple[Any, Any]], flagged: bool, envelope: bool, weight: int = -2) -> None:
        """``weight`` -2: not an omission marker (weight 1); else the marker's count (-1: unknown)."""
        self.fn = fn
        self.flagged = flagged
        self.envelope = envelope
        self.marker = weight != -2
        self.weight = 1 if weight == -2 else weight


def _info_of_pairs(pairs: list[tuple[Any, Any]]) -> MapInfo:
    """``MapInfo`` of a small map from one pass over its entries (keywords are interned: ``is`` compares)."""
    missing: Any = _END
    flag: Any = None
    params: Any = None
    body: Any = None
    ok: Any = missing
    out = err = False
    truncated: Any = missing
    exit_: Any = missing
    status: Any = missing
    for k, v in pairs:
        if type(k) is not Keyword:
            continue
        if k is K_SPELL_FN:
            flag = v
        elif k is K_PARAMS:
            params = v
        elif k is K_BODY:
            body = v
        elif k is K_OK:
            ok = v
        elif k is K_OUT:
            out = True
        elif k is K_ERR:
            err = True
        elif k is K_TRUNCATED:
            truncated = v
        elif k is K_EXIT:
            exit_ = v
        elif k is K_STATUS:
            status = v
    flagged = flag is not None and flag is not False
    fn: Optional[tuple[Any, Any]] = None
    tp = type(params)
    if flagged and (tp is PVector or tp is LineVector or tp is VectorView) and type(body) is PList:
        fn = (params, body)
    envelope = (type(ok) is bool and out and err and (truncated is missing or type(truncated) is bool)
                and (exit_ is missing or int_or_nil(exit_)) and (status is missing or int_or_nil(status)))
    weight = -2
    if len(pairs) == 1 and pairs[0][0] is K_OMITTED:
        count = marker_count(pairs[0][1])
        if count is not None:
            weight = count
    return MapInfo(fn, flagged, envelope, weight)


class Ctx:
    """Per-snapshot memos, keyed by object id and holding the object so the id stays unique.

    ``lit``: literal-data flags. ``pairs``: map entries, so that a map is
    walked through its hash trie once. ``infos``: ``MapInfo`` per map.
    ``weights``: for vectors pass 1 built, where its elements of weight other
    than 1 are, so pass 2 need not scan for them. ``shortened``: results of
    ``shorten`` by (value, budget) — values are immutable and shared (every
    element past the fuel is the same diagnostic), so each is shortened once.
    """

    __slots__ = ("lit", "pairs", "infos", "weights", "shortened", "large", "lengths")

    lit: dict[int, tuple[object, bool]]
    pairs: dict[int, tuple[object, list[tuple[Any, Any]]]]
    infos: dict[int, tuple[object, MapInfo]]
    weights: dict[int, tuple[object, list[tuple[int, int]]]]
    shortened: dict[tuple[int, int], tuple[object, Any]]
    large: int
    lengths: dict[int, tuple[object, int]]

    def __init__(self) -> None:
        self.lit = {}
        self.pairs = {}
        self.infos = {}
        self.weights = {}
        self.shortened = {}
        self.large = 0
        self.lengths = {}

    def known_length(self, m: SpellMap, width: int) -> None:
        """Remember ``len(R(value_form(m)))`` of a map ``short_map`` built and measured as it went
        (a quoted map of literal data), so measuring it again renders nothing (issue 14)."""
        self.lengths[id(m)] = (m, width)
        self.lit[id(m)] = (m, True)

    def info(self, m: Any) -> MapInfo:
        """The ``MapInfo`` of map ``m``; a large ``SpellMap`` is asked by key, never walked."""
        key = id(m)
        found = self.infos.get(key)
        if found is not None:
            return found[1]
        if type(m) is LargeMap:
            info = MapInfo(None, m.fn_flag, False)
        elif len(m) <= 16:
            info = _info_of_pairs(self.entries(m))
        else:
            info = MapInfo(fn_parts(m), is_fn_flagged(m), is_envelope(m))
        self.infos[key] = (m, info)
        return info

    def large_map(self, pairs: list[tuple[Any, Any]], source: Optional[EntrySource] = None,
                  fn_flag: Optional[bool] = None) -> LargeMap:
        self.large += 1
        return LargeMap(pairs, source, fn_flag)

    def materialize(self, x: Any) -> Any:
        """``x`` with every ``LargeMap`` inside it made an ordinary map (``x`` itself when there is none)."""
        return x if self.large == 0 else _materialize(x)

    def marks(self, v: Any) -> Optional[list[tuple[int, int]]]:
        """(index, weight) of every element of weight other than 1, when pass 1 recorded them for ``v``."""
        found = self.weights.get(id(v))
        return None if found is None else found[1]

    def new_map(self, pairs: list[tuple[Any, Any]]) -> SpellMap:
        """``SpellMap.from_pairs(pairs)`` for pairs with distinct keys, remembering the pairs."""
        m = SpellMap.from_distinct_pairs(pairs)
        self.pairs[id(m)] = (m, pairs)
        return m

    def entries(self, m: Any) -> list[tuple[Any, Any]]:
        """The entries of map ``m`` (a ``SpellMap`` or ``LargeMap``) in order."""
        if type(m) is LargeMap:
            return m.complete()
        found = self.pairs.get(id(m))
        if found is not None:
            return found[1]
        pairs = list(m.items())
        self.pairs[id(m)] = (m, pairs)
        return pairs


class Sink:
    """Collects rendered text (or only its length) and enforces a cap (-1: none)."""

    __slots__ = ("parts", "n", "cap", "keep")

    parts: list[str]
    n: int
    cap: int
    keep: bool

    def __init__(self, cap: int, keep: bool) -> None:
        self.parts = []
        self.n = 0
        self.cap = cap
        self.keep = keep

    def add(self, s: str, width: int) -> None:
        self.n += width
        if self.cap >= 0 and self.n > self.cap:
            raise Overflow()
        if self.keep:
            self.parts.append(s)

    def ascii(self, s: str) -> None:
        self.n += len(s)
        if self.cap >= 0 and self.n > self.cap:
            raise Overflow()
        if self.keep:
            self.parts.append(s)

    def text(self, s: str) -> None:
        self.add(s, units(s))

    def string(self, s: str) -> None:
        """A string literal; a string longer than the room left is rejected without scanning it."""
        if self.cap >= 0 and self.n + len(s) + 2 > self.cap:
            raise Overflow()
        width = 2 + units(s) + escapes(s)
        self.add(quote_string(s) if self.keep else "", width)


_names: dict[object, tuple[str, int]] = {}


def name_text(x: Any) -> str:
    """Printed text of an interned keyword or symbol, cached."""
    found = _names.get(x)
    if found is None:
        text = repr(x)
        found = (text, units(text))
        _names[x] = found
    return found[0]


def name_width(x: Any) -> int:
    """UTF-16 width of ``name_text(x)``."""
    found = _names.get(x)
    if found is None:
        name_text(x)
        found = _names[x]
    return found[1]


def reader_symbol(s: Symbol) -> bool:
    """``is_reader_symbol``, cached per interned symbol."""
    found = _reader_symbols.get(s)
    if found is None:
        found = is_reader_symbol(s)
        _reader_symbols[s] = found
    return found


def reader_keyword(k: Keyword) -> bool:
    """``is_reader_keyword``, cached per interned keyword."""
    found = _reader_keywords.get(k)
    if found is None:
        found = is_reader_keyword(k)
        _reader_keywords[k] = found
    return found


def atom_text(x: Any) -> Optional[str]:
    """Readable text of a non-string atom, or None when ``x`` is not an atom."""
    t = type(x)
    if t is int:
        return str(x)
    if t is Keyword or t is Symbol:
        return name_text(x)
    if x is None:
        return "nil"
    if t is bool:
        return "true" if x else "false"
    if is_number(x) or t is Char or t is Pattern:
        return pr_str(x)
    return None


def is_number(x: Any) -> bool:
    """Any Spell number (not a boolean)."""
    t = type(x)
    return t is int or t is float or t is BigInt or t is Fraction or t is Decimal or t is Float32


def is_collection(x: Any) -> bool:
    t = type(x)
    return t is PVector or t is LineVector or t is VectorView or t is PList or t is LargeMap or isinstance(x, (SpellMap, SpellSet))


def fn_parts(x: Any) -> Optional[tuple[Any, Any]]:
    """(params, body) of a Spell function map whose source is ``(fn params body...)``."""
    if not isinstance(x, SpellMap):
        return None
    flag = x.get(K_SPELL_FN)
    if flag is None or flag is False:
        return None
    params = x.get(K_PARAMS)
    body = x.get(K_BODY)
    tp = type(params)
    if (tp is PVector or tp is LineVector or tp is VectorView) and type(body) is PList:
        return (params, body)
    return None


def is_fn_flagged(x: Any) -> bool:
    if type(x) is LargeMap:
        return bool(x.fn_flag)
    flag = x.get(K_SPELL_FN)
    return flag is not None and flag is not False


def literal(ctx: Ctx, x: Any) -> bool:
    """Literal data (runtime.md §4.3.2)."""
    t = type(x)
    if t is int or t is str or x is None or t is bool or t is Char:
        return True
    if t is Symbol:
        return reader_symbol(x)
    if t is Keyword:
        return reader_keyword(x)
    if t is LineVector:
        return False
    if t is PVector or t is VectorView or t is PList or t is LargeMap or isinstance(x, (SpellMap, SpellSet)):
        key = id(x)
        found = ctx.lit.get(key)
        if found is not None:
            return found[1]
        flag = _literal_collection(ctx, x)
        ctx.lit[key] = (x, flag)
        return flag
    return is_reader_number(x)


def _literal_collection(ctx: Ctx, x: Any) -> bool:
    if is_map(x):
        if ctx.info(x).flagged:
            return False
        for k, v in (x.iter_pairs() if type(x) is LargeMap else ctx.entries(x)):
            if not literal(ctx, k) or not literal(ctx, v):
                return False
        return True
    for e in x:
        if not literal(ctx, e):
            return False
    return True


# -- R on forms -------------------------------------------------------------------------------

class _Piece:
    """Literal layout text inside a first-line frame (distinct from a Spell string)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Frame:
    __slots__ = ("items", "count", "close", "pieces")

    def __init__(self, items: Iterator[Any], close: str, pieces: bool) -> None:
        self.items = items
        self.count = 0
        self.close = close
        self.pieces = pieces




def first_line_args(form: PList) -> Optional[list[Any]]:
    """The start/rows arguments of a ``(first-line s1 [rows] ...)`` form R lays out specially."""
    args = list(form)[1:]
    if not args or len(args) % 2:
        return None
    for i in range(0, len(args), 2):
        start = args[i]
        if not (start is None or type(start) is int or type(start) is BigInt):
            return None
        rows = args[i + 1]
        if type(rows) is not PVector and type(rows) is not LineVector and type(rows) is not VectorView:
            return None
    return args


def _first_line_pieces(args: list[Any]) -> list[Any]:
    pieces: list[Any] = [_Piece("(first-line")]
    for i in range(0, len(args), 2):
        start = args[i]
        rows = args[i + 1]
        pieces.append(_Piece(" " + ("nil" if start is None else pr_str(start)) + " ["))
        index = 0
        for row in rows:
            pieces.append(_Piece("\n "))
            pieces.append(row)
            if start is not None:
                pieces.append(_Piece(" ; " + str(int(start) + index)))
            index += 1
        pieces.append(_Piece("\n]" if index else "]"))
    pieces.append(_Piece(")"))
    return pieces


def _open(sink: Sink, x: Any) -> Optional[_Frame]:
    """Write the opening of collection ``x``; the frame of its elements, or None when it is empty."""
    t = type(x)
    if t is PList:
        if x.count and x.first is FIRST_LINE:
            args = first_line_args(x)
            if args is not None:
                return _Frame(iter(_first_line_pieces(args)), "", True)
        if not x.count:
            sink.ascii("()")
            return None
        sink.ascii("(")
        return _Frame(iter(x), ")", False)
    if t is PVector or t is LineVector or t is VectorView:
        if not len(x):
            sink.ascii("[]")
            return None
        sink.ascii("[")
        return _Frame(iter(x), "]", False)
    if is_map(x):
        if x.is_empty() if type(x) is LargeMap else not len(x):
            sink.ascii("{}")
            return None
        sink.ascii("{")
        return _Frame(_flatten(x), "}", False)
    if not len(x):
        sink.ascii("#{}")
        return None
    sink.ascii("#{")
    return _Frame(iter(x), "}", False)


def _flatten(m: Any) -> Iterator[Any]:
    for k, v in (m.iter_pairs() if type(m) is LargeMap else m.items()):
        yield k
        yield v


_DEEP: Final = 200
"""Nesting below which ``data`` recurses; deeper forms (function bodies can be anything) go iterative."""


def data(sink: Sink, x: Any, depth: int = 0) -> None:
    """Write ``R(x)``: ``x`` rendered as a form."""
    t = type(x)
    if t is int:
        sink.ascii(str(x))
    elif t is Keyword:
        sink.add(name_text(x), name_width(x))
    elif t is str:
        sink.string(x)
    elif depth > _DEEP:
        _data_deep(sink, x)
    elif t is PVector or t is LineVector or t is VectorView or (t is PList and not (x.count and x.first is FIRST_LINE)):
        if not len(x):
            sink.ascii("()" if t is PList else "[]")
            return
        sink.ascii("(" if t is PList else "[")
        first = True
        for e in x:
            if not first:
                sink.ascii(" ")
            first = False
            data(sink, e, depth + 1)
        sink.ascii(")" if t is PList else "]")
    elif t is SpellMap or t is LargeMap:
        if x.is_empty() if t is LargeMap else not len(x):
            sink.ascii("{}")
            return
        sink.ascii("{")
        first = True
        for k, v in (x.iter_pairs() if t is LargeMap else list(x.items())):
            if not first:
                sink.ascii(" ")
            first = False
            data(sink, k, depth + 1)
            sink.ascii(" ")
            data(sink, v, depth + 1)
        sink.ascii("}")
    else:
        _data_deep(sink, x)


def _data_deep(sink: Sink, root: Any) -> None:
    """``data`` with an explicit stack, for forms of any depth (and the rarer kinds)."""
    stack: list[_Frame] = []
    x = root
    while True:
        t = type(x)
        if t is int:
            sink.ascii(str(x))
        elif t is Keyword:
            sink.add(name_text(x), name_width(x))
        elif t is str:
            sink.string(x)
        else:
            text = atom_text(x)
            if text is not None:
                sink.text(text)
            elif is_collection(x):
                frame = _open(sink, x)
                if frame is not None:
                    stack.append(frame)
            else:
                sink.text(host_object_text(x))
        while stack:
            top = stack[-1]
            item = next(top.items, _END)
            if item is _END:
                sink.ascii(top.close)
                stack.pop()
                continue
            if top.pieces:
                if type(item) is _Piece:
                    sink.text(item.text)
                    continue
            elif top.count:
                sink.ascii(" ")
            top.count += 1
            x = item
            break
        else:
            return


# -- R on value forms -----------------------------------------------------------------------

def _vf_seq(ctx: Ctx, sink: Sink, items: Any) -> None:
    first = True
    for e in items:
        if not first:
            sink.ascii(" ")
        first = False
        if type(e) is int:
            sink.ascii(str(e))
        else:
            vf(ctx, sink, e)


def vf(ctx: Ctx, sink: Sink, x: Any) -> None:
    """Write ``R(value_form(x))``."""
    t = type(x)
    if t is int:
        sink.ascii(str(x))
        return
    if t is str:
        sink.string(x)
        return
    if t is Symbol:
        if reader_symbol(x):
            sink.ascii("(quote ")
            sink.add(name_text(x), name_width(x))
            sink.ascii(")")
        else:
            _constructor(sink, "(symbol ", x.ns, x.name)
        return
    if t is Keyword:
        if reader_keyword(x):
            sink.add(name_text(x), name_width(x))
        else:
            _constructor(sink, "(keyword ", x.ns, x.name)
        return
    if t is PVector or t is LineVector or t is VectorView or t is PList or t is SpellSet:
        if sink.cap >= 0 and sink.n + 2 * len(x) + 1 > sink.cap:
            raise Overflow()  # "[a b]" needs at least this much, however it is spelled
        if t is PVector or t is VectorView:
            sink.ascii("[")
            _vf_seq(ctx, sink, x)
            sink.ascii("]")
            return
        if t is LineVector:
            _vf_lines(ctx, sink, x)
            return
    if is_map(x):
        if not sink.keep:
            known = ctx.lengths.get(id(x))
            if known is not None:
                sink.n += known[1]
                if sink.cap >= 0 and sink.n > sink.cap:
                    raise Overflow()
                return
        parts = ctx.info(x).fn
        if parts is None and sink.cap >= 0 and (wider_than(x, sink.cap - sink.n) if type(x) is LargeMap
                                                else sink.n + 4 * len(x) + 1 > sink.cap):
            raise Overflow()  # "{k v k v}" needs at least this much, however it is spelled
        if parts is not None:
            sink.ascii("(fn ")
            data(sink, parts[0])
            for form in parts[1]:
                sink.ascii(" ")
                data(sink, form)
            sink.ascii(")")
        elif literal(ctx, x):
            sink.ascii("(quote ")
            data(sink, x)
            sink.ascii(")")
        elif all(literal(ctx, k) for k, _ in ctx.entries(x)):
            sink.ascii("{")
            first = True
            for k, v in ctx.entries(x):
                if not first:
                    sink.ascii(" ")
                first = False
                data(sink, k)
                sink.ascii(" ")
                vf(ctx, sink, v)
            sink.ascii("}")
        else:
            sink.ascii("(into {} [")
            first = True
            for k, v in ctx.entries(x):
                sink.ascii("[" if first else " [")
                first = False
                vf(ctx, sink, k)
                sink.ascii(" ")
                vf(ctx, sink, v)
                sink.ascii("]")
            sink.ascii("])")
        return
    if t is PList or isinstance(x, SpellSet):
        if literal(ctx, x):
            sink.ascii("(quote ")
            data(sink, x)
            sink.ascii(")")
        elif t is not PList:
            sink.ascii("(set [")
            _vf_seq(ctx, sink, x)
            sink.ascii("])")
        else:
            sink.ascii("(list ")
            _vf_seq(ctx, sink, x)
            sink.ascii(")")
        return
    text = atom_text(x) if t is not Pattern else None
    if text is None:
        raise HostError(NO_SOURCE_MESSAGE)
    sink.text(text)


def _constructor(sink: Sink, head: str, ns: Optional[str], name: str) -> None:
    sink.ascii(head)
    if ns is not None:
        sink.string(ns)
        sink.ascii(" ")
    sink.string(name)
    sink.ascii(")")


def _vf_lines(ctx: Ctx, sink: Sink, lv: LineVector) -> None:
    sink.ascii("(first-line")
    for start, rows in lv.row_groups():
        sink.ascii(" ")
        sink.text("nil" if start is None else pr_str(start))
        sink.ascii(" [")
        index = 0
        for row in rows:
            sink.ascii("\n ")
            vf(ctx, sink, row)
            if start is not None:
                sink.ascii(" ; " + str(int(start) + index))
            index += 1
        sink.ascii("\n]" if index else "]")
    sink.ascii(")")


# -- entry points -----------------------------------------------------------------------------

_COMPOSITE: Final = -2


def _string_width(s: str, cap: int) -> int:
    if cap >= 0 and len(s) + 2 > cap:
        return -1
    w = 2 + units(s) + escapes(s)
    return w if cap < 0 or w <= cap else -1


def _atom_width(x: Any, cap: int, as_form: bool) -> int:
    """Width of a common atom rendered as data (or, with ``as_form``, as its value form) without a sink.

    -1: longer than ``cap``; ``_COMPOSITE``: not a simple case, render it.
    """
    t = type(x)
    w: int
    if t is str:
        return _string_width(x, cap)
    if t is int:
        w = len(str(x))
    elif t is Keyword:
        if as_form and not reader_keyword(x):
            return _COMPOSITE
        w = name_width(x)
    elif t is Symbol:
        if not as_form:
            w = name_width(x)
        elif reader_symbol(x):
            w = 8 + name_width(x)
        else:
            return _COMPOSITE
    elif x is None:
        w = 3
    elif t is bool:
        w = 4 if x else 5
    else:
        return _COMPOSITE
    return w if cap < 0 or w <= cap else -1


def vf_len(ctx: Ctx, x: Any, cap: int) -> int:
    """``len(R(value_form(x)))`` if it is at most ``cap`` (or ``cap`` is -1), else -1."""
    w = _atom_width(x, cap, True)
    if w != _COMPOSITE:
        return w
    sink = Sink(cap, False)
    try:
        vf(ctx, sink, x)
    except Overflow:
        return -1
    return sink.n


def data_len(x: Any, cap: int) -> int:
    """``len(R(x))`` if it is at most ``cap`` (or ``cap`` is -1), else -1."""
    w = _atom_width(x, cap, False)
    if w != _COMPOSITE:
        return w
    sink = Sink(cap, False)
    try:
        data(sink, x)
    except Overflow:
        return -1
    return sink.n


def fits(ctx: Ctx, x: Any, budget: int) -> bool:
    """``fits(v, b)`` of runtime.md §4.3: the rendered value form is at most ``budget`` units."""
    return vf_len(ctx, x, max(0, budget)) >= 0


def vf_text(ctx: Ctx, x: Any) -> str:
    """``R(value_form(x))`` in full."""
    sink = Sink(-1, True)
    vf(ctx, sink, x)
    return "".join(sink.parts)


def data_text(x: Any, cap: int) -> Optional[str]:
    """``R(x)``, or None when it is longer than ``cap`` units."""
    sink = Sink(cap, True)
    try:
        data(sink, x)
    except Overflow:
        return None
    return "".join(sink.parts)
