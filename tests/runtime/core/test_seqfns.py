"""Eager sequence transformations: vector results, spell-aware callbacks in the calling env, host errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.registry import EnvFn
from spell_runtime.core.seqfns import (
    apply_,
    dedupe,
    distinct,
    every,
    filter_,
    find_first,
    flatten,
    interleave,
    interpose,
    keep,
    keep_indexed,
    map_,
    map_indexed,
    mapcat,
    not_any,
    not_every,
    remove,
    some,
    sort,
    sort_by,
    tree_seq,
)
from spell_runtime.core.seqs import count, first, vector
from spell_runtime.data.atoms import BigInt, Char, Keyword, Symbol
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.hashmap import SpellSet, spell_map
from spell_runtime.data.plist import EMPTY, plist
from spell_runtime.data.vector import PVector, vec
from spell_runtime.errors import HostError, SpellError
from spell_runtime.printer import pr_str

A, B = Keyword("a"), Keyword("b")
K = Symbol("k")
D: dict[Any, Any] = {K: 3}


def spell_fn(params: list[str], code: Any) -> SpellFn:
    f = SpellFn(vec([Symbol(p) for p in params]), EMPTY)
    f.code = code
    return f


def inc(x: Any) -> Any:
    return x + 1


def is_even(x: int) -> bool:
    return x % 2 == 0


def is_odd(x: int) -> bool:
    return x % 2 == 1


TIMES_K = spell_fn(["x"], lambda D, head, x: x * D[K])


def test_map_returns_a_vector_for_every_seqable() -> None:
    for coll in (vec([1, 2, 3]), plist([1, 2, 3]), SpellSet.from_items([1, 2, 3])):
        r = map_(D, inc, coll)
        assert type(r) is PVector and pr_str(r) == "[2 3 4]"
    assert pr_str(map_(D, inc, None)) == "[]"
    assert pr_str(map_(D, first, spell_map(A, 1, B, 2))) == "[:a :b]"
    assert pr_str(map_(D, A, vec([spell_map(A, 1), spell_map()]))) == "[1 nil]"


def test_map_runs_spell_functions_in_the_calling_env() -> None:
    assert pr_str(map_(D, TIMES_K, vec([1, 2]))) == "[3 6]"
    assert pr_str(map_({K: 10}, TIMES_K, vec([1, 2]))) == "[10 20]"


def test_map_callback_errors() -> None:
    with pytest.raises(HostError) as info:
        map_(D, spell_fn(["x", "y"], lambda D, h, x, y: y), vec([1]))
    assert info.value.message == "Wrong number of args: expected 2, got 1"
    assert pr_str(info.value.data) == "{:expected 2, :actual 1}"

    def fails(D: Any, head: Any, x: Any) -> Any:
        raise SpellError("Unbound symbol: undefined-fn")

    with pytest.raises(HostError, match="^Unbound symbol: undefined-fn$") as info2:
        map_(D, spell_fn(["x"], fails), vec([1]))
    assert info2.value.result is not None
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        map_(D, inc, 5)
    assert pr_str(map_(D, spell_fn(["x", "y"], lambda D, h, x, y: y), vec([]))) == "[]"


def test_recur_markers_from_builtin_invoked_functions_are_plain_values() -> None:
    from spell_runtime.data.fn import RecurMarker

    r = map_(D, spell_fn(["x"], lambda D, h, x: RecurMarker((x,))), vec([1]))
    assert pr_str(r) == "[{:spell/recur true, :vals [1]}]"


def test_map_indexed_filter_remove_keep() -> None:
    assert pr_str(map_indexed(D, vector, vec([A, B]))) == "[[0 :a] [1 :b]]"
    assert pr_str(filter_(D, is_even, vec(range(10)))) == "[0 2 4 6 8]"
    assert pr_str(filter_(D, lambda x: x, vec([None, 1, False, 2]))) == "[1 2]"
    assert pr_str(remove(D, lambda x: x is None, vec([1, None, 2]))) == "[1 2]"
    assert pr_str(keep(D, lambda x: x * x if x % 2 else None, vec([1, 2, 3]))) == "[1 9]"
    assert pr_str(keep(D, lambda x: x > 1, vec([1, 2]))) == "[false true]"
    assert pr_str(keep_indexed(D, lambda i, x: x if i % 2 == 0 else None, vec([A, B, A]))) == "[:a :a]"
    assert pr_str(filter_(D, TIMES_K, vec([1]))) == "[1]"


def test_mapcat() -> None:
    assert pr_str(mapcat(D, lambda x: vec([x, x]), vec([1, 2]))) == "[1 1 2 2]"
    assert pr_str(mapcat(D, lambda x: "ab", vec([1]))) == r"[\a \b]"
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        mapcat(D, lambda x: x, vec([1]))


def test_predicates_over_collections() -> None:
    assert some(D, lambda x: x * 10 if x % 2 == 0 else None, vec([1, 3, 4])) == 40
    assert some(D, SpellSet.from_items([2]), vec([1, 2, 3])) == 2
    assert some(D, is_even, vec([1, 3])) is None
    assert every(D, is_odd, vec([1, 3])) is True and every(D, is_odd, vec([])) is True
    assert every(D, is_odd, vec([1, 2])) is False
    assert not_any(D, is_even, vec([1, 3])) is True and not_any(D, is_even, vec([2])) is False
    assert not_every(D, is_odd, vec([1, 2])) is True and not_every(D, is_odd, vec([1])) is False
    assert find_first(D, lambda x: x > 1, vec([1, 2, 3])) == 2
    assert find_first(D, lambda x: False, vec([1])) is None
    assert find_first(D, lambda x: x is None, vec([None])) is None


def test_apply() -> None:
    def add(*xs: Any) -> Any:
        return sum(xs)

    assert apply_(D, add, 1, 2, vec([3, 4])) == 10
    assert apply_(D, add) == 0
    assert apply_(D, add, None) == 0
    assert apply_(D, spell_fn(["a", "b"], lambda D, h, a, b: a * b), vec([3, 4])) == 12
    assert apply_(D, spell_fn(["x"], lambda D, h, x: x + D[K]), plist([1])) == 4
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        apply_(D, add, 1, 2)
    with pytest.raises(HostError, match=r"Wrong number of args \(2\) passed to: clojure.core/count"):
        apply_(D, count, vec([1, 2]))
    env_fn = EnvFn(lambda D, *xs: (D[K], xs), "probe")
    assert apply_(D, env_fn, 1, vec([2])) == (3, (1, 2))


def test_tree_seq_is_depth_first_pre_order() -> None:
    def sequential(x: Any) -> bool:
        return type(x) is PVector

    r = tree_seq(D, sequential, lambda x: x, vec([1, vec([2, 3])]))
    assert pr_str(r) == "[[1 [2 3]] 1 [2 3] 2 3]"
    assert pr_str(tree_seq(D, lambda x: False, None, 5)) == "[5]"
    assert pr_str(tree_seq(D, lambda x: type(x) is PVector, lambda x: None, vec([1]))) == "[[1]]"


def test_sort_by_compare_and_stability() -> None:
    assert pr_str(sort(vec([3, 1, 2]))) == "[1 2 3]"
    assert pr_str(sort(vec(["b", "A", "a"]))) == '["A" "a" "b"]'
    assert pr_str(sort(vec([3, BigInt(1), 2.5, None]))) == "[nil 1N 2.5 3]"
    assert pr_str(sort(vec([A, Keyword("a", "ns"), B]))) == "[:a :b :ns/a]"
    assert pr_str(sort(vec([vec([1, 2]), vec([3]), vec([0, 9])]))) == "[[3] [0 9] [1 2]]"
    assert pr_str(sort(None)) == "[]" and pr_str(sort("cab")) == r"[\a \b \c]"
    with pytest.raises(HostError, match="cannot be cast"):
        sort(vec([1, "a"]))


def test_sort_strings_by_utf16_units() -> None:
    # U+FF21 sorts before an astral character in UTF-16 order but after it by code point.
    astral, wide = "\U0001F600", "\uFF21"
    assert list(sort(vec([wide, astral]))) == [astral, wide]


def test_sort_by_is_stable_and_calls_the_key_in_the_env() -> None:
    assert pr_str(sort_by(D, count, vec(["ccc", "a", "bb"]))) == '["a" "bb" "ccc"]'
    pairs = vec([vec([1, A]), vec([0, B]), vec([1, Keyword("c")]), vec([0, Keyword("d")])])
    assert pr_str(sort_by(D, first, pairs)) == "[[0 :b] [0 :d] [1 :a] [1 :c]]"
    neg_k = spell_fn(["x"], lambda D, h, x: -x * D[K])
    assert pr_str(sort_by(D, neg_k, vec([1, 3, 2]))) == "[3 2 1]"
    assert pr_str(sort_by(D, lambda x: str(x), vec([2, 10, 1]))) == "[1 10 2]"


def test_distinct_uses_spell_equality() -> None:
    assert pr_str(distinct(vec([3, 1, 3, 2, 1]))) == "[3 1 2]"
    assert pr_str(distinct(vec([1, BigInt(1), 1.0, True]))) == "[1 1.0 true]"
    assert pr_str(distinct(vec([vec([1]), plist([1]), vec([2])]))) == "[[1] [2]]"


def test_dedupe() -> None:
    assert pr_str(dedupe(vec([1, 1, 2, 1, 1.0, 1.0]))) == "[1 2 1 1.0]"
    assert pr_str(dedupe(None)) == "[]"


def test_flatten() -> None:
    assert pr_str(flatten(vec([vec([1, vec([2])]), 3, vec([vec([4])])]))) == "[1 2 3 4]"
    assert pr_str(flatten(plist([1, plist([2, spell_map(A, 1)]), "ab"]))) == '[1 2 {:a 1} "ab"]'
    assert pr_str(flatten(5)) == "[]" and pr_str(flatten(None)) == "[]" and pr_str(flatten(spell_map(A, 1))) == "[]"
    deep: Any = vec([1])
    for _ in range(5000):
        deep = vec([deep])
    assert pr_str(flatten(deep)) == "[1]"


def test_interleave_and_interpose() -> None:
    assert pr_str(interleave(vec([1, 2, 3]), vec([A, B]))) == "[1 :a 2 :b]"
    assert pr_str(interleave()) == "[]" and pr_str(interleave(vec([1, 2]))) == "[1 2]"
    assert pr_str(interpose(Keyword("x"), vec([1, 2, 3]))) == "[1 :x 2 :x 3]"
    assert pr_str(interpose(0, None)) == "[]"
    assert pr_str(interpose(None, "ab")) == r"[\a nil \b]"
    assert Char("a") == interpose(0, "a")[0]


@given(st.lists(st.integers(-5, 5), max_size=40))
def test_transformations_against_python(xs: list[int]) -> None:
    v = vec(xs)
    assert list(map_(D, inc, v)) == [x + 1 for x in xs]
    assert list(filter_(D, is_even, v)) == [x for x in xs if x % 2 == 0]
    assert list(remove(D, is_even, v)) == [x for x in xs if x % 2]
    assert list(sort(v)) == sorted(xs)
    assert list(distinct(v)) == list(dict.fromkeys(xs))
    assert list(sort_by(D, lambda x: -x, v)) == sorted(xs, key=lambda x: -x)
