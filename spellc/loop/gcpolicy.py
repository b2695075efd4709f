"""Garbage-collector policy across an agent session (issue 14, item 5).

A conversation is a chain of nested model calls (runtime.md §5.1): every earlier
turn's program, compiled units and environment stay alive on the stack until the
run ends, and the cyclic collector's full collections walk all of them again and
again — measured on a 200-turn scripted session, turning the collector off halved
the run time. So at each turn boundary (a model call) the objects alive at that
moment are moved to the permanent generation with ``gc.freeze()``: they are mostly
the long-lived turns, and later collections look only at what was allocated since.
Reference counting still frees frozen objects that die; only frozen *cycles* wait
until the last active run ends and ``gc.unfreeze()`` hands them back to the
collector. ``SPELLC_GC_FREEZE=0`` switches the policy off (benchmarks compare both).
"""

from __future__ import annotations

import gc
import os
import threading
from typing import Final

FREEZE_VAR: Final = "SPELLC_GC_FREEZE"

_lock = threading.Lock()
_active_runs = [0]


def enabled() -> bool:
    return os.environ.get(FREEZE_VAR, "1") not in ("", "0")


def run_started() -> None:
    with _lock:
        _active_runs[0] += 1


def run_ended() -> None:
    """The last active run hands every frozen object back to the collector."""
    with _lock:
        _active_runs[0] -= 1
        if _active_runs[0] <= 0:
            _active_runs[0] = 0
            gc.unfreeze()


def turn_boundary() -> None:
    """Freeze what is alive now (called before each model call of a run)."""
    if _active_runs[0] > 0 and enabled():
        gc.freeze()
