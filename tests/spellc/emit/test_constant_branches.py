"""An ``if`` whose test is a constant (``cond``'s ``:else`` clause is ``(if :else x nil)``) is emitted
as the branch it always takes (``emit/scopes.py`` ``_constant_branch``): no truth test, no dead
branch, the same values."""

from __future__ import annotations

import pytest

import spellc
from spellc.compiler import python_source
from spellc.reader import read_all


def emitted(src: str) -> str:
    return python_source(read_all(src)[0])


@pytest.mark.parametrize("src,expected", [
    ("(let [f (fn [x] (cond (> x 1) :big :else :small))] [(f 0) (f 5)])", "[:small :big]"),
    ("[(if nil 1 2) (if false 1 2) (if 0 1 2) (if \"\" 1 2) (if '() 1 2) (if :k 1 2)]", "[2 2 1 1 1 1]"),
    ("(let [v (if true (inc 1) (throw \"never\"))] v)", "2"),
    ("((fn [] (if false (recur) 5)))", "5"),
])
def test_constant_tests_take_their_branch(src: str, expected: str) -> None:
    assert str(spellc.pr_str(spellc.eval_string(src))) == expected


def test_no_truth_test_or_dead_branch_is_emitted() -> None:
    code = emitted("(fn [x] (cond (> x 1) :big :else :small))")
    assert "is not False" not in code and "return None" not in code
    assert "is not False" not in emitted("(fn [x] (if nil (x) (str x)))")
    assert "_miss" not in emitted("(fn [x] (if false (undefined-thing x) x))")


def test_a_failure_in_the_taken_branch_keeps_its_position() -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string("(defn f [x]\n  (cond (> x 1) :big\n        :else (/ x 0)))\n(f 0)", "<t>")
    assert info.value.position == (3, 14, 3, 21)  # (line, col, end line, end col) of (/ x 0), as before
    assert info.value.message == "Function call failed: /: Divide by zero"
