"""``!llm-self`` preconditions and option validation (runtime.md §5.4)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from spell_runtime.data import Keyword, SpellMap, spell_map
from spell_runtime.effects import EffectContext
from spell_runtime.errors import ControlError, HostError, SpellArgumentError

from spellc.api import new_env
from spellc.loop.agent import Agent, RunState, completion_env
from spellc.loop.selfcall import llm_self, receive_option
from spellc.providers.test_provider import TestProvider

K_RECEIVE = Keyword("receive?")


def test_omitted_options_mean_no_receipt() -> None:
    assert receive_option(spell_map(K_RECEIVE, True)) is True
    assert receive_option(SpellMap()) is False
    assert llm_self.__defaults__ is not None
    assert receive_option(llm_self.__defaults__[0]) is False


@pytest.mark.parametrize("options", [None, 1, spell_map(K_RECEIVE, 1), spell_map(K_RECEIVE, True, Keyword("x"), 1),
                                     spell_map(Keyword("receive"), True)])
def test_invalid_options(options: Any) -> None:
    with pytest.raises(SpellArgumentError) as info:
        receive_option(options)
    assert info.value.message == "!llm-self options must be a map with only an optional boolean :receive?"
    assert info.value.data == spell_map(Keyword("option"), K_RECEIVE)


def test_no_active_agent() -> None:
    D = new_env()
    with pytest.raises(HostError, match="!llm-self requires an active agent handle"):
        llm_self(D, "x")


def test_self_calls_refused_inside_computation_futures() -> None:
    provider = TestProvider(responses=["1"])
    effects = EffectContext()
    agent = Agent(provider=provider, run=RunState(effects=effects))
    D = completion_env(agent, 1, None, None, False)
    caught: list[BaseException] = []

    def other_thread() -> None:
        try:
            llm_self(D, "x")
        except BaseException as e:  # noqa: BLE001 - inspected below
            caught.append(e)

    t = threading.Thread(target=other_thread)
    t.start()
    t.join()
    effects.close(wait=0)
    assert isinstance(caught[0], ControlError)
    assert caught[0].message == "Self-calls cannot run inside computation futures"
    assert caught[0].data == spell_map(Keyword("type"), Keyword("agent-in-computation-future"))
    assert provider.requests == []


def test_a_self_call_returns_the_child_value_at_the_next_depth() -> None:
    provider = TestProvider(responses=["(+ 1 2))"])
    effects = EffectContext()
    agent = Agent(provider=provider, run=RunState(effects=effects, depth_limit=3))
    try:
        assert llm_self(completion_env(agent, 2, None, None, False), "(do ") == 3
        with pytest.raises(ControlError, match="LLM recursion limit exceeded"):
            llm_self(completion_env(agent, 3, None, None, False), "(do ")
    finally:
        effects.close(wait=0)
    assert provider.requests == ["(do "]
