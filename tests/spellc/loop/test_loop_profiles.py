"""Agent and model profiles with ``:base`` inheritance (runtime.md §7.5–§7.6, §6.9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from spell_runtime.data import Keyword, Symbol
from spell_runtime.effects import EffectContext

import spellc
from spellc.loop.namespaces import resolve_namespaces
from spellc.loop.options import RunOptionsError
from spellc.loop.profiles import load_agent_profile, load_model_profile, merge_profiles
from spellc.providers.registry import ProfileError
from spellc.providers.test_provider import TestProvider


def write(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def limit_of(tmp: Path, child: str, **overrides: Any) -> Any:
    """The :max-consecutive-errors a run resolves, observed through how many failures it allows."""
    write(tmp, "base.agent.edn", "{:max-consecutive-errors 4}")
    path = write(tmp, "child.agent.edn", child)
    provider = TestProvider(responses=["missing)"] * 6)
    out = spellc.run(init="(eval (do '(!llm-self \"(do \" {:receive? true})))", model_profile=provider,
                     agent_profile=path, **overrides)
    return out["error_data"]["limit"], len(provider.requests)


def test_base_value_is_inherited(tmp_path: Path) -> None:
    assert limit_of(tmp_path, '{:base "base.agent.edn"}') == (4, 4)


def test_child_value_wins(tmp_path: Path) -> None:
    assert limit_of(tmp_path, '{:base "base.agent.edn" :max-consecutive-errors 2}') == (2, 2)


def test_run_override_wins_over_both(tmp_path: Path) -> None:
    assert limit_of(tmp_path, '{:base "base.agent.edn" :max-consecutive-errors 2}',
                    max_consecutive_errors=1) == (1, 1)


def test_invalid_child_value_fails_before_any_model_call(tmp_path: Path) -> None:
    write(tmp_path, "base.agent.edn", "{:max-consecutive-errors 4}")
    path = write(tmp_path, "child.agent.edn", '{:base "base.agent.edn" :max-consecutive-errors 0}')
    provider = TestProvider(responses=["1)"])
    with pytest.raises(RunOptionsError) as info:
        spellc.run(prompt="x", model_profile=provider, agent_profile=path)
    assert info.value.error_data["type"] == Keyword("invalid-max-consecutive-errors")
    assert info.value.error_data["value"] == 0
    assert provider.requests == []


def test_explicit_nil_in_a_child_replaces_the_parent(tmp_path: Path) -> None:
    write(tmp_path, "base.agent.edn", '{:system-prompt "parent" :recover false}')
    path = write(tmp_path, "child.agent.edn", '{:base "base.agent.edn" :system-prompt nil}')
    profile = load_agent_profile(path)
    assert profile.has("system-prompt") and profile.get("system-prompt") is None
    assert profile.get("recover") is False


def test_namespaces_merge_entry_by_entry(tmp_path: Path) -> None:
    write(tmp_path, "base.agent.edn", "{:namespaces {io stdlib/io web stdlib/web}}")
    path = write(tmp_path, "child.agent.edn", '{:base "base.agent.edn" :namespaces {io stdlib/io-read}}')
    refs = load_agent_profile(path).namespaces
    assert refs == {"io": Symbol("io-read", "stdlib"), "web": Symbol("web", "stdlib")}


def test_base_is_relative_to_the_child_and_chains(tmp_path: Path) -> None:
    write(tmp_path, "a/root.agent.edn", '{:agent-description "root" :recover false}')
    write(tmp_path, "a/b/mid.agent.edn", '{:base "../root.agent.edn" :default-budget 2}')
    path = write(tmp_path, "c/leaf.agent.edn", '{:base "../a/b/mid.agent.edn"}')
    profile = load_agent_profile(path)
    assert profile.get("agent-description") == "root"
    assert profile.get("default-budget") == 2
    assert profile.name == "leaf"


def test_system_prompt_file_is_relative_to_the_file_that_names_it(tmp_path: Path) -> None:
    write(tmp_path, "base/prompt.txt", "from the base")
    write(tmp_path, "base/base.agent.edn", '{:system-prompt {:file "prompt.txt"}}')
    path = write(tmp_path, "child/child.agent.edn", '{:base "../base/base.agent.edn"}')
    assert load_agent_profile(path).get("system-prompt") == "from the base"


@pytest.mark.parametrize("value", ["42", '{:path "x"}', '{:file "x" :extra 1}', "[\"x\"]"])
def test_invalid_system_prompt_values(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, "bad.agent.edn", "{:system-prompt %s}" % value)
    with pytest.raises(ProfileError, match=r"Invalid :system value, expected string or \{:file path\}"):
        load_agent_profile(path)


def test_unreadable_agent_files(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.agent.edn")
    with pytest.raises(ProfileError, match="Failed to read agent file: " + missing):
        load_agent_profile(missing)
    broken = write(tmp_path, "broken.agent.edn", "{:a ")
    with pytest.raises(ProfileError, match="Failed to read agent file"):
        load_agent_profile(broken)
    with pytest.raises(RunOptionsError, match="Failed to read agent file"):
        spellc.run(prompt="x", model_profile=TestProvider(), agent_profile=missing)


def test_base_cycles_are_reported(tmp_path: Path) -> None:
    write(tmp_path, "a.agent.edn", '{:base "b.agent.edn"}')
    path = write(tmp_path, "b.agent.edn", '{:base "a.agent.edn"}')
    with pytest.raises(ProfileError, match="cycle"):
        load_agent_profile(path)


def test_merge_profiles_keeps_parent_entries_the_child_does_not_state() -> None:
    merged = merge_profiles({"recover": False, "namespaces": {"io": 1}}, {"namespaces": {"web": 2}})
    assert merged == {"recover": False, "namespaces": {"io": 1, "web": 2}}


def test_model_profile_base_chain(tmp_path: Path) -> None:
    write(tmp_path, "base.edn", '{:provider :test :default-model "small" :retries [0 0]}')
    path = write(tmp_path, "m.edn", '{:base "base.edn" :default-model "big"}')
    profile = load_model_profile(path)
    assert profile["provider"] == Keyword("test")
    assert profile["default-model"] == "big"


def test_namespace_references(tmp_path: Path) -> None:
    eff = EffectContext()
    try:
        refs = {"io": Symbol("io-read", "stdlib"), "sh": Symbol("sh", "stdlib/io"),
                "both": [Symbol("web", "stdlib"), Symbol("globals", "stdlib")], "strings": Symbol("io", "stdlib")}
        maps = resolve_namespaces(refs, eff)
        assert set(maps) == {"io", "sh", "both"}  # core names are never effect namespaces
        assert maps["io"].get(Keyword("read-file")) is not None
        assert maps["io"].get(Keyword("sh")) is None
        assert maps["sh"].get(Keyword("sh")) is not None
        assert maps["both"].get(Keyword("fetch")) is not None and maps["both"].get(Keyword("get")) is not None
        with pytest.raises(ProfileError, match="Unknown namespace reference: stdlib/nope"):
            resolve_namespaces({"x": Symbol("nope", "stdlib")}, eff)
    finally:
        eff.close(wait=0)
