"""reduce / reductions / reduce-kv / reduced."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.reducing import is_reduced, make_reduced, reduce_, reduce_kv, reduced, reductions
from spell_runtime.core.seqs import conj
from spell_runtime.core.types import type_name
from spell_runtime.data.atoms import HostObject, Keyword, Symbol
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.hashmap import SpellMap, SpellSet, spell_map
from spell_runtime.data.plist import EMPTY, plist
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError
from spell_runtime.printer import pr_str

D: dict[Any, Any] = {}
A, B = Keyword("a"), Keyword("b")


def add(a: Any, b: Any) -> Any:
    return a + b


def spell_fn(params: list[str], code: Any) -> SpellFn:
    f = SpellFn(vec([Symbol(p) for p in params]), EMPTY)
    f.code = code
    return f


def test_reduced_is_a_host_object() -> None:
    r = reduced(1)
    assert type(r) is HostObject and is_reduced(r) and r.payload == 1
    assert type_name(r) == "class clojure.lang.Reduced"
    assert not is_reduced(HostObject("java.util.Date", 0))


def test_reduce_with_and_without_init() -> None:
    assert reduce_(D, add, 5, vec([1, 2, 3])) == 11
    assert reduce_(D, add, vec(range(101))) == 5050
    assert reduce_(D, add, vec([5])) == 5  # one element: f is not called
    assert reduce_(D, add, 7, None) == 7
    assert reduce_(D, add, 0, plist([1, 2])) == 3
    assert pr_str(reduce_(D, conj, vec([]), "ab")) == r"[\a \b]"


def test_reduce_of_an_empty_collection_without_init_is_an_arity_error() -> None:
    for coll in (vec([]), None, ""):
        with pytest.raises(HostError, match=r"^Wrong number of args \(0\) passed to: reduce$"):
            reduce_(D, add, coll)


def test_reduce_honours_reduced() -> None:
    def stop_at_3(acc: Any, x: Any) -> Any:
        return make_reduced(acc) if x == 3 else acc + x

    assert reduce_(D, stop_at_3, 0, vec([1, 2, 3, 4, 5])) == 3
    calls: list[Any] = []

    def spy(acc: Any, x: Any) -> Any:
        calls.append(x)
        return make_reduced(x)

    assert reduce_(D, spy, 0, vec([1, 2, 3])) == 1 and calls == [1]


def test_reduce_over_a_map_sees_entries() -> None:
    f = spell_fn(["acc", "e"], lambda D, h, acc, e: acc + e[1])
    assert reduce_(D, f, 0, spell_map(A, 1, B, 2)) == 3


def test_reduce_with_a_spell_function_of_the_wrong_arity() -> None:
    with pytest.raises(HostError, match="^Wrong number of args: expected 1, got 2$"):
        reduce_(D, spell_fn(["acc"], lambda D, h, acc: acc), 0, vec([1]))


def test_reduce_calls_spell_functions_in_the_calling_env() -> None:
    k = Symbol("k")
    f = spell_fn(["acc", "x"], lambda D, h, acc, x: acc + x * D[k])
    assert reduce_({k: 10}, f, 0, vec([1, 2])) == 30


def test_reductions() -> None:
    assert pr_str(reductions(D, add, vec([1, 2, 3, 4]))) == "[1 3 6 10]"
    assert pr_str(reductions(D, add, 10, vec([1, 2]))) == "[10 11 13]"
    assert pr_str(reductions(D, add, 10, vec([]))) == "[10]"
    with pytest.raises(HostError, match=r"Wrong number of args \(0\) passed to: reductions"):
        reductions(D, add, vec([]))

    def stop_over_3(acc: Any, x: Any) -> Any:
        s = acc + x
        return make_reduced(s) if s > 3 else s

    assert pr_str(reductions(D, stop_over_3, vec([1, 2, 3, 4]))) == "[1 3 6]"
    assert pr_str(reductions(D, add, make_reduced(5), vec([1]))) == "[5]"


def test_reduce_kv() -> None:
    swap = spell_fn(["acc", "k", "v"], lambda D, h, acc, k, v: acc.assoc(v, k))
    assert pr_str(reduce_kv(D, swap, SpellMap(), spell_map(A, 1, B, 2))) == "{1 :a, 2 :b}"
    assert reduce_kv(D, lambda acc, i, x: acc + [(i, x)], [], vec([A, B])) == [(0, A), (1, B)]
    assert reduce_kv(D, add, 9, None) == 9
    assert reduce_kv(D, lambda acc, k, v: make_reduced(k), None, spell_map(A, 1, B, 2)) is A
    for bad, cls in ((plist([1]), "clojure.lang.PersistentList"), ("ab", "java.lang.String"),
                     (SpellSet.from_items([1]), "clojure.lang.PersistentHashSet")):
        with pytest.raises(HostError) as info:
            reduce_kv(D, add, 0, bad)
        assert info.value.message == ("No implementation of method: :kv-reduce of protocol: "
                                      "#'clojure.core.protocols/IKVReduce found for class: " + cls)


@given(st.lists(st.integers(), max_size=30), st.integers())
def test_reduce_and_reductions_agree_with_python(xs: list[int], init: int) -> None:
    import itertools

    assert reduce_(D, add, init, vec(xs)) == sum(xs, init)
    assert list(reductions(D, add, init, vec(xs))) == list(itertools.accumulate(xs, initial=init))
