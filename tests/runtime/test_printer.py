"""pr-str, str and the source renderer (language.md §5, runtime.md §4.3.4)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.registry import INFO, BuiltinInfo, EnvFn
from spell_runtime.data import (
    EMPTY,
    EMPTY_MAP,
    EMPTY_SET,
    BigInt,
    Char,
    Float32,
    HostObject,
    LineVector,
    Pattern,
    SpellFn,
    SpellMap,
    SpellSet,
    keyword,
    plist,
    spell_map,
    symbol,
    vec,
)
from spell_runtime.printer import display_str, host_class_text, pr_str, render_form

K = keyword
S = symbol


def L(*items: Any) -> Any:
    return plist(items)


# -- §5.1 atoms ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("value", "readable", "display"),
    [
        (None, "nil", ""),
        (True, "true", "true"),
        (False, "false", "false"),
        (42, "42", "42"),
        (-7, "-7", "-7"),
        (BigInt(42), "42N", "42"),
        (1.0, "1.0", "1.0"),
        (0.5, "0.5", "0.5"),
        (1e7, "1.0E7", "1.0E7"),
        (1e-4, "1.0E-4", "1.0E-4"),
        (-0.0, "-0.0", "-0.0"),
        (math.inf, "##Inf", "Infinity"),
        (-math.inf, "##-Inf", "-Infinity"),
        (math.nan, "##NaN", "NaN"),
        (Float32(0.1), "0.1", "0.1"),
        (Float32(math.inf), "##Inf", "Infinity"),
        (Fraction(1, 3), "1/3", "1/3"),
        (Fraction(-3, 4), "-3/4", "-3/4"),
        (Decimal("1.5"), "1.5M", "1.5"),
        (Decimal("1E+3"), "1E+3M", "1E+3"),
        ("abc", '"abc"', "abc"),
        (Char("a"), "\\a", "a"),
        (Char("\n"), "\\newline", "\n"),
        (Char(" "), "\\space", " "),
        (Char("\t"), "\\tab", "\t"),
        (Char("\b"), "\\backspace", "\b"),
        (Char("\f"), "\\formfeed", "\f"),
        (Char("\r"), "\\return", "\r"),
        (Char("\x01"), "\\\x01", "\x01"),
        (Char("é"), "\\é", "é"),
        (K("a"), ":a", ":a"),
        (K("a", "ns"), ":ns/a", ":ns/a"),
        (S("a"), "a", "a"),
        (S("a", "ns"), "ns/a", "ns/a"),
        (S("a b"), "a b", "a b"),
        (Pattern("a+"), '#"a+"', "a+"),
        (Pattern('say "hi"'), '#"say \\"hi\\""', 'say "hi"'),
    ],
)
def test_atoms(value: Any, readable: str, display: str) -> None:
    assert pr_str(value) == readable
    assert display_str(value) == display
    assert render_form(value) == readable


@pytest.mark.parametrize(
    ("s", "text"),
    [
        ('a"b', '"a\\"b"'),
        ("a\\b", '"a\\\\b"'),
        ("a\nb", '"a\\nb"'),
        ("a\tb", '"a\\tb"'),
        ("a\rb", '"a\\rb"'),
        ("a\fb", '"a\\fb"'),
        ("a\bb", '"a\\bb"'),
        ("\x00\x01\x7f", '"\x00\x01\x7f"'),
        ("é😀\u2028", '"é😀\u2028"'),
        ("", '""'),
    ],
)
def test_string_escapes_exactly_the_seven(s: str, text: str) -> None:
    assert pr_str(s) == text
    assert render_form(s) == text
    assert display_str(s) == s


def test_regex_escapes_are_copied_and_quoted_runs_are_left_for_a_quote() -> None:
    assert pr_str(Pattern('\\d+\\"x')) == '#"\\d+\\"x"'
    assert pr_str(Pattern('\\Qa"b\\E"')) == '#"\\Qa\\E\\"\\Qb\\E\\""'


# -- §5.2 collections and composite values -----------------------------------------------

def test_collections() -> None:
    assert pr_str(L(1, S("a"), "b")) == '(1 a "b")'
    assert pr_str(EMPTY) == "()"
    assert pr_str(plist([1, 2], is_seq=True)) == "(1 2)"
    assert display_str(plist([1, 2], is_seq=True)) == "(1 2)"  # Q8 fixed
    assert pr_str(vec([1, 2, 3])) == "[1 2 3]"
    assert pr_str(vec()) == "[]"
    assert pr_str(spell_map(K("a"), 1, K("b"), 2)) == "{:a 1, :b 2}"
    assert pr_str(EMPTY_MAP) == "{}"
    assert pr_str(SpellSet.from_items([1, 2, 3])) == "#{1 2 3}"
    assert pr_str(EMPTY_SET) == "#{}"
    assert pr_str(vec([K("a"), 1])) == "[:a 1]"  # a map entry is a vector


def test_line_vector_prints_as_its_plain_vector() -> None:
    lv = LineVector(vec(["a", "b"]), ((7, 2),))
    assert pr_str(lv) == '["a" "b"]'
    assert display_str(lv) == '["a" "b"]'
    assert render_form(lv) == '["a" "b"]'


def test_spell_function_prints_as_its_map() -> None:
    f = SpellFn(vec([S("x")]), L(L(S("+"), S("x"), 1)))
    assert pr_str(f) == "{:spell/fn true, :params [x], :body ((+ x 1))}"
    assert pr_str(SpellFn(vec([S("a")]), L(S("a")))) == "{:spell/fn true, :params [a], :body (a)}"
    assert render_form(f) == "{:spell/fn true :params [x] :body ((+ x 1))}"


def test_spell_macro_prints_as_nested_maps() -> None:
    expander = SpellFn(vec([S("test"), S("body")]), L(L(S("list"), L(S("quote"), S("if")), S("test"), None, S("body"))))
    macro = spell_map(K("macro", "spell"), True, K("expander"), expander)
    assert pr_str(macro) == (
        "{:spell/macro true, :expander {:spell/fn true, :params [test body], "
        ":body ((list (quote if) test nil body))}}"
    )


def test_quote_is_printed_literally() -> None:
    assert pr_str(L(S("quote"), S("x"))) == "(quote x)"
    assert render_form(L(S("quote"), spell_map(K("a"), 1))) == "(quote {:a 1})"


def test_namespaced_keyword_maps_are_not_abbreviated() -> None:
    assert pr_str(spell_map(K("a", "ns"), 1, K("b", "ns"), 2)) == "{:ns/a 1, :ns/b 2}"


def test_nested_elements_are_readable_in_both_modes() -> None:
    v = vec(["a", Char("b")])
    assert display_str(v) == '["a" \\b]'
    assert display_str(spell_map(K("a"), "b")) == '{:a "b"}'
    assert display_str(vec([1, "two", K("three")])) == '[1 "two" :three]'
    assert display_str(vec([1, "x", None])) == '[1 "x" nil]'


# -- host values (A6) --------------------------------------------------------------------

def test_registered_builtins_print_with_their_host_class(monkeypatch: pytest.MonkeyPatch) -> None:
    def inc(x: Any) -> Any:
        return x

    monkeypatch.setitem(INFO, id(inc), BuiltinInfo("inc", "clojure.core/inc", 1, 1, False, inc))
    assert pr_str(inc) == "#object[clojure.core$inc]"
    assert display_str(inc) == "#object[clojure.core$inc]"
    assert pr_str(vec([inc])) == "[#object[clojure.core$inc]]"


def test_host_class_names_are_munged_like_clojure() -> None:
    assert host_class_text("clojure.core/inc") == "clojure.core$inc"
    assert host_class_text("clojure.core/pr-str") == "clojure.core$pr_str"
    assert host_class_text("clojure.core/+") == "clojure.core$_PLUS_"
    assert host_class_text("clojure.core/even?") == "clojure.core$even_QMARK_"
    assert host_class_text("clojure.string/trim-newline") == "clojure.string$trim_newline"
    assert host_class_text("wrap-cat") == "wrap_cat"


def test_closures_and_python_callables_and_host_objects() -> None:
    closure = EnvFn(lambda D, *a: None, "partial")
    assert pr_str(closure) == "#object[partial]"

    def helper() -> None:
        return None

    assert pr_str(helper) == "#object[test_closures_and_python_callables_and_host_objects.<locals>.helper]"
    assert pr_str(HostObject("clojure.lang.Reduced", 1)) == "#object[clojure.lang.Reduced]"
    assert pr_str(object()) == "#object[object]"


# -- §5.3 examples -------------------------------------------------------------------------

def test_section_5_3_examples() -> None:
    assert pr_str("a\nb") == '"a\\nb"'
    assert "".join(display_str(x) for x in ["a", 1, K("k"), None, S("x"), 1.0]) == "a1:kx1.0"
    assert display_str(vec([1, "two", K("three")])) == '[1 "two" :three]'
    assert pr_str(spell_map(K("a"), 1, K("b"), vec([2, 3]))) == "{:a 1, :b [2 3]}"
    assert pr_str(L(S("quote"), S("x"))) == "(quote x)"
    assert " ".join(pr_str(x) for x in [Fraction(1, 2), BigInt(2), Decimal("1.5"), math.inf]) == "1/2 2N 1.5M ##Inf"
    assert "".join(display_str(x) for x in [BigInt(2), Decimal("1.5"), math.inf]) == "21.5Infinity"
    assert " ".join(pr_str(x) for x in [Char("a"), Char(" ")]) == "\\a \\space"
    assert "".join(display_str(x) for x in [Char("a"), Char(" ")]) == "a "
    assert " ".join(pr_str(x) for x in [1e7, 0.001, 1e-4]) == "1.0E7 0.001 1.0E-4"
    assert pr_str(spell_map(K("a"), spell_map(K("b"), 1), K("c"), EMPTY_SET)) == "{:a {:b 1}, :c #{}}"
    assert pr_str(vec([1, "a", K("k"), S("sym"), 1.5, BigInt(2), Fraction(3, 4)])) == '[1 "a" :k sym 1.5 2N 3/4]'


# -- §5.4 the source renderer ----------------------------------------------------------------

def test_render_form_maps_have_no_commas() -> None:
    m = spell_map(K("a"), 1, K("b"), 2)
    assert pr_str(m) == "{:a 1, :b 2}"
    assert render_form(m) == "{:a 1 :b 2}"
    assert render_form(vec([m, SpellSet.from_items([m]), L(m)])) == "[{:a 1 :b 2} #{{:a 1 :b 2}} ({:a 1 :b 2})]"


def test_render_form_first_line_layout() -> None:
    form = L(S("first-line"), 7, vec(["a", "b"]))
    assert render_form(form) == '(first-line 7 [\n "a" ; 7\n "b" ; 8\n])'
    # pr-str has no layout rule for it
    assert pr_str(form) == '(first-line 7 ["a" "b"])'


def test_render_form_first_line_with_several_pairs_nil_start_and_empty_rows() -> None:
    form = L(S("first-line"), 41, vec(["a"]), None, vec(["gap"]), 99, vec([]))
    assert render_form(form) == '(first-line 41 [\n "a" ; 41\n] nil [\n "gap"\n] 99 [])'


def test_render_form_runtime_example() -> None:
    m = spell_map(K("out"), L(S("first-line"), 41, vec(["a", "b"])), K("n"), 2)
    assert render_form(m) == '{:out (first-line 41 [\n "a" ; 41\n "b" ; 42\n]) :n 2}'


def test_render_form_rows_are_rendered_recursively() -> None:
    form = L(S("first-line"), 1, vec([spell_map(K("a"), 1)]))
    assert render_form(form) == "(first-line 1 [\n {:a 1} ; 1\n])"


@pytest.mark.parametrize(
    "form",
    [
        L(S("first-line")),
        L(S("first-line"), 7),
        L(S("first-line"), 7, L("a")),
        L(S("first-line"), "7", vec(["a"])),
        L(S("first-line"), 1.5, vec(["a"])),
        L(S("first-line"), True, vec(["a"])),
        L(S("first-line"), 1, vec(["a"]), 2),
    ],
)
def test_render_form_other_first_line_lists_render_plainly(form: Any) -> None:
    assert render_form(form) == pr_str(form)


# -- robustness ----------------------------------------------------------------------------

def test_deep_nesting_does_not_hit_the_recursion_limit() -> None:
    v: Any = vec()
    for _ in range(10_000):
        v = vec([v, L(1)])
    text = pr_str(v)
    assert text.startswith("[" * 10_000 + "[] (1)]")
    assert render_form(v) == text
    deep: Any = EMPTY
    for _ in range(50_000):
        deep = L(deep)
    assert pr_str(deep) == "(" * 50_000 + "()" + ")" * 50_000


def test_deeply_nested_maps_and_sets() -> None:
    m: Any = EMPTY_MAP
    for i in range(20_000):
        m = spell_map(K("k"), m, i, SpellSet.from_items([i]))
    text = pr_str(m)
    assert text.count("{:k ") == 20_000
    assert render_form(m).count(", ") == 0


def test_large_collections() -> None:
    v = vec(range(200_000))
    assert pr_str(v) == "[" + " ".join(str(i) for i in range(200_000)) + "]"
    m = SpellMap.from_pairs((i, i) for i in range(50_000))
    assert pr_str(m) == "{" + ", ".join(f"{i} {i}" for i in range(50_000)) + "}"


# -- properties ----------------------------------------------------------------------------

_names = st.from_regex(r"[a-z][a-z0-9\-?!*]{0,6}", fullmatch=True).filter(lambda s: s != "first-line")
_atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(min_value=2**63, max_value=2**80).map(BigInt),
    st.floats(),
    st.fractions().filter(lambda f: f.denominator != 1),
    st.text(max_size=8),
    st.characters().map(Char),
    _names.map(K),
    _names.map(S),
)


def _collections(children: Any) -> Any:
    return st.one_of(
        st.lists(children, max_size=4).map(plist),
        st.lists(children, max_size=4).map(vec),
        st.lists(st.tuples(children, children), max_size=4).map(SpellMap.from_pairs),
        st.lists(children, max_size=4).map(SpellSet.from_items),
    )


literal_data = st.recursive(_atoms, _collections, max_leaves=20)


def _reference(x: Any, entry_sep: str) -> str:
    """A straightforward recursive printer of generated literal data, to compare against."""
    if type(x) is type(EMPTY) and not isinstance(x, str):
        return "(" + " ".join(_reference(e, entry_sep) for e in x) + ")"
    if isinstance(x, SpellMap):
        return "{" + entry_sep.join(_reference(k, entry_sep) + " " + _reference(v, entry_sep)
                                    for k, v in x.items()) + "}"
    if isinstance(x, SpellSet):
        return "#{" + " ".join(_reference(e, entry_sep) for e in x) + "}"
    if type(x) is type(vec()):
        return "[" + " ".join(_reference(e, entry_sep) for e in x) + "]"
    return pr_str(x)  # atoms are covered by the tables above


@given(literal_data)
def test_pr_str_and_render_form_differ_only_in_map_commas(x: Any) -> None:
    assert pr_str(x) == _reference(x, ", ")
    assert render_form(x) == _reference(x, " ")


@given(literal_data)
def test_display_str_of_a_collection_is_its_readable_text(x: Any) -> None:
    if isinstance(x, (SpellMap, SpellSet)) or type(x) in (type(EMPTY), type(vec())):
        assert display_str(x) == pr_str(x)
