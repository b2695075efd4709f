"""Skills discovery, the bounded catalog and ``(!describe skills :name)`` (packages.md §1)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from spell_runtime.skills import CATALOG_LIMIT, Skill, catalog_text, discover

import spellc
from spellc.providers.test_provider import TestProvider


def skill(root: Path, folder: str, name: str, description: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text("---\nname: %s\ndescription: %s\n---\n# %s\nBody.\n"
                                            % (name, description, name))


def test_nearest_root_wins_and_invalid_skills_are_skipped_with_one_line(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    work = repo / "a" / "b"
    work.mkdir(parents=True)
    skill(work / ".agents" / "skills", "alpha", "alpha", "near one")
    skill(repo / ".agents" / "skills", "alpha", "alpha", "far one")
    skill(repo / ".agents" / "skills", "beta", "beta", "repo skill")
    skill(tmp_path / ".agents" / "skills", "above-repo", "above-repo", "outside the repository")
    skill(tmp_path / "home" / ".agents" / "skills", "gamma", "gamma", "user skill")
    skill(repo / ".agents" / "skills", "wrong", "other-name", "mismatch")
    skill(repo / ".agents" / "skills", "blank", "blank", " ")
    err = io.StringIO()
    found = discover(str(work), home=str(tmp_path / "home"), bundled_dir=str(tmp_path / "none"), err=err)
    assert [(s.name, s.description) for s in found] == [("alpha", "near one"), ("beta", "repo skill"),
                                                       ("gamma", "user skill")]
    lines = err.getvalue().splitlines()
    assert len(lines) == 2 and all(len(line) <= 300 for line in lines)
    assert any("differs from its folder" in line for line in lines)


def test_catalog_is_bounded_and_deterministic() -> None:
    skills = [Skill("s%03d" % i, "d" * 200, "/p/s%03d/SKILL.md" % i, "") for i in range(100)]
    text = catalog_text(skills)
    assert len(text) <= CATALOG_LIMIT
    assert text.splitlines()[0] == "s000 \u2014 %s \u2014 /p/s000/SKILL.md" % ("d" * 200)
    assert text.splitlines()[-1].endswith("more skills not listed")
    assert text == catalog_text(skills)


def test_system_prompt_lists_skills_and_describe_returns_the_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    skill(tmp_path / ".agents" / "skills", "howto", "howto", "How to do it.")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    provider = TestProvider(responses=["(eval (quote (describe-fn skills :howto)))"])
    out = spellc.run(prompt="go", model_profile=provider)
    assert "howto \u2014 How to do it. \u2014 " in provider.systems[0]
    assert out["result"].startswith("---\nname: howto")
    assert "grants no tools, permissions or namespaces" in out["result"]
