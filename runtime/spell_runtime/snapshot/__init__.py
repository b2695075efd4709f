"""Bounded snapshots: what the next model turn sees of a value (runtime.md §4).

``snapshot_text`` is the function every display boundary uses; ``snapshot``
and ``snapshot_form`` give the bounded value and its value form. The builtins
``serialize`` and ``context-forms`` live in ``spell_runtime.snapshot.serialize``
and are registered by ``spell_runtime.library``.

The clipping core (``display`` and the ``backend`` that picks the compiled or the
interpreted ``clip`` modules) is loaded on first use of one of its names, not when
the package is imported: every start-up registers the builtins above, while only
programs that show a value to a model clip one (issue 12.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .lazy import register_lazy_type
from .limits import DEFAULT_LIMIT, LIMIT_MESSAGE, MIN_LIMIT, check_limit, effective_limit, grace

if TYPE_CHECKING:
    from .backend import COMPILED
    from .display import Snapshot, render, snapshot, snapshot_form, snapshot_text

_FROM_DISPLAY = frozenset({"Snapshot", "render", "snapshot", "snapshot_form", "snapshot_text"})


def __getattr__(name: str) -> Any:
    """The clipping core's names, imported on first use (see the module docstring)."""
    if name in _FROM_DISPLAY:
        from . import display

        value = getattr(display, name)
    elif name == "COMPILED":
        from . import backend

        value = backend.COMPILED
    else:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    globals()[name] = value
    return value


__all__ = [
    "COMPILED", "DEFAULT_LIMIT", "LIMIT_MESSAGE", "MIN_LIMIT", "Snapshot", "check_limit", "effective_limit",
    "grace", "register_lazy_type", "render", "snapshot", "snapshot_form", "snapshot_text",
]
