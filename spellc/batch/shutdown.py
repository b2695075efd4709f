"""The ``killed`` response: what a run terminated before completing still owes its harness (issue 17).

A harness that kills a slow item (SIGTERM, or Ctrl-C) must still read one JSON
response, so ``spellc benchmark-api`` and every ``spellc batch`` item process
install ``on_termination``: the handler runs on the main thread (Python delivers
signals there, between bytecodes, even while the run's own thread computes),
writes ``{ok: false, error_type: "killed", patch_on_disk, error_data}`` once, and
leaves with ``os._exit`` — the run thread is a daemon that may never stop, and no
cleanup may write anything after the response. ``patch_on_disk`` is the
reference's best-effort check that the working tree has uncommitted changes
(``git status --porcelain`` with a 2 s bound), ``partial_work`` whether the run
had finished at least one model turn.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable
from types import FrameType
from typing import Any, Final, Optional

from .benchmark_api import RequestState
from .contract import KILLED, json_safe

PROGRAM: Final = "spellc benchmark-api"
GIT_STATUS_TIMEOUT_SEC: Final = 2.0
EXIT_KILLED: Final = 1
"""Exit status after writing a killed response: the contract's "not ok"."""


def patch_on_disk() -> bool:
    """Whether ``git status --porcelain`` in the working directory reports changes (False when it cannot tell)."""
    try:
        done = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True,
                              timeout=GIT_STATUS_TIMEOUT_SEC, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and done.stdout.strip() != ""


def killed_response(state: RequestState, program: str = PROGRAM) -> dict[str, Any]:
    """The contract's response for a run terminated before completing."""
    patched = patch_on_disk()
    return {"ok": False, "mode": state.mode, "latency_ms": state.latency_ms(), "error": KILLED % program,
            "error_type": "killed", "patch_on_disk": patched,
            "error_data": json_safe({"patch_on_disk": patched, "partial_work": state.turns > 0}),
            "trace_dir": state.trace_dir}


def on_termination(state: RequestState, write: Callable[[dict[str, Any]], None],
                   signals: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT)) -> None:
    """Install handlers that ``write`` the killed response (unless the real one is being written) and exit."""

    def handler(signum: int, frame: Optional[FrameType]) -> None:
        del frame
        if state.finishing:
            return  # the real response is on its way; the process ends right after it
        state.finishing = True
        try:
            write(killed_response(state))
        finally:
            os._exit(EXIT_KILLED)

    for sig in signals:
        signal.signal(sig, handler)
