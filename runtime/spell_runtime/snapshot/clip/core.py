"""The snapshot algorithm proper (runtime.md §4.5): pass 1, the 120 % rule, pass 2, ``:truncated``.

The limit arrives validated (``spell_runtime.snapshot.limits``); everything
here is deterministic and free of Python-version or compilation differences, so
the mypyc-compiled module and its pure-Python source give identical results.
"""

from __future__ import annotations

from typing import Any

from ...data.hashmap import SpellMap
from .normalize import Pass1, normalize
from .render import Ctx, fits, vf_len, vf_text
from .shapes import K_TRUNCATED, failure, is_envelope
from .shorten import shorten_over


def grace_of(limit: int) -> int:
    """``quot(limit * 6, 5)``: a rendering at most this long is shown whole."""
    return (limit * 6) // 5


def _flag(v: Any) -> Any:
    if isinstance(v, SpellMap):
        return v.assoc(K_TRUNCATED, True)
    return v


def snapshot(value: Any, limit: int) -> tuple[Any, bool]:
    """(bounded value, whether anything was omitted) for a validated ``limit``."""
    grace = grace_of(limit)
    try:
        ctx = Ctx()
        p = Pass1(grace, ctx)
        norm = normalize(p, value, 0)
        changed = p.changed
        if changed and is_envelope(norm):
            norm = _flag(norm)
        whole = fits(ctx, norm, grace)
        result = norm if whole else shorten_over(ctx, norm, limit)
        if is_envelope(result) and (changed or not whole):
            result = _flag(result)
        return ctx.materialize(result), changed or not whole
    except Exception:
        return failure(), True


def render(value: Any) -> str:
    """``R(value_form(value))`` of a snapshot value, uncapped (retained snapshots are never re-clipped)."""
    return vf_text(Ctx(), value)


def rendered_length(value: Any, cap: int) -> int:
    """``len(R(value_form(value)))`` when at most ``cap`` (-1: no cap), else -1."""
    return vf_len(Ctx(), value, cap)
