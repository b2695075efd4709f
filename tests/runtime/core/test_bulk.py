"""The whole-vector fast paths (``core/bulk.py``) against the generic per-element loop.

The generic loop is spelled out here exactly as ``reduce``/``map``/``filter`` run it
(the builtin's fixed-arity function called per element); every generated input —
longs near ±2⁶³, mixed kinds (doubles, BigInts, booleans, nil, keywords) — must
give the same value (same Python type: long vs BigInt vs double) or the same
error message through the builtin as through that loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.core import bulk
from spell_runtime.core.calling import caller
from spell_runtime.core.reducing import reduce_
from spell_runtime.core.registry import BUILTINS
from spell_runtime.core.seqfns import filter_, map_, remove
from spell_runtime.data.atoms import LONG_MAX, LONG_MIN, BigInt, Keyword, Symbol
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError, SpellError
from spell_runtime.library import load

load()
D: dict[Any, Any] = {}

near_edges = st.one_of(
    st.integers(LONG_MIN, LONG_MIN + 4), st.integers(LONG_MAX - 4, LONG_MAX),
    st.integers(-3, 3), st.integers(LONG_MIN, LONG_MAX),
)
odd_values = st.one_of(st.floats(allow_nan=False), st.builds(BigInt, st.integers(-10, 10)),
                       st.sampled_from([True, False, None, Keyword("k")]))
elements = st.one_of(near_edges, near_edges, near_edges, odd_values)
long_lists = st.lists(near_edges, max_size=12)
mixed_lists = st.lists(elements, max_size=12)


def b(name: str) -> Any:
    return BUILTINS[Symbol(name)]


def outcome(thunk: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", (type, value)) or ("error", message)."""
    try:
        value = thunk()
    except (HostError, SpellError) as e:
        return ("error", e.message)
    if hasattr(value, "tolist"):
        return ("ok", [(type(x), x) for x in value.tolist()])
    return ("ok", (type(value), value))


def generic_reduce(name: str, items: list[Any], init: Any = None, has_init: bool = False) -> Any:
    g = caller(D, b(name), 2)
    if not has_init:
        if not items:
            raise HostError("Wrong number of args (0) passed to: reduce")
        acc, rest = items[0], items[1:]
    else:
        acc, rest = init, items
    for x in rest:
        acc = g(acc, x)
    return acc


REDUCERS = ["+", "+'", "max", "min"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(REDUCERS), st.one_of(long_lists, mixed_lists), st.one_of(st.none(), near_edges))
def test_reduce_fast_path_matches_the_generic_loop(name: str, items: list[Any], init: Any) -> None:
    v = vec(items)
    if init is None:
        expected = outcome(lambda: generic_reduce(name, items))
        actual = outcome(lambda: reduce_(D, b(name), v))
    else:
        expected = outcome(lambda: generic_reduce(name, items, init, True))
        actual = outcome(lambda: reduce_(D, b(name), init, v))
    assert actual == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(near_edges, min_size=1, max_size=40))
def test_sum_of_longs_overflows_exactly_where_a_partial_sum_does(items: list[int]) -> None:
    partial = 0
    overflow = False
    for x in items:
        partial += x
        if not LONG_MIN <= partial <= LONG_MAX:
            overflow = True
            break
    result = outcome(lambda: reduce_(D, b("+"), 0, vec(items)))
    if overflow:
        assert result == ("error", "integer overflow")
    else:
        assert result == ("ok", (int, sum(items)))


def test_reduce_fast_path_gives_up_rather_than_guess() -> None:
    assert bulk.reduce_fast(b("+"), 0, [LONG_MAX, 1, -1]) is bulk.NO_FAST  # bound exceeded: the loop decides
    assert bulk.reduce_fast(b("+"), 0, [1, True]) is bulk.NO_FAST
    assert bulk.reduce_fast(b("+"), BigInt(1), [1]) is bulk.NO_FAST
    assert bulk.reduce_fast(b("-"), 0, [1]) is bulk.NO_FAST  # no fast path registered
    assert bulk.reduce_fast(b("+"), 0, [1, 2, 3]) == 6
    assert bulk.reduce_fast(b("conj"), vec([0]), [1, 2]) == vec([0, 1, 2])


def test_a_rebound_plus_is_not_the_builtin() -> None:
    def my_plus(a: Any, b_: Any) -> Any:
        return a - b_

    assert reduce_(D, my_plus, 0, vec([1, 2])) == -3


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["inc", "dec"]), mixed_lists)
def test_map_fast_path_matches_the_generic_loop(name: str, items: list[Any]) -> None:
    g = caller(D, b(name), 1)
    expected = outcome(lambda: vec([g(x) for x in items]))
    assert outcome(lambda: map_(D, b(name), vec(items))) == expected


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["even?", "odd?", "pos?", "neg?", "nil?", "some?"]), mixed_lists, st.booleans())
def test_filter_and_remove_fast_paths_match_the_generic_loop(name: str, items: list[Any], keep: bool) -> None:
    g = caller(D, b(name), 1)

    def generic() -> Any:
        return vec([x for x in items if ((r := g(x)) is not None and r is not False) is keep])

    builtin = filter_ if keep else remove
    assert outcome(lambda: builtin(D, b(name), vec(items))) == outcome(generic)
