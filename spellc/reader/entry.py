"""The reader's entry points (language.md §2.1): sanitize, read, locate errors.

``read_all`` forgives exactly one stray closing delimiter at the very end
(§2.3) by re-reading the text without it; ``read_first`` stops after the first
form, so anything after it — even garbage — is never looked at. Errors carry
the line and column of the ORIGINAL text: the sanitizer never moves lines and
only shifts columns after the backslashes it inserted, which ``inserts`` undoes.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Any, Final, Optional

from spell_runtime.data.plist import Span

from .chars import JAVA_WHITESPACE
from .errors import ReaderError, ReadFailure
from .reader import Reader
from .sanitize import sanitize_with_inserts

_JAVA_WS_CHARS: Final = "".join(sorted(JAVA_WHITESPACE))


def _position(text: str, inserts: list[int], off: int) -> tuple[int, int]:
    """(1-based line, 1-based column) in the original text of sanitized offset ``off``."""
    off = max(0, min(off, len(text)))
    line = text.count("\n", 0, off) + 1
    line_start = text.rfind("\n", 0, off) + 1
    col = off - line_start
    if inserts:
        col -= bisect_left(inserts, off) - bisect_left(inserts, line_start)
    return line, col + 1


def _run(text: str, inserts: list[int], first_only: bool, source_name: Optional[str]) -> Reader:
    """Read ``text``; turn any failure into a positioned ``ReaderError``."""
    reader = Reader(text, inserts, first_only)
    try:
        reader.run()
    except ReadFailure as e:
        off = e.offset if e.offset is not None else reader.at
        line, column = _position(text, inserts, off)
        raise ReaderError(e.message, line, column, source_name) from None
    except RecursionError:
        line, column = _position(text, inserts, reader.at)
        raise ReaderError("Form nested too deeply", line, column, source_name) from None
    return reader


_UNMATCHED: Final = re.compile("Unmatched delimiter: (.)", re.S)


def _strip_stray_delimiter(text: str, message: str) -> Optional[str]:
    """The text without its last character, when that character is the unmatched delimiter (§2.3)."""
    m = _UNMATCHED.fullmatch(message)
    if m is None:
        return None
    trimmed = text.rstrip(_JAVA_WS_CHARS)
    if trimmed and trimmed[-1] == m.group(1):
        return trimmed[:-1]
    return None


def read_all_with_spans(text: Optional[str], source_name: Optional[str] = None) -> list[tuple[Any, Span]]:
    """Every form of ``text`` with its span (see ``read_all``)."""
    sanitized, inserts = sanitize_with_inserts(text)
    try:
        reader = _run(sanitized, inserts, False, source_name)
    except ReaderError as e:
        stripped = _strip_stray_delimiter(sanitized, e.message)
        if stripped is None:
            raise
        reader = _run(stripped, inserts, False, source_name)
    return list(zip(reader.forms, reader.spans, strict=True))


def read_all(text: Optional[str], source_name: Optional[str] = None) -> list[Any]:
    """Sanitize ``text`` and read every form in it; one stray trailing closer is forgiven (§2.3)."""
    return [form for form, _ in read_all_with_spans(text, source_name)]


def read_first_span(text: Optional[str], source_name: Optional[str] = None) -> tuple[bool, Any, int]:
    """(found?, first form, offset just after it in the *sanitized* text); nothing after it is read."""
    sanitized, inserts = sanitize_with_inserts(text)
    reader = _run(sanitized, inserts, True, source_name)
    if reader.forms:
        return True, reader.forms[0], reader.pos
    return False, None, len(sanitized)


def read_first(text: Optional[str], source_name: Optional[str] = None) -> Any:
    """The first form of ``text`` (None when there is none); whatever follows it is ignored."""
    return read_first_span(text, source_name)[1]


def read_strict(text: str, source_name: Optional[str] = None) -> list[Any]:
    """Every form of ``text`` exactly as written: no textual repairs, no forgiven stray delimiter.

    For data files that must mean what they say (installable module definitions, packages.md §1).
    """
    return list(_run(text, [], False, source_name).forms)
