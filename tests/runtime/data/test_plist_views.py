"""Lazy seq views (``plist.view``) against a Python model of eager cons cells.

Every seq a view-producing builtin returns (``rest``/``next``/``seq``/``cons`` of
vectors, ``butlast``, ``concat``) must be indistinguishable from the eager cell
chain the builtin used to build: same elements, same ``count`` at every cell,
same seq/list flag at every cell (``list?`` observes it after any number of
``rest``), same printed text, equality and hash. The model below builds those
eager chains with ``plist`` directly.
"""

from __future__ import annotations

import threading
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.core.seqs import butlast, concat, cons, first, last, next_, nth, rest, seq
from spell_runtime.core.slicing import drop, take_last
from spell_runtime.data.equality import spell_eq, spell_hash
from spell_runtime.data.plist import EMPTY, PList, plist, view
from spell_runtime.data.vector import vec
from spell_runtime.printer import pr_str


def cells(x: PList) -> list[tuple[Any, int, bool]]:
    """(first, count, is_seq) of every non-empty cell, walking ``rest`` as the evaluator does."""
    out = []
    cell = x
    while cell.count:
        out.append((cell.first, cell.count, cell.is_seq))
        cell = cell.rest
    assert cell is EMPTY
    return out


def assert_same_seq(actual: Any, expected: Any) -> None:
    if expected is None:
        assert actual is None
        return
    assert type(actual) is PList
    assert cells(actual) == cells(expected)
    assert list(actual) == list(expected)
    assert [actual[i] for i in range(actual.count)] == list(expected)
    assert pr_str(actual) == pr_str(expected)
    assert spell_eq(actual, expected) and spell_eq(expected, actual)
    assert spell_hash(actual) == spell_hash(expected)


ints = st.lists(st.integers(-5, 5), max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.one_of(ints, st.lists(st.integers(), min_size=30, max_size=100)))  # across 32-cell chunks
def test_rest_next_seq_cons_of_a_vector_match_eager_seqs(xs: list[int]) -> None:
    v = vec(xs)
    assert_same_seq(rest(v), plist(xs[1:], is_seq=True) if len(xs) > 1 else EMPTY)
    assert_same_seq(next_(v), plist(xs[1:], is_seq=True) if len(xs) > 1 else None)
    assert_same_seq(seq(v), plist(xs, is_seq=True) if xs else None)
    assert_same_seq(cons(9, v), PList(9, plist(xs, is_seq=True) if xs else EMPTY, len(xs) + 1, True))
    assert_same_seq(butlast(v), plist(xs[:-1], is_seq=True) if len(xs) > 1 else None)
    walked = rest(v)
    for i in range(2, len(xs) + 1):  # every suffix reached by rest, as a loop reaches it
        walked = rest(walked)
        assert_same_seq(walked, plist(xs[i:], is_seq=True) if len(xs) > i else EMPTY)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["acc+", "+acc", "rest", "butlast", "fresh"]), ints), max_size=12))
def test_concat_chains_share_structure_without_changing_any_value(steps: list[tuple[str, list[int]]]) -> None:
    """Random mixes of ``(concat acc xs)``, ``(concat xs acc)``, ``rest`` and ``butlast``; every
    value made along the way is re-checked at the end, so an in-place extension that leaked
    into an older value would show."""
    acc: Any = concat()
    model: list[int] = []
    history: list[tuple[Any, list[int]]] = []
    for op, xs in steps:
        if op == "acc+":
            acc, model = concat(acc, vec(xs)), model + xs
        elif op == "+acc":
            acc, model = concat(vec(xs), acc), xs + model
        elif op == "rest":
            acc, model = rest(acc), model[1:]
        elif op == "butlast":
            b = butlast(acc)
            acc, model = (b, model[:-1]) if b is not None else (concat(), [])
        else:
            acc, model = concat(vec(xs), vec(model)), xs + model
        history.append((acc, model))
    for value, expected in history:
        assert list(value) == expected
        assert value.count == len(expected)
        assert pr_str(value) == pr_str(plist(expected, is_seq=True))
        assert spell_hash(value) == spell_hash(vec(expected))
        assert first(value) == (expected[0] if expected else None)
        assert last(value) == (expected[-1] if expected else None)
        if expected:
            assert nth(value, len(expected) - 1) == expected[-1]
        assert list(take_last(2, value)) == expected[-2:]
        assert list(drop(1, value)) == expected[1:]


def test_concat_result_cells_are_all_seqs_even_over_a_list_tail() -> None:
    tail = cons(1, plist([2, 3]))  # a seq cell followed by list cells
    out = concat(vec([0]), tail)
    assert [c[2] for c in cells(out)] == [True, True, True, True]


def test_iterating_a_view_while_concat_extends_its_source_stops_at_its_own_end() -> None:
    a = concat(vec([1, 2]), vec([3]))
    seen = []
    for x in a:
        seen.append(x)
        concat(a, vec([x * 10]))  # extends the shared source only the first time
    assert seen == [1, 2, 3]
    assert list(a) == [1, 2, 3]


def test_two_threads_extending_one_view_each_get_their_own_elements() -> None:
    base = concat(vec([0]), vec([1]))
    results: dict[int, list[Any]] = {}

    def extend(k: int) -> None:
        acc = base
        for i in range(200):
            acc = concat(acc, vec([k, i]))
        results[k] = list(acc)

    threads = [threading.Thread(target=extend, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    for k in range(4):
        assert results[k] == [0, 1] + [y for i in range(200) for y in (k, i)]
    assert list(base) == [0, 1]


def test_view_over_a_c_vector_reads_lazily_and_caches_cells() -> None:
    v = vec(range(5))
    s = view(v, 1, 3)
    assert s.rest is s.rest  # the materialised cell is kept
    assert cells(s) == [(1, 3, True), (2, 2, True), (3, 1, True)]
    assert s.rest.rest.rest is EMPTY


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(), max_size=200), st.integers(0, 200), st.integers(0, 5))
def test_views_iterate_their_own_elements_at_any_offset(xs: list[int], off: int, extra: int) -> None:
    src = list(xs) + [None] * extra  # a longer source: the view must stop at its own end
    n = len(xs) - off
    if n <= 0:
        return
    v = view(src, off, n)
    assert list(v) == xs[off:]
    assert list(view(vec(src), off, n)) == xs[off:]
    assert [v[i] for i in range(n)] == xs[off:]
