"""Maps, sets and associative updates, including property tests against a Python model of Spell keys."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.colls import (
    assoc,
    assoc_in,
    contains,
    disj,
    dissoc,
    find,
    frequencies,
    get,
    get_in,
    group_by,
    into,
    key,
    keys,
    merge,
    merge_with,
    select_keys,
    sorted_map,
    sorted_map_by,
    sorted_set,
    sorted_set_by,
    spell_comparator,
    update,
    update_in,
    update_keys,
    update_vals,
    val,
    vals,
    zipmap,
)
from spell_runtime.core.seqs import conj, count, first
from spell_runtime.data.atoms import BigInt, Char, Keyword, Symbol
from spell_runtime.data.equality import spell_eq
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.hashmap import EMPTY_MAP, EMPTY_SET, SpellMap, SpellSet, spell_map
from spell_runtime.data.plist import EMPTY, PList, plist
from spell_runtime.data.sorted import SortedMap, is_sorted_set
from spell_runtime.data.vector import LineVector, PVector, vec
from spell_runtime.errors import HostError
from spell_runtime.printer import pr_str

D: dict[Any, Any] = {}
A, B, C = Keyword("a"), Keyword("b"), Keyword("c")


def spell_fn(params: list[str], code: Any) -> SpellFn:
    f = SpellFn(vec([Symbol(p) for p in params]), EMPTY)
    f.code = code
    return f


def add(a: Any, b: Any) -> Any:
    return a + b


def inc(x: Any) -> Any:
    return x + 1


def name(k: Keyword) -> str:
    return k.name


# -- get / get-in ------------------------------------------------------------------------


def test_get_and_get_in() -> None:
    assert [get(spell_map(A, 1), B, Keyword("dflt")), get(vec([10, 20]), 1), get(None, A)] == [Keyword("dflt"), 20, None]
    assert get(spell_map(A, None), A, 5) is None
    assert get(spell_map(1, "int", 1.0, "dbl"), 1.0) == "dbl"
    assert get_in(spell_map(A, spell_map(B, vec([1, 2]))), vec([A, B, 1])) == 2
    assert get_in(EMPTY_MAP, vec([Keyword("x")]), Keyword("nf")) is Keyword("nf")
    m = spell_map(A, 1)
    assert get_in(m, vec([])) is m and get_in(m, None) is m
    assert get_in(spell_map(A, None), vec([A]), "nf") is None
    assert get_in(spell_map(A, spell_map()), vec([A, B]), "nf") == "nf"


# -- assoc / dissoc / disj ----------------------------------------------------------------


def test_assoc_on_maps_vectors_and_nil() -> None:
    assert pr_str(assoc(spell_map(A, 1), B, 2, C, 3)) == "{:a 1, :b 2, :c 3}"
    assert pr_str(assoc(vec([1, 2, 3]), 1, A)) == "[1 :a 3]"
    assert pr_str(assoc(vec([1, 2]), 2, 3)) == "[1 2 3]"
    assert pr_str(assoc(vec([1]), BigInt(0), 9)) == "[9]"
    assert pr_str(assoc(None, A, 1)) == "{:a 1}"
    assert type(assoc(LineVector(vec(["r"]), ((4, 1),)), 0, "s")) is PVector
    assert type(assoc(sorted_map(B, 1), A, 2)) is SortedMap


def test_assoc_errors() -> None:
    with pytest.raises(HostError, match="^$"):
        assoc(vec([1, 2]), 3, 0)
    with pytest.raises(HostError, match="^$"):
        assoc(vec([1, 2]), -1, 0)
    with pytest.raises(HostError, match="^Key must be integer$"):
        assoc(vec([1]), A, 0)
    with pytest.raises(HostError, match="^Key must be integer$"):
        assoc(vec([1]), 0.0, 0)
    with pytest.raises(HostError, match="^assoc expects even number of arguments after map/vector, found odd number$"):
        assoc(EMPTY_MAP, A, 1, B)
    with pytest.raises(HostError, match="PersistentList cannot be cast to class clojure.lang.Associative"):
        assoc(plist([1]), 0, 1)


def test_assoc_in_and_update_in_create_maps() -> None:
    assert pr_str(assoc_in(EMPTY_MAP, vec([A, B]), 1)) == "{:a {:b 1}}"
    assert pr_str(assoc_in(spell_map(A, vec([0, 1])), vec([A, 1]), 9)) == "{:a [0 9]}"
    assert pr_str(assoc_in(EMPTY_MAP, vec([]), 1)) == "{nil 1}"
    assert pr_str(update_in(D, spell_map(A, spell_map(B, 1)), vec([A, B]), lambda x, y: x * y, 5)) == "{:a {:b 5}}"
    assert pr_str(update_in(D, None, vec([A]), lambda x: x)) == "{:a nil}"
    deep = assoc_in(EMPTY_MAP, vec([A] * 3000), 1)
    assert get_in(deep, vec([A] * 3000)) == 1


def test_update_calls_spell_functions_with_extra_args() -> None:
    assert pr_str(update(D, spell_map(Keyword("n"), 1), Keyword("n"), lambda *xs: sum(xs), 10, 100)) == "{:n 111}"
    dbl = spell_fn(["x"], lambda D, h, x: x * 2)
    assert pr_str(update(D, spell_map(A, 5), A, dbl)) == "{:a 10}"
    add2 = spell_fn(["x", "y"], lambda D, h, x, y: x + y)
    assert pr_str(update(D, spell_map(A, 1), A, add2, 5)) == "{:a 6}"
    assert pr_str(update(D, vec([1, 2]), 0, inc)) == "[2 2]"
    with pytest.raises(HostError, match="^Wrong number of args: expected 2, got 1$"):
        update(D, spell_map(A, 1), A, add2)


def test_dissoc_and_disj() -> None:
    assert pr_str(dissoc(spell_map(A, 1, B, 2, C, 3), A, C)) == "{:b 2}"
    assert dissoc(None, A) is None
    m = spell_map(A, 1)
    assert dissoc(m) is m and dissoc(5) == 5
    with pytest.raises(HostError, match="PersistentVector cannot be cast to class clojure.lang.IPersistentMap"):
        dissoc(vec([1]), 0)
    assert pr_str(disj(SpellSet.from_items([1, 2, 3]), 2, 3)) == "#{1}"
    assert disj(None, 1) is None
    assert is_sorted_set(disj(sorted_set(3, 1, 2), 2))
    with pytest.raises(HostError, match="cannot be cast to class clojure.lang.IPersistentSet"):
        disj(vec([1]), 1)


# -- membership and entries ---------------------------------------------------------


def test_contains() -> None:
    assert [contains(spell_map(A, None), A), contains(vec([5, 6]), 1), contains(vec([5, 6]), 5),
            contains(SpellSet.from_items([A]), A), contains(None, A), contains("abc", 2), contains("abc", 3),
            contains("abc", 1.5), contains(vec([1]), 0.0)] == [True, True, False, True, False, True, False, True, False]
    with pytest.raises(HostError, match="^contains\\? not supported on type: clojure.lang.PersistentList$"):
        contains(plist([1]), 0)
    with pytest.raises(HostError, match="^contains\\? not supported on type: java.lang.Long$"):
        contains(5, 0)
    with pytest.raises(HostError, match="^contains\\? not supported on type: java.lang.String$"):
        contains("abc", A)


def test_find_key_val() -> None:
    assert pr_str(vec([find(spell_map(A, 1), A), find(spell_map(A, 1), B)])) == "[[:a 1] nil]"
    assert pr_str(find(vec([5, 6]), 1)) == "[1 6]" and find(vec([5]), 3) is None and find(None, A) is None
    with pytest.raises(HostError, match="PersistentHashSet cannot be cast to class java.util.Map"):
        find(SpellSet.from_items([1]), 1)
    e = first(spell_map(Keyword("k"), Keyword("v")))
    assert key(e) is Keyword("k") and val(e) is Keyword("v")
    with pytest.raises(HostError, match="PersistentVector cannot be cast to class java.util.Map\\$Entry"):
        key(vec([1, 2, 3]))
    with pytest.raises(HostError, match="because \"e\" is null"):
        val(None)


def test_keys_and_vals_are_seqs_or_nil() -> None:
    ks = keys(spell_map(A, 1, B, 2))
    assert pr_str(ks) == "(:a :b)" and type(ks) is PList and ks.is_seq
    assert pr_str(vals(spell_map(A, 1, B, 2))) == "(1 2)"
    assert keys(EMPTY_MAP) is None and vals(None) is None
    assert pr_str(keys(sorted_map(B, 1, A, 2))) == "(:a :b)"
    with pytest.raises(HostError, match="java.lang.Long cannot be cast to class java.util.Map\\$Entry"):
        keys(vec([1, 2]))


# -- whole-map operations --------------------------------------------------------------


def test_merge() -> None:
    assert pr_str(merge(spell_map(A, 1), spell_map(B, 2), spell_map(A, 3))) == "{:a 3, :b 2}"
    assert pr_str(merge(None, spell_map(A, 1))) == "{:a 1}"
    assert merge() is None and merge(None, None) is None
    assert pr_str(merge(spell_map(A, 1), None)) == "{:a 1}"
    big = SpellMap.from_pairs([(i, i) for i in range(30)])
    merged = merge(spell_map(A, 1), big)
    assert count(merged) == 31 and first(merged)[0] is A
    assert type(merge(sorted_map(B, 1), spell_map(A, 2))) is SortedMap


def test_merge_with_starts_from_an_empty_map() -> None:
    assert pr_str(merge_with(D, add, spell_map(A, 1), spell_map(A, 2, B, 3))) == "{:a 3, :b 3}"
    assert pr_str(merge_with(D, add)) == "{}"
    assert pr_str(merge_with(D, add, None, spell_map(A, 1))) == "{:a 1}"
    assert type(merge_with(D, add, sorted_map(A, 1))) is SpellMap


def test_select_keys_zipmap() -> None:
    assert pr_str(select_keys(spell_map(A, 1, B, 2, C, 3), vec([C, A, Keyword("z")]))) == "{:c 3, :a 1}"
    assert pr_str(select_keys(None, vec([A]))) == "{}"
    assert pr_str(select_keys(vec([A, B]), vec([1]))) == "{1 :b}"
    assert pr_str(zipmap(vec([A, B, C]), vec([1, 2]))) == "{:a 1, :b 2}"
    assert pr_str(zipmap(vec([A, A]), vec([1, 2]))) == "{:a 2}"


def test_update_keys_and_vals() -> None:
    assert pr_str(update_keys(D, spell_map(A, 1), name)) == '{"a" 1}'
    assert pr_str(update_vals(D, spell_map(A, 1, B, 2), inc)) == "{:a 2, :b 3}"
    assert pr_str(update_vals(D, None, inc)) == "{}"
    assert type(update_vals(D, sorted_map(A, 1), inc)) is SpellMap
    with pytest.raises(HostError, match="nth not supported on this type: Long"):
        update_vals(D, vec([1]), inc)


def test_into() -> None:
    assert pr_str(into(plist([]), vec([1, 2]))) == "(2 1)"
    assert pr_str(into(EMPTY_MAP, vec([vec([A, 1])]))) == "{:a 1}"
    assert pr_str(into(EMPTY_MAP, spell_map(A, 1))) == "{:a 1}"
    assert pr_str(into(vec([0]), plist([1, 2]))) == "[0 1 2]"
    assert pr_str(into(None, vec([1, 2]))) == "(2 1)"
    assert pr_str(into(SpellSet.from_items([1]), vec([2, 1]))) == "#{1 2}"
    assert list(into(sorted_set(5), vec([3, 9]))) == [3, 5, 9]
    assert list(into(sorted_map(C, 1), spell_map(A, 2)).keys()) == [A, C]
    assert into("abc", vec([])) == "abc"
    with pytest.raises(HostError, match="cannot be cast to class clojure.lang.IPersistentCollection"):
        into("abc", vec([1]))
    with pytest.raises(HostError, match="^Vector arg to map conj must be a pair$"):
        into(EMPTY_MAP, vec([vec([1])]))
    many = into(EMPTY_MAP, vec([vec([i, i]) for i in range(100)]))
    assert count(many) == 100 and list(many.keys()) == list(range(100))


def test_frequencies_and_group_by_keep_first_occurrence_order() -> None:
    assert pr_str(frequencies(vec([A, B, A, 1, BigInt(1), 1.0]))) == "{:a 2, :b 1, 1 2, 1.0 1}"
    assert pr_str(group_by(D, count, vec(["a", "bb", "c"]))) == '{1 ["a" "c"], 2 ["bb"]}'
    size = spell_fn(["x"], lambda D, h, x: "big" if x > 3 else "small")
    assert pr_str(group_by(D, size, vec([1, 2, 4, 5]))) == '{"small" [1 2], "big" [4 5]}'
    assert pr_str(group_by(D, lambda x: x % 2 == 1, vec([1, 2, 3]))) == "{true [1 3], false [2]}"


# -- sorted collections ----------------------------------------------------------------


def test_sorted_constructors() -> None:
    assert pr_str(sorted_map(C, 3, A, 1, B, 2)) == "{:a 1, :b 2, :c 3}"
    assert pr_str(first(sorted_map(B, 1, A, 2))) == "[:a 2]"
    assert pr_str(sorted_set(3, 1, 2)) == "#{1 2 3}"
    assert pr_str(sorted_map()) == "{}" and pr_str(sorted_set()) == "#{}"
    with pytest.raises(HostError, match="^No value supplied for key: :a$"):
        sorted_map(A)
    with pytest.raises(HostError, match="^No value supplied for key: null$"):
        sorted_map(None)


def test_sorted_by_spell_comparators() -> None:
    greater = spell_fn(["a", "b"], lambda D, h, a, b: a > b)
    assert list(sorted_set_by(D, greater, 1, 3, 2)) == [3, 2, 1]
    minus = spell_fn(["a", "b"], lambda D, h, a, b: b - a)
    assert list(sorted_map_by(D, minus, 1, A, 2, B).keys()) == [2, 1]
    by_env = spell_fn(["a", "b"], lambda D, h, a, b: (a - b) * D[Symbol("dir")])
    assert list(sorted_set_by({Symbol("dir"): -1}, by_env, 1, 2, 3)) == [3, 2, 1]
    assert list(sorted_set_by(D, greater, 1, 1, 2)) == [2, 1]


def test_spell_comparator_results() -> None:
    assert spell_comparator(D, lambda a, b: True)(1, 2) == -1
    assert spell_comparator(D, lambda a, b: a > b)(2, 1) == -1
    assert spell_comparator(D, lambda a, b: a > b)(1, 2) == 1
    assert spell_comparator(D, lambda a, b: False)(1, 1) == 0
    assert spell_comparator(D, lambda a, b: 0.5)(1, 2) == 1
    assert spell_comparator(D, lambda a, b: Fraction(-1, 3))(1, 2) == -1
    with pytest.raises(HostError, match="java.lang.String cannot be cast to class java.lang.Number"):
        spell_comparator(D, lambda a, b: "x")(1, 2)
    with pytest.raises(HostError, match="null"):
        spell_comparator(D, lambda a, b: None)(1, 2)


# -- property tests against a Python model --------------------------------------------------

KEYS = [1, BigInt(1), 1.0, True, False, None, 0, 2, Fraction(1, 2), 0.5, "1", Char("1"), A, Symbol("a"),
        vec([1]), plist([1]), vec([1.0]), EMPTY, vec([]), spell_map(A, 1), EMPTY_SET]
key_st = st.sampled_from(KEYS)


class ModelMap:
    """An association list with Spell key equality: the meaning of a Spell map, slowly."""

    def __init__(self) -> None:
        self.pairs: list[list[Any]] = []

    def _index(self, k: Any) -> int:
        return next((i for i, (mk, _) in enumerate(self.pairs) if spell_eq(mk, k)), -1)

    def assoc(self, k: Any, v: Any) -> None:
        i = self._index(k)
        if i < 0:
            self.pairs.append([k, v])
        else:
            self.pairs[i][1] = v

    def dissoc(self, k: Any) -> None:
        i = self._index(k)
        if i >= 0:
            del self.pairs[i]

    def get(self, k: Any, default: Any) -> Any:
        i = self._index(k)
        return default if i < 0 else self.pairs[i][1]


@given(st.lists(st.tuples(st.booleans(), key_st, st.integers()), max_size=60))
def test_map_builtins_against_model(ops: list[tuple[bool, Any, int]]) -> None:
    m: Any = EMPTY_MAP
    model = ModelMap()
    missing = object()
    for is_assoc, k, v in ops:
        if is_assoc:
            m = assoc(m, k, v)
            model.assoc(k, v)
        else:
            m = dissoc(m, k)
            model.dissoc(k)
        assert count(m) == len(model.pairs)
    assert [(k, v) for k, v in m.items()] == [(k, v) for k, v in model.pairs]
    for k in KEYS:
        assert get(m, k, missing) is model.get(k, missing)
        assert contains(m, k) == (model.get(k, missing) is not missing)
    rebuilt = into(EMPTY_MAP, vec([vec(p) for p in model.pairs]))
    assert spell_eq(rebuilt, m) and list(rebuilt.keys()) == list(m.keys())


@given(st.lists(st.tuples(st.booleans(), key_st), max_size=60))
def test_set_builtins_against_model(ops: list[tuple[bool, Any]]) -> None:
    s: Any = EMPTY_SET
    model: list[Any] = []
    for is_conj, x in ops:
        present = any(spell_eq(y, x) for y in model)
        if is_conj:
            s = conj(s, x)
            if not present:
                model.append(x)
        else:
            s = disj(s, x)
            model = [y for y in model if not spell_eq(y, x)]
    assert list(s) == model
    for x in KEYS:
        assert contains(s, x) == any(spell_eq(y, x) for y in model)
    assert spell_eq(into(EMPTY_SET, vec(model)), s)


@given(st.lists(key_st, max_size=40))
def test_frequencies_against_model(xs: list[Any]) -> None:
    model = ModelMap()
    for x in xs:
        model.assoc(x, model.get(x, 0) + 1)
    assert list(frequencies(vec(xs)).items()) == [(k, v) for k, v in model.pairs]
