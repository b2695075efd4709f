"""The consecutive-error limit (runtime.md §6.9): frames, accounting, exhaustion data, validation."""

from __future__ import annotations

from typing import Any, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.errors import ControlError

from spellc.loop.recovery import (
    DEFAULT_MAX_CONSECUTIVE_ERRORS,
    ErrorCounter,
    FrameState,
    classify,
    fault_for,
    validate_max_consecutive_errors,
)


def K(name: str, ns: Optional[str] = None) -> Keyword:
    return Keyword(name, ns)


def fail_new_frame(counter: ErrorCounter, phase: str = "eval", message: Optional[str] = "Unbound symbol: x",
                   handle: Any = None) -> None:
    counter.record_failure(counter.new_frame(), phase, message, handle)


def test_three_unresolved_failures_exhaust_the_default_limit() -> None:
    counter = ErrorCounter(DEFAULT_MAX_CONSECUTIVE_ERRORS)
    seen = []
    fail_new_frame(counter)
    seen.append(counter.count)
    fail_new_frame(counter)
    seen.append(counter.count)
    with pytest.raises(ControlError) as info:
        fail_new_frame(counter, "eval", "Unbound symbol: undefined-symbol", K("main"))
    assert seen == [1, 2]
    assert str(info.value) == "Consecutive error limit reached: 3 while handling eval error"
    data = info.value.data
    assert isinstance(data, SpellMap)
    assert list(data.items()) == [
        (K("type"), K("recovery-exhausted")), (K("phase"), K("eval")), (K("consecutive-errors"), 3),
        (K("attempts"), 3), (K("limit"), 3), (K("max-consecutive-errors"), 3), (K("handle"), K("main")),
        (K("error"), "Unbound symbol: undefined-symbol"),
    ]
    assert counter.count == 3


def test_reader_phase_reports_parse_error() -> None:
    counter = ErrorCounter(1)
    with pytest.raises(ControlError) as info:
        fail_new_frame(counter, "reader", "Unsupported character: \\invalidchar")
    assert str(info.value) == "Consecutive error limit reached: 1 while handling reader error"
    data = info.value.data
    assert data.get(K("phase")) is K("reader")
    assert data.get(K("parse-error")) == "Unsupported character: \\invalidchar"
    assert not data.contains(K("error"))
    assert data.contains(K("handle")) and data.get(K("handle")) is None


def test_unknown_message_is_omitted() -> None:
    counter = ErrorCounter(1)
    with pytest.raises(ControlError) as info:
        fail_new_frame(counter, "eval", None)
    assert not info.value.data.contains(K("error")) and not info.value.data.contains(K("parse-error"))


def test_exhaustion_carries_the_last_counted_verdict() -> None:
    counter = ErrorCounter(2)
    counter.record_failure(counter.new_frame(), "reader", "bad", fault=fault_for("reader-error"))
    with pytest.raises(ControlError) as info:
        counter.record_failure(counter.new_frame(), "eval", "x", fault=fault_for("internal"))
    data = info.value.data
    assert data.get(K("fault", "spell")) is K("unknown")
    assert data.get(K("reason", "spell")) is K("recovery-exhausted")
    fault = classify(info.value)
    assert (fault.verdict, fault.reason, fault.terminal) == ("unknown", "recovery-exhausted", True)


@pytest.mark.parametrize("limit", [1, 2, 3, 5])
def test_limit_l_allows_exactly_l_failures(limit: int) -> None:
    counter = ErrorCounter(limit)
    calls = 0
    with pytest.raises(ControlError) as info:
        while True:
            calls += 1
            assert counter.count == calls - 1
            fail_new_frame(counter, "eval" if calls % 2 else "reader")
    assert calls == limit
    assert info.value.data.get(K("consecutive-errors")) == limit
    assert info.value.data.get(K("limit")) == limit
    assert counter.count == limit


def test_a_frame_counts_once_across_phases() -> None:
    counter = ErrorCounter(3)
    frame = counter.new_frame()
    counter.record_failure(frame, "reader", "bad")
    counter.record_failure(frame, "eval", "worse")
    assert counter.count == 1 and frame.state is FrameState.FAILED


def test_success_resets_once_per_open_frame() -> None:
    counter = ErrorCounter(3)
    fail_new_frame(counter)
    fail_new_frame(counter)
    frame = counter.new_frame()
    counter.record_success(frame)
    assert counter.count == 0 and frame.state is FrameState.SUCCEEDED
    fail_new_frame(counter)
    counter.record_success(frame)  # already succeeded: the child's failure is not reset by the parent returning
    assert counter.count == 1


def test_a_failed_frame_never_resets() -> None:
    counter = ErrorCounter(3)
    frame = counter.new_frame()
    counter.record_failure(frame, "eval", "x")
    counter.record_success(frame)
    assert counter.count == 1 and frame.state is FrameState.FAILED


def test_handed_off_frame_still_counts_a_later_own_failure() -> None:
    # parent hands off (reset), child fails once, parent then fails itself: 2, not 1 (§6.9 worked sequences)
    counter = ErrorCounter(3)
    parent = counter.new_frame()
    counter.record_success(parent)
    fail_new_frame(counter)
    counter.record_failure(parent, "eval", "Unbound symbol: missing-parent")
    assert counter.count == 2


def test_repaired_mistakes_do_not_accumulate() -> None:
    # '(missing-a) -> repair hands off -> '(missing-b) -> ... : counters seen [0 1 0 1 0 1]
    counter = ErrorCounter(3)
    seen = []
    for _ in range(3):
        seen.append(counter.count)
        fail_new_frame(counter)
        seen.append(counter.count)
        counter.record_success(counter.new_frame())
    assert seen == [0, 1, 0, 1, 0, 1]


def test_reset_starts_a_new_lifecycle() -> None:
    counter = ErrorCounter(2)
    fail_new_frame(counter)
    counter.reset()
    fail_new_frame(counter)
    assert counter.count == 1


def test_phase_must_be_known() -> None:
    with pytest.raises(ValueError):
        ErrorCounter(3).record_failure(ErrorCounter(3).new_frame(), "parse", "x")


@pytest.mark.parametrize("value", [None, False, True, 0, -1, 1.5, 3.0, "3", Keyword("three")])
def test_invalid_limits(value: Any) -> None:
    with pytest.raises(ControlError) as info:
        validate_max_consecutive_errors(value)
    assert str(info.value) == ":max-consecutive-errors must be a positive integer"
    data = info.value.data
    assert list(data.keys()) == [K("type"), K("option"), K("value")]
    assert data.get(K("type")) is K("invalid-max-consecutive-errors")
    assert data.get(K("option")) is K("max-consecutive-errors")
    assert data.get(K("value")) is value
    with pytest.raises(ControlError):
        ErrorCounter(value)


@pytest.mark.parametrize("value", [1, 3, 5, 1000])
def test_valid_limits(value: int) -> None:
    assert validate_max_consecutive_errors(value) == value
    assert ErrorCounter(value).limit == value


events = st.lists(st.sampled_from(["fail", "fail-same", "succeed", "succeed-same"]), max_size=40)


@given(st.integers(1, 6), events)
def test_counter_raises_within_limit_failures(limit: int, script: list[str]) -> None:
    """A model of §6.9: the counter raises exactly when the streak of counted failures reaches the limit."""
    counter = ErrorCounter(limit)
    frame = counter.new_frame()
    streak = 0
    for event in script:
        if event in ("fail", "succeed"):
            frame = counter.new_frame()
        if event.startswith("fail"):
            counts = frame.state is not FrameState.FAILED
            if counts and streak + 1 >= limit:
                with pytest.raises(ControlError) as info:
                    counter.record_failure(frame, "eval", "x")
                assert info.value.data.get(K("consecutive-errors")) == streak + 1 == limit
                return
            counter.record_failure(frame, "eval", "x")
            streak += 1 if counts else 0
        else:
            if frame.state is FrameState.OPEN:
                streak = 0
            counter.record_success(frame)
        assert counter.count == streak < limit


@given(st.integers(1, 6))
def test_fresh_failures_always_raise_by_the_limit(limit: int) -> None:
    counter = ErrorCounter(limit)
    for _ in range(limit - 1):
        fail_new_frame(counter)
    with pytest.raises(ControlError):
        fail_new_frame(counter)
