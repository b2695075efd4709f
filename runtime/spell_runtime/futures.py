"""Future threads under the evaluation's limits (issue 16.3, language.md §13.4).

``future*`` (and ``blocking/pmap``'s computations) run Spell code on threads of their own.
Limits are per thread (``spell_runtime.limits``), so a future used to run with no deadline at
all: ``(future (loop [] (recur)))`` spun on after its evaluation had timed out, and nothing
bounded how many such threads a program could start. Here:

* a future's thread runs under the deadline the starting thread has left (and its collection
  limit); a timeout there is the future's failure, re-raised to whoever awaits it;
* a wait for a future (``blocking/await``...) waits at most the time the waiting evaluation has
  left, so its own timeout interrupts it;
* at most ``MAX_RUNNING_FUTURES`` future threads run at once; starting one more fails at once
  with ``Too many running futures: N`` (a resource-limit document fault). Failing rather than
  queueing: futures await one another (``blocking/plet`` inside a future), so a queue could
  deadlock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Final

from . import limits
from .errors import HostError

MAX_RUNNING_FUTURES: Final = 256
"""Future threads alive at once in the process (each holds a Python thread and its stack)."""

TOO_MANY_FUTURES: Final = "Too many running futures: %d"

_slots = threading.BoundedSemaphore(MAX_RUNNING_FUTURES)


def start_future(work: Callable[[], Any], name: str = "spell-future") -> Future[Any]:
    """Run ``work()`` on a new daemon thread under this thread's remaining deadline and limits."""
    if not _slots.acquire(blocking=False):
        raise HostError(TOO_MANY_FUTURES % MAX_RUNNING_FUTURES)
    left = limits.remaining()
    shown = limits.deadline_seconds()
    size = limits.max_collection_size()
    fut: Future[Any] = Future()

    def run() -> None:
        try:
            with limits.deadline(None if left is None else max(left, 0.001), shown=shown), \
                    limits.collection_limit(size):
                value = work()
            fut.set_result(value)
        except BaseException as e:  # noqa: BLE001 - delivered to whoever awaits
            fut.set_exception(e)
        finally:
            _slots.release()

    try:
        threading.Thread(target=run, daemon=True, name=name).start()
    except BaseException:
        _slots.release()
        raise
    return fut


def await_result(fut: Future[Any]) -> Any:
    """``fut``'s value (or its failure, raised), waiting at most the time this evaluation has left.

    The wait wakes a little after the deadline, so the watchdog's timeout interrupts it; without
    a deadline it waits as long as the future runs (which is then unbounded too)."""
    while True:
        try:
            return fut.result(timeout=limits.bounded_wait(None))
        except FutureTimeout:
            continue  # the deadline's exception is due in this thread: wait for it to land
