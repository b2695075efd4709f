"""Positional and predicate slicing, partitions, generators and randomness."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.slicing import (
    drop,
    drop_last,
    drop_while,
    partition,
    partition_all,
    partition_by,
    rand_nth,
    random_sample,
    range_,
    repeat,
    repeatedly,
    shuffle,
    split_at,
    split_with,
    steps,
    take,
    take_last,
    take_nth,
    take_while,
)
from spell_runtime.data.atoms import BigInt, Keyword, Symbol
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.hashmap import SpellSet, spell_map
from spell_runtime.data.plist import EMPTY, plist
from spell_runtime.data.vector import LineVector, PVector, vec
from spell_runtime.errors import HostError
from spell_runtime.printer import pr_str

D: dict[Any, Any] = {}
X = Keyword("x")


def pos(x: int) -> bool:
    return x > 0


def test_steps_follows_clojures_countdown() -> None:
    assert [steps(3), steps(0), steps(-2), steps(2.5), steps(0.1), steps(-0.5), steps(BigInt(2)),
            steps(Fraction(3, 2)), steps(float("nan"))] == [3, 0, 0, 3, 1, 0, 2, 2, 0]
    with pytest.raises(HostError, match="java.lang.String cannot be cast to class java.lang.Number"):
        steps("a")
    with pytest.raises(HostError, match="null"):
        steps(None)


def test_take_and_drop() -> None:
    assert pr_str(vec([take(2, vec([1, 2, 3])), drop(1, plist([1, 2, 3])), take(5, vec([1]))])) == "[[1 2] [2 3] [1]]"
    assert pr_str(take(0, 5)) == "[]"  # never looks at the collection
    assert pr_str(take(-1, vec([1]))) == "[]" and pr_str(drop(-1, vec([1, 2]))) == "[1 2]"
    assert pr_str(take(2.5, vec([1, 2, 3, 4]))) == "[1 2 3]"
    assert pr_str(take(2, "abc")) == r"[\a \b]" and pr_str(drop(2, "abc")) == r"[\c]"
    assert type(take(1, plist([1, 2]))) is PVector and type(drop(1, plist([1, 2]))) is PVector
    assert type(take(1, LineVector(vec(["a"]), ((1, 1),)))) is PVector
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        drop(0, 5)


def test_take_last_and_drop_last() -> None:
    assert pr_str(take_last(2, vec([1, 2, 3]))) == "[2 3]"
    assert pr_str(take_last(5, vec([]))) == "[]" and pr_str(take_last(0, vec([1]))) == "[]"
    assert type(take_last(1, plist([1]))) is PVector
    assert pr_str(drop_last(vec([1, 2, 3]))) == "[1 2]"
    assert pr_str(drop_last(2, plist([1, 2, 3]))) == "[1]"
    assert pr_str(drop_last(5, vec([1, 2]))) == "[]" and pr_str(drop_last(0, vec([1, 2]))) == "[1 2]"
    assert pr_str(drop_last(-3, vec([1]))) == "[1]"


def test_take_while_drop_while_split() -> None:
    assert pr_str(take_while(D, pos, vec([3, 2, 0, 5]))) == "[3 2]"
    assert pr_str(drop_while(D, pos, vec([3, 2, 0, 5]))) == "[0 5]"
    assert pr_str(take_while(D, pos, plist([1, 2]))) == "[1 2]" and pr_str(drop_while(D, pos, None)) == "[]"
    assert pr_str(split_at(2, vec([1, 2, 3]))) == "[[1 2] [3]]"
    assert pr_str(split_with(D, pos, plist([1, -1, 2]))) == "[[1] [-1 2]]"


def test_take_nth() -> None:
    assert pr_str(take_nth(2, vec(range(7)))) == "[0 2 4 6]"
    assert pr_str(take_nth(0, vec([]))) == "[]"
    assert pr_str(take_nth(1.5, vec(range(5)))) == "[0 2 4]"
    with pytest.raises(HostError, match="^take-nth step must be positive$"):
        take_nth(0, vec([1]))
    with pytest.raises(HostError, match="^take-nth step must be positive$"):
        take_nth(-1, vec([1]))


def test_partition() -> None:
    assert pr_str(partition(3, vec(range(1, 8)))) == "[[1 2 3] [4 5 6]]"
    assert pr_str(partition(2, 1, vec([1, 2, 3]))) == "[[1 2] [2 3]]"
    assert pr_str(partition(2, 3, vec(range(7)))) == "[[0 1] [3 4]]"
    assert pr_str(partition(-1, vec([1, 2]))) == "[]"
    assert pr_str(partition(0, 1, vec([1, 2]))) == "[[] []]"
    assert pr_str(partition(2.0, vec([1, 2]))) == "[]"  # (= 2.0 2) is false in Clojure
    assert pr_str(partition(0, vec([]))) == "[]"
    with pytest.raises(HostError, match="^partition step must be positive$"):
        partition(0, vec([1]))
    with pytest.raises(HostError, match="^partition step must be positive$"):
        partition(1, 0, vec([1, 2]))


def test_partition_all_and_partition_by() -> None:
    assert pr_str(partition_all(3, vec([1, 2, 3, 4]))) == "[[1 2 3] [4]]"
    assert pr_str(partition_all(2, 3, vec(range(7)))) == "[[0 1] [3 4] [6]]"
    assert pr_str(partition_all(0, 1, vec([1, 2]))) == "[[] []]"
    with pytest.raises(HostError, match="^partition-all step must be positive$"):
        partition_all(0, vec([1]))
    assert pr_str(partition_by(D, lambda x: x % 2, vec([1, 3, 2, 4, 5]))) == "[[1 3] [2 4] [5]]"
    assert pr_str(partition_by(D, lambda x: x, "aab")) == r"[[\a \a] [\b]]"
    assert pr_str(partition_by(D, lambda x: x, None)) == "[]"


def test_range_over_longs() -> None:
    assert pr_str(vec([range_(4), range_(2, 8, 3), range_(5, 0, -2), range_(0)])) == "[[0 1 2 3] [2 5] [5 3 1] []]"
    assert pr_str(range_(-3)) == "[]" and pr_str(range_(3, 3, 0)) == "[]"
    assert type(range_(3)) is PVector
    with pytest.raises(HostError, match="^range step must be non-zero$"):
        range_(0, 10, 0)


def test_range_over_other_numbers() -> None:
    assert pr_str(range_(0, 1, 0.25)) == "[0 0.25 0.5 0.75]"
    assert pr_str(range_(2.5)) == "[0 1 2]"
    assert pr_str(range_(BigInt(1), 3)) == "[1N 2N]"
    assert pr_str(range_(3, 0.5, -1)) == "[3 2 1]"
    r = range_(0, 1, 0.1)
    assert r[3] == 0.1 + 0.1 + 0.1  # accumulated, not multiplied
    assert pr_str(range_(0.0, 0)) == "[]"
    with pytest.raises(HostError, match="^range step must be non-zero$"):
        range_(0, 1.5, 0.0)
    with pytest.raises(HostError, match="java.lang.String cannot be cast"):
        range_("a")


def test_repeat_and_repeatedly() -> None:
    assert pr_str(repeat(3, X)) == "[:x :x :x]" and pr_str(repeat(0, X)) == "[]" and pr_str(repeat(-2, X)) == "[]"
    assert pr_str(repeat(2.7, 1)) == "[1 1]"
    calls = []

    def seven() -> int:
        calls.append(1)
        return 7

    assert pr_str(repeatedly(D, 2, seven)) == "[7 7]" and len(calls) == 2
    thunk = SpellFn(vec([]), EMPTY)
    thunk.code = lambda D, head: D[Symbol("v")]
    assert pr_str(repeatedly({Symbol("v"): 5}, 2, thunk)) == "[5 5]"


def test_shuffle_rand_nth_random_sample() -> None:
    random.seed(7)
    xs = vec(range(20))
    s = shuffle(xs)
    assert sorted(s) == list(range(20)) and type(s) is PVector
    assert sorted(shuffle(SpellSet.from_items([1, 2, 3]))) == [1, 2, 3]
    with pytest.raises(HostError, match="java.lang.String cannot be cast to class java.util.Collection"):
        shuffle("abc")
    with pytest.raises(HostError, match="null"):
        shuffle(None)
    assert rand_nth(xs) in range(20)
    assert rand_nth(None) is None
    with pytest.raises(HostError, match="^$"):
        rand_nth(vec([]))
    with pytest.raises(HostError, match="nth not supported on this type: PersistentArrayMap"):
        rand_nth(spell_map(X, 1))
    assert list(random_sample(1, xs)) == list(range(20)) and list(random_sample(0, xs)) == []
    assert set(random_sample(0.5, xs)) <= set(range(20))
    with pytest.raises(HostError, match="cannot be cast to class java.lang.Number"):
        random_sample(X, xs)


@given(st.lists(st.integers(), max_size=20), st.integers(-3, 25))
def test_slices_against_python(xs: list[int], n: int) -> None:
    v = vec(xs)
    k = max(n, 0)
    assert list(take(n, v)) == xs[:k]
    assert list(drop(n, v)) == xs[k:]
    assert list(take_last(n, v)) == (xs[-k:] if k else [])
    assert list(drop_last(n, v)) == xs[:max(len(xs) - k, 0)]
    if n > 0:
        assert [list(p) for p in partition_all(n, v)] == [xs[i:i + n] for i in range(0, len(xs), n)]
        assert [list(p) for p in partition(n, v)] == [xs[i:i + n] for i in range(0, len(xs) - n + 1, n)]
        assert list(take_nth(n, v)) == xs[::n]


@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-7, 7).filter(lambda s: s != 0))
def test_long_range_against_python(a: int, b: int, s: int) -> None:
    assert list(range_(a, b, s)) == list(range(a, b, s))


def test_split_at_keeps_empty_sides() -> None:
    assert pr_str(split_at(0, EMPTY)) == "[[] []]"
