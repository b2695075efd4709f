"""The source spans of a built module's forms, given back when they are compiled at run time (issue 12.1).

A module written by ``spellc build`` rebuilds its forms from ``built_constants`` without spans:
one span per form would grow the module by a large part of its source, and its own code needs
none (its position table, ``support.SpanTable``, maps the failing instruction to the Spell
position of the call form). But some of those forms are compiled again while the module runs,
and code compiled from a spanless form places its failures at ``1:1`` instead of the form's
line and column: a user macro's template (``(defmacro m [] '(/ 1 0))``), a call form whose head
turned out to be a macro only at run time (its arguments), a fn form recompiled because its
direct builtin references went stale (an epoch bump, ``support.stale_here``), ``eval`` of quoted
data, a fn built as data; and a fn applied by a builtin is named in the call path by its first
body form's span (``callpath.fn_position``). So:

- every call form's span is already in the module, in its position table (each span's Spell
  position, ``SpanTable.spell``): it is given back to the form object at no cost in module size;
- quoted forms (the constants of ``quote``, which no position table names) are the only ones
  whose whole spans a built module writes, packed (``pack_form_spans``, the fifth argument of
  ``_T``, for the quoted values that hold a list or a symbol); a module without any writes nothing;
- written ``(fn ...)`` forms, which name a fn applied by a builtin in a call path, get their own
  span (``pack_fn_spans``, about five characters a fn, the third argument of ``decode_spans``,
  which sets them: ``built_constants.set_fn_spans``).
  Without it such a fn would be named by its first body form's place, now known, as a ``defn``'s
  fn (which its macro builds, spanless in the source too) rightly is.

Call and quoted forms get their spans back on the first run-time compile (``spell_runtime.hooks``)
or failure (``SpanTable.spans``) in the process, not at import (a built module loads no slower): a
table registers itself when built (``callpath.BUILT_TABLES``) and ``restore_pending`` serves every
pending one.
The few fn forms' spans are set at import (tens of microseconds for ``compile-300.spl``).

Call forms, quoted forms and the first body forms of written fns are kept apart from equal ones
(``ConstantEncoder``'s ``apart``): one object for two places would get no span back (a table
naming it at two places keeps neither), and the code recompiled from it would be placed by the
enclosing spanned form, or at 1:1 (about 0.6% of ``compile-300.spl``'s built module).
Limits, each a difference from the source run only when such a form is compiled at run time:
special forms (``let``, ``if``, ``for``...) are in no position table and get no span back, nor do
symbols, but for the global reads a table names (``_restore_symbols``) in the call form around them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from .data import LineVector, PList, PVector, SpellMap, SpellSet, VectorView
from .data.atoms import Symbol
from .data.positions import child_spans_of, set_span, span_of
from .packnum import pack_numbers, unpack_numbers, unzigzag, zigzag

Span = tuple[int, int, int, int]
"""(line, column, end line, end column), as ``data.positions``: lines from 1, columns from 0."""

_COLLECTIONS = (PList, PVector, LineVector, VectorView, SpellMap, SpellSet)
"""Form types that carry spans (``data.positions.set_span``)."""

def restore_pending(pending: list[Callable[[], Any]]) -> None:
    """Give every live table of ``pending`` (``callpath.BUILT_TABLES``: weak references) its spans back,
    emptying it (once per table; another thread may be taking tables off the list at the same time)."""
    while True:
        try:
            table = pending.pop()()
        except IndexError:
            return
        if table is not None:
            restore(table)


def restore(table: Any) -> None:
    """Spans for ``table``'s call forms (from its Spell positions) and quoted forms (written packed)."""
    spell = table.spell
    if spell is not None:
        by_form: dict[int, tuple[Any, Optional[Span]]] = {}
        for (*_, form), key in zip(table.spans, spell):
            if type(form) is not PList or span_of(form) is not None or key is None:
                continue
            span = (key[0], key[2], key[1], key[3])  # a table key is (line, end line, col, end col)
            known = by_form.get(id(form))
            if known is None:
                by_form[id(form)] = (form, span)
            elif known[1] is not None and known[1][:2] != span[:2]:
                by_form[id(form)] = (form, None)  # one object at two places: keep neither
            elif known[1] is not None and span < known[1]:
                by_form[id(form)] = (form, span)  # a key made unique by a later end column: the first
        for form, first in by_form.values():
            if first is not None:
                form.span = first
        _restore_symbols(table, [(form, span) for form, span in by_form.values() if span is not None])
    quoted = table.quoted
    if quoted is not None:
        roots, packed = quoted
        apply_form_spans(roots, packed)


def _restore_symbols(table: Any, forms: list[tuple[Any, Span]]) -> None:
    """Give the symbols a global read names in ``table`` (an entry whose form is the symbol: the place
    where it can be unbound, ``Emitter.fail_pos``) their spans in the call form around them, its
    ``child_spans``: code compiled at run time from that form (a ``catch`` handler's late fallback, a
    macro's arguments) places an unbound symbol there, as the source run does, not at the call form.
    A symbol that is not a direct child of a call form given its span back (one inside a special
    form) keeps none; a call form holding it more often than the table names it is left alone."""
    wanted: dict[Symbol, list[tuple[int, int, int, int]]] = {}
    for (*_, form), key in zip(table.spans, table.spell):
        if type(form) is Symbol and key is not None:
            wanted.setdefault(form, []).append(key)
    if not wanted:
        return
    by_line: dict[int, list[tuple[Any, Span]]] = {}
    for form, span in forms:
        for line in range(span[0], span[2] + 1):
            by_line.setdefault(line, []).append((form, span))
    found: dict[tuple[int, int], dict[tuple[int, int], Span]] = {}  # (form, symbol) ids → their places
    parents: dict[int, Any] = {}
    for sym, keys in wanted.items():
        for line, eline, col, ecol in keys:
            around = [(form, span) for form, span in by_line.get(line, ())
                      if (span[0], span[1]) <= (line, col) and (eline, ecol) <= (span[2], span[3])]
            if around:  # the innermost: it starts last, and of those ends first
                form, _ = max(around, key=lambda item: (item[1][0], item[1][1], -item[1][2], -item[1][3]))
                parents[id(form)] = form
                found.setdefault((id(form), id(sym)), {})[(line, col)] = (line, col, eline, ecol)
    for (form_id, sym_id), places in found.items():
        form = parents[form_id]
        items = list(form)
        at = [i for i, child in enumerate(items) if id(child) == sym_id]
        if len(at) != len(places):
            continue
        kids = list(child_spans_of(form) or (None,) * len(items))
        for i, (_, span) in zip(at, sorted(places.items())):
            kids[i] = span
        set_span(form, span_of(form), tuple(kids))


# --------------------------------------------------------------------------- fn forms

def pack_fn_spans(entries: list[tuple[int, Span]]) -> str:
    """``(entry, span)`` of ``(fn ...)`` forms, by entry: the entry's distance from the previous one's,
    then the span (``_pack_span``) — what ``built_constants.decode_spans`` reads (``set_fn_spans`` there)."""
    out: list[int] = []
    previous = line = 0
    for entry, span in sorted(entries):
        out.append(entry - previous)
        previous = entry
        line = _pack_span(span, line, out)
    return pack_numbers(out)


# --------------------------------------------------------------------------- quoted forms

def children(form: Any) -> list[Any]:
    """The values inside a collection form, in iteration order (the walk that ``pack_form_spans`` and
    ``apply_form_spans`` share; a map's keys and values alternate)."""
    if isinstance(form, SpellMap):
        return [x for kv in form.items() for x in kv]
    if type(form) is LineVector:
        return list(form.items)
    return list(form)


def _pack_span(span: Optional[Span], line: int, out: list[int]) -> int:
    """Append ``span`` (0 for none; else its start line's distance from ``line``, its start column,
    its line count, its end column) to ``out``; the new running line."""
    if span is None:
        out.append(0)
        return line
    out += (zigzag(span[0] - line) + 1, span[1], span[2] - span[0], span[3])
    return span[0]


def pack_form_spans(forms: list[Any]) -> str:
    """The spans of ``forms`` and of every collection inside them, depth first: per collection its own
    span, then the number of its child spans (plus one; 0 for none) and each of them."""
    out: list[int] = []
    line = 0
    stack = list(reversed(forms))
    while stack:
        form = stack.pop()
        line = _pack_span(span_of(form), line, out)
        kids = child_spans_of(form)
        out.append(0 if kids is None else len(kids) + 1)
        for kid in kids or ():
            line = _pack_span(kid, line, out)
        stack.extend(reversed([c for c in children(form) if isinstance(c, _COLLECTIONS)]))
    return pack_numbers(out)


def apply_form_spans(forms: tuple[Any, ...], packed: str) -> None:
    """Set on ``forms`` (rebuilt without spans) the spans ``pack_form_spans`` wrote for them."""
    numbers = unpack_numbers(packed)
    i = line = 0

    def span() -> Optional[Span]:
        nonlocal i, line
        head = numbers[i]
        i += 1
        if head == 0:
            return None
        line += unzigzag(head - 1)
        found = (line, numbers[i], line + numbers[i + 1], numbers[i + 2])
        i += 3
        return found

    stack = list(reversed(forms))
    while stack and i < len(numbers):
        form = stack.pop()
        own = span()
        count = numbers[i]
        i += 1
        kids = tuple(span() for _ in range(count - 1)) if count else None
        set_span(form, own, kids)
        stack.extend(reversed([c for c in children(form) if isinstance(c, _COLLECTIONS)]))


def quoted_spans(namespace: dict[str, Any], entries: str, packed: str) -> tuple[tuple[Any, ...], str]:
    """The quoted forms of a built module (``_k<entry>`` for each packed entry number) and their packed
    spans, for its ``SpanTable``: the forms are named now, their spans set only when needed."""
    return tuple(namespace["_k%d" % n] for n in unpack_numbers(entries)), packed


__all__ = ["restore_pending", "restore", "pack_form_spans", "apply_form_spans",
           "quoted_spans", "children", "pack_fn_spans"]
