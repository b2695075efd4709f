"""``spellc package``: manifest checks, what the wheel holds, tests run first (packages.md §3)."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from spellc.cli import main
from spellc.package.builder import PackageTestsFailed, build_package, spellc_requirement
from spellc.package.manifest import ManifestError, read_manifest
from spellc.package.wheel import record_hash

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "packages" / "tally-agent"


@pytest.fixture()
def pkg(tmp_path: Path) -> Path:
    target = tmp_path / "tally-agent"
    shutil.copytree(EXAMPLE, target)
    return target


def test_manifest_problems_are_all_listed_and_exit_2(pkg: Path, tmp_path: Path) -> None:
    (pkg / "spell-package.edn").write_text('{:version "one" :agents [tally ghost] :colour "red"}')
    with pytest.raises(ManifestError) as info:
        read_manifest(str(pkg))
    problems = info.value.problems
    assert any("unknown key :colour" in p for p in problems)
    assert any("missing :name" in p for p in problems)
    assert any('bad :version "one"' in p for p in problems)
    assert any("agent ghost is listed but agents/ghost.agent.edn does not exist" in p for p in problems)
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "unknown key :colour" in result.output and "missing :name" in result.output


def test_wheel_has_complete_record_entry_points_and_requirement(pkg: Path, tmp_path: Path) -> None:
    result = build_package(str(pkg), str(tmp_path / "dist"))
    assert result.tests_run == 2
    wheel = Path(result.wheel)
    assert wheel.name == "spellpkg_tally_agent-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        info = "spellpkg_tally_agent-0.1.0.dist-info/"
        assert names[-1] == info + "RECORD"
        record = zf.read(info + "RECORD").decode().splitlines()
        rows = {line.split(",")[0]: line.split(",")[1:] for line in record}
        assert set(rows) == set(names)
        for name in names:
            if name != info + "RECORD":
                data = zf.read(name)
                assert rows[name] == [record_hash(data), str(len(data))], name
        metadata = zf.read(info + "METADATA").decode()
        assert "Name: spellpkg-tally-agent" in metadata
        assert "Requires-Dist: " + spellc_requirement() in metadata
        entry_points = zf.read(info + "entry_points.txt").decode()
        assert "[spellc.agents]\ntally = spellpkg_tally_agent:agent_tally" in entry_points
        assert "[spellc.modules]\nrelay = spellpkg_tally_agent" in entry_points
        assert "[spellc.skills]\ntally-howto = spellpkg_tally_agent" in entry_points
        profile = zf.read("spellpkg_tally_agent/profiles/tally.edn").decode()
        assert ":base" not in profile and "You are tally" in profile and "tally lib/tally" in profile
        assert "spellpkg_tally_agent/lib/tally.spl" in names
        assert "spellpkg_tally_agent/_lib_tally.py" in names
    again = build_package(str(pkg), str(tmp_path / "dist2"))
    assert Path(again.wheel).read_bytes() == wheel.read_bytes()


def test_requirement_is_a_compatible_range() -> None:
    assert spellc_requirement() == "spellc>=0.1.0,<0.2"


def test_failing_spell_tests_stop_the_build(pkg: Path, tmp_path: Path) -> None:
    (pkg / "tests" / "test_more.spl").write_text('(deftest wrong (is (= 99 (tally/score "a")) "score"))\n')
    with pytest.raises(PackageTestsFailed) as info:
        build_package(str(pkg), str(tmp_path / "dist"))
    text = str(info.value)
    assert text.startswith("1 of 3 Spell tests failed; no wheel written\n")
    # the report is spellc.testing's (testing.md §4): position of the `is`, the line with a caret, both values
    assert "FAIL in wrong (tests/test_more.spl:1:16)" in text and "expected: 99" in text and "actual: 1" in text
    assert '    1 | (deftest wrong (is (= 99 (tally/score "a")) "score"))' in text
    assert not (tmp_path / "dist").exists()
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "d")])
    assert result.exit_code == 1 and "FAIL in wrong (tests/test_more.spl:1:16)" in result.output
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "d"), "--no-test"])
    assert result.exit_code == 0, result.output


def test_an_erring_test_and_an_unreadable_test_file_stop_the_build(pkg: Path, tmp_path: Path) -> None:
    (pkg / "tests" / "test_err.spl").write_text('(deftest boom\n  (tally/ratio 1 0))\n')
    (pkg / "tests" / "bad_test.spl").write_text('(deftest unclosed (is true)\n')
    (pkg / "tests" / "helpers.spl").write_text('(deftest not-a-test-file (is false))\n')
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "d")])
    assert result.exit_code == 1, result.output
    assert "2 of 4 Spell tests failed; no wheel written" in result.output
    assert "ERROR collecting tests/bad_test.spl:2:1: Reader error" in result.output
    assert "ERROR in boom (tests/test_err.spl:1:1)" in result.output
    assert "lib/tally.spl:15:3: Function call failed: /: Divide by zero" in result.output
    assert "not-a-test-file" not in result.output and "Traceback" not in result.output


def test_malformed_module_or_skill_or_library_ref_fails_the_build(pkg: Path, tmp_path: Path) -> None:
    (pkg / "modules" / "relay.spl").write_text('{:doc "x" :functions {:run {:doc "d"}}}')
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "d")])
    assert result.exit_code == 2 and "modules/relay.spl: Module function requires" in result.output
    shutil.copy(EXAMPLE / "modules" / "relay.spl", pkg / "modules" / "relay.spl")
    (pkg / "skills" / "tally-howto" / "SKILL.md").write_text("---\nname: other\ndescription: d\n---\n")
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "d")])
    assert result.exit_code == 2 and "differs from its folder" in result.output
    shutil.copy(EXAMPLE / "skills" / "tally-howto" / "SKILL.md", pkg / "skills" / "tally-howto" / "SKILL.md")
    (pkg / "agents" / "tally.agent.edn").write_text('{:base "base.agent.edn" :namespaces {t lib/nope}}')
    result = CliRunner().invoke(main, ["package", str(pkg), "-o", str(tmp_path / "d")])
    assert result.exit_code == 2 and "there is no lib/nope.spl" in result.output


def test_console_script_entry_when_asked(pkg: Path, tmp_path: Path) -> None:
    text = (pkg / "spell-package.edn").read_text().replace(":default-agent tally", ':default-agent tally\n :console-script "tally-run"')
    (pkg / "spell-package.edn").write_text(text)
    wheel = build_package(str(pkg), str(tmp_path / "dist"), run_tests=False).wheel
    with zipfile.ZipFile(wheel) as zf:
        entry_points = zf.read("spellpkg_tally_agent-0.1.0.dist-info/entry_points.txt").decode()
        main_py = zf.read("spellpkg_tally_agent/__main__.py").decode()
    assert "[console_scripts]\ntally-run = spellpkg_tally_agent.__main__:main" in entry_points
    assert "def main() -> None:" in main_py
