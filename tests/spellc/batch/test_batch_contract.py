"""The benchmark contract's pieces in-process: model specs, JSON conversion, the provider table."""

from __future__ import annotations

import pytest
from spell_runtime.data import Keyword, Symbol, spell_map, vec

from spellc.batch import benchmark_api
from spellc.batch.contract import ContractError, json_safe, normalize_keys, parse_model_spec, result_text


def test_model_specs() -> None:
    assert parse_model_spec("test:x").provider == "test"
    assert parse_model_spec("claude-sonnet-4-5").provider == "anthropic-pf"
    assert parse_model_spec("openai-tc:gpt-5").model == "gpt-5"
    assert parse_model_spec("ollama:").model is None
    with pytest.raises(ContractError, match='^Unknown provider prefix: "x\\\\"y"'):
        parse_model_spec('x"y:z')


def test_keys_normalised_at_every_depth() -> None:
    assert normalize_keys({"trace_dir": 1, "a_b": [{"c_d": 2}]}) == {"trace-dir": 1, "a-b": [{"c-d": 2}]}


def test_json_safe_follows_the_reference() -> None:
    data = spell_map(Keyword("type"), Keyword("budget-exceeded"), Keyword("in"), vec([Symbol("f"), 1]))
    assert json_safe(data) == {"type": "budget-exceeded", "in": ["f", 1]}


def test_result_is_str_of_the_value_unwrapping_result_maps() -> None:
    assert result_text("hello") == "hello"
    assert result_text(None) == ""
    assert result_text(vec([1, 2])) == "[1 2]"
    assert result_text(spell_map(Keyword("result"), 42, Keyword("other"), 1)) == "42"


def test_a_prefix_spellc_does_not_implement_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(benchmark_api.PROFILES, "ollama")
    response = benchmark_api.handle_request({"prompt": "x", "model": "ollama:llama3"})
    assert response["ok"] is False and response["error_type"] == "unsupported_provider"
    assert response["error"] == "Provider ollama is not implemented by spellc"


def test_openai_tc_is_the_responses_api_with_a_forced_tool_call() -> None:
    profile = benchmark_api.model_profile(parse_model_spec("openai-tc:gpt-5"), {"max-tokens": 100})
    assert profile == {"provider": "openai", "use-responses-api": True, "force-tool-call": True,
                       "default-model": "gpt-5", "max-tokens": 100}


def test_responses_script_only_the_test_provider() -> None:
    response = benchmark_api.handle_request({"prompt": "x", "model": "ollama:llama3", "responses": ["1"]})
    assert response["error"] == "responses (scripted completions) needs the test provider, not ollama"


def test_other_public_run_options_pass_through() -> None:
    strict = benchmark_api.handle_request({"init": "(do undefined-symbol)", "model": "test:", "recover": False})
    assert strict["error"] == "Unbound symbol: undefined-symbol"
    recovered = benchmark_api.handle_request({"init": "(do undefined-symbol)", "model": "test:"})
    assert recovered["ok"] is True  # recovery asked the test provider, which answered "hello world"
    small = benchmark_api.handle_request({"prompt": "x", "model": "test:", "context_max_chars": 5})
    assert small["error"] == "Context character limit must be an integer of at least 128"
    assert small["error_type"] == "invalid-context-limit"


def test_an_unexpected_failure_is_still_a_response(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(benchmark_api, "run_options", broken)
    response = benchmark_api.handle_request({"prompt": "x", "model": "test:"})
    assert response["ok"] is False and response["error_type"] == "internal"
    assert response["error"] == "KeyError: 'boom'"
