"""Keyword-keyed map access outside ``reduce`` (issue 13 item 3), with the switch on and off:

* ``(:k m)`` / ``(:k m default)`` with a literal keyword head, read inline from a dict-holding
  ``SpellMap`` (``emit.natives.keyword_lookup``) and ``_get`` for everything else;
* ``(assoc m :a x :b y ...)`` with literal keyword keys in one dict copy
  (``spell_runtime.keyword_assoc``), the builtin ``assoc`` for everything else.

Every case must agree in value, or in error message, env, ``:expr``, trace and position: all kinds
of maps (empty, small, built whole, HAMT tier, sorted, fns, with nil/false values) and non-maps
(nil, sets, vectors, strings, numbers), effectful and failing operands, odd argument counts, and keyword
calls of the wrong arity.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optimise_programs import agree, outcomes_both_ways, static_core_names
from spell_runtime.callpath import error_report
from spell_runtime.errors import SpellError
from spell_runtime.keyword_assoc import assoc_keywords

import spellc
from spellc.compiler import optimisations, python_source

LARGE = "(zipmap (map (fn [i] (keyword (str \"k\" i))) (range 40)) (range 40))"  # built whole

COLLS = [
    "{:a 1 :b 2}", "{:a 1}", "{}", "{:b nil}", "{:b false}", "{\"b\" 1 :b 3}",
    LARGE,
    "(assoc %s :b 7)" % LARGE,  # written persistently: the HAMT tier
    "(dissoc (assoc %s :b 7) :k3)" % LARGE,
    "(into {} (map (fn [i] [(keyword (str \"k\" i)) i]) (range 40)))",
    "(sorted-map :b 1 :a 2)", "#{:b}", "#{:a}", "nil", "[1 2]", "\"abc\"", "42", "false",
    "(list 1 2)", "(range 3)", ":b",
    "(fn [x] x)",  # a Spell fn is a SpellMap subclass: read and written by the library
]


@pytest.fixture(autouse=True)
def core_static() -> Iterator[None]:
    yield from static_core_names("assoc", "get", "into", "range", "zipmap", "sorted-map", "map",
                                 "keyword", "str", "dissoc", "swap!", "atom", "inc", "deref", "+", "/", "merge")


def source(text: str) -> str:
    return python_source(spellc.read_string(text))


def test_the_shapes_are_written_only_with_the_switch_on() -> None:
    kw = "(fn [m] [(:b m) (:b m 0) (assoc m :a 1 :b 2)])"
    on = source(kw)
    assert "_NO_ENTRY" in on and "._r.get(" in on and "_assoc_keywords(" in on
    with optimisations(False):
        off = source(kw)
    assert "_NO_ENTRY" not in off and "._r" not in off and "_assoc_keywords" not in off
    # one pair is the native assoc operator; a non-keyword key or an odd count is the builtin
    for text in ["(fn [m] (assoc m :a 1))", "(fn [m k] (assoc m :a 1 k 2))", "(fn [m] (assoc m :a 1 \"b\" 2))",
                 "(fn [m] (assoc m :a 1 :b))"]:
        assert "_assoc_keywords" not in source(text), text


@pytest.mark.parametrize("coll", COLLS)
@pytest.mark.parametrize("key", [":b", ":k3", ":zz", ":params"])
def test_a_keyword_call_agrees_both_ways(coll: str, key: str) -> None:
    text = ("(let [f (fn [m] [(%s m) (%s m :none) (%s m nil) (%s m false)])] [(f %s) (%s %s) (%s %s 9)])"
            % (key, key, key, key, coll, key, coll, key, coll))
    on, off = outcomes_both_ways(text)
    assert on == off, text
    assert on[0] == "ok", on


@pytest.mark.parametrize("text", [
    # operands evaluated once each, in order, whatever the map holds
    "(let [a (atom [])] [(:b (do (swap! a conj 1) {:b 2}) (do (swap! a conj 2) 3)) @a])",
    "(let [a (atom [])] [(:b (do (swap! a conj 1) {:c 2}) (do (swap! a conj 2) 3)) @a])",
    "(let [a (atom [])] [(:b (do (swap! a conj 1) nil) (do (swap! a conj 2) 3)) @a])",
    # failures in either operand, at top level and in a fn body
    "(:b (/ 1 0))",
    "(:b {:b 1} (/ 1 0))",
    "(:b {:c 1} (/ 1 0))",
    "(defn f [m] (+ 1 (:b m))) (f {:b :x})",
    "(defn f [m] (+ 1 (:b m 0))) (f {:c 1})",
    "(defn f [m] (let [x (:b m)] (inc x))) (f {:b nil})",
    "(defn f [m d] (:b m (inc d))) (f {:b 1} nil)",
    # the wrong arity: ordinary calls of a keyword, never the inline read
    "(:b)",
    "(:b {:b 1} 2 3)",
    "(defn f [m] (:b m 1 2)) (f {:b 1})",
    "(defn f [] (:b)) (f)",
    "(defn g [m] (inc (:b m 1 2 3))) (defn f [m] (g m)) (f {})",
])
def test_keyword_call_operands_and_failures_agree_both_ways(text: str) -> None:
    agree(text)


@pytest.mark.parametrize("text", [
    "(:b)", "(:b {:b 1} 2 3)", "(defn f [m] (:b m 1 2)) (f {:b 1})", "(defn f [m] (+ 1 (:b m))) (f {:b :x})",
    "(defn f [m] (assoc m :a 1 :b)) (f {})", "(defn f [m] (assoc m :a 1 :b 2)) (f [1])",
])
def test_error_reports_are_the_same_text_both_ways(text: str) -> None:
    reports = []
    for on in (True, False):
        with optimisations(on):
            with pytest.raises(SpellError) as e:
                spellc.eval_string(text, "prog.spl")
            reports.append(error_report(e.value, "prog.spl"))
    assert reports[0] == reports[1]
    assert "prog.spl:" in reports[0]


@pytest.mark.parametrize("coll", COLLS)
@pytest.mark.parametrize("pairs", [":a 1 :b 2", ":b 5 :a 6 :b 7", ":b nil :zz false :k3 -1",
                                   " ".join(":n%d %d" % (i, i) for i in range(20))])
def test_keyword_assoc_agrees_both_ways(coll: str, pairs: str) -> None:
    text = "(let [f (fn [m] (assoc m %s))] [(f %s) (assoc %s %s)])" % (pairs, coll, coll, pairs)
    agree(text)


@pytest.mark.parametrize("text", [
    "(defn f [m] (assoc m :a 1 :b)) (f {})",  # odd: the builtin's error, after the pairs
    "(defn f [m] (assoc m :a 1 :b)) (f nil)",
    "(defn f [m] (assoc m :a (/ 1 0) :b 2)) (f {})",
    "(defn f [m] (assoc m :a 1 :b 2)) (f [1 2])",  # keyword key on a vector
    "(defn f [m] (assoc m :a 1 :b 2)) (f \"s\")",
    "(defn f [m] (assoc m :a 1 :b 2)) (f 3)",
    "(defn f [m] (assoc m :a 1 :b 2)) (f #{:a})",
    "(let [a (atom [])] [(assoc (do (swap! a conj 0) {}) :a (do (swap! a conj 1) 1) :b (do (swap! a conj 2) 2)) @a])",
    "(defn f [m x] (assoc m :a x :b x)) (let [m (f {} 1)] [(= m (f m 1)) (f m 2) (merge m (f m 1))])",
])
def test_keyword_assoc_operands_and_failures_agree_both_ways(text: str) -> None:
    agree(text)


def test_unchanged_values_give_back_the_same_map_as_the_builtin_does() -> None:
    """``SpellMap.assoc`` returns the map itself when the value is already there; so does the
    several-pair helper when every pair leaves its value in place (``identical?`` semantics)."""
    from spell_runtime.core.colls import assoc
    from spell_runtime.data import Keyword
    from spell_runtime.data.hashmap import SpellMap

    a, b, v = Keyword("a"), Keyword("b"), object()
    m = SpellMap.from_pairs([(a, v), (b, 2)])
    assert assoc(m, a, v, b, 2) is m and assoc_keywords(m, a, v, b, 2) is m
    assert assoc_keywords(m, a, v, b, 3) is not m and assoc_keywords(m, a, v, b, 3).get(b) == 3
    assert assoc_keywords(None, a, 1, b, 2) == assoc(None, a, 1, b, 2)


maps = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "k3", "k17"] + ["n%d" % i for i in range(24)]),
                          st.sampled_from(["1", "nil", "false", ":x", "[1]", "{:b 2}"])), max_size=24)
builders = st.sampled_from(["(into {} [%s])", "(reduce (fn [m [k v]] (assoc m k v)) {} [%s])",
                            "(dissoc (into {} [%s]) :c)", "(assoc (into {} [%s]) :zz 0)", "(into (sorted-map) [%s])"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps, builders, st.lists(st.sampled_from(["a", "b", "k3", "zz", "n20"]), min_size=1, max_size=4),
       st.lists(st.tuples(st.sampled_from(["a", "b", "k3", "zz", "n20"]),
                          st.sampled_from(["1", "nil", "false", "(:b m)"])), min_size=2, max_size=4))
def test_generated_maps_read_and_write_alike_both_ways(entries: list[tuple[str, str]], builder: str,
                                                       reads: list[str], writes: list[tuple[str, str]]) -> None:
    built = builder % " ".join("[:%s %s]" % e for e in entries)
    read = " ".join("(:%s m) (:%s m :d)" % (k, k) for k in reads)
    write = " ".join(":%s %s" % w for w in writes)
    agree("(let [m %s f (fn [m] [%s (assoc m %s)])] [(f m) (f nil)])" % (built, read, write))
