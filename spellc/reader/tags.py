"""Tagged literals: ``#inst``, ``#uuid`` and the rest (language.md §2.8, A3).

The two default data readers are kept as opaque host objects (evaluating them
fails with ``Unknown expression type: class java.util.Date``/``UUID``), but their
text is validated the way ``clojure.instant`` and ``UUID.fromString`` validate it,
so a malformed literal is a reader error as in the reference. Record syntax
(``#my.Rec{...}``) needs ``*read-eval*``, which spellc never grants (Q5).
"""

from __future__ import annotations

import re
from typing import Any, Final

from spell_runtime.data.atoms import HostObject, Symbol

from .errors import ReadFailure

# Pattern texts, compiled by ``re``'s own cache on the first tagged literal: compiling them when the
# reader loads cost every ``spellc eval`` most of a millisecond (issue 12.4).
_TIMESTAMP: Final = (r"(\d\d\d\d)(?:-(\d\d)(?:-(\d\d)(?:[T](\d\d)(?::(\d\d)(?::(\d\d)(?:[.](\d+))?)?)?)?)?)?"
                     r"(?:[Z]|([-+])(\d\d):(\d\d))?")
_UUID: Final = r"([0-9a-fA-F]{1,8})-([0-9a-fA-F]{1,4})-([0-9a-fA-F]{1,4})-([0-9a-fA-F]{1,4})-([0-9a-fA-F]{1,12})"
_DAYS: Final = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _check(ok: bool, test: str) -> None:
    if not ok:
        raise ReadFailure("failed: " + test)


def read_instant(text: Any) -> HostObject:
    """``#inst "..."`` checked like ``clojure.instant/read-instant-date``."""
    if type(text) is not str:
        raise ReadFailure(f"Unrecognized date/time syntax: {text}")
    m = re.fullmatch(_TIMESTAMP, text, re.A)
    if m is None:
        raise ReadFailure("Unrecognized date/time syntax: " + text)
    g = m.groups()
    years = int(g[0])
    months = int(g[1]) if g[1] else 1
    days = int(g[2]) if g[2] else 1
    hours = int(g[3]) if g[3] else 0
    minutes = int(g[4]) if g[4] else 0
    seconds = int(g[5]) if g[5] else 0
    offset_hours = int(g[8]) if g[8] else 0
    offset_minutes = int(g[9]) if g[9] else 0
    _check(1 <= months <= 12, "(<= 1 months 12)")
    dim = 29 if months == 2 and _leap(years) else _DAYS[months]
    _check(1 <= days <= dim, "(<= 1 days (days-in-month months (leap-year? years)))")
    _check(0 <= hours <= 23, "(<= 0 hours 23)")
    _check(0 <= minutes <= 59, "(<= 0 minutes 59)")
    _check(0 <= seconds <= (60 if minutes == 59 else 59), "(<= 0 seconds (if (= minutes 59) 60 59))")
    _check(0 <= offset_hours <= 23, "(<= 0 offset-hours 23)")
    _check(0 <= offset_minutes <= 59, "(<= 0 offset-minutes 59)")
    return HostObject("java.util.Date", text)


def read_uuid(text: Any) -> HostObject:
    """``#uuid "..."`` checked like ``java.util.UUID/fromString``; kept in canonical form."""
    if type(text) is not str:
        raise ReadFailure("Assert failed: (string? form)")
    if len(text) > 36:
        raise ReadFailure("UUID string too large")
    m = re.fullmatch(_UUID, text, re.A)
    if m is None:
        raise ReadFailure("Invalid UUID string: " + text)
    widths = (8, 4, 4, 4, 12)
    canonical = "-".join(part.lower().rjust(w, "0") for part, w in zip(m.groups(), widths, strict=True))
    return HostObject("java.util.UUID", canonical)


def read_tagged(tag: Symbol, form: Any) -> Any:
    """The value of ``#tag form``."""
    if "." in tag.name:
        raise ReadFailure("Record construction syntax can only be used when *read-eval* == true")
    if tag.ns is None and tag.name == "inst":
        return read_instant(form)
    if tag.ns is None and tag.name == "uuid":
        return read_uuid(form)
    raise ReadFailure("No reader function for tag " + str(tag))
