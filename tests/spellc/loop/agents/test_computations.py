"""Where computations may block and where agents may not (runtime.md §11.6, §11.7), thread by thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.data.atoms import K_REF, K_SPELL_FUTURE
from spell_runtime.effects import EffectContext
from spell_runtime.errors import ControlError, SpellArgumentError

from spellc.loop.agent import Agent, RunState, completion_env
from spellc.loop.agents.computations import ask_await, blocking_await, blocking_request, receive
from spellc.loop.agents.lifecycle import Coordination
from spellc.providers.test_provider import TestProvider

K = Keyword


@pytest.fixture
def agent() -> Iterator[Agent]:
    effects = EffectContext()
    main = Agent(provider=TestProvider(responses=[]), run=RunState(effects=effects))
    coordination = Coordination(main, 10)
    try:
        yield main
    finally:
        coordination.close()
        effects.close(wait=0)


def on_other_thread(action: Callable[[], Any]) -> BaseException:
    caught: list[BaseException] = []

    def run() -> None:
        try:
            action()
        except BaseException as e:  # noqa: BLE001 - inspected by the caller
            caught.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    assert caught, "expected a failure"
    return caught[0]


def done_future(value: Any) -> SpellMap:
    fut: Future[Any] = Future()
    fut.set_result(value)
    return SpellMap.from_pairs([(K_SPELL_FUTURE, True), (K_REF, fut)])


def test_blocking_await_refuses_an_agent_runner(agent: Agent) -> None:
    D = completion_env(agent, 1, None, None, True)
    with pytest.raises(ControlError) as info:
        blocking_await(D, done_future(1))
    assert info.value.message == "blocking/await cannot block an agent runner; use !ask-await"
    assert info.value.data.get(K("type")) == K("agent-blocking-call")
    assert on_other_thread(lambda: blocking_await(D, 42)).args[0] == "blocking/await requires a future"


def test_blocking_await_in_a_computation_returns_the_value(agent: Agent) -> None:
    D = completion_env(agent, 1, None, None, True)
    results: list[Any] = []
    thread = threading.Thread(target=lambda: results.append(blocking_await(D, done_future(7))))
    thread.start()
    thread.join(10)
    assert results == [7]


def test_receive_and_ask_await_belong_to_the_agent_turn(agent: Agent) -> None:
    D = completion_env(agent, 1, None, None, True)
    program = SpellMap()  # validated first: a non-quine is refused before anything else
    with pytest.raises(SpellArgumentError, match="receive expects a canonical completed quine"):
        receive(D, program)
    from spellc.reader import read_first

    quine = read_first("(quine completion (eval (do 1)))")
    error = on_other_thread(lambda: receive(D, quine))
    assert isinstance(error, ControlError)
    assert error.message == "receive is unavailable inside a computation future"
    assert receive(D, quine) is quine  # empty inbox: identity
    error = on_other_thread(lambda: ask_await(D, done_future(1)))
    assert isinstance(error, SpellArgumentError) and error.message == "!ask-await requires an active agent turn"


def test_cancelled_and_closed_requests_raise_when_awaited(agent: Agent) -> None:
    coordinator = agent.run.coordinator
    coordinator.register(K("w"), K("main"))
    D = completion_env(agent, 1, None, None, True)
    token = blocking_request(D, K("w"), 1)
    coordinator.cancel(K("main"), token.get(K("edge-id")))
    error = on_other_thread(lambda: blocking_await(D, token))
    assert isinstance(error, ControlError) and error.message == "Agent request was cancelled"
    assert error.data.get(K("edge-id")) == token.get(K("edge-id"))
    pending = blocking_request(D, K("w"))
    coordinator.close()
    error = on_other_thread(lambda: blocking_await(D, pending))
    assert isinstance(error, ControlError) and error.message == "Coordinator is closed"
