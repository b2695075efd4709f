"""``compare`` with Java's magnitudes (language.md §4.4, A5) and the equality/logic builtins (§4.2, §14.4)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import compare as cm
from spell_runtime.data.atoms import BigInt, Char, Keyword, Pattern, Symbol
from spell_runtime.data.hashmap import EMPTY_SET, spell_map
from spell_runtime.data.plist import plist
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError


def host_error(fn: Any, *args: Any) -> str:
    with pytest.raises(HostError) as info:
        fn(*args)
    return info.value.message


@pytest.mark.parametrize(("a", "b", "expected"), [
    (1, 2, -1), (2, 2, 0), (3, 2, 1), (1, 2.5, -1), (Fraction(1, 2), 0.5, 0), (BigInt(10**30), 1, 1),
    (Decimal("1.0"), 1, 0), (math.nan, 1, 0),
    ("a", "c", -2), ("ab", "a", 1), ("a", "abc", -2), ("b", "a", 1), ("", "", 0),
    (Char("a"), Char("d"), -3),
    (Keyword("a"), Keyword("b"), -1), (Keyword("b", "x"), Keyword("a"), 1), (Keyword("a"), Keyword("a", "x"), -1),
    (Keyword("k", "ab"), Keyword("k", "a"), 1), (Symbol("z"), Symbol("aa"), 25),
    (False, True, -1), (True, False, 1), (True, True, 0),
    (None, 1, -1), (1, None, 1), (None, None, 0), (None, "a", -1),
    (vec([1, 2]), vec([1, 3]), -1), (vec([1]), vec([0, 0]), -1), (vec([0, 0]), vec([9]), 1),
    (vec(["b"]), vec(["a"]), 1), (vec([]), vec([]), 0),
])
def test_compare_values_and_magnitudes(a: Any, b: Any, expected: int) -> None:
    assert cm.compare(a, b) == expected


def test_strings_compare_by_utf16_code_units() -> None:
    # U+FF61 is above the surrogates that encode U+1F600, so UTF-16 order differs from code point order
    assert cm.compare("\U0001F600", "\uff61") < 0
    assert cm.compare("a\U0001F600", "a\U0001F600b") == -1


@pytest.mark.parametrize(("a", "b", "text"), [
    ("a", 1, "class java.lang.Long cannot be cast to class java.lang.String (java.lang.Long and java.lang.String "
             "are in module java.base of loader 'bootstrap')"),
    (1, "a", "class java.lang.String cannot be cast to class java.lang.Number (java.lang.String and "
             "java.lang.Number are in module java.base of loader 'bootstrap')"),
    (Keyword("a"), Symbol("a"), "class clojure.lang.Symbol cannot be cast to class clojure.lang.Keyword "
                                "(clojure.lang.Symbol and clojure.lang.Keyword are in unnamed module of loader 'app')"),
    (plist([1]), plist([2]), "class clojure.lang.PersistentList cannot be cast to class java.lang.Comparable "
                             "(clojure.lang.PersistentList is in unnamed module of loader 'app'; "
                             "java.lang.Comparable is in module java.base of loader 'bootstrap')"),
    (vec([1]), plist([1]), "class clojure.lang.PersistentList cannot be cast to class "
                           "clojure.lang.IPersistentVector (clojure.lang.PersistentList and "
                           "clojure.lang.IPersistentVector are in unnamed module of loader 'app')"),
])
def test_incomparable_pairs_fail_with_the_jvm_text(a: Any, b: Any, text: str) -> None:
    assert host_error(cm.compare, a, b) == text


def test_maps_sets_and_patterns_are_not_comparable() -> None:
    for x in (spell_map(Keyword("a"), 1), EMPTY_SET, Pattern("a")):
        assert "cannot be cast to class java.lang.Comparable" in host_error(cm.compare, x, 1)
    assert "java.lang.Boolean" in host_error(cm.compare, True, 1)
    assert "java.lang.Character" in host_error(cm.compare, Char("a"), "a")


def test_vectors_compare_elements_with_compare() -> None:
    assert host_error(cm.compare, vec([1]), vec(["a"])).startswith("class java.lang.String cannot be cast")


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


SCALARS = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(lambda i: ("n", i)),
    st.floats(allow_nan=False).map(lambda f: ("n", f)),
    st.fractions().map(lambda f: ("n", f if f.denominator != 1 else BigInt(f.numerator))),
    st.text().map(lambda s: ("s", s)),
    st.tuples(st.none() | st.text(max_size=3), st.text(max_size=3)).map(lambda t: ("k", Keyword(t[1], t[0]))),
    st.lists(st.integers(-5, 5), max_size=4).map(lambda xs: ("v", vec(xs))),
    st.booleans().map(lambda b: ("b", b)),
)


@given(SCALARS, SCALARS)
def test_compare_is_antisymmetric(x: tuple[str, Any], y: tuple[str, Any]) -> None:
    (kx, a), (ky, b) = x, y
    if kx != ky:
        return
    assert sign(cm.compare(a, b)) == -sign(cm.compare(b, a))
    if kx == "s":
        assert sign(cm.compare(a, b)) == sign((a.encode("utf-16-be") > b.encode("utf-16-be"))
                                              - (a.encode("utf-16-be") < b.encode("utf-16-be")))


@given(st.lists(st.integers(), max_size=6))
def test_compare_matches_python_order_for_ints(xs: list[int]) -> None:
    from functools import cmp_to_key

    assert sorted(xs, key=cmp_to_key(cm.compare)) == sorted(xs)


# --------------------------------------------------------------------------- = not= and friends


def test_equality_builtins() -> None:
    assert cm.equals(1) is True
    assert cm.equals(1, BigInt(1)) and not cm.equals(1, 1.0) and not cm.equals(True, 1)
    assert cm.equals(2, 2, 2) and not cm.equals(2, 2, 3)
    assert cm.equals(vec([1, 2]), plist([1, 2]))
    assert not cm.equals(math.nan, math.nan)
    assert cm.not_equals(1, 2) and not cm.not_equals(1, 1) and cm.not_equals(1, 1, 2) and not cm.not_equals(5)


def test_logic_builtins() -> None:
    assert cm.not_(None) and cm.not_(False) and not cm.not_(0) and not cm.not_("")
    assert cm.identity(x := object()) is x
    assert cm.any_(None) is True
    assert cm.nil_(None) and not cm.nil_(False)
    assert cm.some_(False) and not cm.some_(None)
    assert cm.true_(True) and not cm.true_(1) and cm.false_(False) and not cm.false_(None)
    assert cm.boolean_(False) and not cm.boolean_(0)


def test_distinct() -> None:
    assert cm.distinct_(1) and cm.distinct_(1, 2, 3)
    assert not cm.distinct_(1, BigInt(1)) and cm.distinct_(1, 1.0) and cm.distinct_(1, True)
    assert not cm.distinct_(1, 2, vec([1]), plist([1]))
    assert cm.distinct_(math.nan, math.nan, math.nan)
