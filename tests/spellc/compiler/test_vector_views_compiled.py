"""Vector views reaching compiled code (issue 16 item 7; ``spell_runtime.data.vector``).

``pop``/``drop``/``drop-last``/``subvec`` of a vector return a ``VectorView``. The emitter's
inline fast paths (``count``/``first``/``nth``/``conj`` test ``type(v) is PVector``), typed and
transient loop vectors, the inlined ``reduce``, destructuring, ``case`` and map keys must treat
one exactly as the plain vector of the same elements. Each program below runs twice, with
``make`` returning a view and with it returning a plain vector (preludes padded to the same
length, so positions line up), with every optimisation on and off: the value, or the error's
message, expr, trace, env and position, must be the same all four ways.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spell_runtime.data import Symbol, VectorView
from spell_runtime.errors import SpellError
from spell_runtime.printer import pr_str

import spellc
from spellc.compiler import optimisations

_VIEW = "(defn make [n] (subvec (vec (range (+ n 40))) 40)) (defn plain [n] (vec (range 40 (+ n 40))))"
_PLAIN = "(defn make [n] (vec (range 40 (+ n 40)))) (defn plain [n] (vec (range 40 (+ n 40))))"
_WIDTH = max(len(_VIEW), len(_PLAIN))
VIEW_PRELUDE, PLAIN_PRELUDE = _VIEW.ljust(_WIDTH) + "\n", _PLAIN.ljust(_WIDTH) + "\n"

CASE_KEY = "[%s]" % " ".join(str(i) for i in range(40, 73))

PROGRAMS = [
    # the four loops of benchmarks/bench_seqs.py, returning what they walked
    "(loop [xs (make 100) acc []] (if (empty? xs) acc (recur (pop xs) (conj acc (peek xs)))))",
    "(loop [xs (make 100) s 0] (if (seq xs) (recur (drop 1 xs) (+ s (first xs))) s))",
    "(loop [xs (make 100) acc []] (if (empty? xs) acc (recur (drop-last xs) (conj acc (count xs)))))",
    "(loop [xs (make 100) acc []] (if (= 0 (count xs)) acc (recur (subvec xs 1) (conj acc (nth xs 0)))))",
    "(loop [xs (make 100) k 0] (if xs (recur (next xs) (inc k)) k))",
    # inline fast paths and the builtins behind them
    "(let [v (make 100)] [(count v) (first v) (nth v 3) (nth v 500 :nf) (conj v 1) (get v 2) (v 0) (peek v)])",
    "(let [v (pop (make 100))] [(= v (plain 99)) (= (plain 99) v) (= v (seq (plain 99))) (not= v (plain 98))])",
    "(let [v (make 100)] [(last v) (second v) (rest v) (next (subvec v 98)) (assoc v 1 :x) (contains? v 99)])",
    # a typed (transient) loop vector fed from a view, and a view of a typed loop vector
    "(loop [i 0 acc []] (if (< i 40) (recur (inc i) (conj acc i)) (subvec acc 1)))",
    "(loop [xs (drop 3 (make 100)) acc [] i 0] (if (< i 50) (recur (pop xs) (conj acc (peek xs)) (inc i)) [acc xs]))",
    # reduce: the bulk fast path, the inlined literal fn, and the generic path
    "[(reduce + (make 100)) (reduce + 0 (drop 2 (make 100))) (reduce max (subvec (make 100) 10 90))]",
    "(reduce (fn [a x] (+ a x)) 0 (pop (make 100)))",
    "(reduce (fn [acc x] (assoc acc x (inc x))) {} (drop-last 60 (make 100)))",
    "[(map inc (drop 1 (make 100))) (filter even? (pop (make 100))) (remove odd? (make 50))]",
    "[(into [] (make 60)) (vec (make 60)) (concat (make 40) [1]) (apply + (make 100)) (sort > (make 40))]",
    "(reduce-kv (fn [acc i x] (+ acc (* i x))) 0 (make 50))",
    # destructuring, vector calls, case, map/set keys, printing
    "(let [[a b & more :as all] (make 100)] [a b (count more) (count all) (first more)])",
    "((fn [[x y] z] [x y z]) (subvec (make 100) 5) 1)",
    "((make 100) 5)",
    "(case (subvec (make 100) 0 33) %s :found :missing)" % CASE_KEY,
    "[(get {(plain 100) :found} (make 100)) (contains? #{(make 100)} (plain 100)) (get {(make 50) 1} (plain 50))]",
    "[(frequencies [(make 40) (plain 40)]) (count (distinct [(make 40) (plain 40)])) (count (set [(make 40) (plain 40)]))]",
    "[(str (make 40)) (pr-str (make 40)) (type (make 40)) (vector? (make 40)) (coll? (make 40)) {:a (make 40)}]",
    "(compare (make 40) (pop (make 41)))",
    "[(quote x) (make 40)]",
    "(map-indexed (fn [i x] (- x i)) (subvec (make 100) 20))",
    "(group-by even? (drop 10 (make 60)))",
    "[(drop-while #(< % 60) (make 100)) (split-with #(< % 60) (make 100)) (split-at 30 (make 100))]",
    "(loop [xs (make 100) acc []] (if (seq xs) (recur (drop-while #(= % (first xs)) xs) (conj acc (first xs))) acc))",
    "(for [x (drop 90 (make 100)) :when (odd? x)] (* x 2))",
    "(loop [[x & xs] (make 50) acc 0] (if x (recur xs (+ acc x)) acc))",
    "(let [{a 0 b 40 :as all} (subvec (make 100) 10)] [a b (count all)])",
    "[(strings/join \",\" (pop (make 40))) (some #{77} (make 100)) (every? pos? (make 100)) (vec (map dec (make 40)))]",
    "[(zipmap (make 40) (drop 1 (make 41))) (partition 10 (drop-last (make 41))) (interleave (make 40) (make 40))]",
    "[(apply max (make 100)) (apply str (pop (make 40))) (max-key count (make 40) (make 41))]",
    "[(keys (make 40))]",
    "(let [v (make 100)] (if (= v (plain 100)) (get {v 1} (plain 100)) :no))",
    # errors, with their env and trace
    "(let [v (make 100)] (nth v 200))",
    "(subvec (make 100) 50 20)",
    "(loop [xs (make 40)] (recur (pop xs)))",
    "(let [v (drop 5 (make 100))] (+ 1 (first (vec (map str v)))))",
    "(defn f [v] (nth v 1000)) (f (make 100))",
    "(assoc (make 100) 200 1)",
    "(+ 1 (make 100))",
]


def outcome(text: str) -> tuple[Any, ...]:
    try:
        value = spellc.eval_string(text, "<views>")
    except SpellError as e:
        env = frozenset((pr_str(k), pr_str(v)) for k, v in (e.env or {}).items()
                        if type(k) is Symbol and k.name != "make")  # the one binding the two preludes differ in
        return ("err", e.message, pr_str(e.expr), pr_str(list(e.trace or [])), env, getattr(e, "position", None))
    return ("ok", pr_str(value))


def four_ways(body: str) -> list[tuple[Any, ...]]:
    results = []
    for on in (True, False):
        with optimisations(on):
            results.append(outcome(VIEW_PRELUDE + body))
            results.append(outcome(PLAIN_PRELUDE + body))
    return results


@pytest.mark.parametrize("body", PROGRAMS)
def test_a_view_behaves_as_the_plain_vector_in_compiled_code(body: str) -> None:
    results = four_ways(body)
    assert results[0] == results[1] == results[2] == results[3], body


def test_the_programs_really_see_views() -> None:
    value = spellc.eval_string(VIEW_PRELUDE + "[(make 100) (pop (make 100)) (drop 1 (make 100)) (drop-last (make 100))]")
    assert all(type(x) is VectorView for x in value)
    plain = spellc.eval_string(PLAIN_PRELUDE + "(make 100)")
    assert type(plain) is not VectorView


ops = st.lists(st.one_of(st.just("(pop {})"), st.integers(0, 30).map(lambda k: "(drop %d {})" % k),
                         st.integers(0, 30).map(lambda k: "(drop-last %d {})" % k),
                         st.integers(0, 20).map(lambda k: "(subvec {} %d)" % k)), min_size=1, max_size=5)
uses = st.sampled_from([
    "(loop [xs %s s 0] (if (empty? xs) s (recur (pop xs) (+ s (peek xs)))))",
    "(reduce + %s)",
    "(let [v %s] [(count v) (first v) (nth v 2 :nf) (conj v :z) (= v (vec (seq v)))])",
    "(let [[a & r] %s] [a (count r)])",
    "(str %s)",
])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(60, 200), ops, uses)
def test_chains_of_views_in_compiled_uses(n: int, chain: list[str], use: str) -> None:
    expr = "(make %d)" % n
    for op in chain:
        expr = op.format(expr)
    results = four_ways(use % expr)
    assert results[0] == results[1] == results[2] == results[3], use % expr
