"""``analyze.types``: which private loop variables certainly hold longs, doubles, vectors, maps, strings."""

from __future__ import annotations

from typing import Any

import pytest
from spell_runtime.library import load

import spellc
from spellc.analyze import bound, ir
from spellc.analyze.analyzer import analyze_form
from spellc.analyze.types import DOUBLE, LONG, MAP, STRING, VECTOR, loop_types

load()  # the builtin registry: static references (and so native operators) need it

OPERATORS = [spellc.symbol(n) for n in ("+", "-", "*", "<", "=", "inc", "dec", "str", "conj", "assoc", "count")]


@pytest.fixture(autouse=True)
def operators_unbound() -> Any:
    """Other tests in the process may have bound some core names, which makes them dynamic from then
    on (``analyze.bound``): analyze these forms as a fresh process would."""
    was = [s for s in OPERATORS if s in bound.BOUND]
    bound.BOUND.difference_update(OPERATORS)
    yield
    bound.BOUND.update(was)


def first_loop(text: str) -> ir.Loop:
    node, _ = analyze_form(spellc.read_string(text))
    stack: list[Any] = [node]
    while stack:
        n = stack.pop()
        if type(n) is ir.Loop:
            return n
        for f in n._fields:
            v = getattr(n, f)
            for item in v if isinstance(v, tuple) else (v,):
                if isinstance(item, (ir.Node, ir.Binding)):
                    stack.append(item)
    raise AssertionError("no loop in " + text)


def types_of(text: str) -> dict[str, str]:
    return {str(k): v for k, v in loop_types(first_loop(text)).items()}


@pytest.mark.parametrize("text, expected", [
    ("(loop [i 0 acc 0] (if (< i 10) (recur (inc i) (+ acc i)) acc))", {"i": LONG, "acc": LONG}),
    ("(loop [i 0 v []] (if (< i 10) (recur (inc i) (conj v i)) v))", {"i": LONG, "v": VECTOR}),
    ("(loop [x 1.5 n 0] (if (< n 3) (recur (* x 2) (inc n)) x))", {"x": DOUBLE, "n": LONG}),
    ("(loop [x 0 n 0] (if (< n 3) (recur (+ x 0.5) (inc n)) n))", {"n": LONG}),  # long, then double
    ("(loop [s \"\" n 0] (if (< n 3) (recur (str s n) (inc n)) s))", {"s": STRING, "n": LONG}),
    ("(loop [i 0 v []] (if (< i 3) (recur (inc i) (let [w (conj v i)] w)) v))", {"i": LONG, "v": VECTOR}),
    ("(loop [i 0 v []] (if (< i 3) (recur (inc i) (if (= i 1) (conj v 0) (conj v i))) v))",
     {"i": LONG, "v": VECTOR}),
])
def test_proven_types(text: str, expected: dict[str, str]) -> None:
    assert types_of(text) == expected


@pytest.mark.parametrize("text", [
    # a recur value of another type, or of unknown type
    "(loop [i 0] (if (< i 3) (recur (str i)) i))",
    "(loop [i 0] (if (< i 3) (recur (count [i])) i))",
    # a map tail value could be a recur request (Q17), which may bind anything
    "(loop [i 0 m {}] (if (< i 3) (recur (inc i) (assoc m i i)) m))",
    # a short recur: the missing variable is bound by Q16's rules, not by a typed value
    "(loop [i 0 j 0] (if (< i 3) (recur (inc i)) i))",
    # the value depends on a variable that is not typed
    "(loop [i 0 j nil] (if (< i 3) (recur (+ i j) j) i))",
])
def test_unproven_types(text: str) -> None:
    assert types_of(text) == {}


def test_map_variable_typed_when_the_tail_is_not_a_map() -> None:
    assert types_of("(loop [i 0 m {}] (if (< i 3) (recur (inc i) (assoc m i i)) i))") == {"i": LONG, "m": MAP}


def test_a_let_shadowing_the_name_is_typed_by_its_own_value() -> None:
    # inside the let, ``i`` is the let's string: the recur value (str i) is not a long
    assert types_of("(loop [i 0] (if (< i 3) (let [i (str i)] (recur i)) i))") == {}
    assert types_of("(loop [i 0] (if (< i 3) (let [j 1] (recur (+ i j))) i))") == {"i": LONG}


def test_a_loop_that_is_not_private_has_no_types() -> None:
    # the callee could read ``i``: not private, so nothing is claimed
    assert types_of("(loop [i 0] (if (< i 3) (recur (inc (f i))) i))") == {}


def test_typed_loops_run_the_same_as_untyped() -> None:
    from spellc.compiler import optimisations

    text = "(loop [i 0 v [] s \"\"] (if (< i 5) (recur (inc i) (conj v i) (str s i)) [v s]))"
    with optimisations(False):
        slow = spellc.pr_str(spellc.eval_string(text))
    assert spellc.pr_str(spellc.eval_string(text)) == slow == '[[0 1 2 3 4] "01234"]'
