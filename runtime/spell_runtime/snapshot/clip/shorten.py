"""Pass 2 of the snapshot algorithm: shortening toward the target (runtime.md §4.5.3).

Every container keeps its kind and says what it left out; strings keep a head
and a tail around a marker; keys are never shortened; omission markers are
never shortened (D2) and nothing is ever made longer than it was (D3).

Costs stay proportional to the output: fitting tests are capped renders, a
string's candidates are measured from their two kept ends only, and a map is
grown entry by entry with its rendered length updated arithmetically instead of
re-rendering the whole candidate after each entry.

Maps fill greedily, and that is kept (issue 14, item 5): ``short_map`` offers
every entry pass 1 kept, in order, and takes each that still fits, so an entry
narrow enough for the last few units is shown even after thousands that were
too wide. That is what runtime.md §4.5.3 specifies and what the reference
implementation's ``short-map`` does (it loops over all entries); stopping at the
first entry that does not fit would show fewer entries than the reference for
the same value. So the walk does not stop once the map is full; it gets cheap
instead. Past a refused entry, runs of entries are proven too wide at once from
a lower bound of each entry's width (``batch``: the narrowest key plus the
narrowest value, in C loops interpreted, a native loop compiled), and plain-atom
entries of a quoted map are measured from exact widths without rendering; the
output is byte-identical to measuring every entry (the property tests compare
them with ``SHORTCUTS`` off) and the omission counts are the same sums.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from ...data.atoms import K_SPELL_FN, Keyword
from ...data.hashmap import EMPTY_MAP, SpellMap, SpellSet
from ...data.plist import PList, plist
from ...data.vector import LineVector, PVector, VectorView, vec
from .batch import KEYWORD_WIDTHS, keyword_width, wide_run
from .normalize import MapWalk
from .render import Ctx, LargeMap, data_len, fits, is_collection, is_map, literal, vf_len
from .selection import Allowance, select
from .shapes import (
    ATOM_FLOOR,
    EXCEEDS,
    K_ERR,
    K_OUT,
    STRING_FLOOR,
    add_weight,
    build_envelope,
    controls,
    diagnostic,
    diagnostic_width,
    entry_weight,
    extra_entries,
    with_marker,
)
from .text import Window, escapes


def quot(a: int, b: int) -> int:
    """Integer division truncating toward zero (runtime.md §0.3)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def shorten(ctx: Ctx, v: Any, budget: int) -> Any:
    """``shorten(v, budget)``."""
    if budget < 0:
        budget = 0
    if fits(ctx, v, budget):
        return v
    if not is_collection(v):
        return shorten_over(ctx, v, budget)
    key = (id(v), budget)
    found = ctx.shortened.get(key)
    if found is not None:
        return found[1]
    r = shorten_over(ctx, v, budget)
    ctx.shortened[key] = (v, r)
    return r


def shorten_over(ctx: Ctx, v: Any, budget: int) -> Any:
    """``shorten`` of a ``v`` already known not to fit ``budget`` (≥ 0)."""
    t = type(v)
    r: Any
    if t is str:
        r = short_string(v, budget)
    elif t is PVector or t is LineVector or t is VectorView:
        r = short_vector(ctx, v, budget)
    elif is_map(v):
        info = ctx.info(v)
        if info.marker:
            return v  # D2: omission markers are never shortened
        if info.envelope:
            r = short_envelope(ctx, v, budget)
        elif info.fn is not None:
            r = diagnostic(v, EXCEEDS)
        else:
            r = short_map(ctx, v, budget)
    elif t is PList or isinstance(v, SpellSet):
        rows = list(short_vector(ctx, vec(v), budget))
        r = plist(rows) if t is PList else SpellSet.from_items([ctx.materialize(x) for x in rows])
    else:
        if vf_len(ctx, v, diagnostic_width(v, EXCEEDS) - 1) >= 0:
            return v  # the diagnostic would be longer (D3)
        r = diagnostic(v, EXCEEDS)
    # D3: never lengthen. ``v`` does not fit the budget, so an ``r`` that does is shorter.
    if vf_len(ctx, r, budget) >= 0:
        return r
    r_len = vf_len(ctx, r, -1)
    if vf_len(ctx, v, r_len - 1) >= 0:
        return v
    return r


# -- strings ----------------------------------------------------------------------------------

def _omission(h: int, t: int, n: int) -> str:
    return "... [omitted " + str(t - h) + " UTF-16; " + str(h) + ".." + str(t) + " of " + str(n) + "] ..."


def _cut(w: Window, k: int) -> tuple[int, int]:
    """(head end, tail start) for a candidate keeping about ``k`` units, never splitting a pair."""
    q = (3 * k) // 4
    h = w.safe_head(min(w.n, q))
    t = w.safe_tail(max(h, w.n - (k - q)))
    return h, t


def short_string(s: str, budget: int) -> str:
    """The string with a surrogate-safe head and tail around its omission marker, as long as fits."""
    w = Window(s, budget + 2)
    n = w.n
    best = 0
    lo = 0
    hi = min(n, budget)
    while lo <= hi:
        mid = (lo + hi) // 2
        h, t = _cut(w, mid)
        width = 2 + h + len(_omission(h, t, n)) + (n - t)
        if width <= budget:
            width += escapes(w.prefix(h)) + escapes(w.suffix(t))
        if width <= budget:
            best = mid
            lo = mid + 1
        else:
            hi = mid - 1
    h, t = _cut(w, best)
    return w.prefix(h) + _omission(h, t, n) + w.suffix(t)


# -- vectors, sets, lists ---------------------------------------------------------------------

def short_vector(ctx: Ctx, v: Any, budget: int) -> Any:
    """``short_vector``: fewer elements until the shortened candidate fits (numbered rows keep lines)."""
    n = len(v)
    k = min(n, max(0, budget // 24))
    exact = Allowance(-1)
    marks = ctx.marks(v)
    while True:
        head = n if k == n else (3 * k) // 4
        sel = select(v, head, k - head, exact, marks)
        each = max(8, max(0, budget - 80) // max(1, len(sel.items)))
        rows: list[Any] = []
        positions = sel.positions
        i = 0
        for row in sel.items:
            if positions is not None and positions[i] is None:
                rows.append(row)
            else:
                rows.append(shorten(ctx, row, each))
            i += 1
        candidate = sel.build(rows)
        if k == 0 or fits(ctx, candidate, budget):
            return candidate
        k //= 2


# -- maps -------------------------------------------------------------------------------------

_STRING_FLOOR: Final = STRING_FLOOR
_INT_LIMIT: Final = 10 ** 17
_ATOM_FLOOR: Final = ATOM_FLOOR


def _floor(ctx: Ctx, x: Any) -> int:
    """A lower bound of the data width of ``shorten(x, b)`` for any ``b``, or -1 when ``x`` is not a literal atom."""
    if type(x) is str:
        w = data_len(x, _STRING_FLOOR)
        return _STRING_FLOOR if w < 0 else w
    if is_collection(x) or not literal(ctx, x):
        return -1
    w = data_len(x, _ATOM_FLOOR)
    return _ATOM_FLOOR if w < 0 else w


_LITERAL_ATOMS: Final = frozenset({Keyword, int, str})
"""Atoms that, when ``literal``, are written the same as data and as value forms and stay literal
whatever ``shorten`` makes of them (clipped strings, diagnostics)."""


def _least_width(x: Any, shortened: bool) -> int:
    """A cheap lower bound of the width ``x`` renders to — as data or as a value form, and, when
    ``shortened``, after any ``shorten`` (atoms never get narrower than ``_floor``). At least 1."""
    t = type(x)
    if t is Keyword:
        w = 1 + len(x.name) + (len(x.ns) + 1 if x.ns is not None else 0)
    elif t is int:
        w = len(str(x)) if -(10 ** 17) < x < 10 ** 17 else 18
    elif t is str:
        w = 2 + len(x)
        return min(w, _STRING_FLOOR) if shortened else w
    else:
        return 1
    return min(w, _ATOM_FLOOR) if shortened else w


class _MapWidth:
    """The rendered length of a map grown entry by entry, for each of its three value-form spellings.

    A map of literal data is written ``(quote {k v ...})``; with literal keys but
    some other value ``{k <value form> ...}``; otherwise ``(into {} [[kf vf] ...])``.
    Each spelling's entry widths are kept as running sums over the accepted
    entries, so a candidate entry costs only the widths its spelling needs. A
    width beyond the cap counts as ``cap + 1``, so any sum that uses it cannot fit.
    """

    __slots__ = ("cap", "n", "keys_lit", "all_lit", "quoted", "braced", "into")

    cap: int
    n: int
    keys_lit: bool
    all_lit: bool
    quoted: int
    braced: int
    into: int

    def __init__(self, cap: int) -> None:
        self.cap = max(0, cap)
        self.n = 0
        self.keys_lit = True
        self.all_lit = True
        self.quoted = 0
        self.braced = 0
        self.into = 0

    def _data(self, x: Any) -> int:
        w = data_len(x, self.cap)
        return self.cap + 1 if w < 0 else w

    def _form(self, ctx: Ctx, x: Any) -> int:
        w = vf_len(ctx, x, self.cap)
        return self.cap + 1 if w < 0 else w

    def width_with(self, ctx: Ctx, k: Any, key_form: int, x: Any) -> int:
        """Length of the map's rendered value form once the entry ``k x`` is added."""
        k_lit = literal(ctx, k)
        if self.all_lit and k_lit and literal(ctx, x):
            return 10 + self.quoted + self._data(k) + 1 + self._data(x) + self.n
        if self.keys_lit and k_lit:
            return 2 + self.braced + self._data(k) + 1 + self._form(ctx, x) + self.n
        return 12 + self.into + key_form + self._form(ctx, x) + 3 + self.n

    def too_wide(self, ctx: Ctx, k: Any, x: Any, target: int) -> bool:
        """True when the entry ``k x`` cannot fit however ``x`` is shortened (checked without shortening it).

        Decidable cheaply only while the map stays quoted: a literal key and an
        atom value, which shortening turns into itself, a diagnostic or a clipped
        string — all literal, none narrower than ``_floor``.
        """
        if not self.all_lit or k is K_SPELL_FN or not literal(ctx, k):
            return False
        floor = _floor(ctx, x)
        return floor >= 0 and 10 + self.quoted + self._data(k) + 1 + floor + self.n > target

    def floor(self) -> int:
        """``least_with`` less its entry's own width, at its least over the spellings still possible:
        a cheap first test that needs no ``literal`` check of the entry."""
        least = 12 + self.into + self.n + 3
        if self.keys_lit:
            least = min(least, 2 + self.braced + self.n + 1)
        if self.all_lit:
            least = min(least, 10 + self.quoted + self.n + 1)
        return least

    def quoted_floor(self) -> int:
        """``least_with`` of a literal-atom entry less the entry's width, while the map is quoted
        (far below any target otherwise, so the test using it never decides alone)."""
        return 10 + self.quoted + self.n + 1 if self.all_lit else -(1 << 60)

    def least_with(self, ctx: Ctx, k: Any, x: Any) -> int:
        """A lower bound of ``width_with`` for the entry ``k x``, whichever spelling it leads to and
        however ``x`` is shortened; costs a few attribute reads (``_least_width``)."""
        entry = _least_width(k, False) + _least_width(x, True)
        into = 12 + self.into + self.n + 3 + entry
        braced = 2 + self.braced + self.n + 1 + entry
        quoted = 10 + self.quoted + self.n + 1 + entry
        if type(k) in _LITERAL_ATOMS and type(x) in _LITERAL_ATOMS and literal(ctx, k) and literal(ctx, x):
            # Shortening keeps such a value literal, so the spelling is the one the map has now.
            return quoted if self.all_lit else braced if self.keys_lit else into
        least = into
        if self.keys_lit:
            least = min(least, braced)
        if self.all_lit:
            least = min(least, quoted)
        return least

    def add(self, ctx: Ctx, k: Any, key_form: int, x: Any) -> None:
        k_lit = literal(ctx, k)
        x_lit = literal(ctx, x)
        kd = self._data(k) if k_lit else self.cap + 1
        xf = self._form(ctx, x)
        self.quoted += kd + 1 + (self._data(x) if x_lit else self.cap + 1)
        self.braced += kd + 1 + xf
        self.into += key_form + xf + 3
        self.n += 1
        self.keys_lit = self.keys_lit and k_lit
        self.all_lit = self.all_lit and k_lit and x_lit


SHORTCUTS = True
"""False turns off ``short_map``'s exact shortcuts (the first test without ``least_with``, the walk
fused with it, the stop once nothing fits): the reference they are tested against."""


def short_map(ctx: Ctx, m: Any, budget: int) -> SpellMap:
    """``short_map``: every entry that still fits, in order; the rest summed into one marker entry.

    Entries of plain atoms in a quoted map are decided from exact widths; after a refused one, runs
    of entries too wide for what is left are omitted together (``batch.wide_run``); past the entries
    a lazy ``LargeMap`` has walked, its walk and that test run together (``MapWalk.skip_wide``); a
    lazy map is walked as far as the allowance of each measured entry needs its count to be known
    (``_look_ahead``) (issue 14). Every entry pass 1 kept is still decided: a narrow one may fit in
    what is left (module docstring).
    """
    target = budget - 32
    lazy = m if type(m) is LargeMap and not m.is_complete() else None
    entries = m.pairs if type(m) is LargeMap else ctx.entries(m)
    pairs: list[tuple[Any, Any]] = []
    widths = _MapWidth(target)
    remaining = target
    omitted: Optional[int] = None
    fn_flagged = False
    quoted_floor = widths.quoted_floor()
    fast = SHORTCUTS and (lazy is not None or len(entries) > 64)  # small maps: the plain loop is cheaper
    walk = lazy.source if lazy is not None and isinstance(lazy.source, MapWalk) else None
    known_widths = KEYWORD_WIDTHS
    run = 64  # entries decided together by wide_run, doubled while runs are decided whole
    i = -1
    while True:
        i += 1
        if i >= len(entries) and lazy is not None:
            if fast and walk is not None and widths.all_lit and not fn_flagged and not lazy.is_complete():
                # Past what can be shown: walk pass 1 and this test in one loop (MapWalk.skip_wide).
                taken, w = walk.skip_wide(target - quoted_floor, ctx)
                if taken:
                    omitted = w if omitted is None else add_weight(omitted, w)
                    i += taken - 1
                    continue
            if lazy.fill(i + 1) <= i:
                break
        if i >= len(entries):
            break
        k, x = entries[i]
        if fast and not fn_flagged and widths.all_lit:
            # A quoted map taking an entry of plain atoms: its exact widths decide it, and shortening
            # would hand the value back unchanged (narrower than any diagnostic), so nothing is rendered.
            tk = type(k)
            kd = -1
            if tk is Keyword:
                found = known_widths.get(k)
                kd = keyword_width(k) if found is None else found  # -1 for :spell/ keys: measured below
            elif tk is int:
                if -_INT_LIMIT < k < _INT_LIMIT:
                    kd = len(str(k))
            elif tk is str:
                kd = data_len(k, target)
                if kd < 0:
                    kd = target + 1
            if kd >= 0:
                tx = type(x)
                xd = -1
                if tx is int:
                    if -_INT_LIMIT < x < _INT_LIMIT:
                        xd = len(str(x))
                elif tx is Keyword:
                    found = known_widths.get(x)
                    xd = keyword_width(x) if found is None else found
                    if xd > _ATOM_FLOOR:
                        xd = -1
                elif x is None:
                    xd = 3
                elif tx is bool:
                    xd = 4 if x else 5
                if xd >= 0:
                    width = 10 + widths.quoted + kd + 1 + xd + widths.n
                    if width <= target:
                        pairs.append((k, x))
                        widths.quoted += kd + 1 + xd
                        widths.braced += kd + 1 + xd
                        widths.into += kd + xd + 3
                        widths.n += 1
                        remaining = target - width
                        quoted_floor = 11 + widths.quoted + widths.n  # widths.quoted_floor(), still quoted
                    else:
                        omitted = 1 if omitted is None else add_weight(omitted, 1)
                        # Full, or nearly: the entries after this one may be too wide as a run.
                        n = min(run, len(entries) - i - 1)
                        if n >= 16:
                            wide = wide_run(entries, i + 1, n, target - quoted_floor)
                            if wide:
                                omitted = add_weight(omitted, wide)  # keys in ``spell`` never pass
                                i += wide
                                run = min(2 * run, 1024) if wide == n else 64
                            else:
                                run = 64
                    continue
        if not fn_flagged and k is not K_SPELL_FN and (
                fast and quoted_floor + _least_width(k, False) + _least_width(x, True) > target
                and type(k) in _LITERAL_ATOMS and type(x) in _LITERAL_ATOMS and literal(ctx, k)
                and literal(ctx, x)  # least_with of a quoted map's literal entry, without the call
                or widths.least_with(ctx, k, x) > target):
            # Cannot fit whatever its value is shortened to: omitted without measuring it, so a full
            # map costs what its shown entries cost, not what the remaining ones would (issue 14).
            w = entry_weight(k, x)
            omitted = w if omitted is None else add_weight(omitted, w)
            continue
        key_form = vf_len(ctx, k, max(0, remaining))
        if lazy is not None:
            _look_ahead(lazy, i, remaining)
        allowance = max(8, quot(remaining, max(1, len(entries) - i)))
        accepted = False
        if key_form >= 0 and not fn_flagged and widths.too_wide(ctx, k, x, target):
            key_form = -1
        if key_form >= 0:
            value = shorten(ctx, x, allowance - key_form)
            flags_fn = k is K_SPELL_FN and value is not None and value is not False
            if fn_flagged or flags_fn:
                # A function-flagged map is never literal and may render as (fn ...): measure it whole.
                candidate = SpellMap.from_pairs([*pairs, (k, value)])
                width = vf_len(ctx, candidate, target) if target >= 0 else -1
            else:
                width = widths.width_with(ctx, k, key_form, value)
                if width > target:
                    width = -1
            if width >= 0:
                pairs.append((k, value))
                widths.add(ctx, k, key_form, value)
                remaining = target - width
                fn_flagged = fn_flagged or flags_fn
                quoted_floor = widths.quoted_floor()
                accepted = True
        if not accepted:
            w = entry_weight(k, x)
            omitted = w if omitted is None else add_weight(omitted, w)
    shown = len(pairs)
    if omitted is not None:
        pairs = with_marker(pairs, omitted)
    if not pairs:
        return EMPTY_MAP
    result = ctx.new_map(pairs)
    if fast and widths.all_lit and not fn_flagged:
        # Quoted, and measured entry by entry on the way: "(quote {" + entries + "})".
        width = 10 + widths.quoted + max(0, shown - 1)
        if omitted is not None:
            mk, mv = pairs[-1]
            width += (1 if shown else 0) + data_len(mk, -1) + 1 + data_len(mv, -1)
        ctx.known_length(result, width)
    return result


def _look_ahead(lazy: LargeMap, i: int, remaining: int) -> None:
    """Walk a lazy map far enough that entry ``i``'s allowance, ``max(8, quot(remaining, count - i))``,
    comes out the same from the entries known as from the final count (which can only be larger):
    either the quotient is at most 8 already, or every entry is known."""
    lazy.fill(i + max(0, quot(remaining, 9)) + 1)


# -- envelopes --------------------------------------------------------------------------------

def short_envelope(ctx: Ctx, v: SpellMap, budget: int) -> SpellMap:
    """``short_envelope``: status fields untouched, extras then ``:err`` then ``:out`` share the rest."""
    ctrl = controls(v)
    overhead0 = vf_len(ctx, build_envelope(ctrl, None, None, True, None), -1)
    extra = extra_entries(v)
    extras: Optional[SpellMap] = None
    if extra:
        extras = short_map(ctx, SpellMap.from_pairs(extra), max(32, quot(budget - overhead0, 4)))
    overhead = vf_len(ctx, build_envelope(ctrl, None, None, True, extras), -1)
    available = max(8, budget - overhead)
    err = shorten(ctx, v.get(K_ERR), max(8, quot(available, 4)))
    out = shorten(ctx, v.get(K_OUT), max(8, available - vf_len(ctx, err, -1)))
    return build_envelope(ctrl, out, err, True, extras)

