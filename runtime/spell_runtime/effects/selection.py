"""Line ranges and character windows for ``io/read-file`` / ``io/read-lines`` (runtime.md §2.2.1).

Reads are *requests* for part of a file, so they must stream: lines before the
range and characters outside the window are read and dropped, and reading stops
at the range's end, so paging through a huge file costs what the page costs.
Python's text layer does the line splitting: with ``newline=""`` it breaks lines
at ``\\n``, ``\\r\\n`` and a lone ``\\r`` (also across buffer boundaries) and
hands back the terminators untranslated, which is exactly the spec's line model
— including "no phantom final empty line".

Windows are measured in UTF-16 code units like every offset the model sees;
astral characters are two units wide and are dropped whole when a window edge
falls inside them, so a window never yields half a surrogate pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Optional

from ..data.atoms import Keyword
from ..data.hashmap import SpellMap
from ..data.text import is_bmp
from .args import is_integer, reject

K_CHAR_START: Final = Keyword("char-start")
K_CHAR_END: Final = Keyword("char-end")

RANGE_MESSAGE: Final = "Line range requires integral start and integral-or-nil end"
WINDOW_MESSAGE: Final = "Character window requires nonnegative integral :char-start <= :char-end"

_MISSING: Final[Any] = object()


@dataclass(frozen=True)
class Selection:
    """Which lines (one-based, half-open; ``end`` None = to EOF) and which characters of each."""

    start: int = 1
    end: Optional[int] = None
    char_start: int = 0
    char_end: Optional[int] = None

    @property
    def first_line(self) -> int:
        """The source line of the first selected row, also for an empty selection."""
        return self.start

    @property
    def whole_lines(self) -> bool:
        return self.char_start == 0 and self.char_end is None

    @property
    def everything(self) -> bool:
        return self.start == 1 and self.end is None and self.whole_lines


def parse_selection(args: tuple[Any, ...]) -> Selection:
    """Dispatch the optional arguments by count: ``()``, ``(opts)``, ``(start end)``, ``(start end opts)``.

    Raises the spec's argument errors; never touches the file system.
    """
    start: Any = 1
    end: Any = None
    opts: Any = None
    if len(args) == 1:
        opts = args[0]
    elif len(args) == 2:
        start, end = args
    elif len(args) == 3:
        start, end, opts = args
    elif len(args) != 0:
        raise TypeError("too many arguments")
    if not is_integer(start) or not (end is None or is_integer(end)):
        reject(RANGE_MESSAGE)
    char_start, char_end = _parse_window(opts)
    return Selection(max(1, int(start)), None if end is None else int(end), char_start, char_end)


def _parse_window(opts: Any) -> tuple[int, Optional[int]]:
    if opts is None:
        return 0, None
    if not isinstance(opts, SpellMap):
        reject(WINDOW_MESSAGE)
    cs = opts.get(K_CHAR_START, _MISSING)
    ce = opts.get(K_CHAR_END, _MISSING)
    if cs is _MISSING:
        cs = 0
    elif not is_integer(cs) or cs < 0:
        reject(WINDOW_MESSAGE)
    if ce is _MISSING or ce is None:
        return int(cs), None
    if not is_integer(ce) or ce < 0 or cs > ce:
        reject(WINDOW_MESSAGE)
    return int(cs), int(ce)


def split_terminator(raw: str) -> tuple[str, str]:
    """A line as read (``newline=""``) split into its text and its original terminator."""
    if raw.endswith("\r\n"):
        return raw[:-2], "\r\n"
    if raw.endswith("\n") or raw.endswith("\r"):
        return raw[:-1], raw[-1]
    return raw, ""


def select_lines(lines: Iterable[str], sel: Selection) -> Iterator[tuple[str, str]]:
    """(windowed text, terminator) for each selected line of ``lines`` (raw, terminator included)."""
    end = sel.end
    if end is not None and end <= sel.start:
        return
    window = not sel.whole_lines
    for number, raw in enumerate(lines, 1):
        if end is not None and number >= end:
            return
        if number < sel.start:
            continue
        body, term = split_terminator(raw)
        yield (char_window(body, sel.char_start, sel.char_end) if window else body), term


def char_window(s: str, start: int, end: Optional[int]) -> str:
    """The code points of ``s`` lying wholly inside UTF-16 units ``[start, end)``."""
    if is_bmp(s):
        return s[start:end] if end is None or start < end else ""
    out: list[str] = []
    offset = 0
    i = 0
    n = len(s)
    while i < n:
        if end is not None and offset >= end:
            break
        c = s[i]
        o = ord(c)
        if o > 0xFFFF:
            width, step = 2, 1
        elif 0xD800 <= o <= 0xDBFF and i + 1 < n and 0xDC00 <= ord(s[i + 1]) <= 0xDFFF:
            width, step = 2, 2
        else:
            width, step = 1, 1
        if start <= offset and (end is None or offset + width <= end):
            out.append(s[i:i + step])
        offset += width
        i += step
    return "".join(out)
