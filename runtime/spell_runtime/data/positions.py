"""Source positions of forms.

Lists, maps and sets carry ``span`` and ``child_spans`` attributes. The C vector
type has no attribute slots, so a vector's positions live in a side table keyed by
object identity (``sidetable``), dropped when the vector dies.
Symbols are interned and shared, so a symbol occurrence's span is the entry for it
in its parent's ``child_spans``. A span is (line, column, end line, end column):
lines 1-based, columns 0-based, end exclusive.
"""

from __future__ import annotations

from typing import Any, Optional

from .plist import Span
from .sidetable import IdentitySideTable

ChildSpans = Optional[tuple[Optional[Span], ...]]

_vector_spans: IdentitySideTable[tuple[Optional[Span], ChildSpans]] = IdentitySideTable()


def set_span(form: Any, span: Optional[Span], child_spans: ChildSpans = None) -> None:
    """Record where ``form`` (a collection) and its children stand in the source."""
    if hasattr(form, "child_spans"):
        form.span = span
        form.child_spans = child_spans
        return
    try:
        _vector_spans.put(form, (span, child_spans))
    except TypeError:
        pass


def span_of(form: Any) -> Optional[Span]:
    """The recorded span of a collection form, or None."""
    span = getattr(form, "span", None)
    if span is not None:
        return span  # type: ignore[no-any-return]
    entry = _vector_spans.get(form)
    return None if entry is None else entry[0]


def spans_of(form: Any) -> tuple[Optional[Span], ChildSpans]:
    """``(span_of(form), child_spans_of(form))`` with one look-up (``spellc.compiler.places``, on
    the path of every cached macro expansion)."""
    span = getattr(form, "span", MISSING)
    if span is not MISSING:
        return span, getattr(form, "child_spans", None)
    entry = _vector_spans.get(form)
    return (None, None) if entry is None else entry


MISSING: Any = object()


def child_spans_of(form: Any) -> ChildSpans:
    """The recorded spans of a collection form's children (in iteration order), or None."""
    spans = getattr(form, "child_spans", None)
    if spans is not None:
        return spans  # type: ignore[no-any-return]
    entry = _vector_spans.get(form)
    return None if entry is None else entry[1]
