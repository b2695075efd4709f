"""The two textual repairs applied to Spell source before reading (language.md §2.2).

Models write C-style comment lines and LaTeX backslashes; the reference rewrites
both before the Clojure reader sees the text, and a faithful reader must do the
same, quirks included (Q1: markers inside multi-line strings are rewritten too;
Q2/Q3: the escape repair treats ``#"..."`` as a string and is fooled by ``\\"``
character literals and quotes in comments). Both passes return their input
object unchanged when nothing needs rewriting, so callers can detect "no change"
with ``is``.

Pass 1 replaces characters one for one; pass 2 only *inserts* backslashes inside
strings, never a newline. So lines never move, and a column moves only by the
number of backslashes inserted before it on its line: ``sanitize_with_inserts``
reports those insertions so the reader can give positions in the original text.
"""

from __future__ import annotations

import re
from typing import Final, Optional

_MARKER: Final = re.compile(r"^[ \t\r]*+(?://|/\*|\*/)", re.M)
_STRING_STOP: Final = re.compile(r'["\\]')
_VALID_ESCAPES: Final = frozenset('tbnrf\\"u01234567')


def sanitize_comment_markers(text: str) -> str:
    """Pass 1: a line-start ``//``, ``/*`` or ``*/`` (after blanks) gets ``;`` for its first character."""
    hits = [m.end() - 2 for m in _MARKER.finditer(text)]
    if not hits:
        return text
    parts: list[str] = []
    prev = 0
    for at in hits:
        parts.append(text[prev:at])
        parts.append(";")
        prev = at + 1
    parts.append(text[prev:])
    return "".join(parts)


def _escape_repairs(text: str) -> list[int]:
    """Offsets of the characters that pass 2 must protect with an extra backslash."""
    repairs: list[int] = []
    n = len(text)
    find = text.find
    search = _STRING_STOP.search
    pos = 0
    while True:
        quote = find('"', pos)
        if quote < 0:
            return repairs
        pos = quote + 1
        while True:  # inside a string
            m = search(text, pos)
            if m is None:
                return repairs
            i = m.start()
            if text[i] == '"':
                pos = i + 1
                break
            if i + 1 >= n:
                return repairs
            if text[i + 1] not in _VALID_ESCAPES:
                repairs.append(i + 1)
            pos = i + 2


def _insert_backslashes(text: str, repairs: list[int]) -> str:
    parts: list[str] = []
    prev = 0
    for at in repairs:
        parts.append(text[prev:at])
        parts.append("\\")
        prev = at
    parts.append(text[prev:])
    return "".join(parts)


def sanitize_string_escapes(text: str) -> str:
    """Pass 2: inside ``"..."`` a backslash before anything but ``tbnrf\\\\"u0-7`` is doubled."""
    repairs = _escape_repairs(text)
    if not repairs:
        return text
    return _insert_backslashes(text, repairs)


def sanitize(text: Optional[str]) -> str:
    """Both passes, in the reference's order; ``None`` becomes ``""``."""
    return sanitize_with_inserts(text)[0]


def sanitize_with_inserts(text: Optional[str]) -> tuple[str, list[int]]:
    """``sanitize`` plus the offsets, in the *sanitized* text, of every inserted backslash."""
    if text is None:
        return "", []
    marked = sanitize_comment_markers(text)
    repairs = _escape_repairs(marked)
    if not repairs:
        return marked, []
    return _insert_backslashes(marked, repairs), [at + k for k, at in enumerate(repairs)]
