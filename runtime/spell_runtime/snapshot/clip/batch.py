"""Widths of many atoms at once, at C speed: the batches a large map's clip is measured in (issue 14).

Clipping a map far larger than the output keeps looking at entries after the
shown ones are chosen: ``short_map`` fills greedily, so an entry narrow enough
for the last few units may come after thousands too wide for them (runtime.md
§4.5.3; the reference implementation's ``short-map`` does the same). Proving
that none of a run of entries fits needs only a lower bound of each entry's
width, and one bound for the whole run suffices: the narrowest key plus the
narrowest value. This module computes such bounds for a list of atoms of one
kind with builtins mapped over the list (``map``, ``min``, ``sum``, dict
lookups), so a run of entries costs a few C loops instead of a Python step
each. Anything else (mixed kinds, keywords the reader would not read back, the
``:spell/`` namespace whose entries carry omission weights, huge integers)
answers ``NOT_SIMPLE`` and the caller measures those entries one by one, as
before: these bounds only ever decide *faster*, never differently.

Widths are of the text as data, which for these atoms is also their value form
(``render._atom_width``); a string's is a lower bound (escapes and astral
characters only widen it). This module sits below ``render`` (whose
``wider_than`` uses it), so it keeps its own keyword cache.
"""

from __future__ import annotations

from operator import itemgetter
from types import FunctionType
from typing import Any, Final

from ...data.atoms import Keyword
from ...readable import is_reader_keyword
from .shapes import ATOM_FLOOR, STRING_FLOOR
from .text import units

NOT_SIMPLE: Final = -1

_NONE_TYPE: Final = type(None)

_INT_LIMIT: Final = 10 ** 17
"""Integers at least this large in magnitude are never ``str``-ed here (``len(str(x))`` of a huge
integer costs its size, and Python refuses past 4300 digits); their runs are not simple."""

_keyword_widths: dict[Keyword, int] = {}
"""UTF-16 width of each keyword seen, or ``NOT_SIMPLE`` for one whose entries are measured one by one
(not a reader keyword, or in the ``spell`` namespace: ``:spell/fn`` flags a function map and the
``:spell/omitted`` family weighs more than one entry). Keywords are interned, so this grows only with
the keywords a program made."""

KEYWORD_WIDTHS: Final = _keyword_widths
"""The cache itself, for loops that look keywords up inline (``keyword_width`` fills it)."""


def keyword_width(k: Keyword) -> int:
    """The ``_keyword_widths`` entry of keyword ``k``, computed on first sight."""
    w = _keyword_widths.get(k)
    if w is None:
        w = NOT_SIMPLE if k.ns == "spell" or not is_reader_keyword(k) else units(repr(k))
        _keyword_widths[k] = w
    return w


def _one_kind(xs: list[Any]) -> Any:
    """The type every element of the non-empty ``xs`` has, or None when they differ."""
    t = type(xs[0])
    return t if list(map(type, xs)).count(t) == len(xs) else None


def _keyword_list_widths(xs: list[Any]) -> list[int]:
    widths = list(map(_keyword_widths.get, xs))
    if None in widths:
        widths = list(map(keyword_width, xs))
    return widths  # type: ignore[return-value]


def least_width(xs: list[Any]) -> int:
    """A lower bound of the width of every element of the non-empty ``xs``, or ``NOT_SIMPLE``."""
    t = _one_kind(xs)
    if t is Keyword:
        return min(_keyword_list_widths(xs))  # NOT_SIMPLE when any is
    if t is int:
        low = min(xs)
        if low >= 0:
            return len(str(low)) if low < _INT_LIMIT else NOT_SIMPLE
        high = max(xs)
        if high < 0:
            return len(str(high)) if high > -_INT_LIMIT else NOT_SIMPLE
        return 1
    if t is str:
        return 2 + min(map(len, xs))
    if t is bool:
        return 4
    if t is _NONE_TYPE:
        return 3
    return NOT_SIMPLE


def total_width(xs: list[Any]) -> int:
    """A lower bound of the summed widths of the non-empty ``xs``, or ``NOT_SIMPLE``."""
    t = _one_kind(xs)
    if t is Keyword:
        widths = _keyword_list_widths(xs)
        return NOT_SIMPLE if min(widths) < 0 else sum(widths)
    if t is int:
        if min(xs) <= -_INT_LIMIT or max(xs) >= _INT_LIMIT:
            return NOT_SIMPLE
        return sum(map(len, map(str, xs)))
    if t is str:
        return 2 * len(xs) + sum(map(len, xs))
    if t is bool:
        return 4 * len(xs)
    if t is _NONE_TYPE:
        return 3 * len(xs)
    return NOT_SIMPLE


_KEY: Final = itemgetter(0)
_VALUE: Final = itemgetter(1)

ATOM_TYPES: Final = frozenset({int, str, Keyword, _NONE_TYPE, bool})
"""The kinds pass 1 keeps as they are without a call (``normalize._atom``)."""


def too_wide(part: list[tuple[Any, Any]], least: int) -> bool:
    """True when every entry of the non-empty ``part`` pairs atoms of pass 1's kinds (``ATOM_TYPES``),
    none has a key in the ``spell`` namespace, and each needs more than ``least`` units for its key
    and value however the value is shortened (an atom becomes at least a diagnostic, ``ATOM_FLOOR``
    wide, a string at least a clipped string, ``STRING_FLOOR``). False decides nothing.

    The common runs cost three C loops: keyword keys through the width cache (a key that is not a
    cached keyword breaks ``min``), a type check of the values, and ``min`` of the values (the least
    number is the narrowest when none is negative; strings take one more loop for the shortest)."""
    cached: Any = map(_keyword_widths.get, map(_KEY, part))
    try:
        found: Any = min(cached)
    except Exception:  # a key that is not a keyword seen before (or not even hashable)
        found = None
    kw: int = least_width(list(map(_KEY, part))) if found is None else found
    if kw < 0 or not ATOM_TYPES.issuperset(map(type, map(_VALUE, part))):
        return False
    try:
        low: Any = min(map(_VALUE, part))
    except TypeError:  # keywords, nil or mixed kinds
        low = None
    t = type(low)
    if t is int:
        if low >= 0:
            xw = len(str(low)) if low < _INT_LIMIT else 18
        else:
            xw = 1
    elif t is bool:
        xw = 1  # the values are numbers and booleans: every one is at least a digit wide
    elif t is str:
        xw = 2 + min(map(len, map(_VALUE, part)))
    else:
        xw = least_width(list(map(_VALUE, part)))
        if xw < 0:
            return False
    return kw + min(xw, STRING_FLOOR if t is str else ATOM_FLOOR) > least


def no_spell_keys(part: list[tuple[Any, Any]]) -> bool:
    """True when no key of ``part`` is a keyword of the ``spell`` namespace, decided in one C loop
    for keys that are all keywords seen before; False decides nothing."""
    cached: Any = map(_keyword_widths.get, map(_KEY, part))
    try:
        return bool(min(cached) >= 0)
    except Exception:  # a key that is not a keyword seen before
        return False


def least_total(part: list[tuple[Any, Any]]) -> int:
    """A lower bound of the summed key and value widths of the entries of the non-empty ``part``.

    Keys that are keywords seen before are summed from the width cache (a ``NOT_SIMPLE`` among them
    only lowers the sum, which stays a bound); values count as many times their narrowest; and
    whatever is not a run of one simple kind counts one unit an atom, the least anything renders to."""
    cached: Any = map(_keyword_widths.get, map(_KEY, part))
    try:
        keys: int = sum(cached)
    except Exception:  # a key that is not a keyword seen before
        keys = total_width(list(map(_KEY, part)))
        if keys < 0:
            keys = len(part)
    value = least_width(list(map(_VALUE, part)))
    return keys + len(part) * (value if value >= 1 else 1)


def _probe() -> None:
    """Only its type is looked at (``NATIVE``)."""


NATIVE: Final = not isinstance(_probe, FunctionType)
"""Whether this module runs compiled (mypyc makes its functions native, no longer Python functions).

Compiled, a plain loop over entries costs a few native operations each and beats the C loops of
``too_wide``, whose builtins cost the same compiled or not; interpreted, it is the other way round.
``MapWalk.skip_wide`` takes ``wide_prefix`` when compiled, ``too_wide`` otherwise; both decide
exactly as ``_skip_each`` would, and the property tests hold both cores to the reference."""

_POWERS: Final = [10 ** i for i in range(19)]


def wide_prefix(buf: list[tuple[Any, Any]], start: int, end: int, least: int) -> int:
    """How many entries from ``buf[start]`` on (before ``end``) are, one after another, an atom of
    pass 1's kinds under a keyword key seen before and outside the ``spell`` namespace, needing more
    than ``least`` units for key and value however the value is shortened (as ``too_wide``)."""
    widths = _keyword_widths
    i = start
    while i < end:
        item = buf[i]
        k = item[0]
        if type(k) is not Keyword:
            break
        kw = widths.get(k)
        if kw is None:
            kw = keyword_width(k)
        if kw < 0:
            break
        need = least - kw  # the value must be wider than this
        x = item[1]
        tx = type(x)
        if tx is int:
            if need >= 18:
                break
            if need >= 1:
                if x >= 0:
                    if x < _POWERS[need]:  # at most ``need`` digits
                        break
                elif -x < _POWERS[need - 1]:  # the sign and at most need - 1 digits
                    break
        elif tx is Keyword:
            xw = widths.get(x)
            if xw is None:
                xw = keyword_width(x)
            if xw < 0 or min(xw, ATOM_FLOOR) <= need:
                break
        elif tx is str:
            if min(2 + len(x), STRING_FLOOR) <= need:
                break
        elif tx is bool:
            if (4 if x else 5) <= need:
                break
        elif x is None:
            if 3 <= need:
                break
        else:
            break
        i += 1
    return i - start


def wide_run(entries: list[tuple[Any, Any]], start: int, n: int, least: int) -> int:
    """How many of the ``n`` entries from ``entries[start]`` on are decided too wide for ``least``
    together (see ``too_wide``): a prefix of them compiled (``wide_prefix``), all or none interpreted."""
    if NATIVE:
        return wide_prefix(entries, start, start + n, least)
    return n if too_wide(entries[start:start + n], least) else 0
