"""Source positions of forms.

Lists, maps and sets carry ``span`` and ``child_spans`` attributes. The C vector
type has no attribute slots, so a vector's positions live in a side table keyed by
object identity and dropped by a weak-reference callback when the vector dies.
Symbols are interned and shared, so a symbol occurrence's span is the entry for it
in its parent's ``child_spans``. A span is (line, column, end line, end column):
lines 1-based, columns 0-based, end exclusive.
"""

from __future__ import annotations

import weakref
from typing import Any, Optional

from .plist import Span

ChildSpans = Optional[tuple[Optional[Span], ...]]

_vector_spans: dict[int, tuple[Any, Optional[Span], ChildSpans]] = {}


def _forget(key: int) -> Any:
    def callback(_ref: Any) -> None:
        _vector_spans.pop(key, None)

    return callback


def set_span(form: Any, span: Optional[Span], child_spans: ChildSpans = None) -> None:
    """Record where ``form`` (a collection) and its children stand in the source."""
    if hasattr(form, "child_spans"):
        form.span = span
        form.child_spans = child_spans
        return
    try:
        key = id(form)
        _vector_spans[key] = (weakref.ref(form, _forget(key)), span, child_spans)
    except TypeError:
        pass


def span_of(form: Any) -> Optional[Span]:
    """The recorded span of a collection form, or None."""
    span = getattr(form, "span", None)
    if span is not None:
        return span  # type: ignore[no-any-return]
    entry = _vector_spans.get(id(form))
    if entry is not None and entry[0]() is form:
        return entry[1]
    return None


def child_spans_of(form: Any) -> ChildSpans:
    """The recorded spans of a collection form's children (in iteration order), or None."""
    spans = getattr(form, "child_spans", None)
    if spans is not None:
        return spans  # type: ignore[no-any-return]
    entry = _vector_spans.get(id(form))
    if entry is not None and entry[0]() is form:
        return entry[2]
    return None
