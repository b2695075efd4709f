"""Pass 2 of the snapshot algorithm: shortening toward the target (runtime.md §4.5.3).

Every container keeps its kind and says what it left out; strings keep a head
and a tail around a marker; keys are never shortened; omission markers are
never shortened (D2) and nothing is ever made longer than it was (D3).

Costs stay proportional to the output: fitting tests are capped renders, a
string's candidates are measured from their two kept ends only, and a map is
grown entry by entry with its rendered length updated arithmetically instead of
re-rendering the whole candidate after each entry.
"""

from __future__ import annotations

from typing import Any, Optional

from ...data.atoms import K_SPELL_FN
from ...data.hashmap import EMPTY_MAP, SpellMap, SpellSet
from ...data.plist import PList, plist
from ...data.vector import LineVector, PVector, vec
from .render import Ctx, data_len, fits, fn_parts, literal, vf_len
from .selection import Allowance, select
from .shapes import (
    EXCEEDS,
    K_ERR,
    K_OUT,
    add_weight,
    build_envelope,
    controls,
    diagnostic,
    diagnostic_width,
    entry_weight,
    extra_entries,
    is_envelope,
    is_marker,
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
    if is_marker(v):
        return v
    t = type(v)
    r: Any
    if t is str:
        r = short_string(v, budget)
    elif t is PVector or t is LineVector:
        r = short_vector(ctx, v, budget)
    elif isinstance(v, SpellMap):
        if is_envelope(v):
            r = short_envelope(ctx, v, budget)
        elif fn_parts(v) is not None:
            r = diagnostic(v, EXCEEDS)
        else:
            r = short_map(ctx, v, budget)
    elif t is PList or isinstance(v, SpellSet):
        rows = list(short_vector(ctx, vec(v), budget))
        r = plist(rows) if t is PList else SpellSet.from_items(rows)
    else:
        if vf_len(ctx, v, diagnostic_width(v, EXCEEDS) - 1) >= 0:
            return v  # the diagnostic would be longer (D3)
        r = diagnostic(v, EXCEEDS)
    r_len = vf_len(ctx, r, -1)
    if r_len > 0 and vf_len(ctx, v, r_len - 1) >= 0:
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
    while True:
        head = n if k == n else (3 * k) // 4
        sel = select(v, head, k - head, exact)
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

class _MapWidth:
    """The rendered length of a map grown entry by entry, for each of its three value-form spellings.

    A map of literal data is written ``(quote {k v ...})``; with literal keys but
    some other value ``{k <value form> ...}``; otherwise ``(into {} [[kf vf] ...])``.
    Each spelling's entry widths are kept as a running sum. A width beyond the
    cap is counted as ``cap + 1``, so any sum that uses it cannot fit.
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

    def entry(self, ctx: Ctx, k: Any, key_form: int, x: Any) -> _Grown:
        """The sums after adding the entry ``k x`` (``key_form``: width of the key's value form)."""
        over = self.cap + 1
        k_lit = literal(ctx, k)
        x_lit = literal(ctx, x)
        kd = data_len(k, self.cap) if k_lit else -1
        xd = data_len(x, self.cap) if x_lit else -1
        xf = vf_len(ctx, x, self.cap)
        kd = over if kd < 0 else kd
        xd = over if xd < 0 else xd
        xf = over if xf < 0 else xf
        return _Grown(self.quoted + kd + 1 + xd, self.braced + kd + 1 + xf, self.into + key_form + xf + 3,
                      self.n + 1, self.keys_lit and k_lit, self.all_lit and k_lit and x_lit)

    def accept(self, g: _Grown) -> None:
        self.quoted = g.quoted
        self.braced = g.braced
        self.into = g.into
        self.n = g.n
        self.keys_lit = g.keys_lit
        self.all_lit = g.all_lit


class _Grown:
    """The running sums of ``_MapWidth`` with one more entry."""

    __slots__ = ("quoted", "braced", "into", "n", "keys_lit", "all_lit")

    quoted: int
    braced: int
    into: int
    n: int
    keys_lit: bool
    all_lit: bool

    def __init__(self, quoted: int, braced: int, into: int, n: int, keys_lit: bool, all_lit: bool) -> None:
        self.quoted = quoted
        self.braced = braced
        self.into = into
        self.n = n
        self.keys_lit = keys_lit
        self.all_lit = all_lit

    def width(self) -> int:
        """Length of the map's rendered value form (for a map that is not function-flagged)."""
        spaces = self.n - 1
        if self.all_lit:
            return 10 + self.quoted + spaces
        if self.keys_lit:
            return 2 + self.braced + spaces
        return 12 + self.into + spaces


def short_map(ctx: Ctx, m: SpellMap, budget: int) -> SpellMap:
    """``short_map``: entries in order while they fit; the rest summed into one marker entry."""
    target = budget - 32
    entries = ctx.entries(m)
    count = len(entries)
    pairs: list[tuple[Any, Any]] = []
    widths = _MapWidth(target)
    remaining = target
    omitted: Optional[int] = None
    fn_flagged = False
    for i in range(count):
        k, x = entries[i]
        key_form = vf_len(ctx, k, max(0, remaining))
        allowance = max(8, quot(remaining, max(1, count - i)))
        accepted = False
        if key_form >= 0:
            value = shorten(ctx, x, allowance - key_form)
            grown = widths.entry(ctx, k, key_form, value)
            flags_fn = k is K_SPELL_FN and value is not None and value is not False
            if fn_flagged or flags_fn:
                # A function-flagged map is never literal and may render as (fn ...): measure it whole.
                candidate = SpellMap.from_pairs([*pairs, (k, value)])
                width = vf_len(ctx, candidate, target) if target >= 0 else -1
            else:
                width = grown.width()
                if width > target:
                    width = -1
            if width >= 0:
                pairs.append((k, value))
                widths.accept(grown)
                remaining = target - width
                fn_flagged = fn_flagged or flags_fn
                accepted = True
        if not accepted:
            w = entry_weight(k, x)
            omitted = w if omitted is None else add_weight(omitted, w)
    if omitted is not None:
        pairs = with_marker(pairs, omitted)
    return ctx.new_map(pairs) if pairs else EMPTY_MAP


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

