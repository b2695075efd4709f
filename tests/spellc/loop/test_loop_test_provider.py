"""The ``:test`` provider (runtime.md §7.5, D8) and the profile → provider registry."""

from __future__ import annotations

import time

import pytest
from spell_runtime.data import Keyword, SpellMap, vec

from spellc.providers.base import ModelRequest, ProviderError
from spellc.providers.registry import ProfileError, provider_from_profile
from spellc.providers.test_provider import TestProvider
from spellc.reader import read_first


def ask(p: TestProvider, prefix: str, prefill: bool = True) -> str:
    return p.complete(ModelRequest(prefix=prefix, prefill=prefill)).text


def test_vector_responses_are_consumed_in_order_and_requests_recorded() -> None:
    p = TestProvider(responses=["a", "b"])
    assert [ask(p, "x"), ask(p, "y")] == ["a", "b"]
    assert p.requests == ["x", "y"]


def test_running_out_records_the_request_then_raises_with_data() -> None:
    p = TestProvider(responses=["a"])
    ask(p, "first")
    with pytest.raises(ProviderError) as info:
        ask(p, "second")
    assert str(info.value) == "TestProvider: no response for prompt"
    assert info.value.data == {"prompt": "second", "available-keys": []}
    assert p.requests == ["first", "second"]


def test_map_responses_match_the_exact_prefix_and_name_their_keys_on_failure() -> None:
    p = TestProvider(responses={"(do ": "1)"})
    assert ask(p, "(do ") == "1)"
    assert ask(p, "(do ") == "1)"  # a map entry is not used up
    with pytest.raises(ProviderError) as info:
        ask(p, "(do  ")
    assert info.value.data["available-keys"] == ["(do "]


def test_resolution_order_responses_fn_rules_then_catch_all() -> None:
    rules = [{"includes": ["alpha"], "excludes": ["beta"], "response": "rule"}]
    p = TestProvider(responses={"exact": "map"}, response_fn=lambda t: "fn" if "fn" in t else None,
                     response_rules=rules, response="catch-all")
    assert ask(p, "exact") == "map"
    assert ask(p, "fn alpha") == "fn"
    assert ask(p, "alpha") == "rule"
    assert ask(p, "alpha beta") == "catch-all"


def test_a_matching_rule_without_response_is_an_error() -> None:
    p = TestProvider(response_rules=[{"includes": ["x"]}], response="never")
    with pytest.raises(ProviderError, match="TestProvider: matched rule has no :response key"):
        ask(p, "x")


def test_response_maps_with_latency() -> None:
    p = TestProvider(responses=[{"response": "slow", "latency": 30}])
    started = time.perf_counter()
    assert ask(p, "p") == "slow"
    assert time.perf_counter() - started >= 0.025


def test_matching_uses_the_prefix_in_prefill_mode_too() -> None:
    p = TestProvider(responses={"(do ": "1)"}, supports_prefill=True)
    assert p.supports_prefill
    assert ask(p, "(do ", prefill=True) == "1)"


def test_prefill_support_defaults_true_and_accepts_the_reference_name() -> None:
    assert TestProvider().supports_prefill
    assert not TestProvider(prefill=False).supports_prefill
    assert not TestProvider(supports_prefill=False, prefill=True).supports_prefill


def test_edn_profile_builds_a_test_provider() -> None:
    profile = read_first('{:provider :test :responses ["one" {:response "two"}] :supports-prefill? false}')
    p = provider_from_profile(profile)
    assert isinstance(p, TestProvider)
    assert not p.supports_prefill
    assert [ask(p, "a"), ask(p, "b")] == ["one", "two"]


def test_edn_rules_and_catch_all() -> None:
    profile = read_first('{:provider :test :response-rules [{:includes ["x"] :response "r"}] :response "c"}')
    p = provider_from_profile(profile)
    assert [ask(p, "x"), ask(p, "y")] == ["r", "c"]


def test_unknown_provider_type() -> None:
    with pytest.raises(ProfileError, match="Unknown provider type: :bogus"):
        provider_from_profile(SpellMap.from_pairs([(Keyword("provider"), Keyword("bogus"))]))


def test_explicit_prefill_on_a_provider_without_it() -> None:
    profile = {"provider": "test", "supports-prefill?": False, "prefill?": True}
    with pytest.raises(ProfileError, match="Explicit :prefill\\? true is unsupported"):
        provider_from_profile(profile)


def test_vector_value_from_spell_data() -> None:
    p = TestProvider(responses=vec(["v"]))
    assert ask(p, "z") == "v"
