"""Reading model profiles in every shape they arrive in."""

from __future__ import annotations

from fractions import Fraction

import pytest
from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.hashmap import SpellSet, spell_map
from spell_runtime.data.vector import vec

from spellc.providers.errors import ProfileError
from spellc.providers.profile import DEFAULT_RETRIES, normalize_profile, read_settings


def test_normalize_spell_map_with_nested_spell_values() -> None:
    profile = spell_map(Keyword("provider"), Keyword("openai"),
                        Keyword("retries"), vec([0, 1]),
                        Keyword("extra-body"), spell_map(Keyword("top_k"), 3, "raw", SpellSet.from_items([1])),
                        Keyword("x", "my"), Symbol("sym"))
    assert normalize_profile(profile) == {"provider": "openai", "retries": [0, 1],
                                          "extra-body": {"top_k": 3, "raw": [1]}, "my/x": "sym"}


def test_normalize_python_dict_keys_with_and_without_colon() -> None:
    assert normalize_profile({":default-model": "m", "max-tokens": 5, Keyword("stream"): True}) == {
        "default-model": "m", "max-tokens": 5, "stream": True}


def test_profile_must_be_a_map() -> None:
    with pytest.raises(ProfileError, match="must be a map"):
        normalize_profile(vec([1]))


def test_defaults() -> None:
    settings, _ = read_settings({}, default_model="dm", default_api_key_env="K", environ={})
    assert settings.default_model == "dm"
    assert settings.retries == DEFAULT_RETRIES == (0.0, 10.0)
    assert (settings.api_key_env, settings.api_key) == ("K", None)
    assert (settings.request_timeout, settings.sse_idle_timeout, settings.sse_completion_timeout) == (600, 100, 1000)
    assert settings.costs is None and settings.supports_prefill is None


def test_all_shared_keys() -> None:
    settings, reader = read_settings({
        "provider": ":openai", "default-model": "m1", "base-url": "http://h/v1", "api-key-env": "MYKEY",
        "max-tokens": 99, "default-reasoning-effort": "low", "retries": [Fraction(1, 2), 3],
        "request-timeout-sec": 7, "sse-idle-timeout-sec": 1.5, "sse-completion-timeout-sec": 20, "stream": True,
        "supports-prefill?": True, "costs": [1, 2], "extra-headers": {"X": "y"}, "extra-body": {"a": 1},
        "custom": "kept"}, default_model="dm", default_api_key_env="K", environ={"MYKEY": "secret"})
    assert settings.provider == "openai"
    assert (settings.default_model, settings.base_url, settings.api_key) == ("m1", "http://h/v1", "secret")
    assert (settings.max_tokens, settings.default_reasoning_effort) == (99, "low")
    assert settings.retries == (0.5, 3.0)
    assert (settings.request_timeout, settings.sse_idle_timeout, settings.sse_completion_timeout) == (7, 1.5, 20)
    assert settings.stream is True and settings.supports_prefill is True
    assert settings.costs is not None
    assert (settings.extra_headers, settings.extra_body) == ({"X": "y"}, {"a": 1})
    assert reader.string("custom") == "kept"


def test_nil_retries_means_no_retries_and_empty_env_var_means_no_key() -> None:
    settings, _ = read_settings({"retries": None}, default_model="m", default_api_key_env="K", environ={"K": ""})
    assert settings.retries == ()
    assert settings.api_key is None


def test_numeric_reasoning_effort_is_a_budget_string() -> None:
    settings, _ = read_settings({"default-reasoning-effort": 8000}, default_model="m", default_api_key_env="K",
                                environ={})
    assert settings.default_reasoning_effort == "8000"


@pytest.mark.parametrize(("key", "value"), [
    ("max-tokens", 1.5), ("max-tokens", True), ("retries", [0, "1"]), ("retries", 3), ("stream", 1),
    ("sse-idle-timeout-sec", 0), ("extra-headers", {"a": 1}), ("default-reasoning-effort", [1]),
    ("default-model", 5),
])
def test_bad_values_name_their_key(key: str, value: object) -> None:
    with pytest.raises(ProfileError, match=f":{key}") as info:
        read_settings({key: value}, default_model="m", default_api_key_env="K", environ={})
    assert info.value.reason == "invalid-profile" and info.value.retryable is False
