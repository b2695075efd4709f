"""The one entry point of every display boundary: ``!call-now``, ``!peek``, ``!print``, ``serialize``, messages.

A snapshot is an ordinary Spell value (the bound, possibly clipped value), its
value form (what is written into the next prefix) and whether anything was left
out. The text the model reads is ``R`` of that form; a retained snapshot is
later re-rendered with ``render`` and never clipped again (runtime.md §4.7).
"""

from __future__ import annotations

import gc
from typing import Any, NamedTuple

from ..valueform import value_form
from .backend import core
from .limits import DEFAULT_LIMIT, effective_limit


class Snapshot(NamedTuple):
    """``snapshot(value, limit)`` of runtime.md §4.5."""

    value: Any
    form: Any
    truncated: bool


def _clip(value: Any, limit: int) -> tuple[Any, bool]:
    """``core.snapshot`` with the cyclic garbage collector paused.

    Clipping allocates many short-lived containers (and no cycles). Next to a
    large value, those allocations regularly trigger a full collection that
    walks the whole heap — 180 ms beside a 10⁵-entry map, fifteen times the
    clipping itself. Paused, the allocations are freed before the collector
    would have counted them.
    """
    if not gc.isenabled():
        result, truncated = core.snapshot(value, limit)
        return result, bool(truncated)
    gc.disable()
    try:
        result, truncated = core.snapshot(value, limit)
    finally:
        gc.enable()
    return result, bool(truncated)


def snapshot(value: Any, limit: Any = None, *, run_default: Any = DEFAULT_LIMIT) -> Snapshot:
    """The bounded snapshot of ``value`` for ``limit`` (nil → ``run_default``); bad limits raise ``ControlError``."""
    result, truncated = _clip(value, effective_limit(limit, run_default))
    return Snapshot(result, value_form(result), truncated)


def clip_to_budget(value: Any, budget: int) -> Snapshot:
    """The snapshot of ``value`` for a budget the *runtime* computed (not a limit a program wrote).

    Unlike ``snapshot`` it accepts targets below 128: a message receipt's body gets what is left of
    one contribution budget after its annotation, envelope and continuation (runtime.md §11.5).
    """
    result, truncated = _clip(value, max(1, budget))
    return Snapshot(result, value_form(result), truncated)


def snapshot_text(value: Any, limit: Any = None, *, run_default: Any = DEFAULT_LIMIT) -> tuple[str, bool]:
    """(``R`` of the snapshot's value form, whether anything was omitted)."""
    result, truncated = _clip(value, effective_limit(limit, run_default))
    text: str = core.render(result)
    return text, truncated


def snapshot_form(value: Any, limit: Any = None, *, run_default: Any = DEFAULT_LIMIT) -> Any:
    """The snapshot's value form (what ``context-forms`` binds)."""
    return snapshot(value, limit, run_default=run_default).form


def render(value: Any) -> str:
    """``R(value_form(value))`` with no cap: how a retained snapshot is shown again."""
    text: str = core.render(value)
    return text
