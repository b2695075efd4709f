"""Where batch items run. Every backend runs the same per-item function (``ItemFn``) and reports the same way.

A backend takes items (``submit``), reports finished ones as (item, response)
pairs (``poll``), enforces the per-item timeout itself (it alone can stop what
it started), and stops everything on ``close``. The runner decides what to
start, when to retry and what to write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Optional, Protocol

from ..benchmark_api import RequestState
from ..jsonl import BatchItem

ItemFn = Callable[[dict[str, Any], RequestState], dict[str, Any]]
"""One request → its contract response (``benchmark_api.handle_request`` unless a test injects another)."""

TIMEOUT_KILLED: Final = "Item exceeded the batch timeout of %gs and was terminated"
TIMEOUT_FORCED: Final = "Item exceeded the batch timeout of %gs and did not stop; its process was killed"


class Backend(Protocol):
    def submit(self, item: BatchItem) -> None: ...

    def running(self) -> int: ...

    def poll(self, wait_sec: float) -> list[tuple[BatchItem, dict[str, Any]]]: ...

    def close(self) -> None: ...


def timeout_response(timeout: float, latency_ms: float, mode: Optional[str]) -> dict[str, Any]:
    """An item stopped by force at its timeout, with nothing said by the item itself."""
    return {"ok": False, "mode": mode or "spell", "latency_ms": latency_ms, "error": TIMEOUT_FORCED % timeout,
            "error_type": "timeout", "error_data": {"timeout_sec": timeout}}


def as_timed_out(response: dict[str, Any], timeout: float) -> dict[str, Any]:
    """The killed response an item wrote when its timeout terminated it, saying so."""
    data = response.get("error_data")
    data = dict(data) if isinstance(data, dict) else {}
    data["timeout_sec"] = timeout
    return {**response, "error": TIMEOUT_KILLED % timeout, "error_data": data}


def crashed_response(detail: str, latency_ms: float, mode: Optional[str]) -> dict[str, Any]:
    """An item whose process died without a response (a crash, or killed from outside)."""
    return {"ok": False, "mode": mode or "spell", "latency_ms": latency_ms,
            "error": "The item's process ended before completing (%s)" % detail, "error_type": "crashed",
            "error_data": {"detail": detail}}


def item_mode(item: BatchItem) -> Optional[str]:
    mode = item.request.get("mode")
    return mode if isinstance(mode, str) else None
