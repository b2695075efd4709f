"""The recur-request test on a fn body's returned value (``emit/scopes.py`` ``deliver``, Q17) is left
out when the value is a call of a builtin that never returns a map (``ir.NEVER_MAP_BUILTINS``)."""

from __future__ import annotations

import pytest

import spellc
from spellc.compiler import python_source
from spellc.reader import read_all


def body_checks_recur(src: str) -> bool:
    return "_MAYBE_RECUR" in python_source(read_all(src)[0])


@pytest.mark.parametrize("src", ["(fn [x] (str x 1))", "(fn [x] (/ x 2))", "(fn [xs] (map inc xs))",
                                 "(fn [xs] (vec xs))"])
def test_never_map_builtin_tail_is_returned_as_is(src: str) -> None:
    assert not body_checks_recur(src)


@pytest.mark.parametrize("src", ["(fn [x] (get x :a))", "(fn [f] (map f))", "(fn [x] (first x))"])
def test_maybe_map_tail_keeps_the_check(src: str) -> None:
    assert body_checks_recur(src)


def test_recur_request_from_a_kept_check_still_reenters() -> None:
    # the request arrives as a value from (first ...), which keeps the check
    src = "(defn f [n] (if (< n 3) (first [(recur (inc n))]) (str n))) (f 0)"
    assert str(spellc.pr_str(spellc.eval_string(src))) == '"3"'


@pytest.mark.parametrize("src", ["(fn [x] {:a x})", "(fn [x] {:spell/fn x :recur 1})", "(fn [x] {})"])
def test_map_literal_without_a_recur_key_is_returned_as_is(src: str) -> None:
    """A map literal's keys are constants (Q10): without :spell/recur it is never a request (Q17);
    a constant map is checked when compiled."""
    assert not body_checks_recur(src)


def test_map_literal_with_a_recur_key_keeps_the_check() -> None:
    assert body_checks_recur("(fn [x] {:spell/recur x :vals [1]})")
    assert body_checks_recur("(fn [x] {:spell/recur true :vals [1]})")  # a constant request
    src = "(defn f [n] (if (< n 3) {:spell/recur true :vals [(inc n)]} {:n n})) (f 0)"
    assert str(spellc.pr_str(spellc.eval_string(src))) == "{:n 3}"


def test_a_loop_value_is_returned_as_is() -> None:
    """A request reaching a loop body's tail re-binds the loop (the loop tests it), so the value a
    loop leaves with is never one: the fn returning it does not test it again."""
    src = "(fn [xs] (loop [i 0] (if (< i 3) (recur (inc i)) (first xs))))"
    code = python_source(read_all(src)[0])
    assert "_recur_of(" in code and "_recur_here(" not in code
    request = "{:spell/recur true :vals [(+ i 10)]}"
    text = "(defn f [xs] (loop [i 0] (if (< i 3) (recur (inc i)) (if (< i 5) (first [%s]) [i xs])))) (f 1)" % request
    assert str(spellc.pr_str(spellc.eval_string(text))) == "[13 1]"
