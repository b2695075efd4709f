"""Where to point for a Spell error that carries no position of its own.

Compiled code finds most positions itself (``spell_runtime.callpath``: the instruction that
was running when the error left the innermost compiled frame). This is the fallback for an
error no compiled frame placed: symbols are interned and carry no span
(``spell_runtime.data.positions``), so look for the error's ``expr`` in the form that failed
(its ``containing_form``, else the top-level form being run) and fall back to that form's own
span. ``eval_string``, ``spellc run``, the turn loop, the repl and the test reports use it.
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


def occurrence(form: Any, target: Any) -> Any:
    """The span of the first occurrence of ``target`` inside ``form`` (depth-first), or None."""
    from spell_runtime.callpath import occurrence as find

    return find(form, target)
