"""Which host objects a snapshot treats as (possibly infinite) Spell sequences.

Spell has no lazy sequences of its own yet, but a display boundary must never
count or exhaust one (runtime.md §4.5.2): pass 1 pulls items one at a time and
stops when its fuel is spent. A future lazy-sequence type registers itself
here; registered values are iterated lazily, each ``iter()`` starting afresh,
and are shown as lists.
"""

from __future__ import annotations

from typing import Any, Final

END: Final[Any] = object()
"""Returned by ``next(it, END)`` when a sequence has no more items."""

_types: tuple[type, ...] = ()


def register_lazy_type(cls: type) -> None:
    """Let snapshots treat instances of ``cls`` as lazy sequences."""
    global _types
    if cls not in _types:
        _types = (*_types, cls)


def is_lazy(x: Any) -> bool:
    """True for an instance of a registered lazy-sequence type."""
    return bool(_types) and isinstance(x, _types)
