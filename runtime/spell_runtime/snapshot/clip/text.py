"""UTF-16 measurement and head/tail windows of strings that may be huge (runtime.md §0.2, §4.5.3).

Every snapshot length is a count of UTF-16 code units, but a snapshot must not
cost time proportional to a 100 MB string it only shows 10,000 units of. Two
facts keep that cheap:

* a string of ``n`` code points has at least ``n`` UTF-16 units, so "does its
  literal exceed ``cap``?" is answered by ``len(s)`` alone whenever it does;
* a string whose characters are all in the Basic Multilingual Plane has exactly
  ``len(s)`` units. CPython stores every ``str`` in the narrowest of three
  widths (PEP 393), and the width shows in ``sys.getsizeof``, so an O(1) size
  check proves "all BMP" for the 1- and 2-byte widths. The check is calibrated
  at import and only ever used to conclude "BMP"; any mismatch (another
  interpreter, a cached UTF-8 copy) falls back to a scan.

Only a string that really holds astral characters costs a full pass (in C),
because the omission marker must state its total UTF-16 length.
"""

from __future__ import annotations

import re
import sys
from typing import Final

_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff]")
_ESCAPED: Final = ('"', "\\", "\n", "\t", "\r", "\f", "\b")


def _calibrate() -> int:
    """Header size of a compact non-ASCII ``str``, or -1 when sizes do not follow PEP 393 as expected."""
    base = sys.getsizeof("\u00e9") - 2
    probes = (("\u00e9" * 5, 1), ("\u0101" * 3, 2), ("\U0001f600" * 3, 4))
    for s, width in probes:
        if sys.getsizeof(s) != base + (len(s) + 1) * width:
            return -1
    return base


_BASE: Final = _calibrate()


def is_bmp(s: str) -> bool:
    """True when every character of ``s`` is a single UTF-16 code unit."""
    if s.isascii():
        return True
    if _BASE >= 0:
        size = sys.getsizeof(s)
        slots = len(s) + 1
        if size == _BASE + slots or size == _BASE + 2 * slots:
            return True
    return _ASTRAL.search(s) is None


def units(s: str) -> int:
    """Length of ``s`` in UTF-16 code units."""
    if is_bmp(s):
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def escapes(s: str) -> int:
    """How many characters the string literal of ``s`` writes with a backslash escape."""
    total = 0
    for c in _ESCAPED:
        if c in s:
            total += s.count(c)
    return total


def literal_units(s: str) -> int:
    """UTF-16 length of the string literal ``"..."`` of ``s`` (language.md §5.1 escapes)."""
    return 2 + units(s) + escapes(s)


def _is_high(u: int) -> bool:
    return 0xD800 <= u <= 0xDBFF


def _is_low(u: int) -> bool:
    return 0xDC00 <= u <= 0xDFFF


class Window:
    """A string seen as UTF-16 units, with only its first and last ``width`` units materialised.

    A BMP string is its own unit sequence, so nothing is copied. Otherwise the
    first and last ``width`` code points are encoded to UTF-16 bytes — enough
    for every offset the clipper can ask about, since it never keeps more than
    ``width`` units at either end.
    """

    __slots__ = ("s", "n", "bmp", "head", "tail", "tail_off")

    s: str
    n: int
    bmp: bool
    head: bytes
    tail: bytes
    tail_off: int

    def __init__(self, s: str, width: int) -> None:
        self.s = s
        self.bmp = is_bmp(s)
        if self.bmp:
            self.n = len(s)
            self.head = b""
            self.tail = b""
            self.tail_off = 0
            return
        self.n = len(s.encode("utf-16-le", "surrogatepass")) // 2
        self.head = s[:width].encode("utf-16-le", "surrogatepass")
        self.tail = s[max(0, len(s) - width):].encode("utf-16-le", "surrogatepass")
        self.tail_off = self.n - len(self.tail) // 2

    def unit(self, i: int) -> int:
        """The code unit at UTF-16 offset ``i`` (which lies in one of the two windows)."""
        if self.bmp:
            return ord(self.s[i])
        if 2 * i + 1 < len(self.head):
            return self.head[2 * i] | (self.head[2 * i + 1] << 8)
        j = 2 * (i - self.tail_off)
        return self.tail[j] | (self.tail[j + 1] << 8)

    def safe_head(self, e: int) -> int:
        """``e``, or ``e - 1`` when cutting at ``e`` would split a surrogate pair."""
        if 0 < e < self.n and _is_high(self.unit(e - 1)) and _is_low(self.unit(e)):
            return e - 1
        return e

    def safe_tail(self, b: int) -> int:
        """``b``, or ``b + 1`` when starting at ``b`` would split a surrogate pair."""
        if 0 < b < self.n and _is_low(self.unit(b)) and _is_high(self.unit(b - 1)):
            return b + 1
        return b

    def prefix(self, h: int) -> str:
        """The first ``h`` units as a string."""
        if self.bmp:
            return self.s[:h]
        return self.head[: 2 * h].decode("utf-16-le", "surrogatepass")

    def suffix(self, t: int) -> str:
        """The units from offset ``t`` to the end, as a string."""
        if self.bmp:
            return self.s[t:]
        return self.tail[2 * (t - self.tail_off):].decode("utf-16-le", "surrogatepass")
