"""Where a Spell error happened, and the call path that led there with each call's site (issue 16.6).

Why this exists: ``:trace`` (language.md §15.1, runtime.md §8.1) names the *directly applied*
Spell functions an error left, innermost first, and nothing else — no positions (runtime.md
§8.3 forbids them in the model-facing ``_error``), no functions a builtin called. A person
reading ``spellc run`` output needs more: the line and column of every call on the path (Hy
marks every frame) and, for an error inside a fn passed to ``map``/``filter``/``reduce``…,
that fn's name and position. So a ``SpellError`` carries a second, Python-side list,
``frames`` (``CallSite`` records, innermost first): one per Spell function body the error
left, whether applied directly (``head`` is the call's head form) or by a builtin
(``head`` is None). The CLI, built modules and error results (``:spell/call-path``) render it.

How sites are found, with no work on the success path: compiled code already keeps one
position per call form (``co_positions``; for ``spellc build`` output, a ``SpanTable``
from text spans to Spell spans). When an error leaves a function body, ``fn_fail`` appends
a pending ``CallSite``; the next compiled frame's handler — the caller's — sees the error
with its own frame at the head of the traceback and fills the site from the instruction
that was running there: the call itself, or the builtin call (``map``…) that called the fn.
The error's own position is found the same way by the first handler that sees it
(``Unbound symbol``, ``Stack overflow`` used to report 1:1).
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType, TracebackType
from typing import Any, Optional

Position = tuple[int, int, int, int]
"""(line, column, end line, end column): lines from 1, columns from 0 (as ``SpellError.position``)."""

MAX_PATH_LINES = 8
"""Call-path lines shown under an error's location line (deep recursion folds into fewer)."""

BUILT_TABLES: list[Callable[[], Any]] = []
"""Built modules' ``support.SpanTable``s (held weakly) whose forms have not had their spans back yet:
each registers itself when built, and ``built_spans.restore_pending`` serves them on the first
run-time compile or failure, or here when a call path names a fn (``fn_position``). Kept in this
module, which every built module loads anyway, rather than in ``built_spans``: a built module's
import then loads nothing for it."""

_positions_cache: dict[int, tuple[CodeType, list[tuple[Optional[int], Optional[int], Optional[int], Optional[int]]]]] = {}
"""id(code) → (code, its co_positions). Keyed by identity: hashing a code object hashes its contents."""

LINE_BASES: dict[str, int] = {}
"""File name → the number added to its lines before its module's ``SpanTable`` is read: the parts of a
built module (``spell_runtime.built_parts``). A module ``spellc build`` splits keeps one position table
for all of its files, in which part ``k``'s line ``n`` is line ``k * PART_LINE_STEP + n``; the loader
registers each part here as it runs it."""

_site_cache: dict[tuple[int, int], tuple[CodeType, tuple[Any, Any, Any]]] = {}
"""(id(code), instruction) → (code, ``site_in_frame`` result): a deep recursion asks the same few
sites tens of thousands of times while it unwinds."""


class CallSite:
    """One Spell function body an error left (``SpellError.frames``, innermost first).

    A plain slotted class rather than a ``@dataclass``: ``dataclasses`` imports ``inspect``
    (about 8 ms), start-up that every ``spellc eval`` paid for this one record (issue 12.4).
    Equality and ``repr`` are field by field, as the dataclass's were.
    """

    __slots__ = ("head", "fn_form", "position", "source", "via", "pending", "repeat", "name")

    head: Any
    """The call's head form for a directly applied function (as in ``:trace``); None when a builtin called it."""
    fn_form: Any
    """The ``(fn ...)`` form whose body failed (its name and position), or None."""
    position: Optional[Position]
    """Where the call stands: the call form, or the builtin call (``(map f xs)``) that applied the fn."""
    source: Optional[str]
    """The source name of ``position`` (a file name, ``<eval>``, ``<completion>``)."""
    via: Any
    """For a builtin-applied fn, the head of the builtin call (``map``), when known."""
    pending: bool
    """Not yet seen by the caller's handler."""
    repeat: int
    """How many times this same frame occurs here in a row (recursion is folded as it unwinds)."""
    name: Any
    """For a builtin-applied fn: the symbol the builtin call passed it by (``bad`` in ``(map bad xs)``)."""

    def __init__(self, head: Any, fn_form: Any, position: Optional[Position] = None, source: Optional[str] = None,
                 via: Any = None, pending: bool = True, repeat: int = 1, name: Any = None) -> None:
        self.head = head
        self.fn_form = fn_form
        self.position = position
        self.source = source
        self.via = via
        self.pending = pending
        self.repeat = repeat
        self.name = name

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, slot) for slot in CallSite.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not CallSite:
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return "CallSite(%s)" % ", ".join("%s=%r" % (slot, getattr(self, slot)) for slot in CallSite.__slots__)


def raw_position(tb: Optional[TracebackType]) -> Optional[tuple[Any, ...]]:
    """The (line, end line, col, end col) of the instruction running in ``tb``'s frame."""
    if tb is None:
        return None
    code = tb.tb_frame.f_code
    entry = _positions_cache.get(id(code))
    if entry is None or entry[0] is not code:
        entry = (code, list(code.co_positions()))
        if len(_positions_cache) > 4096:  # bounded: it keeps code objects alive
            _positions_cache.clear()
        _positions_cache[id(code)] = entry
    positions = entry[1]
    index = tb.tb_lasti // 2
    if 0 <= index < len(positions):
        return positions[index]
    return None


def table_position(tb: Optional[TracebackType]) -> Optional[tuple[Any, ...]]:
    """``raw_position`` as the frame's position table numbers it: a built module's part's lines shifted
    past the module's own (``LINE_BASES``); anything else's as they are."""
    pos = raw_position(tb)
    if LINE_BASES and pos is not None and pos[0] is not None and tb is not None:
        base = LINE_BASES.get(tb.tb_frame.f_code.co_filename)
        if base is not None:
            return (pos[0] + base, None if pos[1] is None else pos[1] + base, pos[2], pos[3])
    return pos


def site_in_frame(tb: Optional[TracebackType], table: Any, expr: Any = None) -> tuple[Optional[Position], Optional[str], Any]:
    """(Spell position, source name, call form) of what ``tb``'s (compiled) frame was running.

    In-memory code carries Spell positions itself (its call-form table is a dict keyed by
    them); a built module's ``SpanTable`` maps its text positions to Spell ones. With
    ``expr`` (a symbol), the position is narrowed to its occurrence in the call form.
    """
    if tb is None:
        return None, None, None
    if expr is None:
        code = tb.tb_frame.f_code
        key = (id(code), tb.tb_lasti)
        cached = _site_cache.get(key)
        if cached is not None and cached[0] is code:
            return cached[1]
        found = _site(tb, table, None)
        if len(_site_cache) > 4096:
            _site_cache.clear()
        _site_cache[key] = (code, found)
        return found
    return _site(tb, table, expr)


def _site(tb: TracebackType, table: Any, expr: Any) -> tuple[Optional[Position], Optional[str], Any]:
    pos = table_position(tb)
    if pos is None or pos[0] is None:
        return None, None, None
    spell_key = getattr(table, "spell_key", None)
    if spell_key is not None:  # a SpanTable: built module text
        key, form = spell_key(pos)
        source = getattr(table, "source", None)
        if key is None:
            return None, source, form
        found = occurrence(form, expr) if expr is not None else None
        return found or (key[0], key[2] or 0, key[1] or key[0], key[3] or 0), source, form
    form = table.get(pos) if table is not None else None
    if pos[0] <= 0:
        return None, None, form
    return (pos[0], pos[2] or 0, pos[1] or pos[0], pos[3] or 0), tb.tb_frame.f_code.co_filename, form


def place_error(e: Any, tb: Optional[TracebackType], table: Any) -> None:
    """Give an error that has no position the one of the innermost compiled frame it left."""
    if e.position is not None:
        # Placed by an inner frame compiled under an internal name (a turn's sub-units are cached
        # across programs, so they are compiled as "<spell>"): the first frame with a real file name
        # names the source its position is in.
        if e.position_source is None and tb is not None:
            source = table.source if hasattr(table, "spell_key") else tb.tb_frame.f_code.co_filename
            if source is not None and not source.startswith("<spell"):
                e.position_source = source.removesuffix(" (via source)")
        return
    position, source, _ = site_in_frame(tb, table, e.expr)
    if position is not None:
        e.position = position
        # Not ``source_name``: that is the caller's (or a library's, libns.claim) to give, and compiled
        # code's file name can be an internal one (a test's unit); error results fall back to it.
        if source is not None and not source.startswith("<spell"):
            e.position_source = source.removesuffix(" (via source)")


def fill_pending(e: Any, tb: Optional[TracebackType], table: Any, D: Any = None) -> None:
    """The caller's handler: give the innermost pending frame its call site (from this frame)."""
    frames = e.frames
    frame = frames[-1]
    frame.pending = False
    position, source, form = site_in_frame(tb, table)
    frame.position, frame.source = position, source
    if frame.head is None and form is not None:
        from .data.plist import PList

        if type(form) is PList and form.count:
            frame.via = form.first
            frame.name = _passed_as(form, frame.fn_form, D)
    if len(frames) > 1:  # recursion: the same call again right outside, fold it
        inner = frames[-2]
        if (inner.head is frame.head and inner.fn_form is frame.fn_form and inner.position == position
                and inner.source == source and inner.via is frame.via and inner.name is frame.name):
            inner.repeat += frame.repeat
            frames.pop()


def _passed_as(call: Any, fn_form: Any, D: Any) -> Any:
    """The symbol argument of ``call`` bound (in ``D``) to the function of ``fn_form``, if any.

    Spell fns carry no name (``defn`` binds a plain ``(fn params body…)``), so the name a
    builtin-applied fn is known by is the symbol the builtin call was given."""
    from .data.atoms import Symbol
    from .data.fn import SpellFn

    if D is None or fn_form is None:
        return None
    try:
        params, body = fn_form[1], list(fn_form)[2:]
        for arg in list(call)[1:]:
            if type(arg) is Symbol:
                f = D.get(arg)
                if type(f) is SpellFn and f.params == params and list(f.body or ()) == body:
                    return arg
    except Exception:  # best effort: never let naming a frame hide the error
        return None
    return None


def occurrence(form: Any, target: Any, depth: int = 0) -> Any:
    """The span of the first occurrence of ``target`` inside ``form`` (depth-first), or None."""
    from .data.positions import child_spans_of, span_of

    if target is None or depth > 200:
        return None
    if form is target and span_of(form) is not None:
        return span_of(form)
    if isinstance(form, (str, bytes)) or not hasattr(form, "__iter__"):
        return None
    children = child_spans_of(form) or ()
    try:
        items = list(form.items()) if hasattr(form, "items") else list(form)
    except TypeError:
        return None
    flat = [x for kv in items for x in kv] if hasattr(form, "items") else items
    for i, child in enumerate(flat):
        if child is target and i < len(children) and children[i] is not None:
            return children[i]
        found = occurrence(child, target, depth + 1)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------- rendering

def fn_name(frame: CallSite) -> str:
    """What a frame is called: the call's head, else the symbol a builtin was given it by, else ``fn``."""
    from .printer import pr_str

    if frame.head is not None:
        return pr_str(frame.head)
    return str(frame.name) if frame.name is not None else "fn"


def fn_position(fn_form: Any) -> Optional[Position]:
    """Where a fn stands: its form, else (a ``defn``'s fn, built by the macro) its first body form."""
    from .data.positions import span_of

    if fn_form is None:
        return None
    if BUILT_TABLES:  # a form of a built module: its call forms' spans are given back on first need
        from .built_spans import restore_pending

        restore_pending(BUILT_TABLES)
    span = span_of(fn_form)
    if span is None:
        try:
            body = list(fn_form)[2:]
        except TypeError:
            return None
        span = span_of(body[0]) if body else None
    return span


def unit_source(path: str, span: Optional[Position], run: int) -> str:
    """The source name of a unit compiled from one form of file ``path`` in its ``run``-th load
    (``path@line:col#run``): the compiler caches units by text and source name, so two identical
    forms at different places, or two loads of one file, get units of their own (the Spell test
    runner, ``spellc.testing.runner``). ``display_source`` gives ``path`` back."""
    at = "" if span is None else "@%d:%d" % (span[0], span[1] + 1)
    return "%s%s#%d" % (path, at, run)


def display_source(source: str) -> str:
    """The file a source name stands for: without the `` (via source)`` mark of code compiled from
    its text, nor the ``@line:col#run`` that makes a unit's name its own (``unit_source``)."""
    source = source.removesuffix(" (via source)")
    head, hash_, run = source.rpartition("#")
    if not (hash_ and run.isdigit()):
        return source
    path, at, place = head.rpartition("@")
    line, colon, col = place.partition(":")
    if at and colon and line.isdigit() and col.isdigit():
        return path
    return head


def where(position: Optional[Position], source: Optional[str], default_source: str) -> str:
    if position is None:
        return ""
    if source is None or source.startswith("<spell"):  # code of eval'd data / fns built as data
        source = default_source
    return "%s:%d:%d" % (display_source(source), position[0], position[1] + 1)


def frame_text(frame: CallSite, default_source: str) -> str:
    """``average  prog.spl:3:17``; a builtin-applied fn: ``fn  prog.spl:4:9 (called by map at prog.spl:4:3)``."""
    name = fn_name(frame)
    if frame.head is not None:
        at = where(frame.position, frame.source, default_source)
        return "%s  %s" % (name, at) if at else name
    from .printer import pr_str

    defined = where(fn_position(frame.fn_form), frame.source, default_source)
    called = where(frame.position, frame.source, default_source)
    text = "%s  %s" % (name, defined) if defined else name
    if called:
        text += " (called by %s at %s)" % (pr_str(frame.via), called) if frame.via is not None else \
            " (called at %s)" % called
    return text


def call_path_lines(frames: list[CallSite], default_source: str, limit: int = MAX_PATH_LINES) -> list[str]:
    """``  in …`` lines, innermost first; runs of the same frame (recursion) fold into one line."""
    runs: list[tuple[str, int]] = []
    for frame in frames:
        text = frame_text(frame, default_source)
        if runs and runs[-1][0] == text:
            runs[-1] = (text, runs[-1][1] + frame.repeat)
        else:
            runs.append((text, frame.repeat))
    out: list[str] = []
    for text, n in runs[:limit]:
        out.append("  in %s" % text if n == 1 else "  in %s  (%d times)" % (text, n))
    hidden = sum(n for _, n in runs[limit:])
    if hidden:
        out.append("  ... %d more" % hidden)
    return out


def error_report(e: Any, name: str) -> str:
    """The user-facing report of a Spell error: ``NAME:LINE:COL: message`` plus the call path."""
    line, col = 1, 1
    pos = getattr(e, "position", None)
    if pos is not None:
        line, col = pos[0], pos[1] + 1
    elif getattr(e, "line", None) is not None:
        line, col = e.line, e.column
    out = ["%s:%d:%d: %s" % (name, line, col, e)]
    frames = getattr(e, "frames", None)
    if frames:
        out.extend(call_path_lines(frames, name))
    else:
        from .printer import pr_str

        trace = list(getattr(e, "trace", None) or [])
        out.extend("  in %s" % pr_str(head) for head in trace[:MAX_PATH_LINES])
        if len(trace) > MAX_PATH_LINES:
            out.append("  ... %d more" % (len(trace) - MAX_PATH_LINES))
    return "\n".join(out)


def call_path_value(frames: list[CallSite], default_source: str) -> Any:
    """``:spell/call-path`` of an error result: the rendered frames as a vector of strings (folded)."""
    from .data.vector import vec

    return vec([line.strip()[3:] for line in call_path_lines(frames, default_source, limit=40)])
