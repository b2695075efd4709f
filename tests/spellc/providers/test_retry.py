"""The :retries schedule: who is retried, how often, and how long we sleep."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spellc.providers.base import ProviderError
from spellc.providers.retry import call_with_retries


class Flaky:
    def __init__(self, failures: int, retryable: bool = True) -> None:
        self.failures = failures
        self.retryable = retryable
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise ProviderError(f"fail {self.calls}", reason="http-5xx", retryable=self.retryable)
        return "ok"


@given(failures=st.integers(0, 6), schedule=st.lists(st.sampled_from([0.0, 0.5, 2.0]), max_size=5))
def test_attempts_follow_the_schedule(failures: int, schedule: list[float]) -> None:
    sleeps: list[float] = []
    flaky = Flaky(failures)
    if failures <= len(schedule):
        result, attempts = call_with_retries(flaky, schedule, sleep=sleeps.append)
        assert (result, attempts) == ("ok", failures + 1)
    else:
        with pytest.raises(ProviderError) as info:
            call_with_retries(flaky, schedule, sleep=sleeps.append)
        attempts = len(schedule) + 1
        assert info.value.data["attempts"] == attempts
        assert info.value.message == f"fail {attempts}"
    assert flaky.calls == attempts
    assert sleeps == [s for s in schedule[:attempts - 1] if s > 0]


def test_non_retryable_failure_is_raised_at_once() -> None:
    sleeps: list[float] = []
    flaky = Flaky(5, retryable=False)
    with pytest.raises(ProviderError) as info:
        call_with_retries(flaky, [1, 1, 1], sleep=sleeps.append)
    assert (flaky.calls, sleeps, info.value.data["attempts"]) == (1, [], 1)


def test_other_exceptions_propagate_untouched() -> None:
    calls = []

    def broken() -> str:
        calls.append(1)
        raise KeyError("bug")

    with pytest.raises(KeyError):
        call_with_retries(broken, [0, 0])
    assert calls == [1]
