"""``reduce`` over loop vectors whose elements the compiler proved to be longs (issue 13 item 3:
``analyze.elements``, ``core.longvecs``, ``core.bulk``), with the switch on and off.

The loops below are long enough (≥ ``longvecs.MIN_RECORDED`` elements) for the fact to be
recorded, so ``reduce`` takes the path that trusts it; every case must agree with the plain
path: values, overflow errors (partial sums near ±2⁶³ with mixed signs, a total back in range
after an intermediate overflow), elements that are not longs, empty vectors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optimise_programs import agree, static_core_names
from spell_runtime.core.longvecs import MIN_RECORDED

import spellc
from spellc.compiler import python_source

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)
N = MIN_RECORDED + 44


@pytest.fixture(autouse=True)
def operators_static() -> Iterator[None]:
    yield from static_core_names("+", "-", "*", "<", "inc", "conj", "reduce", "even?", "if")



def loop(element: str, init: str = "[]", n: int = N) -> str:
    return "(loop [i 0 v %s] (if (< i %d) (recur (inc i) (conj v %s)) v))" % (init, n, element)


def freeze_of(form: str) -> str:
    """How the loop's list is frozen in the generated code: ``_vec_longs(_lvN, True|False)`` or ``_vec``."""
    src = python_source(spellc.read_string(form))
    m = re.search(r"_vec_longs\(\w+, (True|False)\)", src)
    return "longs>=0" if m and m.group(1) == "True" else "longs" if m else "_vec" if "_vec(" in src else "none"


@pytest.mark.parametrize(("element", "init", "facts"), [
    ("i", "[]", "longs>=0"),
    ("(* i 3)", "[0 1]", "longs>=0"),
    ("(+ (inc i) 7)", "[]", "longs>=0"),
    ("(- i 1)", "[]", "longs"),  # (- 0 1) is negative
    ("i", "[-1]", "longs"),  # a negative initial element
    ("(if (even? i) 1 -1)", "[]", "longs"),
    ("(* i 1.5)", "[]", "_vec"),  # doubles
    ("nil", "[]", "_vec"),
    ("i", "[1.5]", "_vec"),  # a non-long initial element
])
def test_what_the_compiler_proves_of_the_elements(element: str, init: str, facts: str) -> None:
    assert freeze_of(loop(element, init)) == facts


def test_a_shadowing_let_is_another_variable() -> None:
    # the loop's i only ever holds (inc j) >= 0, but the i conj'd is the let's, which goes negative;
    # claiming ">= 0" would skip the overflow at the first step (MAX + 1) and return MAX
    form = ("(loop [i 0 j 0 v [%d]] (if (< j %d) (let [i (if (even? j) 1 -1)] (recur (inc j) (inc j) (conj v i)))"
            " v))" % (LONG_MAX, N))
    assert freeze_of(form) == "longs"
    on = agree("(reduce + %s)" % form)
    assert on[0] == "err" and "overflow" in on[1]


def test_a_loop_variable_that_can_go_negative_is_not_non_negative() -> None:
    form = "(loop [i 0 j 5 v []] (if (< i %d) (recur (inc i) (- j 1) (conj v j)) v))" % N
    assert freeze_of(form) == "longs"
    assert agree("(reduce + %s)" % form) == ("ok", str(sum(5 - k for k in range(N))))


@pytest.mark.parametrize("text", [
    "(reduce + %s)" % loop("i"),
    "(reduce + 10 %s)" % loop("i"),
    "(reduce + -10 %s)" % loop("(- i 100)"),
    # non-negative elements whose total overflows: the error, at the exact step
    "(reduce + %s)" % loop("(* i 100000000000000000)"),
    "(reduce + %d %s)" % (LONG_MAX - 5, loop("i")),
    # mixed signs near the edges: partial sums stay in range though Σ|x| does not
    "(reduce + %s)" % loop("(if (even? i) %d %d)" % (LONG_MAX, -LONG_MAX)),
    # the total is back in range but a partial sum overflowed on the way
    "(reduce + %s)" % loop("(if (even? i) 1 -1)", "[%d]" % LONG_MAX),
    "(reduce + %s)" % loop("(if (even? i) -1 1)", "[%d]" % LONG_MIN),
    "(reduce + %d %s)" % (LONG_MIN, loop("(- 0 i)")),  # all <= 0: overflow below
    "(reduce + %s)" % loop("(- 0 i)"),  # all <= 0, in range
    # elements that are not longs: exact values and errors
    "(reduce + %s)" % loop("(* i 1.5)"),
    "(reduce + %s)" % loop("(if (< i 200) i nil)"),
    "(reduce + %s)" % loop("i", "[nil]"),
    "(reduce + %s)" % loop("(bigint i)"),
    "(reduce + %s)" % loop("(/ i 3)"),
    "(reduce + %s)" % loop("(= i 3)"),
    # empty and one-element vectors
    "(reduce + %s)" % loop("i", n=0),
    "(reduce + 7 %s)" % loop("i", n=0),
    "(reduce + %s)" % loop("i", n=1),
    "(reduce + (loop [i 0 v []] (if (< i 0) (recur (inc i) (conj v i)) v)))",
    # other reducers over a recorded vector
    "(reduce max %s)" % loop("i"),
    "(reduce min 3 %s)" % loop("(- i 10)"),
    "(reduce conj [] %s)" % loop("i", n=3),
    "(count (reduce conj [:a] %s))" % loop("i"),
])
def test_reduce_agrees_both_ways(text: str) -> None:
    agree(text)


def test_the_facts_are_used_and_values_are_right() -> None:
    assert agree("(reduce + %s)" % loop("i")) == ("ok", str(sum(range(N))))
    on = agree("(reduce + %s)" % loop("(* i 100000000000000000)"))
    assert on[0] == "err" and "overflow" in on[1]
    on = agree("(reduce + %s)" % loop("(if (even? i) 1 -1)", "[%d]" % LONG_MAX))
    assert on[0] == "err" and "overflow" in on[1]


edge = st.sampled_from([0, 1, -1, 7, LONG_MAX, LONG_MIN, LONG_MAX - 1, LONG_MIN + 1, 2**62, -(2**62),
                        3037000499, -3037000500])
element_exprs = st.one_of(
    st.sampled_from(["i", "(inc i)", "(* i 2)", "(- i 150)", "(- 0 i)", "(if (even? i) big (- 0 big))",
                     "(if (< i 10) big i)", "(* i 1.5)", "nil", "(bigint i)", "(+ i big)"]),
    edge.map(str),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(element_exprs, edge, st.sampled_from(["[]", "[0]", "[-5 5]"]), st.sampled_from([0, 1, 2, N]),
       st.one_of(st.none(), edge))
def test_generated_reductions_agree(element: str, big: int, init: str, n: int, start: Any) -> None:
    body = loop(element, init, n)
    text = "(let [big %d] (reduce + %s%s))" % (big, "" if start is None else "%d " % start, body)
    agree(text)


@pytest.mark.parametrize("text", [
    "(reduce + (filter even? (map inc (range %d))))" % N,
    "(reduce + (map inc (range %d %d)))" % (LONG_MAX - N, LONG_MAX),  # the top: inc of MAX-1 is MAX
    "(reduce + (map inc (map inc (range %d %d))))" % (LONG_MAX - N, LONG_MAX),  # overflows
    "(reduce + (map dec (range %d %d)))" % (LONG_MIN, LONG_MIN + N),  # dec of LONG_MIN overflows
    "(reduce + (map dec (range %d %d)))" % (LONG_MIN + 1, LONG_MIN + N),  # the sum overflows
    "(reduce + (range %d %d))" % (LONG_MAX - N, LONG_MAX),  # overflow with one sign
    "(reduce + (range %d %d))" % (-N, N),  # mixed signs, small
    "(reduce + %d (range %d %d -1))" % (LONG_MAX, N, -N),  # mixed, the first partial sums overflow
    "(reduce + (remove odd? (range %d)))" % N,
    "(reduce max (filter odd? (range %d)))" % N,
    "(reduce + (range %d %d %d))" % (LONG_MIN, LONG_MAX, 2**56),
])
def test_ranges_and_builtin_stages_agree_both_ways(text: str) -> None:
    agree(text)
