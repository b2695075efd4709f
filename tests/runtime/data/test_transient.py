"""Transient builders and the map's storage tiers against a Python model of Spell maps.

The model is a list of (key, value) in insertion order where keys match by
Spell equality (``spell_eq``): assoc of a present key replaces the value in place
and keeps the first spelling, dissoc removes. Persistent ``assoc``/``dissoc``
one at a time, ``TransientMap`` + ``freeze``, and ``from_pairs`` must all agree
with it — order, ``get``, ``count``, printing, equality and hash — across the
small (dict), built-whole (dict, HAMT tier built at the first write) and large (HAMT + pvector)
tiers.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data.atoms import BigInt, Keyword
from spell_runtime.data.equality import spell_eq, spell_hash
from spell_runtime.data.hashmap import EMPTY_MAP, SMALL, SpellMap
from spell_runtime.data.plist import plist
from spell_runtime.data.transient import TransientMap, TransientVector
from spell_runtime.data.vector import vec
from spell_runtime.printer import pr_str

keys = st.one_of(
    st.integers(0, 3 * SMALL),
    st.sampled_from([1, BigInt(1), 1.0, True, None, "a", Keyword("a"), vec([1]), plist([1]), vec([1.0])]),
)
ops = st.lists(st.tuples(st.sampled_from(["assoc", "assoc", "assoc", "dissoc"]), keys, st.integers(0, 9)),
               max_size=4 * SMALL)


def model_apply(model: list[tuple[Any, Any]], op: str, k: Any, v: Any) -> list[tuple[Any, Any]]:
    for i, (mk, _) in enumerate(model):
        if spell_eq(mk, k):
            if op == "assoc":
                return model[:i] + [(mk, v)] + model[i + 1:]
            return model[:i] + model[i + 1:]
    return model + [(k, v)] if op == "assoc" else model


def same_map(m: SpellMap, model: list[tuple[Any, Any]]) -> None:
    assert len(m) == len(model)
    assert [(type(k), pr_str(k), v) for k, v in m.items()] == [(type(k), pr_str(k), v) for k, v in model]
    for k, v in model:
        assert m.get(k, "absent") == v and m.contains(k)
        e = m.entry(k)
        assert e is not None and e[0] is k and e[1] == v
    built = SpellMap.from_pairs(model)
    assert spell_eq(m, built) and spell_hash(m) == spell_hash(built) and pr_str(m) == pr_str(built)


@settings(max_examples=300, deadline=None)
@given(ops)
def test_persistent_and_transient_maps_agree_with_the_model(steps: list[tuple[str, Any, int]]) -> None:
    model: list[tuple[Any, Any]] = []
    m = EMPTY_MAP
    t = TransientMap()
    history = []
    for op, k, v in steps:
        model = model_apply(model, op, k, v)
        if op == "assoc":
            m = m.assoc(k, v)
            t.assoc(k, v)
        else:
            m = m.dissoc(k)
            t.dissoc(k)
        history.append((m, model))
    for value, expected in history:  # older versions never change
        same_map(value, expected)
    frozen = t.freeze()
    same_map(frozen, model)
    restarted = TransientMap(m).assoc_all([(0, "x")]).freeze()
    same_map(restarted, model_apply(model, "assoc", 0, "x"))
    same_map(m, model)


def test_a_transient_refuses_use_after_freeze() -> None:
    t = TransientMap().assoc(Keyword("a"), 1)
    assert t.get(Keyword("a")) == 1 and t.contains(Keyword("a")) and len(t) == 1
    t.freeze()
    with pytest.raises(RuntimeError):
        t.assoc(Keyword("b"), 2)
    v = TransientVector(vec([1])).conj(2).extend([3, 4])
    assert len(v) == 4
    assert v.freeze() == vec([1, 2, 3, 4])
    with pytest.raises(RuntimeError):
        v.conj(5)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(), max_size=50), st.lists(st.integers(), max_size=50))
def test_transient_vector_freezes_to_the_conj_built_vector(start: list[int], more: list[int]) -> None:
    base = vec(start)
    t = TransientVector(base)
    persistent = base
    for x in more:
        t.conj(x)
        persistent = persistent.append(x)
    assert t.freeze() == persistent
    assert base == vec(start)


@pytest.mark.parametrize("size", [3, SMALL, SMALL + 5])
def test_reassociating_an_equal_key_keeps_the_first_spelling_in_both_tiers(size: int) -> None:
    pairs = [(i, i) for i in range(size)]
    model = model_apply(pairs, "assoc", BigInt(1), "new")
    m = SpellMap.from_pairs(pairs).assoc(BigInt(1), "new")
    same_map(m, model)
    assert type(next(k for k in m.keys() if k == 1)) is int
    same_map(TransientMap(SpellMap.from_pairs(pairs)).assoc(BigInt(1), "new").freeze(), model)
    same_map(SpellMap.from_pairs(pairs + [(BigInt(1), "new")]), model)


@settings(max_examples=150, deadline=None)
@given(st.integers(SMALL + 1, 3 * SMALL), ops, st.lists(st.booleans(), max_size=4 * SMALL))
def test_a_frozen_large_map_indexed_by_a_dict_writes_like_any_other(size: int, steps: list[tuple[str, Any, int]],
                                                                     from_base: list[bool]) -> None:
    """A large map frozen from a transient keeps its freeze's dict (``_d``) and builds its HAMT tier
    only when first written (``hashmap.SpellMap._tier``); writes from it — several from the same base, then from their results —
    agree with the model, and neither the base nor any earlier version changes."""
    pairs = [(i, -i) for i in range(size)]
    base = TransientMap().assoc_all(pairs).freeze()
    assert base._d is not None and base._h is None  # built whole: no HAMT tier built by the freeze
    history = [(base, list(pairs))]
    m, model = base, list(pairs)
    for (op, k, v), restart in zip(steps, from_base + [False] * len(steps)):
        if restart:
            m, model = base, list(pairs)
        m = m.assoc(k, v) if op == "assoc" else m.dissoc(k)
        model = model_apply(model, op, k, v)
        history.append((m, model))
    for value, expected in history:
        same_map(value, expected)
    if steps and steps[0][0] == "assoc":  # the first step writes to the base (a dissoc may find nothing)
        assert base._h is not None and base._d is not None  # the HAMT tier now lives on the base, beside its dict


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(keys, st.integers(0, 9)), max_size=4 * SMALL), st.lists(st.tuples(keys, st.integers(0, 9)),
                                                                                   max_size=2 * SMALL))
def test_assoc_all_builds_what_assoc_one_at_a_time_builds(pairs: list[tuple[Any, int]],
                                                          more: list[tuple[Any, int]]) -> None:
    """``assoc_all`` into an empty transient (the C-loop path when every key is raw and distinct, the
    loop otherwise: ``1``/``1N`` duplicates keep the first spelling) and into a restarted one."""
    model: list[tuple[Any, Any]] = []
    for k, v in pairs:
        model = model_apply(model, "assoc", k, v)
    built = TransientMap().assoc_all(list(pairs)).freeze()
    same_map(built, model)
    for k, v in more:
        model = model_apply(model, "assoc", k, v)
    same_map(TransientMap(built).assoc_all(list(more)).freeze(), model)


@pytest.mark.parametrize("size", [SMALL + 1, 100, 1000])
def test_a_map_built_whole_reads_from_its_dict_and_chunks_in_order(size: int) -> None:
    pairs = [(Keyword("k%d" % i), i) for i in range(size)]
    m = TransientMap().assoc_all(pairs).freeze()
    assert m._d is not None and m._h is None  # no order vector or index built by the freeze
    assert list(m.items()) == pairs and len(m) == size
    assert m.get(Keyword("k3")) == 3 and m.get(Keyword("absent"), "d") == "d" and not m.contains(Keyword("x"))
    for chunk in (1, 7, size - 1, size, 10 * size):
        parts = list(m.entry_chunks(chunk))
        assert all(0 < len(p) <= max(1, chunk) for p in parts)
        assert [e for p in parts for e in p] == pairs
    assert pr_str(m) == pr_str(SpellMap.from_pairs(pairs))


def test_removing_every_key_of_a_map_built_whole_one_at_a_time_keeps_it_a_map() -> None:
    """dissoc of a large built-whole map goes through its HAMT tier (never a dict copy per step)."""
    pairs = [(i, -i) for i in range(3 * SMALL)]
    m = TransientMap().assoc_all(pairs).freeze()
    base = m
    model = list(pairs)
    for k, _ in pairs[::-1]:
        m = m.dissoc(k)
        model = model_apply(model, "dissoc", k, 0)
        same_map(m, model)
    assert base.dissoc("absent") is base
    same_map(base, pairs)
