"""Core string builtins and the ``strings/`` namespace (language.md §14.5, §14.9, §14.10, §16.2)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import strings as s
from spell_runtime.core.registry import BUILTINS, info_of
from spell_runtime.data.atoms import BigInt, Char, Keyword, Symbol
from spell_runtime.data.hashmap import spell_map
from spell_runtime.data.plist import plist
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError

GRIN = "\U0001F600"


def host_error(fn: Any, *args: Any) -> str:
    with pytest.raises(HostError) as info:
        fn(*args)
    return info.value.message


def test_str_and_cat() -> None:
    assert s.str_() == "" and s.str_(None) == "" and s.str_("x") == "x"
    assert s.str_("a", 1, Keyword("b"), None, Symbol("c")) == "a1:bc"
    assert s.str_(1.0, BigInt(5), Fraction(1, 2), Char("z"), True) == "1.051/2ztrue"
    assert s.str_(vec([1, "a"]), spell_map(Keyword("k"), None)) == '[1 "a"]{:k nil}'
    assert s.cat("a", "b", 1) == "ab1"
    info = info_of(s.cat)
    assert info is not None and info.host_name == "cat"


def test_subs_uses_utf16_indices() -> None:
    assert s.subs("hello", 1, 3) == "el" and s.subs("hello", 2) == "llo" and s.subs("hello", 5) == ""
    assert s.subs("a" + GRIN + "b", 3) == "b"
    assert s.subs("a" + GRIN, 0, 2) == "a\ud83d"
    assert s.subs("hello", 1.7, 3.2) == "el"


@pytest.mark.parametrize(("args", "text"), [
    (("abc", 5), "begin 5, end 3, length 3"),
    (("hello", 2, 10), "begin 2, end 10, length 5"),
    (("hello", 3, 2), "begin 3, end 2, length 5"),
    (("hello", -1), "begin -1, end 5, length 5"),
    (("a" + GRIN, 0, 4), "begin 0, end 4, length 3"),
])
def test_subs_bounds_errors(args: tuple[Any, ...], text: str) -> None:
    assert host_error(s.subs, *args) == text


def test_subs_argument_types() -> None:
    assert host_error(s.subs, 5, 0).startswith("class java.lang.Long cannot be cast to class java.lang.String")
    assert host_error(s.subs, None, 0) == "Cannot use nil as a string"
    assert "cannot be cast to class java.lang.Character" in host_error(s.subs, "abc", "1")


def test_names() -> None:
    assert s.name(Keyword("y", "x")) == "y" and s.name(Symbol("a")) == "a" and s.name("str") == "str"
    assert s.namespace(Keyword("y", "x")) == "x" and s.namespace(Symbol("a")) is None
    assert host_error(s.name, 5).startswith("class java.lang.Long cannot be cast to class clojure.lang.Named")
    assert "clojure.lang.Named" in host_error(s.namespace, "a")


def test_symbol_and_keyword_split_at_the_first_slash() -> None:
    assert s.symbol("a") is Symbol("a") and s.symbol("ns", "a") is Symbol("a", "ns")
    assert s.symbol("a/b/c") is Symbol("b/c", "a") and s.symbol("/") is Symbol("/")
    assert s.symbol(Keyword("k", "n")) is Symbol("k", "n") and s.symbol(Symbol("q")) is Symbol("q")
    assert s.symbol(None, "a") is Symbol("a")
    assert host_error(s.symbol, 5) == "no conversion to symbol"
    assert s.keyword("a") is Keyword("a") and s.keyword("ns", "a") is Keyword("a", "ns")
    assert s.keyword("a/b") is Keyword("b", "a")
    assert s.keyword(Symbol("x", "y")) is Keyword("x", "y") and s.keyword(Keyword("z")) is Keyword("z")
    assert s.keyword(5) is None and s.keyword(None) is None


def test_random_uuid_is_a_version_4_string() -> None:
    u = s.random_uuid()
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", u)
    assert s.random_uuid() != u


def test_read_string_returns_the_first_form() -> None:
    assert s.read_string("(+ 1 2)") == plist([Symbol("+"), 1, 2])
    assert s.read_string("1 2") == 1
    assert s.read_string("   ") is None
    assert host_error(s.read_string, "(+ 1").startswith("EOF while reading")
    assert host_error(s.read_string, 5).startswith("class java.lang.Long cannot be cast")


# --------------------------------------------------------------------------- strings/


def test_search_functions() -> None:
    assert s.index_of("hello", "l") == 2 and s.last_index_of("hello", "l") == 3 and s.index_of("hello", "z") is None
    assert s.index_of(GRIN + "b", "b") == 2 and s.last_index_of("b" + GRIN + "b", "b") == 3
    assert s.index_of(None, "") == 0 and s.index_of(12345, 3) == 2
    assert s.starts_with("hello", "he") and s.ends_with("hello", "lo") and not s.includes("hello", "xyz")
    assert s.includes(vec([1, 2]), "1 2") and s.starts_with(None, "")


def test_blank_and_trim_use_java_whitespace() -> None:
    assert s.trim("  x y  ") == "x y" and s.trim("\u2003\t x \u3000") == "x" and s.trim(None) == ""
    assert s.trim("\u00a0x\u00a0") == "\u00a0x\u00a0"  # non-breaking spaces are not whitespace
    assert s.trim("\x1cx\x1f") == "x"
    assert s.blank("  ") and s.blank(None) and s.blank("") and not s.blank("a") and not s.blank("\u00a0")
    assert host_error(s.blank, 5).startswith("class java.lang.Long cannot be cast to class java.lang.CharSequence")


def test_replace_is_literal() -> None:
    assert s.replace("a.b.c", ".", "-") == "a-b-c"
    assert s.replace("a$b", "$", "\\1") == "a\\1b"
    assert s.replace("abc", "", "-") == "-a-b-c-"
    assert s.replace(GRIN, "", "-") == "-\ud83d-\ude00-"
    assert s.replace(None, "", "x") == "x" and s.replace(1.5, ".", ",") == "1,5"


def test_split_and_split_lines() -> None:
    assert s.split("a1b22c", "\\d+") == vec(["a", "b", "c"])
    assert s.split("a,b,,c,,", ",") == vec(["a", "b", "", "c"])
    assert s.split(",", ",") == vec([]) and s.split("", ",") == vec([""]) and s.split("abc", "") == vec(["a", "b", "c"])
    assert s.split("a.b", ".") == vec([])  # the pattern is a regex: "." matches everything
    assert s.split_lines("a\nb\r\nc") == vec(["a", "b", "c"])
    assert s.split_lines("a\n\n") == vec(["a"]) and s.split_lines("") == vec([""])
    assert host_error(s.split, "a", "(").startswith("Unclosed group")


def test_join() -> None:
    assert s.join("-", vec([1, 2, 3])) == "1-2-3" and s.join(vec(["a", None, "b"])) == "ab"
    assert s.join(", ", vec([])) == "" and s.join(None) == "" and s.join(",", "abc") == "a,b,c"
    assert s.join(None, plist([1, 2])) == "12"
    assert s.join(" ", spell_map(Keyword("a"), 1)) == "[:a 1]"
    assert host_error(s.join, ",", 5) == "Don't know how to create ISeq from: java.lang.Long"


def test_case_functions() -> None:
    assert s.upper_case("abc") == "ABC" and s.lower_case("ABC") == "abc" and s.upper_case("ß") == "SS"
    assert s.capitalize("hELLO") == "Hello" and s.capitalize("") == "" and s.capitalize("x") == "X"
    assert s.capitalize("ßa") == "SSa" and s.capitalize(GRIN + "A") == GRIN + "a"
    assert s.lower_case(Keyword("A")) == ":a"


@given(st.text())
def test_trim_leaves_no_java_whitespace_at_either_end(text: str) -> None:
    out = s.trim(text)
    assert out == "" or (out[0] not in s.JAVA_WHITESPACE and out[-1] not in s.JAVA_WHITESPACE)
    assert out in text
    assert s.blank(text) == (out == "")


def test_namespace_map() -> None:
    ns = BUILTINS[Symbol("strings")]
    assert ns is s.STRINGS_NS
    for name, fn in s.STRINGS_MEMBERS.items():
        assert ns.get(Keyword(name)) is fn
        info = info_of(fn)
        assert info is not None and info.host_name == "strings/" + name
    assert "clojure.string" in ns.get(Keyword("short-docs"))
    assert "split" in ns.get(Keyword("docs")).get(Keyword("guide"))
    assert "literal" in ns.get(Keyword("detail")).get(Keyword("replace"))
