"""Vector views (``data.vector.VectorView``, issue 16 item 7) against the plain C vector.

``pop``, ``drop``, ``drop-last`` and ``subvec`` of a vector return a view sharing the
vector they took apart. A view must be indistinguishable from the plain vector of the same
elements to everything that accepts a vector: every builtin below is called on the view and
on the plain vector and must give the same value (printed, and the same kind) or the same
error, and ``=``/hash/map-key use must agree both ways. Views of views are reached by chains
of the four operations, checked against a Python list model at every step.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime import library
from spell_runtime.core.hostnames import class_name
from spell_runtime.core.registry import BUILTINS, EnvFn
from spell_runtime.core.seqs import pop, subvec
from spell_runtime.core.slicing import drop, drop_last
from spell_runtime.data import Keyword, PList, Symbol, spell_map
from spell_runtime.data.equality import spell_eq, spell_hash
from spell_runtime.data.hashmap import SpellSet
from spell_runtime.data.plist import plist
from spell_runtime.data.vector import EMPTY_VECTOR, PVector, VectorView, as_pvector, is_vector, subvector, vec
from spell_runtime.errors import HostError
from spell_runtime.printer import pr_str, render_form, to_str
from spell_runtime.snapshot import snapshot_text
from spell_runtime.valueform import value_form

library.load()

K = Keyword("k")


def builtin(name: str) -> Any:
    value = BUILTINS[Symbol(name)]
    assert type(value) is not EnvFn, name
    return value


def outcome(f: Any, *args: Any) -> tuple[Any, ...]:
    """What calling ``f`` gives, comparable across vector kinds: its kind and printed value, or its error."""
    try:
        value = f(*args)
    except Exception as e:  # every failure kind is compared, not only HostError
        return ("error", type(e).__name__, str(e))
    kind = "vector" if is_vector(value) else type(value).__name__
    seq_flag = value.is_seq if type(value) is PList else None
    return ("ok", kind, seq_flag, pr_str(value))


# (builtin name, argument lists after the vector; ``V`` stands for the vector itself)
V = object()
CALLS: list[tuple[str, list[tuple[Any, ...]]]] = [
    ("count", [()]), ("empty?", [()]), ("not-empty", [()]), ("first", [()]), ("second", [()]),
    ("last", [()]), ("rest", [()]), ("next", [()]), ("seq", [()]), ("peek", [()]), ("pop", [()]),
    ("butlast", [()]), ("vec", [()]), ("set", [()]), ("reverse", [()]), ("vector?", [()]),
    ("sequential?", [()]), ("coll?", [()]), ("type", [()]), ("str", [()]), ("pr-str", [()]),
    ("sort", [()]), ("distinct", [()]), ("frequencies", [()]), ("flatten", [()]),
    ("key", [()]), ("val", [()]), ("keys", [()]), ("ffirst", [()]),
    ("nth", [(0,), (1,), (-1,), (3,), (1000,), (0, K), (1000, K), ("x",)]),
    ("get", [(0,), (2,), (-1,), (1000, K), (K,)]),
    ("contains?", [(0,), (5,), (-1,), (K,)]),
    ("find", [(0,), (3,), (1000,)]),
    ("assoc", [(0, K), (1, K)]),
    ("conj", [(K,), (K, K)]),
    ("take", [(0,), (2,), (1000,)]), ("take-last", [(2,), (1000,)]),
    ("drop", [(0,), (1,), (2.5,), (1000,), (-1,), (None,)]),
    ("drop-last", [(0,), (1,), (3,), (1000,)]),
    ("subvec", [(0,), (1,), (1, 3), (2, 1), (0, 1000), (-1,)]),
    ("=", [(V,)]), ("compare", [(V,), (EMPTY_VECTOR,)]), ("concat", [(V,)]), ("into", [(V,)]),
]
# Calls with the vector in another position (a callable argument is built from the vector).
OTHER: list[tuple[str, tuple[Any, ...]]] = [
    ("cons", (K, V)), ("concat", (EMPTY_VECTOR, V)), ("conj", (EMPTY_VECTOR, V)), ("into", (EMPTY_VECTOR, V)),
    ("=", (EMPTY_VECTOR, V)), ("compare", (EMPTY_VECTOR, V)), ("vector", (V, V)), ("list", (V,)),
    ("distinct", (lambda x: vec([x, vec(list(x)), x]),)), ("frequencies", (lambda x: vec([x, vec(list(x))]),)),
    ("set", (lambda x: vec([x, vec(list(x))]),)), ("sort", (lambda x: vec([x, vec([1]), EMPTY_VECTOR]),)),
]


def assert_same_vector(x: Any, model: list[Any]) -> None:
    """``x`` behaves as the plain vector of ``model`` everywhere."""
    plain = vec(model)
    assert is_vector(x) and len(x) == len(model) and list(x) == model
    assert [x[i] for i in range(len(model))] == model and list(reversed(x)) == model[::-1]
    assert pr_str(x) == pr_str(plain) and to_str(x) == to_str(plain) and class_name(x) == class_name(plain)
    assert spell_eq(x, plain) and spell_eq(plain, x) and spell_eq(x, plist(model))
    assert spell_hash(x) == spell_hash(plain)
    assert spell_map(x, 1).get(plain) == 1 and spell_map(plain, 1).get(x) == 1
    assert SpellSet.from_items([x]).contains(plain) and SpellSet.from_items([plain]).contains(x)
    assert pr_str(vec([x, x])) == pr_str(vec([plain, plain]))
    assert type(as_pvector(x)) is PVector and list(as_pvector(x)) == model
    assert render_form(x) == render_form(plain) and pr_str(value_form(x)) == pr_str(value_form(plain))
    for limit in (128, 400, 4000):  # bounded display, as the model sees values
        assert snapshot_text(x, limit) == snapshot_text(plain, limit)
        assert snapshot_text(spell_map(K, x, x, 1), limit) == snapshot_text(spell_map(K, plain, plain, 1), limit)
    copy = pickle.loads(pickle.dumps(x))
    assert type(copy) is PVector and list(copy) == model
    for name, arg_lists in CALLS:
        f = builtin(name)
        for args in arg_lists:
            on_view = outcome(f, x, *(x if a is V else a for a in args))
            on_plain = outcome(f, plain, *(plain if a is V else a for a in args))
            assert on_view == on_plain, (name, args)
    for name, args in OTHER:
        f = builtin(name)
        on_view = outcome(f, *(x if a is V else a(x) if callable(a) else a for a in args))
        on_plain = outcome(f, *(plain if a is V else a(plain) if callable(a) else a for a in args))
        assert on_view == on_plain, (name, args)


elements = st.one_of(st.integers(-3, 3), st.sampled_from([K, Keyword("j"), "s", None, 1.5]),
                     st.lists(st.integers(0, 2), max_size=2).map(vec))
# A step: (operation, two fractions of the current length that pick its arguments).
steps = st.tuples(st.sampled_from(["pop", "drop", "drop-last", "subvec"]),
                  st.floats(0, 1), st.floats(0, 1))


def apply_step(x: Any, model: list[Any], step: tuple[str, float, float]) -> tuple[Any, list[Any]]:
    op, a, b = step
    n = len(model)
    if op == "pop":
        return pop(x), model[:-1]
    if op == "drop":
        k = int(a * (n + 2))
        return drop(k, x), model[k:]
    if op == "drop-last":
        k = int(a * (n + 2))
        return drop_last(k, x), model[:max(n - k, 0)]
    s, e = sorted((int(a * n), int(b * n)))
    return subvec(x, s, e), model[s:e]


@settings(max_examples=80, deadline=None)
@given(st.lists(elements, max_size=40), st.integers(0, 300), st.lists(steps, min_size=1, max_size=6))
def test_chains_of_the_four_operations_match_the_plain_vector(items: list[Any], pad: int, chain: list[Any]) -> None:
    model = list(range(pad)) + items + list(range(pad // 2))  # long enough for views, mixed at both ends
    x: Any = vec(model)
    for step in chain:
        if not model and step[0] == "pop":
            continue
        x, model = apply_step(x, model, step)
        assert is_vector(x) and list(x) == model
        if type(x) is VectorView:
            assert type(x.backing) is PVector  # a view of a view re-bases onto the same C vector
    assert_same_vector(x, model)


def test_long_vectors_give_views_sharing_the_backing() -> None:
    v = vec(range(1000))
    for x in (pop(v), drop(1, v), drop_last(1, v), drop_last(3, v), subvec(v, 1), subvec(v, 100, 900)):
        assert type(x) is VectorView and x.backing is v
    inner = subvec(subvec(pop(drop(10, v)), 5), 0, 700)
    assert type(inner) is VectorView and inner.backing is v and list(inner) == list(range(15, 715))
    assert_same_vector(inner, list(range(15, 715)))


def test_small_or_sparse_results_are_copies() -> None:
    """A view never pins a backing over four times its size, and short results are plain vectors."""
    v = vec(range(1000))
    assert type(subvec(v, 0, 31)) is PVector and type(subvec(v, 0, 249)) is PVector
    assert type(subvec(v, 0, 250)) is VectorView
    x: Any = v
    for _ in range(999):
        x = pop(x)
        assert type(x) is PVector or 4 * len(x) >= len(x.backing)
    assert list(x) == [0]
    assert drop(0, v) is v and subvector(v, 0, 1000) is v


@pytest.mark.parametrize("make", [lambda: vec(range(100)), lambda: subvec(vec(range(200)), 50, 150)])
def test_the_four_operations_at_their_boundaries(make: Any) -> None:
    x = make()
    assert list(pop(x)) == list(x)[:-1]
    assert pr_str(drop(100, x)) == "[]" and pr_str(drop(1000, x)) == "[]" and list(drop(-5, x)) == list(x)
    assert pr_str(drop_last(100, x)) == "[]" and list(drop_last(0, x)) == list(x)
    assert pr_str(subvec(x, 100)) == "[]" and pr_str(subvec(x, 3, 3)) == "[]"
    assert list(subvec(x, 0, 100)) == list(x)
    for args in ((101,), (-1,), (5, 4), (0, 101), (-1, 3)):
        with pytest.raises(HostError, match="^$"):
            subvec(x, *args)
    with pytest.raises(HostError, match="^class java.lang.String cannot be cast to class java.lang.Character "):
        subvec(x, "a")
    with pytest.raises(HostError, match="^class java.lang.String cannot be cast to class java.lang.Number "):
        drop("a", x)
    with pytest.raises(HostError, match="^class java.lang.String cannot be cast to class java.lang.Number "):
        drop_last("a", x)
    empty: Any = x
    while len(empty):
        empty = pop(empty)
    with pytest.raises(HostError, match="^Can't pop empty vector$"):
        pop(empty)


def test_view_reads_in_place_and_c_vector_methods_run_on_a_copy() -> None:
    x = subvec(vec(range(100)), 10, 90)
    assert type(x) is VectorView
    assert x[0] == 10 and x[-1] == 89 and x[79] == 89
    with pytest.raises(IndexError, match="^Index out of range: 80$"):
        x[80]
    with pytest.raises(IndexError, match="^Index out of range: -81$"):
        x[-81]
    with pytest.raises(TypeError):
        x["a"]
    assert type(x[1:3]) is PVector and list(x[1:3]) == [11, 12] and list(x[::-40]) == [89, 49]
    assert type(x.append(1)) is PVector and x.append(1)[-1] == 1 and x.set(0, K)[0] is K
    assert x.tolist() == list(range(10, 90)) and x.index(12) == 2
    assert not hasattr(x, "span") and not hasattr(x, "items")


def test_conj_and_assoc_on_a_view_share_the_backing_and_change_nothing() -> None:
    """A stack loop (pop, then conj) stays linear: conj/assoc on a view set one slot of a new backing."""
    conj, assoc = builtin("conj"), builtin("assoc")
    v = vec(range(100))
    x = subvec(v, 10, 60)
    y = conj(x, K)
    assert type(y) is VectorView and list(y) == list(range(10, 60)) + [K]
    z = assoc(x, 0, K)
    assert type(z) is VectorView and list(z) == [K] + list(range(11, 60))
    assert list(assoc(x, 50, K)) == list(range(10, 60)) + [K]
    assert list(x) == list(range(10, 60)) and list(v) == list(range(100))  # persistent: nothing changed
    top = conj(pop(v), K)
    assert type(top) is PVector and list(top) == list(range(99)) + [K]
    w = subvec(v, 40)
    assert list(conj(w, K)) == list(range(40, 100)) + [K]
    with pytest.raises(HostError, match="^$"):
        assoc(x, 51, K)
    with pytest.raises(HostError, match="^Key must be integer$"):
        assoc(x, K, K)
    stack: Any = vec(range(200))
    for i in range(1000):  # pop/conj alternation keeps one view, never copies the backing
        stack = conj(pop(stack), i)
        assert type(stack) is PVector or len(stack.backing) == 200
    assert list(stack) == list(range(199)) + [999]
