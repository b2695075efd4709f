"""The pytest plugin for Spell tests, driven through ``pytester`` (shared/spec/testing.md)."""

from __future__ import annotations

import re

import pytest
from spell_pytester import install_entry_point, run

pytest_plugins = ["pytester"]

MIXED = """\
;; the prelude
(def sample {:task "Who wrote X?" :max-steps 2})
(defn normalize [opts] (if (string? opts) {:task opts} (dissoc opts :max-steps)))

(deftest passes
  (is (= {:task "x"} (normalize "x"))))

(deftest fails
  (is (= sample (normalize sample)) "maps pass through"))

(deftest errs
  (is (= 1 1))
  (undefined-thing 1))

(deftest ^:skip skipped (is (= 1 2)))
"""


def test_counts_of_passing_failing_erroring_and_skipped_tests(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_mixed=MIXED)
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1, errors=1, skipped=1)
    assert result.ret == 1


def test_failure_report_points_at_the_spell_line_with_expected_and_actual(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_mixed=MIXED)
    out = run(pytester).stdout.str()
    block = [
        "FAIL in fails (test_mixed.spl:9:3)",
        "  maps pass through",
        '    9 | (is (= sample (normalize sample)) "maps pass through"))',
        "      | ^",
        '  expected: {:task "Who wrote X?", :max-steps 2}',
        '    actual: {:task "Who wrote X?"}',
    ]
    lines = out.splitlines()
    start = lines.index(block[0])
    assert lines[start:start + len(block)] == block


def test_error_report_is_the_spell_error_text_without_python_frames(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_mixed=MIXED)
    out = run(pytester).stdout.str()
    lines = out.splitlines()
    start = lines.index("ERROR in errs (test_mixed.spl:11:1)")
    assert lines[start + 1] == "  test_mixed.spl:13:4: Unbound symbol: undefined-thing"
    assert "Traceback" not in out and "site-packages" not in out
    assert not re.search(r"\.py:\d+", out), out


def test_error_inside_is_is_reported_at_the_is_form(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_inner="(deftest inner\n  (is (= 1 (/ 1 0))))\n")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    lines = result.stdout.str().splitlines()
    start = lines.index("ERROR in inner (test_inner.spl:2:3)")
    assert lines[start + 1:start + 4] == [
        "    2 | (is (= 1 (/ 1 0))))",
        "      | ^",
        "  test_inner.spl:2:12: Function call failed: /: Divide by zero",
    ]


def test_is_keeps_going_and_reports_every_failed_assertion(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_two="(deftest two\n  (is (< 2 1))\n  (is (>= 1 5))\n  (is (= 3 3)))\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "FAIL in two (test_two.spl:2:3)" in out and "FAIL in two (test_two.spl:3:3)" in out
    assert "  expected: 2\n    actual: 1" in out and "  expected: 1\n    actual: 5" in out


def test_testing_contexts_and_truthiness_failures(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_ctx='(deftest ctx\n  (testing "outer"\n    (is (nil? 1) "why")))\n')
    out = run(pytester).stdout.str()
    assert "  outer, why\n    3 | (is (nil? 1) \"why\")))\n      | ^\n  expected: (nil? 1)\n    actual: false" in out


def test_thrown_and_thrown_with_msg(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_thrown="""\
(deftest ok
  (is (thrown? (/ 1 0)))
  (is (thrown-with-msg? #"Unbound symbol" (nothing-here))))
(deftest not-thrown
  (is (thrown? (+ 1 2))))
(deftest wrong-message
  (is (thrown-with-msg? #"Divide" (nothing-here))))
""")
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=2)
    out = result.stdout.str()
    assert "  expected: an error\n    actual: no error; value 3" in out
    assert '  expected: an error matching #"Divide"\n    actual: error: Unbound symbol: nothing-here' in out


def test_dynamic_scope_stubs_are_seen_by_is(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_stub="""\
(defn ask [q] (leaf-llm q))
(deftest stubbed
  (let [leaf-llm (fn [p] (str "OK " p))]
    (is (= "OK q" (ask "q")))))
""")
    run(pytester).assert_outcomes(passed=1)


def test_metadata_marks_select_with_dash_m_and_xfail(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_marks="""\
(deftest ^:slow slow-one (is true))
(deftest fast-one (is true))
(deftest ^{:xfail "known bug"} broken (is (= 1 2)))
(deftest ^{:skip "needs web/"} live (is (web/search "x")))
""")
    run(pytester, "-m", "slow").assert_outcomes(passed=1, deselected=3)
    result = run(pytester, "-rsx")
    result.assert_outcomes(passed=2, xfailed=1, skipped=1)
    out = result.stdout.str()
    assert "needs web/" in out and "known bug" in out
    assert "PytestUnknownMarkWarning" not in out


def test_each_test_gets_its_own_copy_of_the_prelude_environment(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_iso="""\
(def base 1)
(deftest defines (def base 2) (def extra 3) (is (= 2 base)))
(deftest sees-the-prelude-only (is (= 1 base)) (is (thrown? extra)))
""")
    pytester.makeconftest("""
import spellc.testing.runner as runner
CALLS = []
original = runner.PreludeRun.__init__
def counting(self, *args, **kwargs):
    CALLS.append(1)
    original(self, *args, **kwargs)
runner.PreludeRun.__init__ = counting
def pytest_sessionfinish(session):
    print("prelude runs:", len(CALLS))
    runner.PreludeRun.__init__ = original
""")
    result = run(pytester, "-s")
    result.assert_outcomes(passed=2)
    assert "prelude runs: 1" in result.stdout.str()


def test_collection_reads_but_never_evaluates(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_lazy="(def boom (/ 1 0))\n(deftest a (is true))\n(deftest b (is true))\n")
    result = run(pytester, "--collect-only", "-q")
    assert result.ret == 0
    assert result.stdout.lines[:2] == ["test_lazy.spl::a", "test_lazy.spl::b"]


def test_prelude_error_errs_every_test_with_its_position(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_prelude="(def boom (/ 1 0))\n(deftest a (is true))\n")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    assert "test_prelude.spl:1:11: Function call failed: /: Divide by zero (in the file's prelude)" in \
        result.stdout.str()


def test_a_reader_error_is_a_collection_error_at_its_position(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_bad="(deftest a (is true))\n(deftest b (is (= 1 2)\n")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "test_bad.spl:2:23: Reader error: EOF while reading" in out
    assert "Traceback" not in out


def test_duplicate_and_nested_deftest_are_collection_errors(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_dup="(deftest a (is true))\n(deftest a (is true))\n",
                      test_nested="(deftest outer\n  (do (deftest inner (is true))))\n")
    result = run(pytester)
    result.assert_outcomes(errors=2)
    out = result.stdout.str()
    assert "test_dup.spl:2:1: Duplicate deftest a (first defined on line 1)" in out
    assert "test_nested.spl:2:7: deftest must be a top-level form" in out


def test_dash_p_no_spellc_turns_the_plugin_off(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_mixed=MIXED)
    result = run(pytester, "-p", "no:spellc")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.assert_outcomes()


def test_spell_files_ini_option_chooses_the_files(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", check_custom="(deftest a (is true))", test_default="(deftest b (is true))")
    pytester.makeini("[pytest]\nspell_files = check_*.spl\n")
    result = run(pytester, "--collect-only", "-q")
    assert result.stdout.lines[0] == "check_custom.spl::a"
    assert "test_default" not in result.stdout.str()


def test_reportinfo_carries_the_deftest_line(pytester: pytest.Pytester) -> None:
    path = pytester.path / "test_info.spl"
    path.write_text("; a comment\n\n(deftest third-line (is true))\n", encoding="utf-8")
    install_entry_point(pytester)
    items = pytester.getitems(path)
    assert [item.location for item in items] == [("test_info.spl", 2, "deftest third-line")]


def test_scripted_agent_run_in_a_spell_test(pytester: pytest.Pytester) -> None:
    pytester.makefile(".spl", test_agent="""\
(deftest answers-42
  (let [r (spell-test/run {:prompt "Return 42"
                           :responses ["'(!call-now x (+ 40 2))" "x)))"]})]
    (is (= 42 (:result r)))
    (is (= 2 (count (:prompts r))))
    (is (= 2 (:calls (:usage r))))
    (is (nil? (:error r)))))
(deftest runs-out-of-responses
  (let [r (spell-test/run {:prompt "Return 42" :responses []})]
    (is (string? (:error r)))
    (is (= :environment (:spell/fault (:error-data r))))
    (is (nil? (:result r)))))
""")
    run(pytester).assert_outcomes(passed=2)


def test_spell_and_spell_agent_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_fixtures="""
import pytest
from spellc import SpellError

def test_spell_keeps_definitions_within_a_test(spell):
    spell.eval("(defn sq [x] (* x x))")
    assert spell.eval("(sq 7)") == 49

def test_spell_starts_fresh(spell):
    with pytest.raises(SpellError, match="Unbound symbol: sq"):
        spell.eval("(sq 7)")

def test_spell_agent(spell_agent):
    out = spell_agent(prompt="Return 42", responses=["'(!call-now x (+ 40 2))", "x)))"])
    assert out["result"] == 42 and len(out["prompts"]) == 2 and out["usage"]["calls"] == 2
""")
    run(pytester).assert_outcomes(passed=3)
