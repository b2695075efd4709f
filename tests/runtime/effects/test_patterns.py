"""``patterns/``: installable modules, discovery order, strict reading, origins (packages.md §1)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.modfiles import ModuleFileError, discovered, read_definition

import spellc
from spellc.providers.test_provider import TestProvider

RELAY = """{:doc "Relay %s."
 :functions {:run {:doc "Upper-cases :text." :requires [strings]
                   :source (fn [opts] (strings/upper-case (:text opts)))}}}"""


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / ".spell" / "modules").mkdir(parents=True)
    home = tmp_path / "home"
    (home / ".spell" / "modules").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(root / "sub")
    (root / "agent.agent.edn").write_text("{:namespaces {patterns stdlib/patterns strings stdlib/strings}}")
    return root


def run(root: Path, expr: str) -> Any:
    out = spellc.run(prompt="go", agent_profile=str(root / "agent.agent.edn"),
                     model_profile=TestProvider(responses=["(eval (quote (pr-str %s)))" % expr]))
    assert "error" not in out, out.get("error")
    return spellc.read_string(out["result"])


def test_project_module_wins_over_user_module_and_origin_says_so(project: Path) -> None:
    (project / ".spell" / "modules" / "relay.spl").write_text(RELAY % "project")
    home = Path(os.environ["HOME"])
    (home / ".spell" / "modules" / "relay.spl").write_text(RELAY % "user")
    (home / ".spell" / "modules" / "only-user.spl").write_text(RELAY % "u2")
    cat = run(project, "(patterns/catalog)")
    by_name = {m[Keyword("module")].name: m for m in cat}
    assert set(by_name) >= {"relay", "only-user"}
    relay = by_name["relay"]
    assert relay[Keyword("doc")] == "Relay project."
    assert relay[Keyword("origin")][Keyword("kind")] == Keyword("project")
    assert by_name["only-user"][Keyword("origin")][Keyword("kind")] == Keyword("user")
    fn = relay[Keyword("functions")][Keyword("run")]
    assert Keyword("source") not in fn and fn[Keyword("requires")] == spellc.read_string("[strings]")
    assert relay[Keyword("installed?")] is False


def test_install_is_if_absent_and_call_runs_the_source(project: Path) -> None:
    (project / ".spell" / "modules" / "relay.spl").write_text(RELAY % "project")
    got = run(project, '[(patterns/install :relay) (patterns/install :relay) '
                       '(patterns/call :relay :run {:text "hi"})]')
    assert got[0][Keyword("installed?")] is True and got[1][Keyword("installed?")] is False
    assert got[2] == "HI"


def test_update_is_validated_and_install_never_resets_edits(project: Path) -> None:
    (project / ".spell" / "modules" / "relay.spl").write_text(RELAY % "project")
    got = run(project, '(do (patterns/install :relay) (patterns/update :relay (fn [d] (assoc d :doc "edited"))) '
                       '(patterns/install :relay) (:doc (patterns/source :relay)))')
    assert got == "edited"
    out = spellc.run(prompt="go", agent_profile=str(project / "agent.agent.edn"), model_profile=TestProvider(
        responses=['(eval (quote (do (patterns/install :relay) (patterns/update :relay (fn [d] 42)))))']))
    assert "Module definition requires :doc string" in out["error"]


def test_call_checks_requires_without_granting(project: Path) -> None:
    (project / ".spell" / "modules" / "needs-web.spl").write_text(
        '{:doc "d" :functions {:run {:doc "x" :requires [web] :source (fn [] 1)}}}')
    out = spellc.run(prompt="go", agent_profile=str(project / "agent.agent.edn"), model_profile=TestProvider(
        responses=['(eval (quote (do (patterns/install :needs-web) (patterns/call :needs-web :run))))']))
    assert "requires an unavailable namespace: web" in out["error"]


def test_malformed_selected_file_fails_with_its_path_and_never_falls_back(project: Path) -> None:
    (project / ".spell" / "modules" / "relay.spl").write_text("{:doc \"x\" :functions {:run 1}}")
    home = Path(os.environ["HOME"])
    (home / ".spell" / "modules" / "relay.spl").write_text(RELAY % "user")
    out = spellc.run(prompt="go", agent_profile=str(project / "agent.agent.edn"), model_profile=TestProvider(
        responses=['(eval (quote (patterns/install :relay)))']))
    assert str(project / ".spell" / "modules" / "relay.spl") in out["error"]
    cat = run(project, "(patterns/catalog)")
    entry = next(m for m in cat if m[Keyword("module")] == Keyword("relay"))
    assert "relay.spl" in entry[Keyword("error")]


def test_reading_is_strict(tmp_path: Path) -> None:
    folder = tmp_path / ".spell" / "modules"
    folder.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    (folder / "two.spl").write_text('{:doc "a" :functions {}} {:doc "b" :functions {}}')
    (folder / "Bad_Name.spl").write_text('{:doc "a" :functions {}}')
    (folder / "stray.spl").write_text('{:doc "a" :functions {}})')
    found = discovered(str(tmp_path), home=str(tmp_path / "nohome"), bundled_dir=str(tmp_path / "none"))
    with pytest.raises(ModuleFileError, match="one unquoted definition map"):
        read_definition(found["two"])
    with pytest.raises(ModuleFileError, match="Invalid module filename"):
        read_definition(found["Bad_Name"])
    with pytest.raises(ModuleFileError, match="stray.spl"):
        read_definition(found["stray"])


def test_bundled_modules_come_last(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / "relay.spl").write_text(RELAY % "bundled")
    found = discovered(str(tmp_path), home=str(tmp_path / "nohome"), bundled_dir=str(bundled))
    assert found["relay"].origin == SpellMap.from_pairs([(Keyword("kind"), Keyword("bundled")),
                                                        (Keyword("path"), str(bundled / "relay.spl"))])
    (tmp_path / ".spell" / "modules").mkdir(parents=True)
    (tmp_path / ".spell" / "modules" / "relay.spl").write_text(RELAY % "project")
    found = discovered(str(tmp_path), home=str(tmp_path / "nohome"), bundled_dir=str(bundled))
    assert found["relay"].origin[Keyword("kind")] == Keyword("project")
