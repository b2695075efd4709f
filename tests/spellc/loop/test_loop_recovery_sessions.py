"""End-to-end recovery through the turn loop (runtime.md §6.2–§6.13, §9.3), with scripted models.

The rewriting itself is tested as pure functions in ``tests/spellc/loop/recovery``; these
sessions check the pipeline around it: what is counted, what is re-prompted, what is
reported, and that effects are not replayed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from spell_runtime.data import Keyword

import spellc
from spellc.providers.test_provider import TestProvider

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
RAW_START = "(eval (do '(!llm-self \"(quine completion (eval (do \")))"


def session(responses: list[str], init: str = START, **kw: Any) -> tuple[dict[str, Any], list[str]]:
    provider = TestProvider(responses=responses)
    return spellc.run(init=init, model_profile=provider, **kw), provider.requests


def test_same_tail_repair_keeps_bindings_and_shows_error() -> None:
    out, requests = session(["(def earlier 41) '(missing-tail)))", "(+ earlier 1))))"])
    assert out["result"] == 42
    assert requests[1] == ("(quine completion (eval (do (def earlier 41) (quote (missing-tail)) (def _error "
                           "{:error \"Unbound symbol: missing-tail\" :in (quote (missing-tail)) "
                           ":reason :unbound-symbol}) (quote (!llm-self (reopen completion) {:receive? true})) ")


def test_raw_self_call_keeps_its_receipt_choice_in_recovery() -> None:
    _, requests = session(["'(missing)))", "1)))"], init=RAW_START)
    assert "(quote (!llm-self (reopen completion) {:receive? false}))" in requests[1]


def test_inert_recovery_then_pruned_at_the_next_edit() -> None:
    out, requests = session(["(quine prompt \"old\") (def x (io/ls \".\")) '(!extend)))",
                             "(quine task \"new\") (quine context-summary \"s\") '(!extend)))", "5)))"])
    assert out["result"] == 5
    assert "(prune 2) (eval (do (quote (!llm-self (reopen completion) {:receive? true})) " in requests[1]
    assert ":reason :effect-outside-eval" in requests[1]
    assert requests[2] == ('(quine completion (eval (do (quote (!llm-self (reopen completion) {:receive? true})) '
                           '(quine task "new") (quine context-summary "s") (quote (!extend)) ')


def test_reader_recovery_embeds_the_raw_text() -> None:
    out, requests = session(["\\invalidchar)", "7)"])
    assert out["result"] == 7
    assert requests[1].startswith('(quine completion "(quine completion (eval (do \\\\invalidchar)')
    assert '(def _error {:error "Reader error: ' in requests[1]


def test_three_failures_exhaust_the_default_limit_before_a_fourth_call() -> None:
    out, requests = session(["undefined-symbol)"] * 4)
    assert len(requests) == 3
    assert out["error"] == "Consecutive error limit reached: 3 while handling eval error"
    data = out["error_data"]
    assert data["type"] == Keyword("recovery-exhausted")
    assert (data["consecutive-errors"], data["limit"], data["max-consecutive-errors"]) == (3, 3, 3)
    assert data["handle"] == Keyword("main")
    assert data["spell/fault"] == Keyword("document")


def test_reader_and_eval_failures_share_the_counter() -> None:
    out, requests = session(["\\invalidchar)", "missing)"], max_consecutive_errors=2)
    assert len(requests) == 2
    assert out["error_data"]["phase"] == Keyword("eval")


def test_a_successful_handoff_resets_the_counter() -> None:
    responses = ["'(missing)))", "'(!llm-self (reopen completion))))"] * 4 + ["42)))"]
    out, requests = session(responses, max_consecutive_errors=2)
    assert out["result"] == 42
    assert len(requests) == 9


def test_invalid_options_do_not_reset() -> None:
    out, requests = session(["missing)", "'(!llm-self (reopen completion) {:receive? :invalid})))", "missing)"])
    assert len(requests) == 3
    assert out["error_data"]["consecutive-errors"] == 3


def test_a_child_exhaustion_is_not_counted_again_by_its_parent() -> None:
    out, requests = session(["'(!llm-self \"(quine completion (eval (do \")))", "missing-child)", "missing-repair)"],
                            max_consecutive_errors=2)
    assert len(requests) == 3
    assert out["error_data"]["consecutive-errors"] == 2


def test_provider_failure_during_a_repair_reports_the_provider() -> None:
    out, requests = session(["'(missing)))"])
    assert len(requests) == 2
    assert out["error"] == "TestProvider: no response for prompt"
    assert out["error_data"]["spell/reason"] == Keyword("provider")


def test_recover_false_propagates_and_still_counts() -> None:
    out, requests = session(["missing)"], recover=False)
    assert out["error"].endswith("Unbound symbol: missing")
    assert len(requests) == 1
    out, _ = session(["missing)"], recover=False, max_consecutive_errors=1)
    assert out["error_data"]["type"] == Keyword("recovery-exhausted")


def test_namespace_fixup_needs_no_model_call() -> None:
    out, requests = session(["(def a (trim \" a \")) (cat a (trim \" b \")))))"])
    assert out["result"] == "ab"
    assert len(requests) == 1


def test_namespace_fixup_is_refused_when_effects_already_ran(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out, requests = session(["'(do (io/sh \"echo once >> log.txt\") (trim \" x \"))))",
                             "'(:out (io/slurp \"log.txt\"))))"])
    assert out["result"] == "once\n"
    assert len(requests) == 2
    assert "(def _error" in requests[1]


def test_typed_errors_bypass_spell_try() -> None:
    out, _ = session(["'(try (!llm-self \"(do \") (catch e :caught))))", "1)"], depth=2)
    assert out["error"] == "LLM recursion limit exceeded"
