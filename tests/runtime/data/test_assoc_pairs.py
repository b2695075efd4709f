"""``SpellMap.assoc_pairs`` (several pairs in one dict copy) against the chain of single ``assoc``
steps it stands for: same entries in the same order, the same stored key spelling, and the map
itself back when every pair leaves its value in place (issue 13.3)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data import BigInt, Keyword, SpellMap
from spell_runtime.data.hashmap import EMPTY_MAP, SMALL

KEYS = st.one_of(
    st.sampled_from([Keyword(n) for n in "abcdefghijklmnopqrst"]),
    st.integers(-3, 3),
    st.sampled_from([1.0, 2.0, BigInt(1), "a", None]),
)
VALUES = st.one_of(st.integers(-2, 2), st.sampled_from([None, True, "x", 1.0]))


def stepwise(m: SpellMap, kvs: tuple[Any, ...]) -> SpellMap:
    for i in range(0, len(kvs), 2):
        m = m.assoc(kvs[i], kvs[i + 1])
    return m


def entries(m: SpellMap) -> list[tuple[str, str]]:
    """Each entry with its key's and value's type, so 1 and 1.0 or a BigInt 1 stay apart."""
    return [(repr((type(k), k)), repr((type(v), v))) for k, v in m.items()]


@given(st.lists(st.tuples(KEYS, VALUES), max_size=2 * SMALL), st.lists(st.tuples(KEYS, VALUES), min_size=1, max_size=12))
def test_assoc_pairs_is_the_chain_of_steps(start: list[tuple[Any, Any]], pairs: list[tuple[Any, Any]]) -> None:
    m = stepwise(EMPTY_MAP, tuple(x for p in start for x in p))
    kvs = tuple(x for p in pairs for x in p)
    expected = stepwise(m, kvs)
    got = m.assoc_pairs(kvs)
    assert entries(got) == entries(expected)
    assert (got is m) == (expected is m)
    assert len(got) == len(expected)
    for k, _ in pairs:
        assert got.get(k) is expected.get(k)


def test_unchanged_values_give_the_map_itself() -> None:
    a, b = Keyword("a"), Keyword("b")
    m = EMPTY_MAP.assoc(a, 1).assoc(b, 2)
    assert m.assoc_pairs((a, 1, b, 2)) is m
    assert m.assoc_pairs((a, 1, b, 3)) is not m
