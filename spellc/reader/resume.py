"""Reading a completion from a checkpoint taken after a prefix spellc rendered itself (issue 14).

A model call's completion is ``prefix + response`` (runtime.md §5.2 steps 4–6): the
runtime balances it, sanitizes it and reads its first form. Turn after turn the prefix
grows while the response stays small, and the prefix is text spellc itself rendered
(§5.3). A ``Checkpoint`` is the reader's state after such a prefix — the open
collections with their finished items and spans, the line bookkeeping, the paren
balance — so ``read_after`` reads only the response and yields exactly what
``read_first(balance_parens(prefix + response))`` yields.

That equality rests on three facts, each checked when a checkpoint is made (no
checkpoint otherwise, and the caller reads in full):

- the prefix is *clean*: the sanitizer changes nothing in it, its escape scan and its
  paren count both end outside any string or comment, and its last line holds
  something other than blanks — so sanitizing and balancing the whole completion
  equals the prefix followed by the response sanitized and balanced on its own
  (``sanitize.escape_scan``, ``balance.paren_scan``, ``comment_marker_hits``);
- the prefix ends with whitespace after a finished token, so no token straddles it;
- nothing read from the prefix draws on per-read context: no ``#(...)`` (its ``%``
  parameters draw gensym numbers from the process counter) and no syntax-quote (auto
  gensyms, the read's expansion budget).

``read_piece`` reads one rendered form as if it stood at a given line and column of
a longer text (``Reader`` starts with ``line_start < 0``), so a checkpoint can be
assembled from forms read once and reused (``spellc.loop.incremental``).
"""

from __future__ import annotations

from typing import Any, Final, Optional

from spell_runtime.data.plist import Span

from .balance import paren_scan
from .errors import ReadFailure
from .reader import Reader, _Coll
from .sanitize import comment_marker_hits, escape_scan, sanitize_with_inserts

_BLANKS: Final = " \t\r"
_TOKEN_ENDS: Final = " \t\n,"


class Checkpoint:
    """The reader's state after ``text``: open collections (never mutated: copied per resume)."""

    __slots__ = ("text", "frames", "line", "line_start", "tracked", "balance")

    def __init__(self, text: str, frames: list[_Coll], line: int, line_start: int, tracked: int,
                 balance: int) -> None:
        self.text = text
        self.frames = frames
        self.line = line
        self.line_start = line_start
        self.tracked = tracked
        self.balance = balance


def context_free(text: str) -> bool:
    """True unless ``text`` may hold a ``#(...)`` or a syntax-quote (see the module docstring)."""
    return "`" not in text and "#(" not in text


def piece_balance(text: str, at_line_start: bool) -> Optional[int]:
    """The paren balance of ``text`` when sanitizing and balancing it cannot depend on what
    surrounds it (no sanitizer change, scans end outside strings and comments); else None."""
    if comment_marker_hits(text, at_line_start):
        return None
    repairs, ends_outside = escape_scan(text)
    if repairs or not ends_outside:
        return None
    n, clean = paren_scan(text)
    return n if clean else None


def read_piece(text: str, line: int, col: int) -> Optional[tuple[Any, Span]]:
    """(form, span) of the single form that is the whole of ``text``, read as if ``text`` began at
    ``line``/``col`` of a longer line; None when ``text`` is not exactly one context-free form."""
    if not context_free(text):
        return None
    reader = Reader(text, [], True)
    reader.line = line
    reader.line_start = -col
    try:
        reader.run()
    except (ReadFailure, RecursionError):
        return None
    if not reader.forms or reader.pos != len(text):
        return None
    return reader.forms[0], reader.spans[0]


def _ends_cleanly(text: str) -> bool:
    """Ends with whitespace, and its last line holds a non-blank character (no marker can form)."""
    if not text or text[-1] not in _TOKEN_ENDS:
        return False
    last_line = text[text.rfind("\n") + 1:]
    return bool(last_line.strip(_BLANKS))


def checkpoint(text: str) -> Optional[Checkpoint]:
    """The reader's state after the open program ``text`` (None when it is not clean and open)."""
    balance = piece_balance(text, True)
    if balance is None or not context_free(text) or not _ends_cleanly(text):
        return None
    reader = Reader(text, [], True)
    try:
        reader.run()
    except ReadFailure as e:
        if e.message != "EOF while reading" or reader.forms or reader.arg_env is not None:
            return None
        if not all(type(frame) is _Coll for frame in reader.stack):
            return None
        return Checkpoint(text, reader.stack, reader.line, reader.line_start, reader.tracked, balance)
    except RecursionError:
        return None
    return None  # a complete first form: nothing is left open to resume


def end_position(cp: Checkpoint) -> tuple[int, int]:
    """(line, column) just after ``cp.text``."""
    text = cp.text
    return cp.line + text.count("\n", cp.tracked), len(text) - (text.rfind("\n") + 1)


def advance(line: int, col: int, text: str) -> tuple[int, int]:
    """(line, column) just after ``text`` when it starts at ``line``/``col``."""
    nl = text.rfind("\n")
    if nl < 0:
        return line, col + len(text)
    return line + text.count("\n"), len(text) - nl - 1


def extend(base: Checkpoint, items: list[Any], spans: list[Span], body: str, balance: int) -> Checkpoint:
    """``base`` followed by ``body + " "``: rendered forms joined by single spaces, read as ``items``
    (each as ``read_piece`` read it at its place, see ``advance``) with ``spans``, whose pieces'
    paren balances (``piece_balance``) add up to ``balance``. ``base`` itself is not changed."""
    frames = [_copy(frame) for frame in base.frames]
    top = frames[-1]
    top.items.extend(items)
    top.spans.extend(spans)
    text = base.text + body + " "
    return Checkpoint(text, frames, text.count("\n") + 1, text.rfind("\n") + 1, len(text), base.balance + balance)


def read_after(cp: Checkpoint, response: str) -> Optional[tuple[str, Any]]:
    """(balanced completion text, its first form) for ``cp.text + response``; None when the read
    fails (the caller then reads in full, which reports the error with its position)."""
    n, _ = paren_scan(response)
    balance = cp.balance + n
    suffix = response + "\n" + ")" * balance if balance > 0 else response
    balanced = cp.text + suffix
    sanitized, inserts = sanitize_with_inserts(suffix, at_line_start=False)
    base = len(cp.text)
    text = balanced if sanitized is suffix else cp.text + sanitized
    reader = Reader(text, [base + i for i in inserts], True)
    reader.stack = [_copy(frame) for frame in cp.frames]
    reader.pos = base
    reader.line = cp.line
    reader.line_start = cp.line_start
    reader.tracked = cp.tracked
    try:
        reader.run()
    except (ReadFailure, RecursionError):
        return None
    if not reader.forms:
        return None
    return balanced, reader.forms[0]


def _copy(frame: _Coll) -> _Coll:
    out = _Coll(frame.kind, frame.line, frame.col, frame.closer, frame.ns)
    out.items = list(frame.items)
    out.spans = list(frame.spans)
    return out
