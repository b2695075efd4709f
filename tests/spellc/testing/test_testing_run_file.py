"""``spellc.testing.run_file`` (the structured API) and ``spellc test`` (the pytest wrapper's exit codes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from spellc.testing import CollectionError, run_file

ROOT = Path(__file__).resolve().parents[3]

FILE = """\
(def limit 3)
(deftest ok (is (< 1 limit)))
(deftest bad (is (> 1 limit) "one is small"))
(deftest boom (car 1))
(deftest ^{:skip "later"} later (is false))
(deftest ^{:xfail "known"} known (is (= 1 2)))
(deftest ^:slow ^{:xfail "fixed"} fixed (is true))
"""


def test_run_file_returns_one_result_per_test_in_order(tmp_path: Path) -> None:
    path = tmp_path / "test_api.spl"
    path.write_text(FILE, encoding="utf-8")
    results = run_file(path)
    assert [(r.name, r.outcome, r.line, r.column) for r in results] == [
        ("ok", "passed", 2, 1), ("bad", "failed", 3, 1), ("boom", "error", 4, 1),
        ("later", "skipped", 5, 1), ("known", "xfailed", 6, 1), ("fixed", "xpassed", 7, 1)]
    bad = results[1]
    assert [(a.outcome, a.message, a.expected, a.actual) for a in bad.assertions] == [
        ("failed", "one is small", "1", "3")]
    assert bad.report.splitlines()[0] == "FAIL in bad (%s:3:14)" % path
    assert results[2].error == "%s:4:16: Unbound symbol: car" % path
    assert results[3].reason == "later" and results[5].marks == ("slow",)


def test_run_file_raises_collection_errors(tmp_path: Path) -> None:
    path = tmp_path / "test_broken.spl"
    path.write_text("(deftest a\n  [1 2)", encoding="utf-8")
    with pytest.raises(CollectionError) as caught:
        run_file(path)
    assert (caught.value.line, caught.value.column) == (2, 7)
    assert str(caught.value).startswith("%s:2:7: Reader error: " % path)


def test_values_in_reports_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "test_big.spl"
    path.write_text("(deftest big (is (= [] (vec (range 100000)))))", encoding="utf-8")
    [result] = run_file(path)
    actual = result.assertions[0].actual
    assert actual is not None and len(actual) < 3000 and ":spell/omitted" in actual


def test_is_inside_a_function_called_in_a_loop_records_each_call(tmp_path: Path) -> None:
    path = tmp_path / "test_loop.spl"
    path.write_text("(defn positive [x] (is (pos? x) (str x)))\n"
                    "(deftest each (map positive [1 -2 3 -4]))\n", encoding="utf-8")
    [result] = run_file(path)
    assert [(a.outcome, a.message) for a in result.assertions] == [
        ("passed", "1"), ("failed", "-2"), ("passed", "3"), ("failed", "-4")]
    assert result.report.splitlines()[0] == "FAIL in each (%s:1:20)" % path


def test_each_is_of_an_atom_is_reported_at_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "test_atoms.spl"
    path.write_text("(def ok? false)\n(deftest atoms\n  (is ok?)\n  (is true)\n  (is ok? \"again\")\n  (is nil))\n",
                    encoding="utf-8")
    [result] = run_file(path)
    headers = [line for line in result.report.splitlines() if line.startswith("FAIL")]
    assert headers == ["FAIL in atoms (%s:%d:3)" % (path, line) for line in (3, 5, 6)]
    assert [(a.expected, a.actual) for a in result.assertions if a.outcome == "failed"] == [
        ("ok?", "false"), ("ok?", "false"), ("nil", "nil")]


def test_same_looking_files_in_one_process_keep_their_own_positions(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The compiler caches code by form text and source name; neither may leak one file's positions into another.
    body = "(deftest t\n  (is (= 2 (inc 2)))\n  (is (= 1 (/ 1 0))))\n"
    for folder, padding in (("a", ""), ("b", "\n\n\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "test_same.spl").write_text(padding + body, encoding="utf-8")
    headers = []
    for folder in ("a", "a", "b"):
        monkeypatch.chdir(tmp_path / folder)
        [result] = run_file("test_same.spl")
        headers.append([line for line in result.report.splitlines() if line.startswith(("FAIL", "ERROR", "  test"))])
    at_a = ["FAIL in t (test_same.spl:2:3)", "ERROR in t (test_same.spl:3:3)",
            "  test_same.spl:3:12: Function call failed: /: Divide by zero"]
    at_b = ["FAIL in t (test_same.spl:5:3)", "ERROR in t (test_same.spl:6:3)",
            "  test_same.spl:6:12: Function call failed: /: Divide by zero"]
    assert headers == [at_a, at_a, at_b]


def test_the_readme_example_passes() -> None:
    results = run_file(ROOT / "examples" / "test_hello.spl")
    assert [(r.name, r.outcome) for r in results] == [("normalizes-strings", "passed"),
                                                      ("agent-answers-42", "passed")]


def _spellc_test(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))
    return subprocess.run([sys.executable, "-m", "spellc", "test", "-p", "no:cacheprovider", *args],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)


def test_spellc_test_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "test_good.spl").write_text("(deftest g (is (= 2 (inc 1))))", encoding="utf-8")
    (tmp_path / "test_failing.spl").write_text("(deftest f (is (= 3 (inc 1))))", encoding="utf-8")
    (tmp_path / "test_unreadable.spl").write_text("(deftest u (is true)", encoding="utf-8")
    good = _spellc_test(tmp_path, "test_good.spl")
    assert good.returncode == 0, good.stdout
    failing = _spellc_test(tmp_path, "test_good.spl", "test_failing.spl")
    assert failing.returncode == 1
    assert "FAIL in f (test_failing.spl:1:12)" in failing.stdout and "1 failed, 1 passed" in failing.stdout
    unreadable = _spellc_test(tmp_path, "test_unreadable.spl", "test_good.spl")
    assert unreadable.returncode == 1 and "1 passed, 1 error" in unreadable.stdout
    assert _spellc_test(tmp_path, "missing.spl").returncode == 2


def test_spell_test_run_takes_an_installed_agent_by_name(tmp_path: Path) -> None:
    # :agent goes to spellc.run's agent= keyword (the registry of installed packages), not to the
    # run options, which refuse it; an unknown name is a Spell error inside the test, not a crash.
    path = tmp_path / "test_agent_name.spl"
    path.write_text('(deftest by-name (spell-test/run {:agent "no-such-agent-xyz" :responses []}))\n'
                    '(deftest bad-name (spell-test/run {:agent 42 :responses []}))\n', encoding="utf-8")
    by_name, bad_name = run_file(path)
    assert by_name.outcome == "error" and "Unknown agent: no-such-agent-xyz" in (by_name.error or "")
    assert bad_name.outcome == "error" and ":agent must be the name of an installed agent" in (bad_name.error or "")


def test_a_call_path_names_the_file_not_the_units_it_was_compiled_as(tmp_path: Path) -> None:
    """Each form of a test file is compiled as a unit of its own (``path@line:col#run``); a failure's
    call path shows the file and the place, as ``spellc run`` does."""
    path = tmp_path / "test_path.spl"
    path.write_text("(defn inner [x] (/ x 0))\n(defn outer [x] (inner x))\n(deftest div (is (= 1 (outer 1))))\n",
                    encoding="utf-8")
    (result,) = run_file(path)
    assert result.outcome == "error"
    path_lines = [line.strip() for line in result.report.splitlines() if line.strip().startswith("in ")]
    assert path_lines[:2] == ["in inner  %s:2:17" % path, "in outer  %s:3:23" % path], result.report


@pytest.mark.parametrize(("source", "shown"), [
    ("lib/test_a.spl@3:14#7", "lib/test_a.spl"),
    ("lib/test_a.spl#2", "lib/test_a.spl"),
    ("prog.spl (via source)", "prog.spl"),
    ("prog.spl", "prog.spl"),
    ("notes#draft.spl", "notes#draft.spl"),
    ("a@b.spl#1", "a@b.spl"),
])
def test_display_source_drops_only_a_unit_key(source: str, shown: str) -> None:
    from spell_runtime.callpath import display_source, unit_source

    assert display_source(source) == shown
    assert display_source(unit_source("dir/x.spl", (4, 0, 4, 9), 3)) == "dir/x.spl"
    assert display_source(unit_source("dir/x.spl", None, 3)) == "dir/x.spl"
