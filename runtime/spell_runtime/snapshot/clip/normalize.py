"""Pass 1 of the snapshot algorithm: a bounded traversal into displayable Spell data (runtime.md §4.5.2).

One ``fuel`` counter (``2 * grace``) is spent across the whole value, one unit
per visited node, so the traversal costs at most a constant times the target
no matter how large or deep the input is; anything past the fuel or below depth
64 becomes a diagnostic. Vectors are cut to a head and a tail before their
elements are visited, sets, lists and lazy sequences are pulled one item at a
time and never counted, and maps stop at the first entry the fuel cannot pay
for. Anything that is not Spell data becomes a truthful diagnostic map.

A map of more than a few dozen entries is walked by ``MapWalk``, which takes
the map's entries in chunks and runs of atom entries at once (what the
entry-by-entry loop does to each of them, without a Python step per entry:
issue 14); the snapshot's own large map is walked lazily, only as far as pass 2
reads it.

``changed`` records whether anything was left out or replaced; map keys and an
envelope's contents are normalised under a *local* flag, as the spec requires,
by saving and restoring it around them.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from operator import itemgetter
from typing import Any, Final, Optional

from ...data.atoms import K_SPELL_FN, Char, Keyword, Symbol
from ...data.equality import spell_eq
from ...data.hashmap import SpellMap, SpellSet
from ...data.plist import PList, plist
from ...data.vector import LineVector, PVector, VectorView
from ...hooks import read_all
from ...readable import is_reader_number
from ..lazy import END, is_lazy
from .batch import no_spell_keys, wide_run
from .render import Ctx, EntrySource, data_text, is_number, reader_keyword
from .selection import Allowance, select
from .shapes import (
    ATOM_FLOOR,
    BOUNDED,
    CONVERSION_FAILED,
    K_ERR,
    K_OK,
    K_OUT,
    K_TRUNCATED,
    SOURCE_UNAVAILABLE,
    STRING_FLOOR,
    UNKNOWN,
    UNREADABLE_NUMBER,
    UNSUPPORTED,
    add_weight,
    build_envelope,
    controls,
    diagnostic,
    entry_weight,
    is_envelope_key,
    marker,
    marker_entry_among,
    with_marker,
)

MAX_DEPTH = 64

_S_FN = Symbol("fn")


class Pass1:
    """The state shared by one traversal: fuel, the ``changed`` flag and the weight-scan allowance."""

    __slots__ = ("fuel", "changed", "grace", "allowance", "ctx", "diagnostics")

    fuel: int
    changed: bool
    grace: int
    allowance: Allowance
    ctx: Ctx
    diagnostics: dict[tuple[type, str], SpellMap]

    def __init__(self, grace: int, ctx: Ctx) -> None:
        self.fuel = 2 * grace
        self.changed = False
        self.grace = grace
        self.allowance = Allowance(grace)
        self.ctx = ctx
        self.diagnostics = {}

    def bounded(self, v: Any) -> SpellMap:
        """``normalize_payload(v)`` once the fuel is spent (the ``changed`` flag is the caller's to set)."""
        try:
            return self.diagnostic(v, BOUNDED)
        except Exception:
            return self.diagnostic(v, CONVERSION_FAILED)

    def diagnostic(self, v: Any, reason: str) -> SpellMap:
        """``diagnostic(v, reason)``, one shared (immutable) map per type and reason: once the fuel is
        spent, every remaining element of a long vector becomes the same diagnostic."""
        key = (type(v), reason)
        found = self.diagnostics.get(key)
        if found is None:
            found = diagnostic(v, reason)
            self.diagnostics[key] = found
        return found


def normalize(p: Pass1, v: Any, depth: int) -> Any:
    """``normalize(v, fuel, depth)``."""
    p.fuel -= 1
    if p.fuel < 0 or depth > MAX_DEPTH:
        p.changed = True
        return p.diagnostic(v, BOUNDED)
    t = type(v)
    if t is int or t is str or v is None or t is bool or t is Keyword or t is Symbol or t is Char:
        return v
    if is_number(v):
        if is_reader_number(v):
            return v
        p.changed = True
        return p.diagnostic(v, UNREADABLE_NUMBER)
    if t is PVector or t is LineVector or t is VectorView:
        return _vector(p, v, depth)
    if isinstance(v, SpellMap):
        info = p.ctx.info(v)
        parts = info.fn
        if parts is not None:
            if _fn_source_ok(p, parts[0], parts[1]):
                return v
            p.changed = True
            return p.diagnostic(v, SOURCE_UNAVAILABLE)
        if info.envelope:
            return _envelope(p, v, depth)
        # A large map is walked lazily: pass 1 stops at the first entry its fuel cannot pay for.
        entries = iter(p.ctx.entries(v)) if len(v) <= 16 else v.items()
        # The snapshot's own value, when it is a map too large for the fuel to reach its end, is walked
        # only as far as pass 2 reads it (issue 14): nothing else is normalised after it, so its fuel
        # is nobody else's.
        lazy = (LAZY_TOP_MAPS and depth == 0 and t is SpellMap and len(v) > max(LAZY_AFTER, p.fuel // 2)
                and _lazy_ok(v))
        return normalize_map(p, entries, depth, v if t is SpellMap else None, lazy=lazy)
    if t is PList or isinstance(v, SpellSet) or is_lazy(v):
        return _sequence(p, v, depth)
    p.changed = True
    return p.diagnostic(v, UNSUPPORTED)


def payload(p: Pass1, x: Any, depth: int) -> Any:
    """``normalize_payload``: a failure inside becomes a diagnostic of this element."""
    try:
        return normalize(p, x, depth)
    except Exception:
        p.changed = True
        return p.diagnostic(x, CONVERSION_FAILED)


def _fn_source_ok(p: Pass1, params: Any, body: Any) -> bool:
    """The function's ``(fn ...)`` source fits the grace and reads back as the same form."""
    form = plist([_S_FN, params, *body])
    try:
        text = data_text(form, p.grace)
        if text is None:
            return False
        forms = read_all(text)
        return len(forms) == 1 and spell_eq(forms[0], form)
    except Exception:
        return False


def _vector(p: Pass1, v: Any, depth: int) -> Any:
    n = len(v)
    k = min(n, max(0, p.fuel // 2))
    head = n if k == n else (3 * k) // 4
    sel = select(v, head, k - head, p.allowance, None)
    numbered = sel.positions is not None
    inner = depth + 1 <= MAX_DEPTH
    rows: list[Any] = []
    marks: list[tuple[int, int]] = []
    same = True
    items = sel.items
    i = -1
    for x in items:
        i += 1
        if p.fuel <= 0 and not numbered and BULK_WALKS:
            # Out of fuel: every element left becomes the bounded-traversal diagnostic (what
            # normalize returns for each), without a call chain per element (issue 14).
            rest = items[i:]
            p.changed = True
            rows.extend(map(p.bounded, rest))
            p.fuel -= len(rest)
            same = False
            break
        t = type(x)
        if numbered and t is str:
            p.fuel -= 1
            rows.append(x)
        elif inner and p.fuel > 0 and _atom(t, x):
            p.fuel -= 1  # what normalize would do for an atom, without the call
            rows.append(x)
        else:
            y = payload(p, x, depth + 1)
            if isinstance(y, SpellMap):
                w = p.ctx.info(y).weight
                if w != 1:
                    marks.append((len(rows), w))
            same = same and y is x
            rows.append(y)
    if k < n:
        p.changed = True
    out = v if same and k == n and sel.unchanged(v) else sel.build(rows)
    if not numbered:
        p.ctx.weights[id(out)] = (out, marks)
    return out


def _envelope(p: Pass1, v: SpellMap, depth: int) -> SpellMap:
    outer = p.changed
    p.changed = False
    out = payload(p, v.get(K_OUT), depth + 1)
    err = payload(p, v.get(K_ERR), depth + 1)
    extras = normalize_map(p, ((k, x) for k, x in v.items() if not is_envelope_key(k)), depth, None, False)
    local = p.changed
    p.changed = outer or local
    return build_envelope(controls(v), out, err, v.get(K_TRUNCATED) is True or local, extras)


def _atom(t: type, x: Any) -> bool:
    """Kinds pass 1 keeps as they are (checked inline to spare a call per element)."""
    return t is int or t is str or t is Keyword or x is None or t is bool


def normalize_map(p: Pass1, entries: Iterator[tuple[Any, Any]], depth: int, original: Optional[SpellMap],
                  large: bool = True, lazy: bool = False) -> Any:
    """``normalize_map``: keys that would change are dropped (keys are never altered), counted as unknown.

    When nothing changed, ``original`` (if given) is returned itself rather than rebuilt; a result too
    large to be shown whole is a ``LargeMap`` when ``large`` allows it. ``lazy`` (the snapshot's own
    value, where nothing else is normalised after the map: see ``_lazy_ok``) hands the walk over as a
    lazy ``LargeMap`` once it has ``LAZY_AFTER`` entries.
    """
    if lazy:
        chunks = (original.entry_chunks(_CHUNK) if original is not None
                  else iter(lambda: list(islice(entries, _CHUNK)), []))
        walk = MapWalk(p, chunks, depth, original)
        while len(walk.pairs) < LAZY_AFTER:
            step = walk.step()
            if step == _OUT_OF_FUEL:
                return _map_of(p, with_marker(walk.pairs, UNKNOWN), large)
            if step == _DONE:
                return _finish_map(p, walk.pairs, walk.dropped, walk.same, original, large)
        return p.ctx.large_map(walk.pairs, walk, False)
    if BULK_WALKS and original is not None and len(original) > _BULK_AFTER:
        # A large map inside the value (a vector of maps): the same walk, run to its end at once, in
        # runs of atom entries (MapWalk.extend); ``more`` adds the :unknown marker entry when due.
        walk = MapWalk(p, original.entry_chunks(_CHUNK), depth, original)
        walk.extend(walk.pairs, len(original) + 1)
        if walk.out_of_fuel or walk.dropped:
            return _map_of(p, walk.pairs, large)
        return _finish_map(p, walk.pairs, False, walk.same, original, large)
    # The eager walk: MapWalk.step's body inline (a call per entry costs small maps a third more).
    pairs: list[tuple[Any, Any]] = []
    dropped = False
    same = True
    inner = depth + 1 <= MAX_DEPTH
    for k, x in entries:
        if p.fuel <= 0:
            p.changed = True
            return _map_of(p, with_marker(pairs, UNKNOWN), large)
        if inner and p.fuel > 1 and _atom(type(k), k) and _atom(type(x), x):
            p.fuel -= 2
            pairs.append((k, x))
            continue
        outer = p.changed
        p.changed = False
        key = p.ctx.materialize(normalize(p, k, depth + 1))
        key_changed = p.changed
        p.changed = outer
        if key_changed:
            p.changed = True
            dropped = True
            continue
        value = payload(p, x, depth + 1)
        same = same and key is k and value is x
        pairs.append((key, value))
    return _finish_map(p, pairs, dropped, same, original, large)


def _finish_map(p: Pass1, pairs: list[tuple[Any, Any]], dropped: bool, same: bool, original: Optional[SpellMap],
                large: bool) -> Any:
    """The map a walk that reached the end of its entries produces."""
    if dropped:
        return _map_of(p, with_marker(pairs, UNKNOWN), large)
    if same and original is not None:
        p.ctx.pairs[id(original)] = (original, pairs)  # spares pass 2 another walk of its hash trie
        return original
    return _map_of(p, pairs, large)


LAZY_AFTER = 17
"""Entries a lazy map is walked eagerly first: past 16 a map's ``MapInfo`` no longer looks at its entries."""

LAZY_TOP_MAPS = True
"""False walks every map eagerly: the reference the lazy walk is tested against."""

_GOING = 0
_DONE = 1
_OUT_OF_FUEL = 2


class MapWalk(EntrySource):
    """Pass 1's walk of one map, entry by entry (``normalize_map``'s loop), resumable by a lazy
    ``LargeMap``; ``step`` must stay the same walk as that loop (the lazy-map tests compare them).

    Entries arrive in chunks (``SpellMap.entry_chunks``: slices of the map's order, no Python step
    per entry), so that runs of them can be walked in bulk: ``extend`` appends a run of atom entries
    at once (all ``step`` does for each), ``skip_wide`` a run none of which ``short_map`` can show.
    """

    __slots__ = ("p", "chunks", "depth", "inner", "pairs", "dropped", "same", "total", "pulled", "original",
                 "out_of_fuel", "buf", "at", "spell_keys")

    p: Pass1
    chunks: Iterator[list[tuple[Any, Any]]]
    depth: int
    inner: bool
    pairs: list[tuple[Any, Any]]
    dropped: bool
    same: bool
    total: int
    pulled: int
    original: Optional[SpellMap]
    out_of_fuel: bool
    buf: list[tuple[Any, Any]]  # the current chunk; entries before ``at`` are walked
    at: int
    spell_keys: list[Any]  # the keys of ``pairs`` in the ``spell`` namespace: where marker keys can be

    def __init__(self, p: Pass1, chunks: Iterator[list[tuple[Any, Any]]], depth: int,
                 original: Optional[SpellMap]) -> None:
        self.p = p
        self.chunks = chunks
        self.depth = depth
        self.inner = depth + 1 <= MAX_DEPTH
        self.pairs = []
        self.dropped = False
        self.same = True
        self.original = original
        self.total = len(original) if original is not None else -1  # entries of the map walked (-1: not known)
        self.pulled = 0
        self.out_of_fuel = False
        self.buf = []
        self.at = 0
        self.spell_keys = []

    def _ready(self) -> int:
        """How many entries the current chunk still holds, taking the next chunk when it is used up (0: none left)."""
        left = len(self.buf) - self.at
        while left <= 0:
            chunk = next(self.chunks, None)
            if chunk is None:
                return 0
            self.buf = chunk
            self.at = 0
            left = len(chunk)
        return left

    def step(self) -> int:
        """Walk one entry: ``_GOING``, or the walk ended (``_DONE``) or ran out of fuel with entries left."""
        if self._ready() == 0:
            return _DONE
        item = self.buf[self.at]
        self.at += 1
        self.pulled += 1
        p = self.p
        k, x = item
        if p.fuel <= 0:
            p.changed = True
            self.out_of_fuel = True
            return _OUT_OF_FUEL
        if self.inner and p.fuel > 1 and _atom(type(k), k) and _atom(type(x), x):
            p.fuel -= 2
            self.pairs.append((k, x))
            if type(k) is Keyword and k.ns == "spell":
                self.spell_keys.append(k)
            return _GOING
        outer = p.changed
        p.changed = False
        key = p.ctx.materialize(normalize(p, k, self.depth + 1))
        key_changed = p.changed
        p.changed = outer
        if key_changed:
            p.changed = True
            self.dropped = True
            return _GOING
        value = payload(p, x, self.depth + 1)
        self.same = self.same and key is k and value is x
        self.pairs.append((key, value))
        if type(key) is Keyword and key.ns == "spell":
            self.spell_keys.append(key)
        return _GOING

    def _atom_run(self, most: int) -> int:
        """How many of the next entries (at most ``most``, all in the current chunk) ``step`` would
        take as atoms, decided for the run as a whole: that many, or 0 when not all of them are."""
        p = self.p
        n = min(most, len(self.buf) - self.at, p.fuel // 2)  # step takes atoms while fuel > 1, 2 each
        if n <= 0 or not self.inner:
            return 0
        run = self.buf[self.at:self.at + n]
        if not _ATOM_TYPES.issuperset(map(type, map(_KEY, run))):
            return 0
        if not _ATOM_TYPES.issuperset(map(type, map(_VALUE, run))):
            return 0
        return n

    def _take(self, n: int, checked: bool = False) -> None:
        """Walk the next ``n`` entries as ``step`` walks atoms (``_atom_run`` said they are);
        ``checked``: none of their keys is in the ``spell`` namespace (``too_wide`` said so)."""
        run = self.buf[self.at:self.at + n]
        if not checked and not no_spell_keys(run):
            self.spell_keys.extend(k for k, _ in run if type(k) is Keyword and k.ns == "spell")
        self.pairs.extend(run)
        self.at += n
        self.pulled += n
        self.p.fuel -= 2 * n

    def extend(self, pairs: list[tuple[Any, Any]], n: int) -> bool:
        if pairs is self.pairs:
            while len(pairs) < n:
                if self._ready() == 0:
                    break
                run = self._atom_run(max(_RUN, n - len(pairs)))
                if run:
                    self._take(run)
                elif not self.more(pairs):
                    return False
            if len(pairs) >= n:
                return True
        return super().extend(pairs, n)

    def skip_wide(self, least: int, ctx: Ctx) -> tuple[int, int]:
        """Walk on while the next entries are literal atoms (pass 1 keeps those as they are) too wide
        for ``short_map`` to show: each of them would need more than ``least`` units besides what the
        map has (see ``shorten._MapWidth.quoted_floor``). They join ``pairs`` as ``step`` would add
        them; (how many, their summed weight). Stops before anything else, which ``step`` then walks.

        This is ``step`` and ``short_map``'s first test fused: past the entries a clipped map shows,
        it is all that is left of a snapshot of a large map. Runs of ``_RUN`` entries of one simple
        kind are decided at once from their narrowest key and value (``batch``); a run that holds a
        narrower entry, or anything else, is walked entry by entry (``_skip_each``)."""
        taken = 0
        weight = 0
        size = _RUN
        while self.inner and self._ready():
            n = min(size, len(self.buf) - self.at, self.p.fuel // 2)  # what step takes as atoms
            if n <= 0:
                break
            wide = wide_run(self.buf, self.at, n, least)
            if wide:
                self._take(wide, True)
                taken += wide
                weight += wide  # keys of the ``spell`` namespace are never decided in a run
                if wide == n:
                    size = min(2 * size, _RUN_MOST)
                    continue
                n -= wide
            size = _RUN
            t, w = self._skip_each(least, n)
            taken += t
            weight = add_weight(weight, w)
            if t < n:
                break  # stopped before an entry that may fit, or before a non-atom
        return taken, weight

    def _skip_each(self, least: int, most: int) -> tuple[int, int]:
        """``skip_wide`` entry by entry, for at most ``most`` entries of the current chunk."""
        p = self.p
        pairs = self.pairs
        buf = self.buf
        taken = 0
        weight = 0
        if not self.inner:
            return 0, 0
        end = min(len(buf), self.at + most)
        while p.fuel > 1 and self.at < end:
            item = buf[self.at]
            k, x = item
            tk = type(k)
            tx = type(x)
            if tk is Keyword:
                if k is K_SPELL_FN or not reader_keyword(k):
                    break
                wk = 1 + len(k.name) + (len(k.ns) + 1 if k.ns is not None else 0)
            elif tk is int:
                wk = len(str(k)) if -(10 ** 17) < k < 10 ** 17 else 18
            elif tk is str:
                wk = 2 + len(k)
            else:
                break
            if tx is int:
                wx = min(len(str(x)) if -(10 ** 17) < x < 10 ** 17 else 18, ATOM_FLOOR)
            elif tx is Keyword:
                if not reader_keyword(x):
                    break
                wx = min(1 + len(x.name) + (len(x.ns) + 1 if x.ns is not None else 0), ATOM_FLOOR)
            elif tx is str:
                wx = min(2 + len(x), STRING_FLOOR)
            else:
                break
            if wk + wx <= least:
                break
            self.at += 1
            self.pulled += 1
            p.fuel -= 2
            pairs.append(item)
            taken += 1
            if tk is Keyword and k.ns == "spell":
                self.spell_keys.append(k)
                weight = add_weight(weight, entry_weight(k, x))
            else:
                weight += 1
        return taken, weight

    def more(self, pairs: list[tuple[Any, Any]]) -> bool:
        step = self.step()
        if step == _GOING:
            return True
        if step == _OUT_OF_FUEL or self.dropped:
            pairs.append(marker_entry_among(self.spell_keys, UNKNOWN))
        return False

    def unchanged(self) -> Optional[SpellMap]:
        return self.original if self.same and not self.dropped and self.out_of_fuel is False else None


_RUN = 64
"""Entries decided together by ``MapWalk.extend`` and first by ``skip_wide``: long enough that a run
costs a few C loops, short enough that a run holding one narrow entry, walked one by one, costs little."""

_RUN_MOST = 1024
"""``skip_wide`` doubles its runs while they are decided whole, up to this many entries."""

_ATOM_TYPES: Final = frozenset({int, str, Keyword, type(None), bool})
"""The types ``_atom`` accepts."""

_KEY: Final = itemgetter(0)
_VALUE: Final = itemgetter(1)

BULK_WALKS = True
"""False walks a large map inside the value with the inline loop, and a vector's elements past the
fuel one by one: the reference for these bulk walks."""

_BULK_AFTER = 64
"""Entries past which ``normalize_map`` walks a map with ``MapWalk`` (in runs) rather than inline."""

_CHUNK = 1024
"""Entries per chunk of a lazily walked map (``SpellMap.entry_chunks``)."""


def _lazy_ok(v: SpellMap) -> bool:
    """A lazy ``LargeMap`` must answer ``MapInfo`` without its entries: no function flag, and not a
    possible envelope (a walk cut short could leave an envelope's shape)."""
    flag = v.get(K_SPELL_FN)
    if flag is not None and flag is not False:
        return False
    return not (v.contains(K_OK) and v.contains(K_OUT) and v.contains(K_ERR))


def _map_of(p: Pass1, pairs: list[tuple[Any, Any]], large: bool) -> Any:
    if large and 4 * len(pairs) + 1 > p.grace:  # at least "k v" per entry, one space between: cannot fit
        return p.ctx.large_map(pairs)
    return p.ctx.new_map(pairs)


def _sequence(p: Pass1, v: Any, depth: int) -> Any:
    items: list[Any] = []
    it = iter(v)
    more = True
    same = True
    while p.fuel > 0:
        item = next(it, END)
        if item is END:
            more = False
            break
        y = normalize(p, item, depth + 1)
        same = same and y is item
        items.append(y)
    if more and next(it, END) is not END:
        p.changed = True
        items.append(marker(UNKNOWN))
        same = False
    t = type(v)
    if same and (t is PList or t is SpellSet):
        return v
    if isinstance(v, SpellSet):
        return SpellSet.from_items([p.ctx.materialize(x) for x in items])
    return plist(items)
