"""Value forms and reader atoms (language.md §11.3, runtime.md §4.3.1–§4.3.3)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.registry import EnvFn
from spell_runtime.data import (
    EMPTY,
    EMPTY_MAP,
    EMPTY_SET,
    BigInt,
    Char,
    Float32,
    HostObject,
    Keyword,
    LineVector,
    Pattern,
    SpellFn,
    SpellMap,
    SpellSet,
    Symbol,
    keyword,
    plist,
    spell_eq,
    spell_map,
    symbol,
    vec,
)
from spell_runtime.errors import HostError
from spell_runtime.printer import render_form
from spell_runtime.readable import is_reader_atom, is_reader_keyword, is_reader_symbol
from spell_runtime.valueform import is_literal_data, value_form

K = keyword
S = symbol


def L(*items: Any) -> Any:
    return plist(items)


def R(v: Any) -> str:
    return render_form(value_form(v))


# -- reader atoms ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "sym",
    [S("a"), S("a", "ns"), S("trim", "strings"), S("c", "a/b"), S("/"), S("p1__123#"), S("-"), S("+"), S("-a"),
     S("->>"), S(".."), S("a.b"), S("a'b"), S("a:b"), S("*x*"), S("<="), S("/", "clojure.core")],
)
def test_readable_symbols(sym: Symbol) -> None:
    assert is_reader_symbol(sym)
    assert is_reader_atom(sym)


@pytest.mark.parametrize(
    "sym",
    [S("a b"), S("nil"), S("true"), S("false"), S("1a"), S("+1"), S("-2x"), S(":a"), S("#a"), S("'a"), S("%"),
     S("a:"), S("a::b"), S("a/b"), S(""), S("a,b"), S("a(b"), S("a;b"), S("a\\b"), S("a@b"), S("a^b"),
     S("a~b"), S("a`b"), S('a"b'), S("a[b"), S("a{b"), S("1", "ns"), S("a\u2003b"), S("a\nb"), S("*/x"),
     S("\u0663a")],
)
def test_unreadable_symbols(sym: Symbol) -> None:
    assert not is_reader_symbol(sym)


@pytest.mark.parametrize("kw", [K("a"), K("a", "ns"), K("1"), K("nil"), K("a-b?"), K("b", "a.c"), K("x#")])
def test_readable_keywords(kw: Keyword) -> None:
    assert is_reader_keyword(kw)


@pytest.mark.parametrize("kw", [K("a b"), K(":a"), K("a/b"), K("a:"), K(""), K("1", "ns"), K("a,b"), K("a", "")])
def test_unreadable_keywords(kw: Keyword) -> None:
    assert not is_reader_keyword(kw)


@pytest.mark.parametrize(
    ("x", "readable"),
    [(1, True), (BigInt(2**70), True), (Fraction(1, 3), True), (Decimal("1.50"), True), (1.5, True),
     (math.inf, True), (-0.0, True), (math.nan, False), (Float32(0.5), True), (Float32(0.1), False),
     (Float32(math.nan), False), ("1", False), (True, False), (None, False)],
)
def test_reader_numbers(x: Any, readable: bool) -> None:
    assert is_reader_atom(x) is readable


# -- value forms of atoms ------------------------------------------------------------------

@pytest.mark.parametrize(
    "x", [None, True, False, "s", 42, BigInt(3), 1.5, math.inf, Float32(0.1), Fraction(1, 3), Decimal("2.5"), Char("c")]
)
def test_self_evaluating_atoms_are_their_own_form(x: Any) -> None:
    assert value_form(x) is x


def test_nan_is_its_own_form() -> None:
    nan = math.nan
    assert value_form(nan) is nan
    assert R(nan) == "##NaN"


def test_symbol_forms() -> None:
    assert R(S("x")) == "(quote x)"
    assert R(S("trim", "strings")) == "(quote strings/trim)"
    assert R(S("a b")) == '(symbol "a b")'
    assert R(S("b c", "a")) == '(symbol "a" "b c")'
    assert R(S("nil")) == '(symbol "nil")'
    assert R(S("a/b")) == '(symbol "a/b")'


def test_keyword_forms() -> None:
    kw = K("a")
    assert value_form(kw) is kw
    assert R(K("a", "ns")) == ":ns/a"
    assert R(K("a b")) == '(keyword "a b")'
    assert R(K("b c", "a")) == '(keyword "a" "b c")'
    assert R(K(":a")) == '(keyword ":a")'


# -- value forms of composite values ----------------------------------------------------------

def test_spell_function_becomes_fn_source() -> None:
    f = SpellFn(vec([S("x")]), L(L(S("+"), S("x"), 1)))
    assert R(f) == "(fn [x] (+ x 1))"
    assert R(SpellFn(vec([]), EMPTY)) == "(fn [])"
    handmade = spell_map(K("fn", "spell"), True, K("params"), vec([S("a")]), K("body"), L(S("a"), S("a")))
    assert R(handmade) == "(fn [a] a a)"


def test_function_map_without_vector_params_is_written_as_a_map() -> None:
    odd = spell_map(K("fn", "spell"), True, K("params"), S("p"), K("body"), L(S("a")))
    assert R(odd) == "{:spell/fn true :params (quote p) :body (quote (a))}"
    assert not is_literal_data(odd)


def test_line_vector_becomes_first_line_form() -> None:
    lv = LineVector(vec(["a", "b"]), ((41, 2),))
    assert R(lv) == '(first-line 41 [\n "a" ; 41\n "b" ; 42\n])'


def test_line_vector_with_segments_and_gap_rows() -> None:
    lv = LineVector(vec(["a", "... gap ...", "z"]), ((10, 1), (None, 1), (99, 1)))
    form = value_form(lv)
    assert render_form(form) == '(first-line 10 [\n "a" ; 10\n] nil [\n "... gap ..."\n] 99 [\n "z" ; 99\n])'
    assert spell_eq(form, L(S("first-line"), 10, vec(["a"]), None, vec(["... gap ..."]), 99, vec(["z"])))


def test_line_vector_rows_get_value_forms_and_empty_line_vectors_keep_their_start() -> None:
    lv = LineVector(vec([S("sym")]), ((3, 1),))
    assert R(lv) == "(first-line 3 [\n (quote sym) ; 3\n])"
    assert R(LineVector(vec([]), ((5, 0),))) == "(first-line 5 [])"
    assert R(LineVector(vec([]), ())) == "(first-line nil [])"
    assert R(LineVector(vec(["a", "b"]), ((1, 1),))) == '(first-line 1 [\n "a" ; 1\n] nil [\n "b"\n])'


def test_literal_collections_are_quoted_whole() -> None:
    m = spell_map(K("a"), 1, K("b"), vec([S("x"), "s"]))
    form = value_form(m)
    assert spell_eq(form, L(S("quote"), m)) and form[1] is m
    assert R(m) == '(quote {:a 1 :b [x "s"]})'
    assert R(SpellSet.from_items([1, S("a")])) == "(quote #{1 a})"
    assert R(L(1, S("a"))) == "(quote (1 a))"
    assert R(plist([1, 2], is_seq=True)) == "(quote (1 2))"
    assert R(EMPTY) == "(quote ())"
    assert R(EMPTY_MAP) == "(quote {})"
    assert R(EMPTY_SET) == "(quote #{})"


def test_vectors_are_never_quoted() -> None:
    assert R(vec([1, 2])) == "[1 2]"
    assert R(vec([1, S("a"), vec([S("b")])])) == "[1 (quote a) [(quote b)]]"
    assert R(vec([spell_map(K("a"), 1)])) == "[(quote {:a 1})]"
    assert R(vec()) == "[]"


def test_other_maps_sets_and_lists() -> None:
    f = SpellFn(vec([S("x")]), L(S("x")))
    assert R(spell_map(K("f"), f, K("n"), 1)) == "{:f (fn [x] x) :n 1}"
    assert R(spell_map(S("a b"), 1)) == '(into {} [[(symbol "a b") 1]])'
    assert R(spell_map(K("k"), math.nan)) == "{:k ##NaN}"
    assert R(SpellSet.from_items([f])) == "(set [(fn [x] x)])"
    assert R(L(f, S("a"))) == "(list (fn [x] x) (quote a))"
    assert R(plist([S("a b")], is_seq=True)) == '(list (symbol "a b"))'
    assert R(L(LineVector(vec(["r"]), ((2, 1),)))) == '(list (first-line 2 [\n "r" ; 2\n]))'


def test_map_with_literal_collection_keys_keeps_them() -> None:
    f = SpellFn(vec([]), EMPTY)
    assert R(spell_map(vec([1, 2]), f)) == "{[1 2] (fn [])}"
    assert R(spell_map(vec([S("a b")]), 1)) == '(into {} [[[(symbol "a b")] 1]])'


@pytest.mark.parametrize(
    "host",
    [Pattern("a+"), HostObject("clojure.lang.Reduced", 1), EnvFn(lambda D: None, "partial"), len, object()],
)
def test_host_values_have_no_source(host: Any) -> None:
    with pytest.raises(HostError, match="^Value has no ordinary source representation$"):
        value_form(host)
    with pytest.raises(HostError):
        value_form(vec([1, vec([host])]))
    with pytest.raises(HostError):
        value_form(spell_map(K("future", "spell"), True, K("ref"), host))


def test_sorted_like_subclasses_are_maps() -> None:
    class Sub(SpellMap):
        pass

    m = Sub({})
    assert R(m) == "(quote {})"


def test_deep_nesting_and_shared_structure() -> None:
    v: Any = vec([S("a b")])
    for _ in range(20_000):
        v = vec([v])
    text = R(v)
    assert text == "[" * 20_001 + '(symbol "a b")' + "]" * 20_001
    shared: Any = vec([S("x")])
    for _ in range(60):
        shared = vec([shared, shared])
    form = value_form(shared)  # 2**60 paths, 61 distinct nodes: must be instant
    assert form[0] is form[1]
    deep_lit: Any = EMPTY
    for _ in range(20_000):
        deep_lit = L(deep_lit)
    assert value_form(deep_lit)[1] is deep_lit


def test_literal_data_predicate() -> None:
    assert is_literal_data(spell_map(K("a"), vec([1, "x", None, True, Char("c"), Fraction(1, 2)])))
    assert not is_literal_data(vec([math.nan]))
    assert not is_literal_data(vec([LineVector(vec([]), ())]))
    assert not is_literal_data(SpellFn(vec([]), EMPTY))
    assert not is_literal_data(vec([Pattern("x")]))
    assert is_literal_data(S("a"))
    assert not is_literal_data(S("a b"))


# -- properties ----------------------------------------------------------------------------

_names = st.from_regex(r"[a-z][a-z0-9\-?!*]{0,6}", fullmatch=True).filter(lambda s: s not in ("nil", "true", "false"))
_atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.characters().map(Char),
    _names.map(keyword),
    _names.map(symbol),
)
literal = st.recursive(
    _atoms,
    lambda c: st.one_of(
        st.lists(c, max_size=4).map(plist),
        st.lists(c, max_size=4).map(vec),
        st.lists(st.tuples(c, c), max_size=4).map(SpellMap.from_pairs),
        st.lists(c, max_size=4).map(SpellSet.from_items),
    ),
    max_leaves=20,
)


@given(literal)
def test_value_form_of_literal_data(v: Any) -> None:
    assert is_literal_data(v)
    form = value_form(v)
    if type(v) in (type(EMPTY), type(EMPTY_MAP), type(EMPTY_SET)):
        assert form.count == 2 and form.first is S("quote") and form[1] is v
    elif type(v) is type(vec()):
        assert type(form) is type(vec()) and len(form) == len(v)
    elif type(v) is Symbol:
        assert spell_eq(form, L(S("quote"), v))
    else:
        assert form is v
