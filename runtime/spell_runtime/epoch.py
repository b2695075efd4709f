"""The binding epoch: the one cell of compiler state that compiled code reads (as ``_EPOCH``).

Bumped by the compiler whenever code binds a core builtin name for the first time; compiled
function bodies that refer to builtins directly re-compile when it has moved (see
``spellc.analyze.bound``; the compiler's other state is listed in ``spellc.state``): ``bump`` runs
the ``ON_BUMP`` hooks, through which ``spell_runtime.stale_bodies`` sends those bodies stale. It lives in a
module of its own, importing nothing of the runtime, so that the analyzer and the emitter can read it without
importing the runtime's support code (house review §4: the compiler leaves the runtime's import circle).
"""

from __future__ import annotations

from collections.abc import Callable

EPOCH: list[int] = [0]

MOVED: list[int] = []
"""Empty while ``EPOCH`` is 0, ``[1]`` once it has moved: the call site that enters a closed body's
second body (``spellc.emit.published_calls``) tests ``not _MOVED`` when the body was compiled at
epoch 0 — two ``ast`` nodes and one load fewer than ``_EPOCH[0] == 0`` (issue 12: cold compile is
paid per node). Only ``bump`` moves the epoch, so the two agree. (Bodies themselves test nothing:
``stale_bodies``.)"""


ON_BUMP: list[Callable[[], None]] = []
"""Called after each move of the epoch (``stale_bodies`` adds its hook when it is first used)."""


def bump() -> None:
    """Move the epoch (the caller holds the compiler's lock: ``spellc.analyze.bound``)."""
    EPOCH[0] += 1
    MOVED[:] = [1]
    for hook in ON_BUMP:
        hook()


__all__ = ["EPOCH", "MOVED", "ON_BUMP", "bump"]
