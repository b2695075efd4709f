"""Which failed items a batch runs again: environment faults only (runtime.md §9), never the program's own.

An item is retried when its run failed on the provider and the provider said
another attempt could help (HTTP 5xx/429, timeouts, connection failures,
truncated bodies: ``error_data["provider-failure"]["retryable"]``, recorded by
``benchmark_api.RecordingProvider``), or when a Ray worker or node was lost under
it. Everything else — Spell errors, exhausted recovery, budget or depth limits,
a scripted provider that ran out, a per-item timeout, a crash — is a result, and
rerunning it would only repeat it (and its effects: effects are never replayed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

RETRY_DELAYS_SEC: Final = (2.0, 10.0, 30.0)
"""Pause before the 2nd, 3rd, 4th attempt (the last value repeats)."""

LOST_WORKER: Final = "worker_lost"
"""``error_type`` of an item whose Ray worker or node died for reasons outside the item (retried)."""


def is_retryable(response: Mapping[str, Any]) -> bool:
    """True for a failure of the environment that another attempt could fix."""
    if response.get("ok") is True:
        return False
    if response.get("error_type") == LOST_WORKER:
        return True
    data = response.get("error_data")
    failure = data.get("provider-failure") if isinstance(data, Mapping) else None
    return isinstance(failure, Mapping) and failure.get("retryable") is True


def retry_delay(attempts: int) -> float:
    """Seconds to wait before attempt ``attempts + 1``."""
    return RETRY_DELAYS_SEC[min(attempts - 1, len(RETRY_DELAYS_SEC) - 1)]
