"""Pass 1 of the snapshot algorithm: a bounded traversal into displayable Spell data (runtime.md §4.5.2).

One ``fuel`` counter (``2 * grace``) is spent across the whole value, one unit
per visited node, so the traversal costs at most a constant times the target
no matter how large or deep the input is; anything past the fuel or below depth
64 becomes a diagnostic. Vectors are cut to a head and a tail before their
elements are visited, sets, lists and lazy sequences are pulled one item at a
time and never counted, and maps stop at the first entry the fuel cannot pay
for. Anything that is not Spell data becomes a truthful diagnostic map.

``changed`` records whether anything was left out or replaced; map keys and an
envelope's contents are normalised under a *local* flag, as the spec requires,
by saving and restoring it around them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...data.atoms import Char, Keyword, Symbol
from ...data.equality import spell_eq
from ...data.hashmap import SpellMap, SpellSet
from ...data.plist import PList, plist
from ...data.vector import LineVector, PVector
from ...hooks import read_all
from ...readable import is_reader_number
from ..lazy import END, is_lazy
from .render import Ctx, data_text, fn_parts, is_number
from .selection import Allowance, select
from .shapes import (
    BOUNDED,
    CONVERSION_FAILED,
    K_ERR,
    K_OUT,
    K_TRUNCATED,
    SOURCE_UNAVAILABLE,
    UNKNOWN,
    UNREADABLE_NUMBER,
    UNSUPPORTED,
    build_envelope,
    controls,
    diagnostic,
    is_envelope,
    is_envelope_key,
    marker,
    with_marker,
)

MAX_DEPTH = 64

_S_FN = Symbol("fn")


class Pass1:
    """The state shared by one traversal: fuel, the ``changed`` flag and the weight-scan allowance."""

    __slots__ = ("fuel", "changed", "grace", "allowance", "ctx")

    fuel: int
    changed: bool
    grace: int
    allowance: Allowance
    ctx: Ctx

    def __init__(self, grace: int, ctx: Ctx) -> None:
        self.fuel = 2 * grace
        self.changed = False
        self.grace = grace
        self.allowance = Allowance(grace)
        self.ctx = ctx


def normalize(p: Pass1, v: Any, depth: int) -> Any:
    """``normalize(v, fuel, depth)``."""
    p.fuel -= 1
    if p.fuel < 0 or depth > MAX_DEPTH:
        p.changed = True
        return diagnostic(v, BOUNDED)
    t = type(v)
    if t is int or t is str or v is None or t is bool or t is Keyword or t is Symbol or t is Char:
        return v
    if is_number(v):
        if is_reader_number(v):
            return v
        p.changed = True
        return diagnostic(v, UNREADABLE_NUMBER)
    if t is PVector or t is LineVector:
        return _vector(p, v, depth)
    if isinstance(v, SpellMap):
        parts = fn_parts(v)
        if parts is not None:
            if _fn_source_ok(p, parts[0], parts[1]):
                return v
            p.changed = True
            return diagnostic(v, SOURCE_UNAVAILABLE)
        if is_envelope(v):
            return _envelope(p, v, depth)
        return normalize_map(p, v.items(), depth)
    if t is PList or isinstance(v, SpellSet) or is_lazy(v):
        return _sequence(p, v, depth)
    p.changed = True
    return diagnostic(v, UNSUPPORTED)


def payload(p: Pass1, x: Any, depth: int) -> Any:
    """``normalize_payload``: a failure inside becomes a diagnostic of this element."""
    try:
        return normalize(p, x, depth)
    except Exception:
        p.changed = True
        return diagnostic(x, CONVERSION_FAILED)


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
    sel = select(v, head, k - head, p.allowance)
    numbered = sel.positions is not None
    rows: list[Any] = []
    for x in sel.items:
        if numbered and type(x) is str:
            p.fuel -= 1
            rows.append(x)
        else:
            rows.append(payload(p, x, depth + 1))
    if k < n:
        p.changed = True
    return sel.build(rows)


def _envelope(p: Pass1, v: SpellMap, depth: int) -> SpellMap:
    outer = p.changed
    p.changed = False
    out = payload(p, v.get(K_OUT), depth + 1)
    err = payload(p, v.get(K_ERR), depth + 1)
    extras = normalize_map(p, ((k, x) for k, x in v.items() if not is_envelope_key(k)), depth)
    local = p.changed
    p.changed = outer or local
    return build_envelope(controls(v), out, err, v.get(K_TRUNCATED) is True or local, extras)


def normalize_map(p: Pass1, entries: Iterator[tuple[Any, Any]], depth: int) -> SpellMap:
    """``normalize_map``: keys that would change are dropped (keys are never altered), counted as unknown."""
    pairs: list[tuple[Any, Any]] = []
    dropped = False
    for k, x in entries:
        if p.fuel <= 0:
            p.changed = True
            return p.ctx.new_map(with_marker(pairs, UNKNOWN))
        outer = p.changed
        p.changed = False
        key = normalize(p, k, depth + 1)
        key_changed = p.changed
        p.changed = outer
        if key_changed:
            p.changed = True
            dropped = True
            continue
        pairs.append((key, payload(p, x, depth + 1)))
    return p.ctx.new_map(with_marker(pairs, UNKNOWN) if dropped else pairs)


def _sequence(p: Pass1, v: Any, depth: int) -> Any:
    items: list[Any] = []
    it = iter(v)
    more = True
    while p.fuel > 0:
        item = next(it, END)
        if item is END:
            more = False
            break
        items.append(normalize(p, item, depth + 1))
    if more and next(it, END) is not END:
        p.changed = True
        items.append(marker(UNKNOWN))
    if isinstance(v, SpellSet):
        return SpellSet.from_items(items)
    return plist(items)

