"""Sorted maps and sets: comparator order everywhere a map or set is read, map/set behaviour otherwise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data.atoms import Keyword
from spell_runtime.data.equality import spell_eq
from spell_runtime.data.hashmap import SpellMap, SpellSet, spell_map
from spell_runtime.data.lookup import get
from spell_runtime.data.sorted import SortedMap, is_sorted_map, is_sorted_set, sorted_map, sorted_set
from spell_runtime.errors import HostError
from spell_runtime.invoke import call
from spell_runtime.printer import pr_str

A, B, C = Keyword("a"), Keyword("b"), Keyword("c")


def reverse_cmp(a: int, b: int) -> int:
    return (b > a) - (b < a)


def test_sorted_map_iterates_in_compare_order() -> None:
    m = sorted_map([(C, 3), (A, 1), (B, 2)])
    assert list(m.keys()) == [A, B, C]
    assert list(m.values()) == [1, 2, 3]
    assert pr_str(m) == "{:a 1, :b 2, :c 3}"


def test_sorted_map_is_a_map_for_reads_and_equality() -> None:
    m = sorted_map([(C, 3), (A, 1)])
    assert isinstance(m, SpellMap) and is_sorted_map(m)
    assert get(m, A) == 1 and get(m, B, "dflt") == "dflt"
    assert spell_eq(m, spell_map(A, 1, C, 3))
    assert spell_eq(spell_map(C, 3, A, 1), m)
    assert call({}, m, (C,)) == 3


def test_assoc_places_new_keys_and_keeps_order() -> None:
    m = sorted_map([(3, "c"), (1, "a")])
    m2 = m.assoc(2, "b").assoc(0, "z").assoc(9, "y")
    assert list(m2.keys()) == [0, 1, 2, 3, 9]
    assert type(m2) is SortedMap
    m3 = m2.assoc(2, "B")
    assert list(m3.items()) == [(0, "z"), (1, "a"), (2, "B"), (3, "c"), (9, "y")]
    assert list(m.keys()) == [1, 3]  # persistent


def test_dissoc_keeps_order_and_sortedness() -> None:
    m = sorted_map([(k, k) for k in (5, 1, 4, 2, 3)])
    m2 = m.dissoc(4).dissoc(1)
    assert list(m2.keys()) == [2, 3, 5] and type(m2) is SortedMap
    assert m2.dissoc(42) is m2
    assert list(m2.assoc(1, 1).keys()) == [1, 2, 3, 5]


def test_keys_that_compare_equal_collapse_to_the_first_key_with_the_last_value() -> None:
    m = sorted_map([(1, "long"), (2, "two"), (1.0, "double")])
    assert len(m) == 2
    assert list(m.items()) == [(1, "double"), (2, "two")]
    assert type(next(iter(m.keys()))) is int
    assert list(sorted_map([(1, "a")]).assoc(1.0, "b").items()) == [(1, "b")]


def test_incomparable_keys_raise_the_comparator_error() -> None:
    with pytest.raises(HostError, match="cannot be cast"):
        sorted_map([(A, 1), ("b", 2)])
    with pytest.raises(HostError):
        sorted_map([(1, 1)]).assoc("x", 2)


def test_direct_construction_gives_an_empty_sorted_map() -> None:
    m = SortedMap()
    assert len(m) == 0 and list(m.items()) == []
    assert list(m.assoc(2, "b").assoc(1, "a").keys()) == [1, 2]
    assert list(SortedMap(reverse_cmp).assoc(1, 1).assoc(2, 2).keys()) == [2, 1]


def test_a_single_key_is_never_compared() -> None:
    assert len(sorted_map([(spell_map(A, 1), 1)])) == 1


def test_custom_comparator() -> None:
    m = sorted_map([(1, "a"), (3, "c"), (2, "b")], reverse_cmp)
    assert list(m.keys()) == [3, 2, 1]
    assert list(m.assoc(5, "e").keys()) == [5, 3, 2, 1]
    assert m.comparator is reverse_cmp


def test_sorted_set_is_a_plain_set_with_a_sorted_inner_map() -> None:
    s = sorted_set([3, 1, 2, 1])
    assert type(s) is SpellSet and is_sorted_set(s)
    assert list(s) == [1, 2, 3]
    assert pr_str(s) == "#{1 2 3}"
    assert list(s.conj(0).conj(5)) == [0, 1, 2, 3, 5]
    assert is_sorted_set(s.disj(2)) and list(s.disj(2)) == [1, 3]
    assert get(s, 2) == 2 and get(s, 9) is None
    assert call({}, s, (3,)) == 3
    assert spell_eq(s, SpellSet.from_items([2, 3, 1]))
    assert not is_sorted_set(SpellSet.from_items([1]))


def test_large_sorted_map_crosses_the_hash_tier() -> None:
    m = sorted_map([(k, -k) for k in range(40, 0, -1)])
    assert list(m.keys()) == list(range(1, 41))
    assert get(m, 17) == -17
    m2 = m
    for k in range(1, 35):
        m2 = m2.dissoc(k)
    assert list(m2.items()) == [(k, -k) for k in range(35, 41)]


@given(st.lists(st.tuples(st.booleans(), st.integers(-20, 20), st.integers())))
def test_assoc_dissoc_against_a_sorted_dict_model(ops: list[tuple[bool, int, int]]) -> None:
    m = sorted_map()
    model: dict[int, int] = {}
    for is_assoc, k, v in ops:
        if is_assoc:
            m = m.assoc(k, v)
            model[k] = v
        else:
            m = m.dissoc(k)
            model.pop(k, None)
        assert type(m) is SortedMap
    assert list(m.items()) == sorted(model.items())
    assert len(m) == len(model)
    for k, v in model.items():
        assert get(m, k) == v


@given(st.lists(st.integers(-50, 50)))
def test_batch_build_matches_one_by_one_assoc(keys: list[int]) -> None:
    pairs = [(k, i) for i, k in enumerate(keys)]
    one_by_one = sorted_map()
    for k, v in pairs:
        one_by_one = one_by_one.assoc(k, v)
    built = sorted_map(pairs)
    assert list(built.items()) == list(one_by_one.items())
