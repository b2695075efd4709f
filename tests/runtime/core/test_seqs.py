"""Seq views and the basic sequence builtins: values, result kinds (list vs seq vs vector) and host errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.seqs import (
    EMPTY_SEQ,
    butlast,
    concat,
    conj,
    cons,
    count,
    ffirst,
    first,
    is_empty,
    last,
    list_,
    list_star,
    next_,
    not_empty,
    nth,
    peek,
    pop,
    rest,
    reverse,
    second,
    seq,
    seq_items,
    set_,
    subvec,
    to_iter,
    vec,
    vector,
)
from spell_runtime.data.atoms import Char, Keyword
from spell_runtime.data.equality import spell_eq
from spell_runtime.data.hashmap import EMPTY_MAP, SpellSet, spell_map
from spell_runtime.data.plist import EMPTY, PList, plist
from spell_runtime.data.sorted import is_sorted_set, sorted_set
from spell_runtime.data.vector import EMPTY_VECTOR, LineVector, PVector
from spell_runtime.data.vector import vec as v
from spell_runtime.errors import HostError
from spell_runtime.printer import pr_str

A, B = Keyword("a"), Keyword("b")


def is_list(x: Any) -> bool:
    return type(x) is PList and not x.is_seq


def is_seq_not_list(x: Any) -> bool:
    return type(x) is PList and x.is_seq


def lv(items: list[Any], start: int) -> LineVector:
    return LineVector(v(items), ((start, len(items)),))


# -- views ------------------------------------------------------------------------------


def test_seq_items_of_every_seqable_kind() -> None:
    assert list(seq_items(None)) == []
    assert list(seq_items(v([1, 2]))) == [1, 2]
    assert list(seq_items(plist([1, 2]))) == [1, 2]
    assert list(seq_items(lv(["x"], 3))) == ["x"]
    assert [pr_str(e) for e in seq_items(spell_map(A, 1, B, 2))] == ["[:a 1]", "[:b 2]"]
    assert list(seq_items(SpellSet.from_items([3, 1]))) == [3, 1]
    assert list(seq_items("ab")) == [Char("a"), Char("b")]


def test_strings_are_seen_as_utf16_units() -> None:
    units = list(seq_items("a\U0001F600"))
    assert units == [Char("a"), Char("\ud83d"), Char("\ude00")]
    assert count("a\U0001F600") == 3
    assert nth("a\U0001F600", 2) == Char("\ude00")


@pytest.mark.parametrize("bad, cls", [(5, "java.lang.Long"), (True, "java.lang.Boolean"),
                                      (Keyword("k"), "clojure.lang.Keyword"), (1.5, "java.lang.Double")])
def test_non_seqables_raise_the_iseq_error_eagerly(bad: Any, cls: str) -> None:
    msg = "^Don't know how to create ISeq from: " + cls.replace(".", r"\.") + "$"
    with pytest.raises(HostError, match=msg):
        to_iter(bad)
    with pytest.raises(HostError, match=msg):
        first(bad)
    with pytest.raises(HostError, match=msg):
        is_empty(bad)


# -- access -------------------------------------------------------------------------------


def test_first_second_last_ffirst() -> None:
    assert [first(v([1, 2])), first(plist([3])), first(None), first(EMPTY_VECTOR), first(EMPTY)] == [1, 3, None, None, None]
    assert first("xy") == Char("x") and first("") is None
    assert pr_str(first(spell_map(A, 1))) == "[:a 1]"
    assert first(SpellSet.from_items([7])) == 7
    assert [second(v([1, 2])), second(v([1])), second(plist([1, 2])), second("ab"), second(None)] == \
        [2, None, 2, Char("b"), None]
    assert [last(v([1, 2, 3])), last(plist([1, 2])), last(None), last(EMPTY_VECTOR), last("ab")] == \
        [3, 2, None, None, Char("b")]
    assert ffirst(v([v([1, 2]), 3])) == 1 and ffirst(spell_map(A, 1)) == A


def test_rest_next_and_seq_result_kinds() -> None:
    r = rest(v([1, 2, 3]))
    assert pr_str(r) == "(2 3)" and is_seq_not_list(r)
    assert rest(v([1])) is EMPTY and rest(None) is EMPTY and rest(EMPTY_VECTOR) is EMPTY
    assert is_list(rest(plist([1, 2, 3])))
    assert pr_str(rest("abc")) == r"(\b \c)"
    assert next_(v([1])) is None and pr_str(next_(plist([1, 2]))) == "(2)"
    assert seq(EMPTY_VECTOR) is None and seq(None) is None and seq("") is None and seq(EMPTY_MAP) is None
    lst = plist([1, 2])
    assert seq(lst) is lst
    s = seq(v([1, 2]))
    assert pr_str(s) == "(1 2)" and is_seq_not_list(s)
    assert pr_str(seq("ab")) == r"(\a \b)"
    assert pr_str(seq(spell_map(A, 1))) == "([:a 1])"


def test_nth_on_every_kind() -> None:
    assert nth(v([1, 2, 3]), 1) == 2
    assert nth(plist([1, 2, 3]), 2) == 3
    assert nth("abc", 0) == Char("a")
    assert nth(None, 0) is None and nth(None, 5, "d") == "d"
    assert nth(v([1, 2]), 5, Keyword("none")) is Keyword("none")
    assert nth(v([1, 2]), -1, None) is None
    assert nth(plist([1]), 3, "nf") == "nf"
    assert nth(lv(["r0", "r1"], 10), 1) == "r1"
    assert nth(v([1, 2]), 1.7) == 2  # RT.intCast truncates


def test_nth_errors() -> None:
    for coll in (v([1, 2]), plist([1, 2]), EMPTY_VECTOR):
        with pytest.raises(HostError) as info:
            nth(coll, 5)
        assert info.value.message == ""
    with pytest.raises(HostError, match="^$"):
        nth(v([1, 2]), -1)
    with pytest.raises(HostError, match="^index 5, length 3$"):
        nth("abc", 5)
    with pytest.raises(HostError, match="^nth not supported on this type: PersistentArrayMap$"):
        nth(spell_map(A, 1), 0)
    with pytest.raises(HostError, match="^nth not supported on this type: PersistentHashSet$"):
        nth(SpellSet.from_items([1]), 0, None)
    with pytest.raises(HostError, match="^nth not supported on this type: Long$"):
        nth(5, 0)
    with pytest.raises(HostError, match="^Value out of range for int: 4294967296$"):
        nth(v([1]), 2**32)


def test_count_and_its_error() -> None:
    assert [count(None), count(v([1, 2])), count(plist([1])), count("abc"), count(spell_map(A, 1, B, 2)),
            count(SpellSet.from_items([1, 2, 3])), count(lv(["a"], 1))] == [0, 2, 1, 3, 2, 3, 1]
    with pytest.raises(HostError, match="^count not supported on this type: Long$"):
        count(5)
    with pytest.raises(HostError, match="^count not supported on this type: Keyword$"):
        count(A)


def test_empty_and_not_empty() -> None:
    assert [is_empty(None), is_empty(EMPTY_VECTOR), is_empty(""), is_empty(EMPTY), is_empty(EMPTY_MAP),
            is_empty(v([1])), is_empty("a")] == [True, True, True, True, True, False, False]
    x = v([1])
    assert not_empty(x) is x and not_empty(EMPTY_VECTOR) is None and not_empty("") is None


def test_peek_and_pop() -> None:
    assert [peek(v([1, 2, 3])), peek(plist([1, 2, 3])), peek(EMPTY_VECTOR), peek(None)] == [3, 1, None, None]
    assert pr_str(pop(v([1, 2, 3]))) == "[1 2]" and pr_str(pop(plist([1, 2, 3]))) == "(2 3)"
    assert type(pop(lv(["a", "b"], 1))) is PVector
    assert pop(None) is None
    with pytest.raises(HostError, match="^Can't pop empty vector$"):
        pop(EMPTY_VECTOR)
    with pytest.raises(HostError, match="^Can't pop empty list$"):
        pop(EMPTY)
    with pytest.raises(HostError, match="PersistentArrayMap cannot be cast to class clojure.lang.IPersistentStack"):
        pop(spell_map(A, 1))
    with pytest.raises(HostError, match="java.lang.String cannot be cast to class clojure.lang.IPersistentStack"):
        peek("ab")


def test_butlast() -> None:
    b = butlast(v([1, 2, 3]))
    assert pr_str(b) == "(1 2)" and is_seq_not_list(b)
    assert butlast(v([1])) is None and butlast(None) is None


def test_subvec_bounds_and_errors() -> None:
    assert pr_str(subvec(v([0, 1, 2, 3, 4]), 1, 3)) == "[1 2]"
    assert pr_str(subvec(v([0, 1, 2]), 1)) == "[1 2]"
    assert pr_str(subvec(v([0, 1, 2]), 3)) == "[]"
    for args in ((3, 2), (-1, 1), (0, 4), (4,)):
        with pytest.raises(HostError, match="^$"):
            subvec(v([0, 1, 2]), *args)
    with pytest.raises(HostError, match="PersistentList cannot be cast to class clojure.lang.IPersistentVector"):
        subvec(plist([1, 2]), 0)


def test_subvec_rebases_line_numbers() -> None:
    src = lv(["a", "b", "c"], 101)
    sub = subvec(src, 1)
    assert type(sub) is LineVector and list(sub) == ["b", "c"] and sub.line_of(0) == 102
    empty = subvec(src, 1, 1)
    assert type(empty) is LineVector and len(empty) == 0 and empty.segments == ((102, 0),)
    assert subvec(src, 3).segments == ((104, 0),)


def test_reverse_is_a_vector() -> None:
    for coll, text in ((plist([1, 2, 3]), "[3 2 1]"), (v([1, 2]), "[2 1]"), (None, "[]"), ("ab", r"[\b \a]")):
        r = reverse(coll)
        assert type(r) is PVector and pr_str(r) == text


# -- construction ---------------------------------------------------------------------


def test_list_vector_vec_set() -> None:
    assert list_() is EMPTY and is_list(list_(1, 2)) and pr_str(list_(1, 2)) == "(1 2)"
    assert pr_str(vector()) == "[]" and pr_str(vector(1, 2)) == "[1 2]"
    assert pr_str(vec(plist([1, 2]))) == "[1 2]" and pr_str(vec(None)) == "[]"
    assert pr_str(vec(spell_map(A, 1))) == "[[:a 1]]" and pr_str(vec("ab")) == r"[\a \b]"
    assert type(vec(lv(["a"], 1))) is PVector
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        vec(5)
    assert pr_str(set_(v([1, 2, 2, 3]))) == "#{1 2 3}" and pr_str(set_(None)) == "#{}"
    ss = sorted_set([3, 1])
    assert set_(ss) is ss and is_sorted_set(set_(ss))


def test_list_star() -> None:
    assert list_star(None) is None
    assert list_star(v([])) is None
    assert pr_str(list_star(1, 2, v([3, 4]))) == "(1 2 3 4)"
    assert is_list(list_star(1, None)) and is_seq_not_list(list_star(1, v([2])))
    assert is_seq_not_list(list_star(0, 1, None))
    lst = plist([1])
    assert list_star(lst) is lst
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        list_star(1, 2)


def test_cons_result_kinds() -> None:
    c = cons(1, plist([2, 3]))
    assert pr_str(c) == "(1 2 3)" and is_seq_not_list(c) and is_list(c.rest)
    assert is_list(cons(1, None)) and pr_str(cons(1, None)) == "(1)"
    assert pr_str(cons(0, v([1, 2]))) == "(0 1 2)" and is_seq_not_list(cons(0, v([1])))
    assert pr_str(cons(0, EMPTY_VECTOR)) == "(0)" and count(cons(0, EMPTY_VECTOR)) == 1
    assert pr_str(cons(0, "ab")) == r"(0 \a \b)"
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        cons(1, 2)


def test_concat_is_a_seq() -> None:
    c = concat(v([1]), plist([2]), v([3, 4]))
    assert pr_str(c) == "(1 2 3 4)" and is_seq_not_list(c)
    assert concat() is EMPTY_SEQ and pr_str(concat()) == "()" and count(concat(None, EMPTY_VECTOR)) == 0
    assert is_seq_not_list(concat(plist([1])))
    assert pr_str(concat("ab", spell_map(A, 1))) == r"(\a \b [:a 1])"
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        concat(v([1]), 2)


def test_conj_on_every_kind() -> None:
    assert pr_str(conj()) == "[]"
    assert conj(5) == 5
    assert pr_str(conj(v([1]), 2, 3)) == "[1 2 3]"
    assert pr_str(conj(plist([1]), 2, 3)) == "(3 2 1)" and is_list(conj(plist([1]), 2))
    assert is_seq_not_list(conj(seq(v([1])), 0))
    assert pr_str(conj(None, 1)) == "(1)" and pr_str(conj(None, 1, 2)) == "(2 1)"
    assert pr_str(conj(SpellSet.from_items([1]), 1, 2)) == "#{1 2}"
    assert type(conj(lv(["a"], 1), "b")) is PVector
    assert list(conj(sorted_set([5, 1]), 3)) == [1, 3, 5]


def test_conj_onto_maps() -> None:
    m = spell_map(A, 1)
    assert pr_str(conj(m, v([B, 2]))) == "{:a 1, :b 2}"
    assert pr_str(conj(m, spell_map(B, 2, A, 3))) == "{:a 3, :b 2}"
    assert conj(m, None) is m
    assert pr_str(conj(m, plist([v([B, 2])]))) == "{:a 1, :b 2}"
    with pytest.raises(HostError, match="^Vector arg to map conj must be a pair$"):
        conj(m, v([1, 2, 3]))
    with pytest.raises(HostError, match="Character cannot be cast to class java.util.Map\\$Entry"):
        conj(m, "ab")
    with pytest.raises(HostError, match="ISeq from: java.lang.Long"):
        conj(m, 5)


def test_conj_onto_non_collections_is_a_cast_error() -> None:
    with pytest.raises(HostError, match="java.lang.String cannot be cast to class clojure.lang.IPersistentCollection"):
        conj("a", 1)


@given(st.lists(st.integers(), max_size=30))
def test_vector_and_list_views_agree(xs: list[int]) -> None:
    vv, ll = v(xs), plist(xs)
    assert spell_eq(vv, ll)
    assert count(vv) == count(ll) == len(xs)
    assert first(vv) == first(ll)
    assert spell_eq(rest(vv), rest(ll))
    assert spell_eq(reverse(vv), reverse(ll))
    assert spell_eq(conj(vv, 9), v(xs + [9])) and spell_eq(conj(ll, 9), v([9] + xs))
    for i in range(len(xs)):
        assert nth(vv, i) == nth(ll, i) == xs[i]


def test_seqs_module_registers_the_rest_of_the_sequence_library() -> None:
    from spell_runtime.core.registry import BUILTINS
    from spell_runtime.data.atoms import Symbol

    for name in ("map", "reduce", "take", "partition", "range", "sort-by"):
        assert Symbol(name) in BUILTINS
