"""The data model: C collections loaded, Spell equality and hashing, insertion order, map tiers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data import (
    EMPTY_MAP,
    BigInt,
    Char,
    PVector,
    SpellMap,
    SpellSet,
    keyword,
    plist,
    spell_eq,
    spell_hash,
    symbol,
    vec,
)
from spell_runtime.data.hashmap import SMALL


def test_c_collection_implementations_are_loaded() -> None:
    # A silent pure-Python fallback costs x5-x56 on hot operations (architecture.md §3).
    assert PVector.__module__ == "pvectorc"
    import immutables

    assert type(immutables.Map()).__module__ == "immutables._map"


def test_keywords_and_symbols_are_interned() -> None:
    assert keyword("a") is keyword("a")
    assert keyword("b", "ns") is keyword("b", "ns")
    assert symbol("x") is symbol("x")
    assert keyword("a") is not keyword("a", "ns")


def test_number_categories_never_conflate() -> None:
    assert spell_eq(1, BigInt(1))
    assert not spell_eq(1, 1.0)
    assert not spell_eq(True, 1)
    assert not spell_eq(Fraction(1, 2), 0.5)
    assert not spell_eq(float("nan"), float("nan"))
    assert not spell_eq(Char("a"), "a")


def test_map_keys_follow_spell_equality() -> None:
    m = SpellMap.from_pairs([(1, "int"), (1.0, "double"), (True, "bool"), (vec([1, 2]), "vec")])
    assert len(m) == 4
    assert m.get(BigInt(1)) == "int"
    assert m.get(1.0) == "double"
    assert m.get(True) == "bool"
    assert m.get(plist([1, 2])) == "vec"  # sequential values are equal keys


def test_sequential_equality_and_hash_agree() -> None:
    assert spell_eq(vec([1, 2]), plist([1, 2]))
    assert spell_hash(vec([1, 2])) == spell_hash(plist([1, 2]))


KEYS = st.one_of(st.integers(-3, 3), st.booleans(), st.none(), st.sampled_from([0.5, 1.0, -2.0]),
                 st.text(max_size=2), st.sampled_from([keyword("a"), keyword("b"), symbol("s")]))


@given(st.lists(st.tuples(st.sampled_from(["assoc", "dissoc"]), KEYS, st.integers()), max_size=60))
def test_map_matches_an_ordered_python_model(ops: list[tuple[str, Any, int]]) -> None:
    m = EMPTY_MAP
    model: dict[Any, tuple[Any, int]] = {}

    def mk(k: Any) -> Any:
        return (type(k), k)  # the model keeps True, 1 and 1.0 apart by type, as Spell does

    for op, k, v in ops:
        if op == "assoc":
            m = m.assoc(k, v)
            model[mk(k)] = (k, v) if mk(k) not in model else (model[mk(k)][0], v)
        else:
            m = m.dissoc(k)
            model.pop(mk(k), None)
    assert len(m) == len(model)
    assert [(type(k), k, v) for k, v in m.items()] == [(type(k), k, v) for k, v in model.values()]


@given(st.lists(st.integers(0, 200), max_size=3 * SMALL))
def test_large_maps_keep_insertion_order_across_the_tier_change(keys: list[int]) -> None:
    m = EMPTY_MAP
    seen: list[int] = []
    for k in keys:
        m = m.assoc(k, k)
        if k not in seen:
            seen.append(k)
    assert list(m.keys()) == seen
    for k in seen[::2]:
        m = m.dissoc(k)
    assert list(m.keys()) == seen[1::2]


@given(st.lists(KEYS, max_size=30))
def test_sets_keep_first_insertion_order(items: list[Any]) -> None:
    s = SpellSet.from_items(items)
    expected: list[Any] = []
    for x in items:
        if not any(spell_eq(x, y) for y in expected):
            expected.append(x)
    assert len(s) == len(expected)
    assert all(spell_eq(a, b) for a, b in zip(s, expected))
