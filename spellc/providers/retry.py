"""The profile's ``:retries`` schedule (runtime.md §5.2): transient provider failures retried invisibly.

Each element of the schedule is one more attempt and the seconds to sleep before
it, so ``[0 10]`` means three attempts in all. Only failures marked ``retryable``
(429, 5xx, connection, timeouts, malformed or truncated bodies) are retried; an
auth error or a rejected request fails at once, because repeating it cannot help.
The final error records how many attempts were made so a run's error data shows
that the schedule was spent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from .base import ProviderError

T = TypeVar("T")


def call_with_retries(attempt: Callable[[], T], schedule: Sequence[float], *,
                      sleep: Callable[[float], None] = time.sleep) -> tuple[T, int]:
    """Run ``attempt`` until it succeeds or the schedule is spent; return (result, attempts made).

    ``attempt`` must signal failure with ``ProviderError``; anything else propagates at once.
    """
    attempts = 0
    while True:
        attempts += 1
        try:
            return attempt(), attempts
        except ProviderError as err:
            if not err.retryable or attempts > len(schedule):
                err.data = {**err.data, "attempts": attempts}
                raise
            pause = schedule[attempts - 1]
        if pause > 0:
            sleep(pause)
