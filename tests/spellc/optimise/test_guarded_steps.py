"""``(inc i)``/``(dec i)`` under a comparison that proves they cannot overflow (issue 13 items 1–2:
``emit.bounds``), with the switch on and off.

The overflow test is dropped only where the branch's comparison bounds the long loop local away
from the edge it steps towards; near ±2⁶³, with ``<=``/``>=`` (no margin) or a bound on the other
side, it stays, and every case must agree with the plain path."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optimise_programs import agree, static_core_names

import spellc
from spellc.compiler import python_source

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)


@pytest.fixture(autouse=True)
def operators_static() -> Iterator[None]:
    yield from static_core_names("<", "<=", ">", ">=", "inc", "dec", "+")



def checked_steps(text: str) -> int:
    """How many inline steps still carry their overflow test in the generated code."""
    src = python_source(spellc.read_string(text))
    return src.count("_op_inc(") + src.count("_op_dec(")


@pytest.mark.parametrize(("text", "checked", "value"), [
    ("(loop [i 0] (if (< i 5) (recur (inc i)) i))", 0, "5"),
    ("(loop [i %d] (if (< i %d) (recur (inc i)) i))" % (LONG_MAX - 3, LONG_MAX), 0, str(LONG_MAX)),
    ("(loop [i 10] (if (> i 0) (recur (dec i)) i))", 0, "0"),
    ("(loop [i 10] (if (< 0 i) (recur (dec i)) i))", 0, "0"),
    ("(loop [i %d] (if (> i %d) (recur (dec i)) i))" % (LONG_MIN + 3, LONG_MIN), 0, str(LONG_MIN)),
    ("(loop [i %d] (if (>= i %d) i (recur (inc i))))" % (LONG_MAX - 2, LONG_MAX), 0, str(LONG_MAX)),  # else
])
def test_a_step_the_comparison_bounds_drops_its_test(text: str, checked: int, value: str) -> None:
    assert checked_steps(text) == checked
    assert agree(text) == ("ok", value)


@pytest.mark.parametrize("text", [
    "(loop [i %d] (if (<= i %d) (recur (inc i)) i))" % (LONG_MAX - 2, LONG_MAX),  # no margin: overflows
    "(loop [i %d] (if (>= i %d) (recur (dec i)) i))" % (LONG_MIN + 2, LONG_MIN),
    "(loop [i %d] (if (> i 0) (recur (inc i)) i))" % (LONG_MAX - 2),  # bounded on the other side
    "(loop [i %d] (if (< i 0) (recur (dec i)) i))" % (LONG_MIN + 2),
    "(loop [i 0 k 0] (if (< k 3) (recur (inc i) (inc k)) i))",  # the bound is on k, not i
])
def test_a_step_the_comparison_does_not_bound_keeps_its_test(text: str) -> None:
    assert checked_steps(text) >= 1
    agree(text)


def test_a_shadowing_let_learns_nothing() -> None:
    on = agree("(loop [i %d] (if (< i 0) i (let [i %d] (inc i))))" % (LONG_MAX - 2, LONG_MAX))
    assert on[0] == "err" and "overflow" in on[1]
    on = agree("(loop [i 0] (if (< i 5) (let [i %d] (inc i)) i))" % LONG_MAX)
    assert on[0] == "err" and "overflow" in on[1]


@pytest.mark.parametrize("text", [
    "(loop [i 0 n 4] (if (< i n) (recur (inc i) n) i))",  # compared with another long local
    "(loop [i 0 j 0] (if (< j 3) (if (< i j) (recur (inc i) j) (recur i (inc j))) [i j]))",
    "(loop [i %d n %d] (if (< i n) (recur (inc i) n) i))" % (LONG_MAX - 3, LONG_MAX),
])
def test_comparisons_of_two_locals_agree(text: str) -> None:
    agree(text)


def test_a_function_in_the_branch_does_not_trust_the_bound() -> None:
    # the fn runs after the loop moved i past the bound (to LONG_MAX): its (inc i) must still fail
    text = ("(let [fs (loop [i %d fs []] (if (< i %d) (recur (inc i) (conj fs (fn [] (inc i)))) fs))]"
            " ((last fs)))" % (LONG_MAX - 2, LONG_MAX))
    agree(text)


edges = st.sampled_from([0, 1, -1, 5, LONG_MAX, LONG_MIN, LONG_MAX - 1, LONG_MIN + 1, LONG_MAX - 3, LONG_MIN + 3])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edges, edges, st.sampled_from(["<", "<=", ">", ">="]), st.booleans(),
       st.sampled_from(["inc", "dec"]))
def test_generated_guarded_steps_agree(start: int, limit: int, cmp: str, flip: bool, step: str) -> None:
    test = "(%s %s %s)" % (cmp, *(("%d" % limit, "i") if flip else ("i", "%d" % limit)))
    # at most 4 steps (k), so a loop that never meets its bound still ends
    text = "(loop [i %d k 0] (if (< k 4) (if %s (recur (%s i) (inc k)) [i k]) [i k]))" % (start, test, step)
    agree(text)


@pytest.mark.parametrize("pad", range(8))
def test_a_function_body_in_the_branch_does_not_inherit_the_bound(pad: int) -> None:
    # A fn body's locals restart their numbering, so its loop variable can have the very Python
    # name of the bounded outer one (which ``pad`` let bindings shift): its (inc j) from LONG_MAX
    # must still overflow.
    lets = " ".join("a%d %d" % (k, k) for k in range(pad))
    text = ("(let [%s] (let [fs (loop [i 0 fs []] (if (< i 2) (recur (inc i) (conj fs (fn []"
            " (loop [j %d k 0] (if (< k 2) (recur (inc j) (inc k)) j))))) fs))] ((first fs))))"
            % (lets, LONG_MAX - 1))
    on = agree(text)
    assert on[0] == "err" and "overflow" in on[1]
