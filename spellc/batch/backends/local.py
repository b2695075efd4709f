"""The default backend: one fresh process per item, forked from the warmed-up batch process.

Isolation is the point (issue 17): an item that crashes, leaks, or loops forever
takes only its own process with it. Forking keeps that cheap — the batch process
imports the compiler and turn loop once before the first fork, so an item starts
in about a millisecond instead of paying an interpreter start and the imports
(what one ``spellc benchmark-api`` process per item costs; see
``benchmarks/bench_batch.py``). Where fork is unavailable (not Linux), the
``spawn`` start method is used: slower to start, same behaviour.

The batch process stays single-threaded (it waits on pipes and process
sentinels with ``multiprocessing.connection.wait``), which is what makes forking
from it safe. Timeout: SIGTERM first, so the item's own shutdown path writes its
``killed`` response (``shutdown.on_termination``); if that has not arrived
within ``grace_sec``, SIGKILL, and the runner records ``timeout``. Items never
outlive the batch: Ctrl-C or SIGTERM to it stops them (``close``), and on Linux
each item asks the kernel for SIGKILL should the batch die without doing so.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Final, Optional

from ..benchmark_api import RequestState
from ..jsonl import BatchItem
from . import ItemFn, as_timed_out, crashed_response, item_mode, timeout_response

GRACE_SEC: Final = 3.0
"""How long an item has, after SIGTERM, to write its killed response."""


def _start_method() -> str:
    return "fork" if sys.platform.startswith("linux") else "spawn"


WARM_UP_REQUEST: Final = {"prompt": "warm up", "model": "test:"}


def warm_up(item_fn: ItemFn) -> None:
    """Run one scripted request here, once, so every forked item starts with the compiler's caches filled.

    The first run in a process builds the core namespace and compiles the agent wrapper (about half a
    second); forked children inherit all of it. The run's thread has ended when this returns, so the
    process is single-threaded again before the first fork.
    """
    from ..benchmark_api import handle_request

    if item_fn is handle_request:
        handle_request(dict(WARM_UP_REQUEST), RequestState())


def item_main(item_fn: ItemFn, request: dict[str, Any], conn: Connection) -> None:
    """The item process: run one request, send its response, leave without running exit handlers."""
    from ..contract import error_response
    from ..shutdown import on_termination

    state = RequestState()
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the batch's to handle (it stops every item)
    on_termination(state, conn.send, signals=(signal.SIGTERM,))
    try:
        response = item_fn(request, state)
    except BaseException as e:  # noqa: BLE001 - a bug in the item function is still this item's result
        response = error_response(state.mode, state.latency_ms(), "%s: %s" % (type(e).__name__, e), "internal")
    state.finishing = True
    try:
        conn.send(response)
        conn.close()
    finally:
        os._exit(0)


PR_SET_PDEATHSIG: Final = 1


def _die_with_parent() -> None:
    """Linux: SIGKILL this item if the batch process dies without stopping it (e.g. SIGKILL, OOM killer)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent was already gone before the request took effect
        os._exit(1)


@dataclass
class _Running:
    item: BatchItem
    process: Any
    conn: Connection
    started: float
    terminated_at: Optional[float] = None


class LocalBackend:
    """Items as child processes of this one (at most as many as the runner submits)."""

    def __init__(self, item_fn: ItemFn, timeout: Optional[float] = None, grace_sec: float = GRACE_SEC) -> None:
        self.item_fn = item_fn
        self.timeout = timeout
        self.grace_sec = grace_sec
        self._context: Any = multiprocessing.get_context(_start_method())
        self._running: list[_Running] = []
        if _start_method() == "fork":
            warm_up(item_fn)

    def submit(self, item: BatchItem) -> None:
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=item_main, args=(self.item_fn, item.request, sender),
                                        name="spellc-item-%s" % item.key, daemon=True)
        process.start()
        sender.close()
        self._running.append(_Running(item, process, receiver, time.monotonic()))

    def running(self) -> int:
        return len(self._running)

    def poll(self, wait_sec: float) -> list[tuple[BatchItem, dict[str, Any]]]:
        finished = self._enforce_timeouts()
        if finished or not self._running:
            return finished
        ready = set(wait([r.conn for r in self._running] + [r.process.sentinel for r in self._running],
                         timeout=self._wait_bound(wait_sec)))
        for run in list(self._running):
            if run.conn in ready or run.process.sentinel in ready:
                finished.append((run.item, self._collect(run)))
        return finished

    def close(self) -> None:
        for run in self._running:
            if run.process.is_alive():
                run.process.kill()
        for run in self._running:
            run.process.join(self.grace_sec)
            run.conn.close()
        self._running = []

    # -- internals ------------------------------------------------------------------------------
    def _wait_bound(self, wait_sec: float) -> float:
        """Wake up for the nearest timeout or grace deadline, if it is sooner than ``wait_sec``."""
        if self.timeout is None:
            return wait_sec
        now = time.monotonic()
        deadlines = [(r.terminated_at + self.grace_sec) if r.terminated_at is not None else r.started + self.timeout
                     for r in self._running]
        return max(0.0, min([wait_sec] + [d - now for d in deadlines]))

    def _enforce_timeouts(self) -> list[tuple[BatchItem, dict[str, Any]]]:
        if self.timeout is None:
            return []
        now = time.monotonic()
        forced: list[tuple[BatchItem, dict[str, Any]]] = []
        for run in list(self._running):
            if run.terminated_at is None and now >= run.started + self.timeout:
                run.process.terminate()
                run.terminated_at = now
            elif run.terminated_at is not None and now >= run.terminated_at + self.grace_sec and not run.conn.poll():
                run.process.kill()
                self._finish(run)
                forced.append((run.item, timeout_response(self.timeout, (now - run.started) * 1000.0,
                                                          item_mode(run.item))))
        return forced

    def _collect(self, run: _Running) -> dict[str, Any]:
        response: Optional[dict[str, Any]] = None
        if run.conn.poll():
            try:
                response = run.conn.recv()
            except (EOFError, OSError):
                response = None
        latency_ms = (time.monotonic() - run.started) * 1000.0
        self._finish(run)
        if response is None:
            code = run.process.exitcode
            detail = ("killed by signal %d" % -code) if isinstance(code, int) and code < 0 else "exit status %s" % code
            return crashed_response(detail, latency_ms, item_mode(run.item))
        if run.terminated_at is not None and response.get("error_type") == "killed" and self.timeout is not None:
            return as_timed_out(response, self.timeout)
        return response

    def _finish(self, run: _Running) -> None:
        run.process.join(self.grace_sec)
        if run.process.is_alive():
            run.process.kill()
            run.process.join()
        run.conn.close()
        self._running.remove(run)
