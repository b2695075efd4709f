"""Published parameters and loop vectors kept as lists, case by case (issue 13 items 1 and 3).

Each case runs with optimisations on and off and must agree; the checks on the generated code
make sure the optimisation is really the one exercised."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from optimise_programs import agree, static_core_names

import spellc
from spellc.compiler import python_source


@pytest.fixture(autouse=True)
def operators_static() -> Iterator[None]:
    yield from static_core_names("+", "-", "<", "inc", "conj", "vec", "range")



def test_recursion_calls_its_own_body_directly() -> None:
    src = python_source(spellc.read_string("(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))"))
    assert "_fn1(D, " in src and "_apply_pub" in src and "D.get(" not in src  # nothing saved, nothing published
    assert agree("(do (defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 15))") == ("ok", "610")


def test_a_callee_sees_the_published_parameter() -> None:
    assert agree("(do (defn inner [] (* base 2)) (defn outer [base] (inner)) (outer 21))") == ("ok", "42")


def test_a_failing_callee_that_rebinds_the_name_keeps_its_own_value_in_the_env() -> None:
    text = ("(do (defn inner [x] (do (try 1) (+ x :k)))"  # not private: binds x in D
            "    (defn outer [x] (inner (inc x)))"
            "    (outer 1))")
    on = agree(text)
    assert on[0] == "err" and ("x", "2") in on[4]


def test_a_failure_in_the_callers_own_code_shows_the_callers_parameter() -> None:
    on = agree("(do (defn f [] 1) (defn outer [x] (f) (+ x nil)) (outer 5))")
    assert on[0] == "err" and ("x", "5") in on[4]


def test_a_macro_that_defs_a_parameter_name() -> None:
    text = ("(do (defmacro set-x [v] (list 'def 'x v))"
            "    (defn peek [] x)"
            "    (defn f [x] (set-x (inc x)) [x (peek)])"
            "    [(f 1) (try x (catch e :unbound))])")
    assert agree(text) == ("ok", "[[2 2] :unbound]")


def test_eval_of_a_parameter_name() -> None:
    assert agree("(do (defn f [n] (eval 'n)) (f 7))") == ("ok", "7")


def test_recur_in_a_published_body() -> None:
    text = "(do (defn g [] k) (defn f [k acc] (if (< k 1) acc (recur (dec k) (conj acc (g))))) (f 3 []))"
    assert agree(text) == ("ok", "[3 2 1]")


def test_the_loop_vector_is_a_list_and_leaves_as_a_vector() -> None:
    form = "(loop [i 0 v []] (if (< i 5) (recur (inc i) (conj v i)) v))"
    src = python_source(spellc.read_string(form))
    assert ".tolist()" in src and "_vec_longs(" in src  # frozen with its elements' facts (analyze.elements)
    assert agree(form) == ("ok", "[0 1 2 3 4]")


def test_a_failure_after_the_conj_argument_shows_the_old_vector() -> None:
    # (conj v i) is evaluated before (+ i big) overflows: the env must not show the new element
    text = ("(let [big 4611686018427387904]"
            "  (loop [v [] i 0 n 0] (if (< n 5) (recur (conj v n) (+ i big) (inc n)) v)))")
    assert ".tolist()" in python_source(spellc.read_string(text))  # the list path
    on = agree(text)
    assert on[0] == "err" and ("v", "[0]") in on[4] and ("n", "1") in on[4]


def test_a_vector_read_elsewhere_stays_persistent() -> None:
    form = "(loop [i 0 v []] (if (< i 3) (recur (inc i) (conj v (count v))) v))"
    assert ".tolist()" not in python_source(spellc.read_string(form))
    assert agree(form) == ("ok", "[0 1 2]")


def test_a_shared_initial_vector_is_not_changed() -> None:
    text = "(let [base [1 2]] [(loop [i 0 v base] (if (< i 2) (recur (inc i) (conj v i)) v)) base])"
    assert agree(text) == ("ok", "[[1 2 0 1] [1 2]]")


@pytest.mark.parametrize("text, value", [
    ("(reduce (fn [m k] (assoc m k 1)) {} [:a :b :a])", "{:a 1, :b 1}"),
    ("(reduce (fn [m k] (assoc m k (count m))) {:z 0} [:a :b])", None),  # acc read again: no transient
    ("(reduce (fn [v i] (assoc v i (* i i))) [] [0 1 2])", "[0 1 4]"),
    ("(reduce (fn [a x] (+ a x)) 0 (range 10))", "45"),
    ("(reduce (fn [a x] (+ a x)) 0 nil)", "0"),
    ("(reduce (fn [a [k v]] (+ a v)) 0 {:a 1 :b 2})", "3"),
    ("(reduce (fn [a x] (conj a (inc x))) [] [1 2])", "[2 3]"),
    ("(let [base {:a 0}] [(reduce (fn [m k] (assoc m k 1)) base [:b]) base])", "[{:a 0, :b 1} {:a 0}]"),
])
def test_inline_reduce_values(text: str, value: Any) -> None:
    on = agree(text)
    if value is not None:
        assert on == ("ok", value)


@pytest.mark.parametrize("text", [
    "(reduce (fn [a x] (+ a x)) 0 [1 nil 2])",
    "(reduce (fn [a x] (+ a x)) 9223372036854775807 [0 1])",
    "(reduce (fn [m k] (assoc m k 1)) {} 5)",
    "(reduce (fn [m k] (assoc m k 1)) :not-a-map [:a])",
    "(do (defn f [] (reduce (fn [a x] (+ a (inc x))) 0 [1 :k])) (f))",
])
def test_inline_reduce_failures_are_the_generic_ones(text: str) -> None:
    assert "_reduce_items" in python_source(spellc.read_string(text))
    on = agree(text)
    assert on[0] == "err"


def _deep(body: str, levels: int = 40) -> str:
    for i in range(levels):  # deep enough that the emitter outlines part of the body (base._outline)
        body = "(let [a%d %d] (do (g a%d) %s))" % (i, i, i, body)
    return body


def test_published_parameters_reach_outlined_code() -> None:
    assert agree("(do (defn g [x] x) (defn f [n] %s) (f 5))" % _deep("(g n)")) == ("ok", "5")


def test_a_macro_in_outlined_code_that_defs_a_parameter_name() -> None:
    text = ("(do (defmacro set-n [v] (list 'def 'n v)) (defn peek [] n) (defn g [x] x)"
            "    (defn f [n] %s) [(f 5) (try n (catch e :unbound))])" % _deep("(do (set-n 7) [n (peek)])"))
    assert agree(text) == ("ok", "[[7 7] :unbound]")
