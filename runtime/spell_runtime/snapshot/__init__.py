"""Bounded snapshots: what the next model turn sees of a value (runtime.md §4).

``snapshot_text`` is the function every display boundary uses; ``snapshot``
and ``snapshot_form`` give the bounded value and its value form. The builtins
``serialize`` and ``context-forms`` live in ``spell_runtime.snapshot.serialize``
and are registered by ``spell_runtime.library``.
"""

from .backend import COMPILED
from .display import Snapshot, render, snapshot, snapshot_form, snapshot_text
from .lazy import register_lazy_type
from .limits import DEFAULT_LIMIT, LIMIT_MESSAGE, MIN_LIMIT, check_limit, effective_limit, grace

__all__ = [
    "COMPILED", "DEFAULT_LIMIT", "LIMIT_MESSAGE", "MIN_LIMIT", "Snapshot", "check_limit", "effective_limit",
    "grace", "register_lazy_type", "render", "snapshot", "snapshot_form", "snapshot_text",
]
