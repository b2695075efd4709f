"""Library namespaces in agent profiles, ``{tally lib/tally}`` (packages.md §1–§2)."""

from __future__ import annotations

from pathlib import Path

import pytest

import spellc
from spellc.loop.options import RunOptionsError
from spellc.package.library import LibraryError, parse_library
from spellc.providers.test_provider import TestProvider

LIB = """\
;; The words of a text.
;; Split on spaces.
(defn words [text] (strings/split text " "))

(defn n-words [text] (count (tally/words text)))
"""


def package(tmp: Path, lib: str = LIB, manifest: bool = True) -> str:
    (tmp / "lib").mkdir()
    (tmp / "lib" / "tally.spl").write_text(lib)
    (tmp / "agents").mkdir()
    if manifest:
        (tmp / "spell-package.edn").write_text('{:name "t" :version "0.1.0" :agents [a]}')
    path = tmp / "agents" / "a.agent.edn"
    path.write_text("{:namespaces {tally lib/tally io stdlib/io}}")
    return str(path)


def run(profile: str, response: str) -> tuple[dict[str, object], TestProvider]:
    provider = TestProvider(responses=[response])
    return spellc.run(prompt="go", agent_profile=profile, model_profile=provider), provider


def test_library_fns_work_in_body_and_trailing_expression(tmp_path: Path) -> None:
    profile = package(tmp_path)
    out, _ = run(profile, '(def n (tally/n-words "a b c"))\n(eval (quote (+ n (tally/n-words "x y"))))')
    assert out.get("result") == 5, out


def test_docs_come_from_the_comment_lines_above_each_defn(tmp_path: Path) -> None:
    profile = package(tmp_path)
    out, provider = run(profile, '(eval (quote (describe-fn tally :words)))')
    assert out["result"] == "The words of a text.\nSplit on spaces."
    assert "(tally/words text)  ; The words of a text." in provider.systems[0]
    assert "(tally/n-words text)" in provider.systems[0]


def test_profile_without_manifest_resolves_against_its_own_folder(tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "lib").mkdir()
    (tmp_path / "agents" / "lib" / "tally.spl").write_text(LIB)
    profile = tmp_path / "agents" / "a.agent.edn"
    profile.write_text("{:namespaces {tally lib/tally}}")
    out, _ = run(str(profile), '(tally/n-words "p q")')
    assert out.get("result") == 2


def test_missing_library_is_a_profile_error(tmp_path: Path) -> None:
    profile = package(tmp_path)
    Path(profile).write_text("{:namespaces {tally lib/nothing}}")
    with pytest.raises(RunOptionsError, match="lib/nothing"):
        run(profile, "1")


def test_library_may_not_shadow_a_core_namespace(tmp_path: Path) -> None:
    profile = package(tmp_path)
    Path(profile).write_text("{:namespaces {strings lib/tally}}")
    with pytest.raises(RunOptionsError, match="shadow"):
        run(profile, "1")


def test_non_defn_form_is_refused_with_its_position() -> None:
    with pytest.raises(LibraryError, match=r"lib/x.spl:3:1: a library file holds only"):
        parse_library("(defn a [] 1)\n\n(io/write-file \"f\" \"x\")\n", "lib/x.spl", "x")


def test_duplicate_and_malformed_defns_are_refused() -> None:
    with pytest.raises(LibraryError, match="a is defined twice"):
        parse_library("(defn a [] 1)\n(defn a [] 2)", "l.spl", "l")
    with pytest.raises(LibraryError, match="parameter vector"):
        parse_library("(defn a x 1)", "l.spl", "l")
    with pytest.raises(LibraryError, match=r"l.spl:1:\d+"):
        parse_library("(defn a [] ", "l.spl", "l")



def test_python_and_built_spell_modules_as_namespaces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyhelpers.py").write_text("def word_count(s):\n    return len(s.split())\n\n"
                                           "def _hidden():\n    return 1\n")
    (tmp_path / "spelllib.spl").write_text("(defn twice? [n] (= n (* 2 (/ n 2))))\n(defn half [n] (/ n base))\n")
    from click.testing import CliRunner

    from spellc.cli import main

    result = CliRunner().invoke(main, ["build", str(tmp_path / "spelllib.spl"), "-o", str(tmp_path / "spelllib.py")])
    assert result.exit_code == 0, result.output
    monkeypatch.syspath_prepend(str(tmp_path))
    profile = tmp_path / "a.agent.edn"
    profile.write_text('{:namespaces {py {:python "pyhelpers"} sp {:python "spelllib"}}}')
    out, provider = run(str(profile), '(def base 4)\n[(py/word-count "a b c") (sp/twice? 6) (sp/half 8)]')
    assert list(out["result"]) == [3, True, 2]  # sp/half reads `base` from the caller: dynamic scope
    assert "(py/word-count)" in provider.systems[0]
    profile.write_text('{:namespaces {py {:python "no_such_module_here"}}}')
    with pytest.raises(RunOptionsError, match="Cannot import Python module no_such_module_here"):
        run(str(profile), "1")


def test_errors_inside_library_fns_name_the_library_file_from_the_source_folder() -> None:
    from lib_errors import CALLS, first_error_lines

    from spellc.package.namespaces import SourceLibraries

    example = Path(__file__).resolve().parents[3] / "examples" / "packages" / "tally-agent"
    got = first_error_lines(SourceLibraries(str(example)).namespace("tally", "lib/tally"))
    assert [line[:len(want)] for line, want in zip(got, CALLS.values())] == list(CALLS.values())
