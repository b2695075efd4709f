"""Type predicates and ``type`` (§3.1 table, §14.5)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from spell_runtime.core.combinators import partial
from spell_runtime.core.reducing import make_reduced
from spell_runtime.core.seqs import concat, cons, first, rest
from spell_runtime.core.types import (
    is_coll,
    is_fn,
    is_fn_builtin,
    is_keyword,
    is_list,
    is_map,
    is_seq,
    is_sequential,
    is_set,
    is_string,
    is_symbol,
    is_vector,
    type_,
)
from spell_runtime.data.atoms import BigInt, Char, Float32, HostObject, Keyword, Pattern, Symbol
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.hashmap import EMPTY_MAP, EMPTY_SET, spell_map
from spell_runtime.data.plist import EMPTY, plist
from spell_runtime.data.sorted import sorted_map, sorted_set
from spell_runtime.data.vector import LineVector, vec

A = Keyword("a")
FN = SpellFn(vec([Symbol("x")]), plist([Symbol("x")]))
MACRO = spell_map(Keyword("macro", "spell"), True, Keyword("expander"), FN)
FUTURE = spell_map(Keyword("future", "spell"), True, Keyword("ref"), HostObject("java.util.concurrent.Future", 0))
HAND_FN = spell_map(Keyword("fn", "spell"), True, Keyword("params"), vec([]), Keyword("body"), EMPTY)


@pytest.mark.parametrize("value, name", [
    (None, "nil"), (True, "boolean"), (False, "boolean"), (42, "number"), (BigInt(42), "number"),
    (1.5, "number"), (Float32(1.5), "number"), (Fraction(1, 3), "number"), (Decimal("1.5"), "number"),
    ("abc", "string"), (A, "keyword"), (Symbol("a"), "symbol"), (plist([1, 2]), "list"), (EMPTY, "list"),
    (concat(vec([1])), "list"), (vec([1]), "vector"), (first(spell_map(A, 1)), "vector"),
    (LineVector(vec(["r"]), ((1, 1),)), "vector"), (spell_map(A, 1), "map"), (sorted_map([(A, 1)]), "map"),
    (EMPTY_SET, "set"), (sorted_set([1]), "set"), (FN, "function"), (HAND_FN, "function"), (first, "function"),
    (partial(first), "function"), (MACRO, "map"), (FUTURE, "map"),
    (Char("a"), "class java.lang.Character"), (Pattern("a+"), "class java.util.regex.Pattern"),
    (make_reduced(1), "class clojure.lang.Reduced"),
])
def test_type_strings(value: Any, name: str) -> None:
    assert type_(value) == name


def test_collection_predicates() -> None:
    lst, sq, v, m, s = plist([1]), rest(vec([1, 2])), vec([1]), spell_map(A, 1), EMPTY_SET
    assert [is_list(lst), is_list(sq), is_list(EMPTY), is_list(cons(1, lst)), is_list(v)] == [True, False, True, False, False]
    assert [is_seq(lst), is_seq(sq), is_seq(EMPTY), is_seq(v), is_seq(None)] == [True, True, True, False, False]
    assert [is_vector(v), is_vector(first(m)), is_vector(lst)] == [True, True, False]
    assert [is_set(s), is_set(sorted_set([1])), is_set(m)] == [True, True, False]
    assert all(is_coll(x) for x in (lst, sq, v, m, s, FN, FUTURE, MACRO))
    assert not any(is_coll(x) for x in (None, "s", 1, A))
    assert [is_sequential(lst), is_sequential(v), is_sequential(m), is_sequential("ab")] == [True, True, False, False]


def test_map_predicate_excludes_functions_and_futures() -> None:
    assert [is_map(spell_map(A, 1)), is_map(FN), is_map(HAND_FN), is_map(FUTURE), is_map(MACRO),
            is_map(sorted_map([(A, 1)])), is_map(vec([]))] == [True, False, False, False, True, True, False]


def test_fn_predicate() -> None:
    assert [is_fn_builtin(FN), is_fn_builtin(HAND_FN), is_fn_builtin(first), is_fn_builtin(partial(first))] == \
        [True, True, True, True]
    assert not any(is_fn(x) for x in (A, Symbol("a"), spell_map(A, 1), EMPTY_SET, vec([]), MACRO, None, "s", int))


def test_scalar_predicates() -> None:
    assert [is_string("a"), is_string(Char("a")), is_keyword(A), is_keyword(Symbol("a")), is_symbol(Symbol("a")),
            is_symbol("a")] == [True, False, True, False, True, False]
    assert is_map(EMPTY_MAP) is True
