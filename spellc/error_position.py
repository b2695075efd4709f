"""Where to point for a Spell error that carries no position of its own.

Symbols are interned and carry no span (``spell_runtime.data.positions``), so an error about a
symbol — ``Unbound symbol: x`` — has ``expr`` = the symbol and no ``position``; ``spellc run``
then reports line 1, column 1. The test reports and the repl look for the symbol's first
occurrence in the form that failed (its ``containing_form``, else the top-level form being
run) and fall back to that form's own span.
"""

from __future__ import annotations

from typing import Any


def locate_error(e: Any, form: Any) -> Any:
    """The best span for an error without one: where its ``expr`` occurs, else the failing form."""
    from spell_runtime.data.positions import span_of
    from spell_runtime.errors import NO_VALUE

    containing = getattr(e, "containing_form", NO_VALUE)
    for candidate in (containing, form):
        if candidate is NO_VALUE or candidate is None:
            continue
        found = occurrence(candidate, getattr(e, "expr", None))
        if found is not None:
            return found
        if span_of(candidate) is not None:
            return span_of(candidate)
    return None


def occurrence(form: Any, target: Any, depth: int = 0) -> Any:
    """The span of the first occurrence of ``target`` inside ``form`` (depth-first), or None."""
    from spell_runtime.data.positions import child_spans_of, span_of

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
