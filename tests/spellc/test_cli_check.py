"""``spellc check``: static findings as FILE:LINE:COL lines, exit 0/1/2."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from spellc.checker import check_text
from spellc.cli import main


def messages(text: str) -> list[str]:
    return ["%d:%d: %s" % (p.line, p.column, p.message) for p in check_text(text)]


def test_a_clean_program_exits_zero(tmp_path: Path) -> None:
    src = tmp_path / "ok.spl"
    src.write_text("(defn sq [x] (* x x))\n(map sq [1 2 3])\n(strings/trim \" a \")\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(src)])
    assert (result.exit_code, result.output) == (0, "")


def test_problems_are_file_line_col_lines_and_exit_one(tmp_path: Path) -> None:
    src = tmp_path / "p.spl"
    src.write_text("(defn add [a b] (+ a b))\n(add 1)\n(prnt (add 1 2))\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(src)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "%s:2:1: Wrong number of args to add: expected 2, got 1" % src,
        "%s:3:2: Unbound symbol: prnt" % src,
    ]


def test_reader_errors_are_reported(tmp_path: Path) -> None:
    src = tmp_path / "r.spl"
    src.write_text("(def x 1)\n(+ x\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(src)])
    assert result.exit_code == 1
    assert result.output == "%s:3:1: Reader error: EOF while reading\n" % src


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["check"]).exit_code == 2
    assert CliRunner().invoke(main, ["check", str(tmp_path / "missing.spl")]).exit_code == 2


def test_several_files_and_stdin(tmp_path: Path) -> None:
    good = tmp_path / "good.spl"
    good.write_text("(inc 1)", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(good), "-"], input="(nope)")
    assert result.exit_code == 1
    assert result.output == "<stdin>:1:2: Unbound symbol: nope\n"


def test_a_name_bound_by_any_caller_is_not_unbound() -> None:
    # dynamic scope: helper's `scale` is the caller's let binding
    assert messages("(defn helper [] (* scale 2))\n(let [scale 3] (helper))") == []
    assert messages("(defn f [] y)\n(defn g [y] (f))\n(g 1)") == []
    assert messages("(defn f [] y)") == ["1:12: Unbound symbol: y"]


def test_unknown_namespace_roots_are_unbound() -> None:
    assert messages("(foo/bar 1)\n(math/sqrt 4)") == ["1:2: Unbound symbol: foo"]


def test_arity_is_checked_only_for_a_defn_defined_once_and_never_rebound() -> None:
    assert messages("(defn f [a] a)\n(f 1 2 3)") == ["2:1: Wrong number of args to f: expected 1, got 3"]
    assert messages("(defn f [a] a)\n(defn f [a b] a)\n(f 1 2 3)") == []
    assert messages("(defn f [a] a)\n(let [f (fn [] 1)] (f))") == []


def test_effects_outside_eval_are_reported_but_not_inside_eval_or_fn_bodies() -> None:
    assert messages('(def data (io/read-file "x"))') == [
        "1:12: io/read-file: io/ is an effect namespace - use it in the trailing expression via eval"]
    assert messages('(leaf-llm "q")') == ["1:2: leaf-llm: leaf-llm is only available inside eval"]
    assert messages('(defn later [] (web/search "q"))\n(eval \'(io/write-file "y" (later)))') == []
    assert messages("(quine completion (eval (do (def x 1) '(io/read-file (str x)))))") == []


def test_the_quoted_trailing_expression_of_eval_is_checked_as_code() -> None:
    assert messages("(defn add [a b] (+ a b))\n(eval '(do (add 1 2 3) (nope)))") == [
        "2:12: Wrong number of args to add: expected 2, got 3", "2:25: Unbound symbol: nope"]


def test_user_macro_arguments_are_left_to_the_macro() -> None:
    program = "(defmacro defconst [n v] (list 'def n v))\n(defconst k 9)\n(inc k)\n(defconst j (whatever))"
    assert messages(program) == []


def test_malformed_special_forms_are_reported() -> None:
    assert messages("(let [x] 1)\n(def)\n(when)") == ["2:1: Too few arguments to def",
                                                   "3:1: Wrong number of args (0) passed to: when"]


def test_spell_test_files_may_use_the_test_names() -> None:
    program = ('(defn f [x] x)\n(deftest f-works\n  (testing "f" (is (= 1 (f 1 2))) (is (thrown? (f) (g))))\n'
               '  (spell-test/run {:prompt "p" :responses []}) (nope))')
    assert messages(program) == ["3:25: Wrong number of args to f: expected 1, got 2", "4:49: Unbound symbol: nope"]
    assert messages("(is true)") == ["1:2: Unbound symbol: is"]
