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
    return _replace_markers(text, comment_marker_hits(text, True))


def comment_marker_hits(text: str, at_line_start: bool) -> list[int]:
    """Where pass 1 puts its ``;`` in ``text``; ``at_line_start=False`` when ``text`` continues a
    line that already holds something other than blanks (so its first line cannot be a marker line)."""
    if "//" not in text and "/*" not in text and "*/" not in text:
        # No marker can match (most programs): three substring scans instead of the pattern's search,
        # which tries its line-start anchor at every offset (~80 machine instructions a character).
        return []
    return [m.end() - 2 for m in _MARKER.finditer(text) if at_line_start or m.start() > 0]


def _replace_markers(text: str, hits: list[int]) -> str:
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
    return escape_scan(text)[0]


def escape_scan(text: str) -> tuple[list[int], bool]:
    """(pass 2's repair offsets in ``text``, whether its string scan ends outside a string).

    Pass 2 is a left-to-right scan whose only state is "inside a string or not", so a text
    whose scan ends outside repairs whatever follows it exactly as that text alone would be
    repaired (used by ``reader.resume``).
    """
    repairs: list[int] = []
    n = len(text)
    find = text.find
    search = _STRING_STOP.search
    pos = 0
    while True:
        quote = find('"', pos)
        if quote < 0:
            return repairs, True
        pos = quote + 1
        while True:  # inside a string
            m = search(text, pos)
            if m is None:
                return repairs, False
            i = m.start()
            if text[i] == '"':
                pos = i + 1
                break
            if i + 1 >= n:
                return repairs, False
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


def sanitize_with_inserts(text: Optional[str], at_line_start: bool = True) -> tuple[str, list[int]]:
    """``sanitize`` plus the offsets, in the *sanitized* text, of every inserted backslash.

    ``at_line_start=False`` sanitizes a text that continues a non-blank line outside any string
    (the model's response after a prefix spellc rendered, see ``reader.resume``).
    """
    if text is None:
        return "", []
    marked = _replace_markers(text, comment_marker_hits(text, at_line_start))
    repairs = _escape_repairs(marked)
    if not repairs:
        return marked, []
    return _insert_backslashes(marked, repairs), [at + k for k, at in enumerate(repairs)]
