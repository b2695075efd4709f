"""The fused stages and consumers beyond ``map``/``filter``/``remove`` under ``reduce``/``into``
(issue 13 item 4: ``emit.pipelines``): ``keep``, ``keep-indexed``, ``map-indexed`` and ``mapcat``
stages; ``some``, ``every?`` and ``group-by`` consuming a chain (or a collection, with a literal
function); and ``reduce-kv`` with a literal function.

Each case must agree with the eager path, optimisations on and off, in value, error message, env,
``:expr``, trace and position: failures in every stage and in the consumer, a failure *after*
the element ``some``/``every?`` stops at (the eager stages have run over every element by then),
nil, ``false`` and the index, empty inputs, maps/strings/sets/nil as collections, and functions
the fusion must leave alone (a body that calls something, ``recur``, ``reduced``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optimise_programs import agree, static_core_names

import spellc
from spellc.compiler import python_source

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)


@pytest.fixture(autouse=True)
def core_static() -> Iterator[None]:
    yield from static_core_names("reduce", "reduce-kv", "map", "filter", "remove", "keep", "keep-indexed",
                                 "map-indexed", "mapcat", "some", "every?", "into", "+", "*", "inc", "even?",
                                 "odd?", "range", "nil?", "str", "count", "-", "vector", "first", "vec", "group-by", "mod")


def fused(text: str) -> bool:
    source = python_source(spellc.read_string(text))
    return "_pipe_items" in source or "_kv_pairs" in source


@pytest.mark.parametrize(("text", "is_fused"), [
    ("(reduce + (keep (fn [x] (if (odd? x) x)) [1 2 3]))", True),
    ("(keep (fn [x] (if (odd? x) x)) [1 2 3])", True),
    ("(map-indexed (fn [i x] (+ i x)) [1 2])", True),
    ("(map-indexed vector (map (fn [x] (inc x)) [1 2]))", True),  # a pure builtin of two arguments
    ("(keep-indexed (fn [i x] (if (odd? i) x)) [1 2])", True),
    ("(mapcat (fn [x] [x x]) [1 2])", True),
    ("(reduce + (mapcat (fn [x] [x x]) (filter odd? [1 2 3])))", True),
    ("(some (fn [x] (> x 1)) [1 2])", True),  # a literal predicate alone
    ("(every? (fn [x] (> x 1)) [1 2])", True),
    ("(some even? (map (fn [x] (inc x)) [1 2]))", True),
    ("(some even? [1 2])", False),  # nothing inline to gain
    ("(some even? (map inc [1 2]))", False),  # builtins only
    ("(group-by (fn [x] (mod x 3)) [1 2])", True),  # a literal key function alone
    ("(group-by odd? (keep (fn [x] x) [1 2]))", True),
    ("(group-by odd? [1 2])", False),
    ("(reduce-kv (fn [a k v] (+ a v)) 0 {:a 1})", True),
    ("(reduce-kv (fn [a k v] (if (> v 1) (reduced a) (+ a v))) 0 {:a 1})", False),  # may stop early
    ("(reduce-kv (fn [a k v] (f a v)) 0 {:a 1})", False),  # calls something
    ("(some (fn [x] (loop [i x] (if (> i 0) (recur (dec i)) i))) [1 2])", False),  # recur
    ("(map (fn [x] (gensym)) [1 2])", False),  # an effect
    ("(map (fn [x y] (+ x y)) [1 2] [3 4])", False),  # language.md §14.7: map takes one collection
])
def test_which_pipelines_are_fused(text: str, is_fused: bool) -> None:
    assert fused(text) == is_fused


@pytest.mark.parametrize("text", [
    # keep / keep-indexed: nil drops, false stays; the index counts the stage's input
    "(keep (fn [x] (if (odd? x) x)) (range 7))",
    "(keep (fn [x] (if (nil? x) false x)) [1 nil 2])",
    "(reduce + (keep (fn [x] (if (even? x) (* x x))) (map (fn [x] (inc x)) (range 9))))",
    "(keep-indexed (fn [i x] (if (odd? i) [i x])) \"abcde\")",
    "(keep-indexed (fn [i x] (if (> x 1) i)) (filter (fn [x] (pos? x)) [0 1 2 -1 3]))",
    "(into [:z] (keep (fn [x] (if (odd? x) (inc x))) [1 2 3]))",
    "(keep (fn [x] (inc x)) [1 nil])",
    "(keep (fn [x] (inc x)) [1 %d])" % LONG_MAX,
    # map-indexed
    "(map-indexed (fn [i x] (+ i x)) [10 20 30])",
    "(map-indexed (fn [i x] [i x]) {:a 1 :b 2})",
    "(map-indexed (fn [i x] (* i x)) (filter (fn [x] (odd? x)) (range 9)))",
    "(reduce + (map-indexed (fn [i x] (+ i x)) (keep-indexed (fn [i x] (if (even? i) x)) (range 10))))",
    "(map-indexed vector (map (fn [x] (inc x)) #{1 2}))",
    "(map-indexed (fn [i x] (+ i x)) [%d 0])" % LONG_MAX,  # overflows at the second element
    "(map-indexed (fn [i x] (inc x)) nil)",
    # mapcat: each result's elements, in order; a result that is not seqable fails as the eager one
    "(mapcat (fn [x] [x (* 2 x)]) (range 4))",
    "(mapcat (fn [x] (if (odd? x) [x] [])) (range 6))",
    "(mapcat (fn [x] x) [[1 2] nil \"ab\" {:a 1} #{3}])",
    "(mapcat (fn [x] x) [[1] 2])",
    "(reduce + (filter (fn [y] (> y 2)) (mapcat (fn [x] [x (* 2 x)]) [1 2 3])))",
    "(reduce + (mapcat (fn [x] [x (inc x)]) (mapcat (fn [x] [x x]) [1 2])))",
    "(reduce + (map (fn [y] (inc y)) (mapcat (fn [x] [x %d]) [1])))" % LONG_MAX,
    "(into #{} (mapcat (fn [x] [x x]) [1 2]))",
    "(count (mapcat (fn [x] [x]) (range 50)))",
    "(first (mapcat (fn [x] [x (inc x)]) [1 nil]))",  # the eager stage fails before first sees it
    "(vec (keep (fn [x] (if x x)) [1 false nil 2]))",
    # some / every?: the predicate's value, stopping at the answer; after stages, every element
    # still goes through them (a failure after the answer is the eager path's failure)
    "(some (fn [x] (if (> x 2) (* x 10))) [1 2 3 4])",
    "(some (fn [x] (> x 20)) [1 2 3])",
    "(some (fn [x] x) [nil false])",
    "(some (fn [x] false) [1])",
    "(some (fn [x] (if (> x 1) x)) [1 2 nil])",  # stops before nil: no failure, as eager some
    "(some (fn [x] (> x 1)) [1 nil 2])",  # fails at nil first
    "(some (fn [x] (> x 1)) (map (fn [x] (inc x)) [1 2 nil]))",  # the map fails at nil
    "(some (fn [x] (> x 1)) (filter (fn [x] (< x 5)) [1 2 nil]))",
    "(some even? (map (fn [x] (* x 3)) [1 2 3]))",
    "(some (fn [e] (if (= (first e) :b) (second e))) {:a 1 :b 2})",
    "(some (fn [c] (if (= c \\b) c)) \"abc\")",
    "(some (fn [x] (inc x)) nil)",
    "(some (fn [x] (even? x)) #{1 3 4})",
    "(some (fn [x] x) 5)",
    "(every? (fn [x] (< x 3)) [1 2 3 4])",
    "(every? (fn [x] (< x 3)) [1 2])",
    "(every? (fn [x] (< x 3)) [])",
    "(every? (fn [x] (< x 3)) nil)",
    "(every? (fn [x] (< x 3)) [5 nil])",  # stops at 5
    "(every? (fn [x] (< x 3)) [1 nil])",
    "(every? (fn [x] (< x 3)) (map (fn [x] (inc x)) [5 nil]))",  # the map fails at nil
    "(every? odd? (keep (fn [x] (if (pos? x) x)) [1 -2 3]))",
    "(every? (fn [x] x) [1 false])",
    # group-by: keys by Spell equality, each key's first spelling, groups in order of first occurrence
    "(group-by (fn [x] (mod x 3)) (range 10))",
    "(group-by (fn [x] x) [1 1.0 1N [1] (list 1) nil false nil])",
    "(group-by (fn [x] (count x)) [\"a\" \"bb\" \"c\" \"\"])",
    "(group-by (fn [e] (second e)) {:a 1 :b 2 :c 1})",
    "(group-by (fn [x] (inc x)) [1 nil])",
    "(group-by (fn [x] (inc x)) nil)",
    "(group-by (fn [x] (inc x)) 7)",
    "(group-by odd? (map (fn [x] (* x 3)) [1 2 3]))",
    "(group-by (fn [x] (< x 3)) (mapcat (fn [x] [x (inc x)]) [1 2 3]))",
    "(group-by (fn [x] (> x 0)) (map (fn [x] (inc x)) [1 %d]))" % LONG_MAX,
    # reduce-kv over maps, vectors (index as key), nil; other collections fail as the eager one
    "(reduce-kv (fn [a k v] (+ a v)) 0 {:a 1 :b 2})",
    "(reduce-kv (fn [a k v] (assoc a v k)) {} {:a 1 :b 2})",
    "(reduce-kv (fn [a k v] (conj a k)) [] {:a 1 :b 2})",
    "(reduce-kv (fn [a k v] (+ a k v)) 0 [5 6 7])",
    "(reduce-kv (fn [a k v] (+ a v)) 0 nil)",
    "(reduce-kv (fn [a k v] (+ a v)) 0 #{1})",
    "(reduce-kv (fn [a k v] (+ a v)) 0 '(1 2))",
    "(reduce-kv (fn [a k v] (+ a v)) 0 \"ab\")",
    "(reduce-kv (fn [a k v] (+ a v)) 0 {:a 1 :b nil})",
    "(reduce-kv (fn [a k v] (+ a v)) %d {:a 1})" % LONG_MAX,
    "(reduce-kv (fn [a k v] (+ a v)) 0 (vec (range 100)))",
    "(reduce-kv (fn [a k v] (+ a v)) 0 (subvec [1 2 3] 1))",
    "(reduce-kv (fn [a k v] (if (> v 1) (reduced a) (+ a v))) 0 {:a 1 :b 2 :c 3})",
    # closures, shadowing and loops around the functions
    "(let [k 3] (keep (fn [x] (if (> x k) x)) (range 6)))",
    "(let [x 100] (map-indexed (fn [i x] (+ i x)) [1 2]))",
    "(defn f [n] (reduce-kv (fn [a k v] (+ a (* n v))) 0 {:a 1 :b 2})) (f 3)",
    "(defn f [n] (some (fn [x] (if (> x n) x)) (mapcat (fn [x] [x (* x n)]) (range 5)))) (f 3)",
    "(loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (some (fn [x] (if (> x i) x)) [0 1 2 3]))) acc))",
    # free names read dynamically: a def, and a let of the caller's caller (functions are not closures)
    "(def k 2) (keep (fn [x] (if (> x k) x)) [1 5])",
    "(defn f [] (keep (fn [x] (if (> x k) x)) [1 5])) (let [k 2] (f))",
    "(defn f [] (some (fn [x] (if (> x k) x)) [1 5])) (f)",  # k unbound: the eager error
    "(defn g [k] (reduce-kv (fn [a i v] (+ a (* k v))) 0 [1 2])) (g 10)",
    # loop variables (Python locals, typed long) read by the inline bodies
    "(loop [i 0 acc []] (if (< i 3) (recur (inc i) (into acc (keep (fn [x] (if (> x i) (+ x i))) [0 1 2]))) acc))",
    "(loop [i 0 n 0] (if (< i 4) (recur (inc i) (+ n (count (mapcat (fn [x] [x i]) (range i))))) n))",
    "(loop [i %d acc []] (if (< i %d) (recur (inc i) (conj acc (every? (fn [x] (< x i)) [0 1]))) acc))" % (
        LONG_MAX - 2, LONG_MAX),
    # reduced in a reduce over a fused chain: the reduce is not inlined, the chain still fuses
    "(reduce (fn [a x] (if (> a 3) (reduced a) (+ a x))) 0 (keep (fn [x] x) [1 nil 2 3 4]))",
    # functions the fusion leaves alone still agree
    "(map (fn [x y] (+ x y)) [1 2] [3 4])",
    "(some (fn [x] (loop [i x] (if (> i 0) (recur (dec i)) i))) [1 2])",
    "(reduce-kv (fn [a k v] (+ a v)) 0)",
    "(some (fn [x] x))",
    "(keep (fn [x y] x) [1])",  # the function's own arity error
    "(map-indexed (fn [x] x) [1])",
])
def test_fused_stages_agree_both_ways(text: str) -> None:
    agree("(do %s)" % text)


def test_values_are_right() -> None:
    assert agree("(keep-indexed (fn [i x] (if (odd? i) x)) [:a :b :c :d])") == ("ok", "[:b :d]")
    assert agree("(reduce + (mapcat (fn [x] [x x]) (map-indexed (fn [i x] (* i x)) [5 6 7])))") == ("ok", "40")
    assert agree("(some (fn [x] (if (> x 1) (* 10 x))) (mapcat (fn [x] [x x]) [1 2 3]))") == ("ok", "20")
    assert agree("(reduce-kv (fn [a k v] (+ a k v)) 0 [5 6 7])") == ("ok", "21")
    on = agree("(some (fn [x] (> x 0)) (map (fn [x] (inc x)) [1 %d]))" % LONG_MAX)
    assert on[0] == "err" and "overflow" in on[1] and on[2].startswith("(map ")  # the stage's own call form


edges = st.sampled_from([0, 1, -1, 3, LONG_MAX, LONG_MIN, 2**62, -(2**62)])
items = st.one_of(edges.map(str), st.sampled_from(["nil", "false", "1.5", ":k", "\"s\"", "[1 2]", "[]"]))
one_arg = st.sampled_from(["(fn [x] (inc x))", "(fn [x] (* x 2))", "(fn [x] (if (nil? x) 0 x))",
                           "(fn [x] (if (odd? x) x))", "(fn [x] x)", "(fn [x] (< x big))", "inc", "nil?"])
two_arg = st.sampled_from(["(fn [i x] (+ i x))", "(fn [i x] (if (odd? i) x))", "(fn [i x] [i x])", "vector",
                           "(fn [i x] (- x big))"])
spread = st.sampled_from(["(fn [x] [x x])", "(fn [x] (if (odd? x) [x] []))", "(fn [x] x)", "(fn [x] [x big])"])
stage_kinds = st.lists(st.sampled_from(["map", "filter", "keep", "map-indexed", "keep-indexed", "mapcat"]),
                       min_size=1, max_size=3)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(items, max_size=5), stage_kinds, st.sampled_from(["(fn [x] (< big x))", "(fn [x] x)",
                                                                  "(fn [x] (odd? x))", "nil?"]),
       edges, st.data())
def test_generated_chains_agree(elems: list[str], kinds: list[str], pred: str, big: int, data: Any) -> None:
    coll = "[%s]" % " ".join(elems)
    for kind in kinds:
        fn = data.draw(two_arg if "indexed" in kind else spread if kind == "mapcat" else one_arg)
        coll = "(%s %s %s)" % (kind, fn, coll)
    for consumer in ("%s", "(reduce + %s)", "(into [] %s)", "(some %s %%s)" % pred, "(every? %s %%s)" % pred,
                     "(group-by %s %%s)" % pred):
        agree("(let [big %d] %s)" % (big, consumer % coll))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from([":a", ":b", "0", "1", "\"k\""]), items), max_size=4), edges,
       st.sampled_from(["(fn [a k v] (+ a v))", "(fn [a k v] (conj a [k v]))", "(fn [a k v] (assoc a v k))",
                        "(fn [a k v] (- a big))"]),
       st.sampled_from(["0", "[]", "{}", "nil"]))
def test_generated_reduce_kv_agrees(entries: list[tuple[str, str]], big: int, f: str, init: str) -> None:
    m = "{%s}" % " ".join("%s %s" % kv for kv in dict(entries).items())
    agree("(let [big %d] (reduce-kv %s %s %s))" % (big, f, init, m))
    agree("(let [big %d] (reduce-kv %s %s [%s]))" % (big, f, init, " ".join(v for _, v in entries)))


@pytest.mark.parametrize("text", [
    "(some (fn [x] (> x 1)) (mapcat (fn [x] [x x]) (mapcat (fn [x] [x]) (keep (fn [x] x) [1 2]))))",
    "(group-by (fn [x] x) (mapcat (fn [x] (vector x)) (map-indexed (fn [i x] i) [1 2])))",
])
def test_deep_in_nested_blocks_the_pipeline_stays_unfused_and_compiles(text: str) -> None:
    for depth in (0, *range(12, 26)):  # each let + try opens blocks; CPython refuses more than 20 nested
        nested = text
        for i in range(depth):
            nested = "(let [a%d %d] (try %s))" % (i, i, nested)
        assert agree(nested)[0] == "ok"
