"""Strings as the JVM sees them: sequences of UTF-16 code units (language.md §16.2).

Python ``str`` indexes code points. For the common all-BMP string the two agree,
so every helper first checks ``is_bmp`` (one C-level scan) and only converts to
UTF-16 (``surrogatepass`` keeps lone surrogates representable) when a string
holds astral characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Optional


def _first_astral_search(s: str) -> Optional[re.Match[str]]:
    """``_astral_search`` until its first call, which puts the compiled pattern's ``search`` in its place:
    the pattern is compiled when a non-ASCII string is first checked, not by every start-up (issue 12)."""
    global _astral_search
    _astral_search = re.compile("[\U00010000-\U0010ffff]").search
    return _astral_search(s)


_astral_search: Callable[[str], Optional[re.Match[str]]] = _first_astral_search
"""Finds an astral character."""


def is_bmp(s: str) -> bool:
    """True when every character of ``s`` is one UTF-16 code unit."""
    return s.isascii() or _astral_search(s) is None


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units."""
    if is_bmp(s):
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def to_units(s: str) -> str:
    """``s`` with each astral character split into its surrogate pair (one str char per code unit)."""
    if is_bmp(s):
        return s
    return "".join(_split_astral(c) for c in s)


def _split_astral(c: str) -> str:
    o = ord(c)
    if o < 0x10000:
        return c
    o -= 0x10000
    return chr(0xD800 + (o >> 10)) + chr(0xDC00 + (o & 0x3FF))


def from_units(u: str) -> str:
    """Join surrogate pairs of a code-unit string back into characters (lone surrogates stay)."""
    if not any(0xD800 <= ord(c) <= 0xDBFF for c in u):
        return u
    return u.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def unit_at(s: str, i: int) -> str:
    """The code unit at UTF-16 index ``i`` (as a one-character str); IndexError when out of range."""
    if i < 0:
        raise IndexError(i)
    if is_bmp(s):
        return s[i]
    return to_units(s)[i]


def substring(s: str, start: int, end: int) -> str:
    """``s[start:end]`` in UTF-16 units (bounds already validated by the caller)."""
    if is_bmp(s):
        return s[start:end]
    return from_units(to_units(s)[start:end])
