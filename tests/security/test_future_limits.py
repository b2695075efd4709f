"""Issue 16: futures honour ``:eval-timeout-sec`` and their threads are bounded (``spell_runtime.futures``)."""

from __future__ import annotations

import threading
import time

import pytest
from spell_runtime import futures, limits
from spell_runtime.data import Keyword
from spell_runtime.errors import HostError, SpellError

import spellc


def _live_futures() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "spell-future")


def _wait_until(check: object, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # see limits.py: finalizers
def test_a_runaway_future_stops_at_the_evaluations_deadline() -> None:
    handle = spellc.eval_string("(future (loop [] (recur)))", eval_timeout_sec=0.5)
    fut = handle[Keyword("ref")]
    with pytest.raises(SpellError) as info:
        fut.result(timeout=20)
    # the future ran on what was left of the evaluation's limit, and says which limit
    assert info.value.message == "Evaluation timed out after 0.5 s"
    assert _wait_until(lambda: _live_futures() == 0, 10)


def test_a_future_without_a_deadline_still_finishes() -> None:
    handle = spellc.eval_string("(future (reduce + (range 1000)))")
    assert handle[Keyword("ref")].result(timeout=20) == 499500


def test_a_future_inherits_the_collection_limit() -> None:
    handle = spellc.eval_string("(future (count (range 50)))", max_collection_size=10)
    with pytest.raises(HostError) as info:
        handle[Keyword("ref")].result(timeout=20)
    assert "Collection size limit exceeded: 10" in info.value.message


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_waiting_for_a_future_is_bounded_by_the_waiters_deadline() -> None:
    release = threading.Event()
    started = time.monotonic()
    fut = futures.start_future(lambda: release.wait(30))  # a future with no deadline of its own
    try:
        with pytest.raises(SpellError) as info, limits.deadline(0.3):
            futures.await_result(fut)
        assert info.value.message == "Evaluation timed out after 0.3 s"
        assert time.monotonic() - started < 10
    finally:
        release.set()
    assert fut.result(timeout=10) is True


def test_running_futures_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(futures, "_slots", threading.BoundedSemaphore(2))
    release = threading.Event()
    first = [futures.start_future(lambda: release.wait(30)) for _ in range(2)]
    try:
        with pytest.raises(HostError) as info:
            futures.start_future(lambda: 1)
        assert info.value.message == futures.TOO_MANY_FUTURES % futures.MAX_RUNNING_FUTURES
    finally:
        release.set()
    assert all(f.result(timeout=10) for f in first)
    assert futures.start_future(lambda: 7).result(timeout=10) == 7  # slots come back


def test_too_many_futures_is_a_resource_limit_fault() -> None:
    from spellc.loop.recovery.fault_texts import limit_reason

    assert limit_reason(futures.TOO_MANY_FUTURES % 256) == "resource-limit"
