"""``map``/``filter``/``remove`` pipelines (under ``reduce``, ``into`` or as a value) fused into one loop (issue 13 item 4:
``emit.pipelines``), with the switch on and off.

Each case must agree with the eager path in value, error message, env, ``:expr``, trace and
position: failures in any stage (a predicate on nil, an overflow in the map function or in the
fold near ±2⁶³), empty and one-element inputs, maps/strings/nil as collections, and the
closures and shadowed names a stage's literal function may read."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optimise_programs import agree, outcome, static_core_names
from spell_runtime import gensym

import spellc
from spellc.compiler import optimisations, python_source

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)


@pytest.fixture(autouse=True)
def core_static() -> Iterator[None]:
    yield from static_core_names("reduce", "map", "filter", "remove", "+", "*", "inc", "even?", "odd?",
                                        "range", "nil?", "str", "count", "-")



def fused(text: str) -> bool:
    return "_pipe_items" in python_source(spellc.read_string(text))


@pytest.mark.parametrize(("text", "is_fused"), [
    ("(reduce + (map (fn [x] (* x x)) (filter even? (range 10))))", True),
    ("(reduce (fn [a x] (+ a x)) 0 (remove odd? [1 2 3 4]))", True),  # a literal fold
    ("(reduce + (filter even? (map inc (range 10))))", False),  # builtins only: core.bulk's paths
    ("(reduce + (map (fn [x] (println x) x) [1 2]))", False),  # the body calls something
    ("(reduce + (map (fn [x] (f x)) [1 2]))", False),
    ("(reduce str (map (fn [x] (inc x)) [1 2]))", True),  # str is no fold we inline: the map alone fuses
    ("(let [m [1 2]] (reduce + m))", False),  # no stage
    ("(map (fn [x] (inc x)) [1 2])", True),  # a chain whose vector is the value
    ("(filter even? (map (fn [x] (inc x)) [1 2]))", True),
    ("(into [] (map (fn [x] (inc x)) [1 2]))", True),
    ("(into [] (map inc [1 2]))", False),
])
def test_which_pipelines_are_fused(text: str, is_fused: bool) -> None:
    assert fused(text) == is_fused


@pytest.mark.parametrize("text", [
    "(reduce + (map (fn [x] (* x x)) (filter even? (range 10))))",
    "(reduce + 100 (map (fn [x] (* x 3)) (remove (fn [x] (< x 3)) (range 8))))",
    "(reduce (fn [a x] (conj a (inc x))) [] (filter (fn [x] (odd? x)) (range 7)))",
    "(reduce (fn [a x] (assoc a x (* x x))) {} (map (fn [x] (- x 1)) [1 2 3]))",
    "(reduce * (map (fn [x] (inc x)) [1 2 3 4]))",
    # failures in each place, with the exact message, env, :expr and position
    "(reduce + (map (fn [x] (* x x)) (filter even? [1 nil 2])))",
    "(reduce + (map (fn [x] (inc x)) [1 %d]))" % LONG_MAX,
    "(reduce + (map (fn [x] (- x 1)) [%d]))" % LONG_MIN,
    "(reduce + (map (fn [x] x) [%d 1 -1]))" % LONG_MAX,  # the fold overflows on the way
    "(reduce + %d (map (fn [x] (dec x)) [0 1]))" % LONG_MIN,
    "(reduce + (map (fn [x] (+ x :k)) [1]))",
    "(reduce + (filter (fn [x] (< x nil)) [1 2]))",
    "(reduce + (map (fn [x] (* x 2)) 5))",  # not seqable
    # empty, one element, everything filtered out
    "(reduce + (map (fn [x] (inc x)) []))",
    "(reduce + 7 (map (fn [x] (inc x)) []))",
    "(reduce + (map (fn [x] (inc x)) [41]))",
    "(reduce + (filter (fn [x] (> x 10)) [1 2 3]))",
    "(reduce + 0 (filter (fn [x] (> x 10)) [1 2 3]))",
    # other collections
    "(reduce + (map (fn [e] (second e)) {:a 1 :b 2}))",
    "(reduce + (map (fn [c] (count (str c))) \"abc\"))",
    "(reduce + 0 (map (fn [x] (inc x)) nil))",
    "(reduce + (map (fn [x] (inc x)) #{1 2 3}))",
    "(reduce + (map (fn [x] (inc x)) '(1 2 3)))",
    # values the functions read from around them, and names they shadow
    "(let [k 10] (reduce + (map (fn [x] (* x k)) (filter (fn [k] (odd? k)) (range 5)))))",
    "(loop [i 0 acc 0] (if (< i 3) (recur (inc i) (+ acc (reduce + (map (fn [x] (+ x i)) [1 2])))) acc))",
    "(defn f [n] (reduce + (map (fn [x] (* x n)) (filter (fn [x] (< x n)) (range 10))))) (f 4)",
    "(reduce + (map (fn [x] (* x 2)) (map (fn [y] (inc y)) (filter (fn [x] (even? x)) (range 6)))))",
    # chains whose vector is the value, and into
    "(map (fn [x] (* x x)) (filter even? (range 10)))",
    "(filter (fn [x] (odd? x)) (map inc [1 2 3]))",
    "(remove (fn [x] (odd? x)) [])",
    "(map (fn [x] (inc x)) [1 nil])",
    "(map (fn [x] (inc x)) %d)" % LONG_MAX,
    "(into [:a] (map (fn [x] (* x x)) (filter even? (range 10))))",
    "(into {} (map (fn [x] [x (inc x)]) [1 2]))",
    "(into {} (map (fn [x] x) [1 2]))",  # into fails: the eager path reports it
    "(into #{} (map (fn [x] (inc x)) [1 1 2]))",
    "(into nil (map (fn [x] (inc x)) [1 2]))",
    "(into (list 0) (map (fn [x] (inc x)) [1 2]))",
    "(into [] (map (fn [x] (inc x)) [1 %d]))" % LONG_MAX,
    "(count (map (fn [x] (inc x)) (range 100)))",
    # a filter's truthiness: nil and false drop, everything else keeps
    "(reduce + (map (fn [x] (if x 1 0)) (filter (fn [x] x) [nil false 0 \"\" [] 2])))",
    "(reduce + (map (fn [x] 1) (remove (fn [x] x) [nil false 0 \"\" [] 2])))",
])
def test_fused_pipelines_agree_both_ways(text: str) -> None:
    agree("(do %s)" % text)


def test_values_are_right() -> None:
    assert agree("(reduce + (map (fn [x] (* x x)) (filter even? (range 10))))") == ("ok", "120")
    on = agree("(reduce + (map (fn [x] (inc x)) [1 %d]))" % LONG_MAX)
    assert on[0] == "err" and "overflow" in on[1] and on[2].startswith("(map ")  # the stage's own call form


edges = st.sampled_from([0, 1, -1, 3, LONG_MAX, LONG_MIN, LONG_MAX - 1, LONG_MIN + 1, 2**62, -(2**62)])
items = st.one_of(edges.map(str), st.sampled_from(["nil", "1.5", ":k", "true", "\"s\"", "[1]"]))
maps = st.sampled_from(["(fn [x] (inc x))", "(fn [x] (* x 2))", "(fn [x] (- x big))", "(fn [x] (+ x big))",
                        "(fn [x] (if (nil? x) 0 x))", "inc", "(fn [x] x)"])
preds = st.sampled_from(["(fn [x] (< x big))", "(fn [x] (odd? x))", "(fn [x] (nil? x))", "even?", "nil?",
                         "(fn [x] x)"])
stages = st.lists(st.tuples(st.sampled_from(["map", "filter", "remove"]), st.integers(0, 99)), min_size=1,
                  max_size=3)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(items, max_size=5), stages, st.sampled_from(["+", "*", "(fn [a x] (+ a x))",
                                                             "(fn [a x] (conj a x))"]),
       st.one_of(st.none(), edges.map(str), st.just("[]")), edges, st.data())
def test_generated_pipelines_agree(elems: list[str], chain: list[tuple[str, int]], fold: str, init: Any,
                                   big: int, data: Any) -> None:
    coll = "[%s]" % " ".join(elems)
    for kind, _ in chain:
        fn = data.draw(maps if kind == "map" else preds)
        coll = "(%s %s %s)" % (kind, fn, coll)
    text = "(let [big %d] (reduce %s %s%s))" % (big, fold, "" if init is None else init + " ", coll)
    agree(text)
    agree("(let [big %d] %s)" % (big, coll))  # the chain's own vector
    agree("(let [big %d] (into %s %s))" % (big, "[]" if init is None else "[%s]" % init, coll))


def test_deep_in_nested_blocks_the_pipeline_stays_unfused_and_compiles() -> None:
    text = "(map (fn [x] (inc x)) [1 2])"
    for i in range(25):  # each let + try opens blocks; CPython refuses more than 20 nested
        text = "(let [a%d %d] (try %s))" % (i, i, text)
    assert agree(text) == ("ok", "[2 3]")


@pytest.mark.parametrize("text", [
    "(reduce + (map (fn [x] (gensym) (inc x)) [1 2 nil]))",
    "(reduce (fn [a x] (gensym) (+ a x)) 0 [1 2 nil])",  # fastpaths' inline reduce shares the test
])
def test_a_body_with_an_effect_is_not_run_twice(text: str) -> None:
    """A failure re-runs the eager path from the start: a body calling ``gensym`` (its counter) or
    ``rand-int`` would be seen to run twice, so such bodies are never run inline."""
    assert "_pipe_items" not in python_source(spellc.read_string(text))
    assert "_reduce_items" not in python_source(spellc.read_string(text))
    for on in (True, False):
        gensym._counter = itertools.count(1)  # the process-wide counter, as in a fresh process
        with optimisations(on):
            assert outcome("(do (try %s (catch e nil)) (gensym))" % text) == ("ok", "G__4"), on  # 3 + this one
