"""The next prefix of a wrapper quine, with the reader checkpoint of that text (runtime.md §5.3).

``render_prefix(q)`` returns ``serialize_prefix(q)`` and remembers a checkpoint for it:
the reader state after ``(quine NAME inert... (eval (do `` (read once per distinct
header) followed by every body form *as the reader would read it at its place in the
text*. That read-back form is cached per body-form object together with its line and
column, and is itself registered as its own read-back and with its rendered text — so
from the next turn on, an unchanged form costs two dictionary lookups, and the forms
the incremental reader hands the program are the same objects turn after turn (which
the render, edit and compile caches key on).

A form read back at another line or column (an earlier form changed length) is read
again: spans are absolute, so a form is only reused where it stands. A form whose
text cannot be read out of context (``reader.resume``) leaves the prefix without a
checkpoint, and that turn reads in full.
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from typing import Any, Final, Optional

from spell_runtime.core.quine import serialize_prefix, split_quine
from spell_runtime.data import PList, SpellMap
from spell_runtime.data.hashmap import SpellSet
from spell_runtime.data.plist import Span
from spell_runtime.data.vector import LineVector, PVector, VectorView
from spell_runtime.printer import display_str, render_form
from spell_runtime.rendercache import is_plain_data, remember, rendered

from ...reader.resume import Checkpoint, advance, checkpoint, end_position, extend, piece_balance, read_piece
from .compare import first_difference
from .switches import IncrementalMismatch, checking, full_read

KEEP_CHECKPOINTS: Final = 8
"""Prefixes whose checkpoints are kept: a turn's prefix is read right after it is rendered."""

KEEP_PIECES: Final = 200_000

Piece = tuple[str, Any, Span, int]  # (text, form as read there, its span, its paren balance)

_lock = threading.Lock()
_checkpoints: OrderedDict[str, Checkpoint] = OrderedDict()
_headers: dict[str, Optional[Checkpoint]] = {}
_bodies: dict[str, _Body] = {}
_pieces: dict[int, tuple[Any, int, int, Optional[Piece]]] = {}  # id(form) → (form, line, col, piece)


class _Body:
    """The body ``render_prefix`` last built after one header, kept so the next turn reuses the run
    of leading forms that are the very same objects (usually all but the newest)."""

    __slots__ = ("forms", "items", "spans", "joined", "ends", "positions", "balances")

    def __init__(self) -> None:
        self.forms: list[Any] = []
        self.items: list[Any] = []  # each form as the reader reads it at its place
        self.spans: list[Span] = []
        self.joined = ""  # the rendered forms joined by single spaces
        self.ends: list[int] = []  # len(joined) after each form
        self.positions: list[tuple[int, int]] = []  # (line, column) just after each form
        self.balances: list[int] = []  # paren balance of joined up to each form

    def keep(self, k: int) -> _Body:
        """A copy holding only the first ``k`` forms."""
        out = _Body()
        out.forms = self.forms[:k]
        out.items = self.items[:k]
        out.spans = self.spans[:k]
        out.joined = self.joined[: self.ends[k - 1]] if k else ""
        out.ends = self.ends[:k]
        out.positions = self.positions[:k]
        out.balances = self.balances[:k]
        return out


def render_prefix(q: Any) -> str:
    """``serialize_prefix(q)``, remembering the reader checkpoint of the text when it can be made."""
    if full_read():
        return serialize_prefix(q)
    name, inert, body = split_quine(q)
    header = "".join(["(quine ", display_str(name), " ", *[rendered(arg) + " " for arg in inert], "(eval (do "])
    base = _header_checkpoint(header)
    if base is None:
        return serialize_prefix(q)
    built = _build_body(header, base, body)
    if built is None:
        return serialize_prefix(q)
    cp = extend(base, built.items, built.spans, built.joined, built.balances[-1] if built.balances else 0)
    if checking():
        expected = serialize_prefix(q)
        if cp.text != expected:
            raise IncrementalMismatch("render_prefix differs from serialize_prefix:\n%s\n%s" % (cp.text, expected))
    with _lock:
        _checkpoints[cp.text] = cp
        while len(_checkpoints) > KEEP_CHECKPOINTS:
            _checkpoints.popitem(last=False)
    return cp.text


def _build_body(header: str, base: Checkpoint, body: list[Any]) -> Optional[_Body]:
    """The body after ``header``: the previous one's common leading run of identical forms, then
    the rest read piece by piece; None when some form cannot be read out of context."""
    previous = _bodies.get(header)
    k = 0
    if previous is not None:
        same = list(map(operator.is_, previous.forms, body))
        k = same.index(False) if False in same else len(same)
    built = previous.keep(k) if previous is not None else _Body()
    if k:
        line, col = built.positions[-1]
        col += 1
        balance = built.balances[-1]
    else:
        line, col = end_position(base)
        balance = 0
    parts = [built.joined] if k else []
    length = len(built.joined)
    for form in body[k:]:
        text = rendered(form)
        piece = _piece(form, text, line, col)
        if piece is None:
            return None
        line, col = advance(line, col, text)
        if parts:
            length += 1
        length += len(text)
        balance += piece[3]
        parts.append(text)
        built.forms.append(form)
        built.items.append(piece[1])
        built.spans.append(piece[2])
        built.ends.append(length)
        built.positions.append((line, col))
        built.balances.append(balance)
        col += 1
    built.joined = " ".join(parts)
    with _lock:
        if len(_bodies) > 16:
            _bodies.clear()
        _bodies[header] = built
    return built


def checkpoint_for(prefix: str) -> Optional[Checkpoint]:
    """The checkpoint remembered with ``prefix`` by ``render_prefix``, if any."""
    with _lock:
        return _checkpoints.get(prefix)


def _header_checkpoint(header: str) -> Optional[Checkpoint]:
    found = _headers.get(header, _headers)
    if found is _headers:
        found = checkpoint(header)
        if len(_headers) > 64:
            _headers.clear()
        _headers[header] = found
    return found  # type: ignore[return-value]


def _piece(form: Any, text: str, line: int, col: int) -> Optional[Piece]:
    """How the reader reads ``form``'s text at ``line``/``col`` (cached per collection object)."""
    keyed = is_collection(form)
    if keyed:
        hit = _pieces.get(id(form))
        if hit is not None and hit[0] is form and hit[1] == line and hit[2] == col:
            return hit[3]
    got = read_piece(text, line, col)
    balance = piece_balance(text, False)
    piece: Optional[Piece] = None
    if got is not None and balance is not None:
        again, span = got
        if not is_collection(again):
            piece = (text, again, span, balance)
        elif is_plain_data(again) and render_form(again) == text:
            if keyed and first_difference(form, again) is None:
                again = form  # the reader would give this very form here: keep the object
            piece = (text, again, span, balance)
            remember(again, text)
            _store(again, line, col, piece)
    if keyed:
        _store(form, line, col, piece)
    return piece


def _store(form: Any, line: int, col: int, piece: Optional[Piece]) -> None:
    if len(_pieces) >= KEEP_PIECES:
        _pieces.clear()
    _pieces[id(form)] = (form, line, col, piece)


def is_collection(form: Any) -> bool:
    """A non-empty collection: a distinct object worth keying by identity (empty ones are shared)."""
    t = type(form)
    return (t is PList or t is SpellMap or t is SpellSet or t is PVector or t is LineVector or t is VectorView) and len(form) > 0
