"""The Ray backend: the same per-item function as Ray tasks, so a sweep spreads over a cluster.

Why Ray (issue 17): tasks run in separate worker processes on any node, results
stream back with ``ray.wait`` as they finish, and ``runtime_env`` ships an agent
package's wheel to every node (``py_modules`` installs a ``.whl`` there), so no
home-made scripts copy code around. Ray is an optional extra (``spellc[ray]``),
imported only when this backend is chosen.

Each item is one task running ``ItemFn`` in a Ray worker process. Ray's own task
retries are off (``max_retries=0``): the runner retries environment faults
itself, with the same rule as the local backend (``retry``). A task past its
timeout is cancelled with ``force=True`` — that kills its worker process, the
only way to stop a runaway Python loop — and recorded as ``timeout`` at once.
Workers must be able to import spellc: on a local cluster they share this
interpreter's environment; on a remote cluster install spellc on the nodes (or
ship its wheel with ``--agent-wheel``).

If no Ray runtime is running, the backend starts a local one (``address`` None)
or connects to ``address`` and shuts it down on ``close``; a runtime started by
the caller (tests, notebooks) is used and left running. Wheels are shipped as the
driver's job-level ``runtime_env`` (``py_modules``), the only level at which Ray
uploads local files, so they need the backend's own ``ray.init``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from importlib import import_module
from typing import Any, Optional

from ..benchmark_api import RequestState
from ..jsonl import BatchItem
from ..retry import LOST_WORKER
from . import ItemFn, crashed_response, item_mode, timeout_response

NEEDS_OWN_DRIVER = ("agent wheels can be shipped only when spellc starts its own Ray driver (Ray uploads local "
                    "wheels for a job-level runtime_env); connect with --ray-address instead of calling ray.init first")


def run_remote_item(item_fn: ItemFn, request: dict[str, Any]) -> dict[str, Any]:
    """The task body: the per-item function in a Ray worker."""
    return item_fn(request, RequestState())


def wheel_runtime_env(wheels: Sequence[str]) -> Optional[dict[str, Any]]:
    """The ``runtime_env`` that installs these wheels on every node that runs an item (None when no wheel)."""
    if not wheels:
        return None
    missing = [w for w in wheels if not (os.path.isfile(w) and w.endswith(".whl"))]
    if missing:
        raise ValueError("not a wheel file: %s" % ", ".join(missing))
    return {"py_modules": [os.path.abspath(w) for w in wheels]}


class RayBackend:
    """Items as Ray tasks; ``poll`` streams whatever has finished."""

    def __init__(self, item_fn: ItemFn, timeout: Optional[float] = None, *, address: Optional[str] = None,
                 wheels: Sequence[str] = ()) -> None:
        self.ray: Any = import_module("ray")
        self.item_fn = item_fn
        self.timeout = timeout
        self.runtime_env = wheel_runtime_env(wheels)
        self._owns_runtime = not self.ray.is_initialized()
        if self._owns_runtime:
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # spellc never reports usage for the user
            # Ray uploads local wheels only for a job-level runtime_env: every task of this driver gets them.
            self.ray.init(address=address, include_dashboard=False, log_to_driver=False, runtime_env=self.runtime_env)
        elif self.runtime_env is not None:
            raise ValueError(NEEDS_OWN_DRIVER)
        self._task = self.ray.remote(run_remote_item).options(max_retries=0, retry_exceptions=False)
        self._running: dict[Any, tuple[BatchItem, float]] = {}

    def submit(self, item: BatchItem) -> None:
        ref = self._task.remote(self.item_fn, item.request)
        self._running[ref] = (item, time.monotonic())

    def running(self) -> int:
        return len(self._running)

    def poll(self, wait_sec: float) -> list[tuple[BatchItem, dict[str, Any]]]:
        finished = self._cancel_overdue()
        if finished or not self._running:
            return finished
        ready, _ = self.ray.wait(list(self._running), num_returns=1, timeout=self._wait_bound(wait_sec))
        for ref in ready:
            item, started = self._running.pop(ref)
            finished.append((item, self._result(ref, item, started)))
        return finished

    def close(self) -> None:
        for ref in list(self._running):
            self.ray.cancel(ref, force=True)
        self._running.clear()
        if self._owns_runtime:
            self.ray.shutdown()

    # -- internals ------------------------------------------------------------------------------
    def _wait_bound(self, wait_sec: float) -> float:
        if self.timeout is None:
            return wait_sec
        now = time.monotonic()
        return max(0.0, min([wait_sec] + [started + self.timeout - now for _, started in self._running.values()]))

    def _cancel_overdue(self) -> list[tuple[BatchItem, dict[str, Any]]]:
        if self.timeout is None:
            return []
        now = time.monotonic()
        overdue = [ref for ref, (_, started) in self._running.items() if now >= started + self.timeout]
        out: list[tuple[BatchItem, dict[str, Any]]] = []
        for ref in overdue:
            item, started = self._running.pop(ref)
            self.ray.cancel(ref, force=True)
            out.append((item, timeout_response(self.timeout, (now - started) * 1000.0, item_mode(item))))
        return out

    def _result(self, ref: Any, item: BatchItem, started: float) -> dict[str, Any]:
        exceptions = self.ray.exceptions
        latency_ms = (time.monotonic() - started) * 1000.0
        try:
            response: dict[str, Any] = self.ray.get(ref)
            return response
        except exceptions.WorkerCrashedError as e:
            return crashed_response("Ray worker crashed: %s" % _first_line(e), latency_ms, item_mode(item))
        except exceptions.RayTaskError as e:  # the item function itself raised: a spellc bug, not retried
            return {"ok": False, "mode": item_mode(item) or "spell", "latency_ms": latency_ms,
                    "error": _first_line(e), "error_type": "internal", "error_data": None}
        except exceptions.RuntimeEnvSetupError as e:  # e.g. a wheel that does not install: not retried
            return {"ok": False, "mode": item_mode(item) or "spell", "latency_ms": latency_ms,
                    "error": "Ray could not set up the item's environment: %s" % _first_line(e),
                    "error_type": "environment_setup", "error_data": {"ray_error": type(e).__name__}}
        except exceptions.RayError as e:  # node died, object lost, runtime env setup failed...
            return {"ok": False, "mode": item_mode(item) or "spell", "latency_ms": latency_ms,
                    "error": "Ray lost the item: %s" % _first_line(e), "error_type": LOST_WORKER,
                    "error_data": {"ray_error": type(e).__name__}}


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
