"""Java regex on ``re`` (language.md §14.9, §16.3): translation, errors, find/matches/seq, split."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import regex as rx
from spell_runtime.data.atoms import Keyword, Pattern
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError


def find(p: str, s: str) -> Any:
    return rx.re_find(p, s)


def syntax_error(p: str) -> str:
    with pytest.raises(HostError) as info:
        rx.compile_java(p)
    return info.value.message


@pytest.mark.parametrize(("p", "s", "expected"), [
    ("\\d+", "ab12cd345", "12"),
    ("(\\w)(\\d)", "a1", vec(["a1", "a", "1"])),
    ("(a)(x)?", "ab", vec(["a", "a", None])),
    ("x", "abc", None),
    ("\\w+", "héllo", "h"),  # \w is ASCII in Java
    ("(?U)\\w+", "héllo", "héllo"),
    ("\\s+", "a\u00a0 b", " "),
    ("a.c", "a\rc a\u2028c abc", "abc"),
    ("(?s)a.c", "a\nc", "a\nc"),
    ("(?d)a.c", "a\rc", "a\rc"),
    ("(?i)ABC", "xabcx", "abc"),
    ("(?i)straße", "STRASSE", None),
    ("a(?i)b|c", "C", "C"),
    ("(a(?i)b)c", "aBC", None),
    ("(a(?i)b)c", "aBc", vec(["aBc", "aB"])),
    ("(?i:a)b", "Ab AB", "Ab"),
    ("(?x) a b # comment\n c", "abc", "abc"),
    ("(?x)[a b]+", "a b", "a"),
    ("\\Qa.b\\E.", "a.bc", "a.bc"),
    ("[\\Q.]\\E]+", "x.]y", ".]"),
    ("(?<year>\\d{4})-\\k<year>", "2024-2024", vec(["2024-2024", "2024"])),
    ("(a)\\1", "aa", vec(["aa", "a"])),
    ("(a)\\12", "aa2", vec(["aa2", "a"])),
    ("\\x41\\x{1F600}\\u0042\\0101\\t", "A\U0001F600BA\t", "A\U0001F600BA\t"),
    ("\\uD83D\\uDE00", "x\U0001F600", "\U0001F600"),
    ("\\cA", "\x01", "\x01"),
    ("\\e\\a", "\x1b\x07", "\x1b\x07"),
    ("a\\z", "a\n", None),
    ("a\\Z", "a\n", "a"),
    ("\\Aa", "ba", None),
    ("\\v", "a\u2028", "\u2028"),
    ("\\V+", "ab\n", "ab"),
    ("\\p{Alpha}+", "éab1", "ab"),
    ("\\p{L}+", "1éab", "éab"),
    ("\\p{Lu}\\p{Ll}", "aBc", "Bc"),
    ("\\pL+", "1ab", "ab"),
    ("\\P{L}+", "ab12c", "12"),
    ("[\\p{Punct}]+", "a!?b", "!?"),
    ("[^\\p{L}\\s]+", "ab 12", "12"),
    ("\\p{IsAlphabetic}+", "1ж", "ж"),
    ("\\p{javaLowerCase}+", "Aéb", "éb"),
    ("[a-c[x-z]]+", "dbyq", "by"),
    ("[]a]+", "x]a]", "]a]"),
    ("[a-]+", "x-a-", "-a-"),
    ("[&~|]+", "a&~|", "&~|"),
    ("a{2}", "aaa", "aa"),
    ("a{2,}+", "aaaa", "aaaa"),
    ("(?>a+)b", "aab", "aab"),
    ("a++a", "aaa", None),
    ("(?<=a)b", "ab", "b"),
    ("x}", "x}", "x}"),
    ("#", "a#", "#"),
])
def test_find(p: str, s: str, expected: Any) -> None:
    assert find(p, s) == expected


def test_matches_requires_the_whole_string() -> None:
    assert rx.re_matches("\\d+", "123") == "123"
    assert rx.re_matches("\\d+", "123a") is None
    assert rx.re_matches("(\\d)(\\d)", "12") == vec(["12", "1", "2"])
    assert rx.re_matches("a|ab", "ab") == "ab"


def test_seq_returns_a_vector_of_every_match() -> None:
    assert rx.re_seq("\\d+", "a1b22c333") == vec(["1", "22", "333"])
    assert rx.re_seq("x", "abc") == vec([])
    assert rx.re_seq("(\\w)=(\\d)", "a=1 b=2") == vec([vec(["a=1", "a", "1"]), vec(["b=2", "b", "2"])])
    assert rx.re_seq("a*", "baaac") == vec(["", "aaa", "", ""])
    assert rx.re_seq("|a", "a") == vec(["", ""])  # Java resumes one past an empty match


def test_pattern_values_are_compiled_once() -> None:
    p = Pattern("b+")
    assert rx.re_find(p, "abbc") == "bb"
    compiled = p._compiled
    assert compiled is not None
    assert rx.re_find(p, "b") == "b" and p._compiled is compiled
    assert rx.compile_java("q+") is rx.compile_java("q+")


def test_argument_errors() -> None:
    with pytest.raises(HostError) as info:
        rx.re_find(5, "a")
    assert info.value.message.startswith("class java.lang.Long cannot be cast to class java.util.regex.Pattern")
    with pytest.raises(HostError) as info:
        rx.re_find("a", 5)
    assert info.value.message.startswith("class java.lang.Long cannot be cast to class java.lang.CharSequence")
    with pytest.raises(HostError):
        rx.re_find(None, "a")
    with pytest.raises(HostError):
        rx.re_seq("a", None)
    with pytest.raises(HostError) as info:
        rx.re_matches(Keyword("a"), "a")
    assert "clojure.lang.Keyword" in info.value.message


@pytest.mark.parametrize(("p", "text"), [
    ("(", "Unclosed group near index 1\n("),
    ("(a", "Unclosed group near index 2\n(a"),
    ("a)", "Unmatched closing ')' near index 0\na)\n^"),
    ("*a", "Dangling meta character '*' near index 0\n*a\n^"),
    ("a|+", "Dangling meta character '+' near index 2\na|+\n  ^"),
    ("a**", "Dangling meta character '*' near index 2\na**\n  ^"),
    ("[a", "Unclosed character class near index 1\n[a\n ^"),
    ("{", "Illegal repetition near index 0\n{\n^"),
    ("a{x}", "Illegal repetition near index 1\na{x}\n ^"),
    ("a{3,1}", "Illegal repetition range near index 5\na{3,1}\n     ^"),
    ("\\g", "Illegal/unsupported escape sequence near index 1\n\\g\n ^"),
    ("\\", "Unexpected internal error near index 1\n\\"),
    ("(?q)", "Unknown inline modifier near index 2\n(?q)\n  ^"),
    ("[z-a]", "Illegal character range near index 3\n[z-a]\n   ^"),
    ("\\p{Bogus}", "Unknown or unsupported character property name {Bogus} near index 8\n\\p{Bogus}\n        ^"),
])
def test_syntax_errors_read_like_java(p: str, text: str) -> None:
    assert syntax_error(p) == text


@pytest.mark.parametrize("p", ["[a-z&&[^aeiou]]", "\\h", "\\R", "\\X", "\\G", "[a[^b]]", "\\p{IsLatin}", "\\b{g}"])
def test_untranslatable_constructs_are_errors(p: str) -> None:
    assert "near index" in syntax_error(p)


def test_python_detected_errors_map_back_to_the_source() -> None:
    assert syntax_error("(a)\\2") == "Invalid group reference 2 near index 3\n(a)\\2\n   ^"
    assert syntax_error("(?<=a+)b") == "Look-behind requires fixed-width pattern\n(?<=a+)b"


def test_flags_are_scoped_to_their_group() -> None:
    assert find("((?i)a)a", "AA") is None
    assert find("((?i)a)a", "Aa") == vec(["Aa", "A"])
    assert find("(?i)a(?-i)a", "AA") is None
    assert find("(?m)^b", "a\nb") == "b"
    assert find("^b", "a\nb") is None


def test_translation_keeps_group_numbers() -> None:
    for p in ["(a)(?:b)(?<n>c)(?=d)(?i)(e)", "((?x) a ) (b)", "[(]a(b)"]:
        text, flags = rx.translate(p)
        assert re.compile(text, flags).groups == rx.compile_java(p).groups
    assert rx.compile_java("(a)(?:b)(?<n>c)(?=d)(?i)(e)").groups == 3


# --------------------------------------------------------------------------- Pattern.split


@pytest.mark.parametrize(("s", "p", "expected"), [
    ("a,b,,c,,", ",", ["a", "b", "", "c"]),
    ("a,b,,", ",", ["a", "b"]),
    (",", ",", []),
    ("", ",", [""]),
    ("abc", "", ["a", "b", "c"]),
    ("abc", "x", ["abc"]),
    (",a", ",", ["", "a"]),
    ("a1b22c", "\\d+", ["a", "b", "c"]),
    ("a b", "(?=b)", ["a ", "b"]),
    ("boo:and:foo", "o", ["b", "", ":and:f"]),
])
def test_java_split(s: str, p: str, expected: list[str]) -> None:
    assert rx.java_split(rx.compile_java(p), s) == expected


@given(st.lists(st.text(alphabet="ab", max_size=3), max_size=5))
def test_split_inverts_join_up_to_trailing_empties(pieces: list[str]) -> None:
    joined = ",".join(pieces)
    expected = list(pieces)
    while expected and expected[-1] == "":
        expected.pop()
    if not joined:
        expected = [""]
    assert rx.java_split(rx.compile_java(","), joined) == expected


@given(st.text(alphabet="ab,:\r\n", max_size=14), st.sampled_from([",", ":", "ab", "\n", " ", "\r\n", "a"]))
def test_literal_split_agrees_with_the_compiled_pattern(s: str, separator: str) -> None:
    assert rx.literal_separator(separator) == separator
    assert rx.split_literal(s, separator) == rx.java_split(rx.compile_java(separator), s)


@given(st.text(alphabet="a\r\n", max_size=14))
def test_split_lines_agrees_with_the_compiled_pattern(s: str) -> None:
    assert rx.split_lines(s) == rx.java_split(rx.compile_java("\\r?\\n"), s)


@pytest.mark.parametrize("pattern", ["", ".", "a|b", "\\s", "x+", "(?i)a", "[,]", "a{2}", "^a", "a$", "a?", "a*"])
def test_a_pattern_with_a_metacharacter_is_not_split_literally(pattern: str) -> None:
    assert rx.literal_separator(pattern) is None


def test_a_pattern_value_is_never_split_literally() -> None:
    assert rx.literal_separator(Pattern(",")) is None


@given(st.text(alphabet="ab\n", max_size=12))
def test_finditer_never_overlaps_and_advances(s: str) -> None:
    previous_end = -1
    previous_empty_at = -1
    for m in rx.java_finditer(rx.compile_java("a*"), s):
        assert m.start() >= previous_end
        assert m.start() != previous_empty_at
        previous_end = m.end()
        previous_empty_at = m.start() if m.start() == m.end() else -1
