"""The public run API: validation order and messages, return shapes (runtime.md §7.1–§7.4)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from spell_runtime.data import Keyword, plist
from spell_runtime.errors import ControlError

import spellc
from spellc.loop.options import RunOptionsError
from spellc.loop.usage import UsageTracker
from spellc.providers.test_provider import TestProvider


def run_with(responses: list[str], **kw: Any) -> tuple[dict[str, Any], list[str]]:
    provider = TestProvider(responses=responses)
    return spellc.run(model_profile=provider, **kw), provider.requests


def raised(**kw: Any) -> RunOptionsError:
    with pytest.raises(RunOptionsError) as info:
        spellc.run(**kw)
    return info.value


# -- validation (§7.3), in order ------------------------------------------------------------------

def test_removed_options_come_first_sorted_and_rendered() -> None:
    e = raised(prompt="x", model_profile=TestProvider(), trace=True, format="edn", bogus=1)
    assert e.message == "Removed public run option(s): (:format :trace)"
    assert e.error_data == {"type": Keyword("invalid-run-options"),
                            "removed": plist([Keyword("format"), Keyword("trace")])}


def test_unknown_options() -> None:
    e = raised(prompt="x", model_profile=TestProvider(), bogus=1, also_bad=2)
    assert e.message == "Unknown public run option(s): (:also-bad :bogus)"
    assert e.error_data["unknown"] == plist([Keyword("also-bad"), Keyword("bogus")])


def test_option_names_as_strings_and_keywords() -> None:
    provider = TestProvider()
    out = spellc.run({"init": "(do 42)", Keyword("model-profile"): provider, ":context-max-chars": 500})
    assert out["result"] == 42


@pytest.mark.parametrize("value", [True, 1.0, 127, -5, "200"])
def test_invalid_context_limit_is_raised_before_input_checks(value: Any) -> None:
    e = raised(context_max_chars=value)
    assert e.message == "Context character limit must be an integer of at least 128"
    assert e.error_data == {"type": Keyword("invalid-context-limit"), "max-chars": value}


def test_exactly_one_input() -> None:
    assert raised(prompt="a", init="1", model_profile=TestProvider()).message == \
        "Specify exactly one of :prompt or :init, not both"
    assert raised(model_profile=TestProvider()).message == "Must specify exactly one of :prompt or :init"
    assert raised(prompt=None, init=False, model_profile=TestProvider()).message == \
        "Must specify exactly one of :prompt or :init"


def test_empty_prompt_is_present() -> None:
    out, requests = run_with(["1)"], prompt="")
    assert out["result"] == 1
    assert requests[0].startswith('(quine completion (eval (do (quine prompt "")')


def test_profiles_are_required() -> None:
    assert raised(prompt="a", agent_profile=None, model_profile=TestProvider()).message == \
        "Must specify :agent-profile (path to .agent.edn file)"
    assert raised(prompt="a").message == "Must specify :model-profile"


def test_invalid_max_consecutive_errors_before_any_model_call() -> None:
    provider = TestProvider(responses=["1)"])
    for bad in (None, False, 0, -1, 1.5, "3"):
        with pytest.raises(RunOptionsError) as info:
            spellc.run(prompt="x", model_profile=provider, max_consecutive_errors=bad)
        assert info.value.message == ":max-consecutive-errors must be a positive integer"
        assert info.value.error_data["type"] == Keyword("invalid-max-consecutive-errors")
        assert info.value.error_data["value"] == bad
    assert provider.requests == []


def test_unknown_provider_in_an_inline_profile() -> None:
    assert raised(prompt="a", model_profile={"provider": "bogus"}).message == "Unknown provider type: bogus"


# -- execution and return shapes (§7.4) -----------------------------------------------------------

def test_prompt_run_is_one_model_call() -> None:
    out, requests = run_with(["(def x 42))"], prompt="Return 42")
    assert out["result"] == 42
    assert isinstance(out["usage_tracker"], UsageTracker)
    assert out["usage_tracker"].total.calls == 1
    assert requests == ['(quine completion (eval (do (quine prompt "Return 42") (quote (!extend)) ']


def test_code_looking_prompt_is_still_a_prompt() -> None:
    out, requests = run_with(["(def x 42))"], prompt="(+ 1 2)")
    assert out["result"] == 42
    assert len(requests) == 1


def test_init_programs_run_without_the_model() -> None:
    for text, value in (("(do 42)", 42), ("42", 42), ("(def a 1) (+ a 1)", 2)):
        out, requests = run_with([], init=text)
        assert out["result"] == value
        assert requests == []


def test_init_with_extend_calls_the_model_once() -> None:
    out, requests = run_with(["(def answer 42))"], init="(quine completion (eval (do '(!extend))))")
    assert out["result"] == 42
    assert requests == ["(quine completion (eval (do (quote (!extend)) "]


def test_unrecovered_error_with_recovery_disabled() -> None:
    out, requests = run_with([], init="(do undefined-symbol)", recover=False)
    assert out["error"] == "Unbound symbol: undefined-symbol"
    data = out["error_data"]
    assert data["spell/fault"] == Keyword("document")
    assert data["spell/reason"] == Keyword("unbound-symbol")
    assert not data["result"].contains(Keyword("env"))
    assert requests == []


def test_agent_profile_with_recover_false(tmp_path: Path) -> None:
    profile = tmp_path / "strict.agent.edn"
    profile.write_text("{:recover false}")
    out, _ = run_with([], init="(do undefined-symbol)", agent_profile=str(profile))
    assert out["error"] == "Unbound symbol: undefined-symbol"


def test_body_error_goes_to_inert_recovery_by_default() -> None:
    out, requests = run_with(["42)"], init="(do undefined-symbol)")
    assert out["result"] == 42
    assert requests[0].startswith("(quine completion (do undefined-symbol) (do (def _recovery_prompt ")


def test_provider_failure_is_returned_not_raised() -> None:
    out, requests = run_with([], prompt="x")
    assert out["error"] == "TestProvider: no response for prompt"
    assert out["error_data"]["spell/fault"] == Keyword("environment")
    assert out["error_data"]["spell/reason"] == Keyword("provider")
    assert out["error_data"]["prompt"] == requests[0]


def test_typed_exceptions_are_returned_with_their_data() -> None:
    out, _ = run_with(["'(!extend)))"] * 4, prompt="deep", depth=2)
    assert out["error"] == "LLM recursion limit exceeded"
    assert out["error_data"]["type"] == Keyword("depth-exceeded")
    assert (out["error_data"]["depth"], out["error_data"]["limit"]) == (2, 2)


def test_usage_tracker_accumulates_across_runs() -> None:
    tracker = UsageTracker()
    for _ in range(2):
        out, _ = run_with(["1)"], prompt="x", usage_tracker=tracker)
        assert out["usage_tracker"] is tracker
    assert tracker.total.calls == 2


def test_model_profile_from_an_edn_file(tmp_path: Path) -> None:
    (tmp_path / "base.edn").write_text('{:provider :test :default-model "m1"}')
    (tmp_path / "model.edn").write_text('{:base "base.edn" :responses ["7)"]}')
    out = spellc.run(prompt="x", model_profile=str(tmp_path / "model.edn"))
    assert out["result"] == 7


def test_budget_is_not_triggered_without_pricing() -> None:
    out, _ = run_with(["1)"], prompt="x", budget=0.000001)
    assert out["result"] == 1


def test_budget_exceeded_is_typed() -> None:
    from spellc.loop.usage import check_budget
    from spellc.providers.base import Usage

    tracker = UsageTracker()
    tracker.add("m", Usage(cost=0.5, calls=1))
    with pytest.raises(ControlError) as info:
        check_budget(tracker, 0.25)
    assert info.value.message == "Budget exceeded: $0.5000 spent (limit $0.2500)"
    check_budget(tracker, None)


def test_run_does_not_leave_the_process_cwd(tmp_path: Path) -> None:
    before = os.getcwd()
    run_with(["1)"], prompt="x")
    assert os.getcwd() == before
