"""Every atom kind of language.md §2.6 reads to the Python value the data model prescribes."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from spell_runtime.data.atoms import BigInt, Char, HostObject, Keyword, Pattern, Symbol

from spellc.reader import read_all


def read1(text: str) -> Any:
    forms = read_all(text)
    assert len(forms) == 1, forms
    return forms[0]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("42", 42), ("-7", -7), ("+5", 5), ("0", 0), ("-0", 0),
        ("0x1F", 31), ("-0XfF", -255), ("017", 15), ("2r1010", 10), ("36rZ", 35), ("8R17", 15),
        ("9223372036854775807", 2**63 - 1), ("-9223372036854775808", -(2**63)),
    ],
)
def test_longs(text: str, value: int) -> None:
    got = read1(text)
    assert type(got) is int and got == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("9223372036854775808", 2**63), ("-9223372036854775809", -(2**63) - 1), ("7N", 7), ("0N", 0),
        ("0x8000000000000000", 2**63), ("-0x10N", -16),
    ],
)
def test_bigints(text: str, value: int) -> None:
    got = read1(text)
    assert type(got) is BigInt and int(got) == value


def test_bigints_beyond_cpythons_string_conversion_limit() -> None:
    got = read1("1" * 5000)
    assert type(got) is BigInt and got == sum(10**i for i in range(5000))
    assert read1("0x" + "f" * 5000) == 16**5000 - 1


@pytest.mark.parametrize(
    ("text", "value"),
    [("1.5", 1.5), ("-0.5", -0.5), ("1.", 1.0), ("1e3", 1000.0), ("1.5E-7", 1.5e-7), ("+2.5", 2.5), ("08.5", 8.5)],
)
def test_doubles(text: str, value: float) -> None:
    got = read1(text)
    assert type(got) is float and got == value


def test_huge_exponent_is_infinity() -> None:
    assert read1("1e400") == math.inf


@pytest.mark.parametrize(("text", "value"), [("1.5M", "1.5"), ("2M", "2"), ("1.50M", "1.50"), ("-1e3M", "-1E+3")])
def test_bigdecimals_keep_their_scale(text: str, value: str) -> None:
    got = read1(text)
    assert type(got) is Decimal and str(got) == value


def test_symbolic_values() -> None:
    assert read1("##Inf") == math.inf
    assert read1("##-Inf") == -math.inf
    nan = read1("## NaN")
    assert type(nan) is float and nan != nan


@pytest.mark.parametrize(
    ("text", "value"),
    [("1/2", Fraction(1, 2)), ("-3/4", Fraction(-3, 4)), ("+3/4", Fraction(3, 4)), ("6/4", Fraction(3, 2))],
)
def test_ratios(text: str, value: Fraction) -> None:
    got = read1(text)
    assert type(got) is Fraction and got == value


def test_ratio_that_divides_is_a_long_or_bigint() -> None:
    two = read1("4/2")
    assert type(two) is int and two == 2
    zero = read1("0/5")
    assert type(zero) is int and zero == 0
    big = read1("18446744073709551616/2")
    assert type(big) is BigInt and big == 2**63


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('"abc"', "abc"), ('""', ""), ('"a\\tb\\"c\\\\d"', 'a\tb"c\\d'), ('"\\r\\n\\b\\f"', "\r\n\b\f"),
        ('"\\u0041\\u00e9"', "Aé"), ('"\\101\\0\\377"', "A\x00\xff"),
        ('"line\nbreak"', "line\nbreak"),
    ],
)
def test_strings(text: str, value: str) -> None:
    assert read1(text) == value


def test_surrogate_pair_escapes_become_one_character() -> None:
    got = read1('"\\ud83d\\ude00!"')
    assert got == "\U0001F600!" and len(got) == 2


def test_lone_surrogate_escape_stays_a_lone_code_unit() -> None:
    assert read1('"\\ud83dx"') == "\ud83dx"


def test_octal_escape_stops_at_three_digits() -> None:
    assert read1('"\\1012"') == "A2"


@pytest.mark.parametrize(
    ("text", "ch"),
    [
        ("\\a", "a"), ("\\newline", "\n"), ("\\space", " "), ("\\tab", "\t"), ("\\backspace", "\b"),
        ("\\formfeed", "\f"), ("\\return", "\r"), ("\\u0041", "A"), ("\\o101", "A"), ("\\(", "("),
        ("\\\\", "\\"), ('\\"', '"'), ("\\u", "u"), ("\\o", "o"), ("\\é", "é"),
    ],
)
def test_characters(text: str, ch: str) -> None:
    got = read1(text)
    assert type(got) is Char and got.ch == ch


def test_characters_end_at_terminating_macros() -> None:
    assert read_all("[\\a\\b]") == read_all("[\\a \\b]")
    got = read1("(\\a)")
    assert got.first == Char("a")


@pytest.mark.parametrize(
    ("text", "name", "ns"),
    [
        (":a", "a", None), (":ns/a", "a", "ns"), (":1", "1", None), (":a:b", "a:b", None),
        ("::k", "k", "user"), ("::a.b", "a.b", "user"), (":a/b/c", "c", "a/b"), (":/", "/", None),
        (":a*+!-_'?<>=.$%&#", "a*+!-_'?<>=.$%&#", None),
    ],
)
def test_keywords(text: str, name: str, ns: str | None) -> None:
    assert read1(text) is Keyword(name, ns)


@pytest.mark.parametrize(
    ("text", "name", "ns"),
    [
        ("x", "x", None), ("strings/trim", "trim", "strings"), ("/", "/", None), ("a/b/c", "c", "a/b"),
        ("clojure.core//", "/", "clojure.core"), ("+", "+", None), ("-", "-", None), ("+a", "+a", None),
        ("-x1", "-x1", None), (".5", ".5", None), ("a#b'c%d", "a#b'c%d", None), ("p1__12#", "p1__12#", None),
        ("String/1", "1", "String"), ("é", "é", None),
    ],
)
def test_symbols(text: str, name: str, ns: str | None) -> None:
    assert read1(text) is Symbol(name, ns)


def test_nil_and_booleans() -> None:
    assert read_all("nil true false") == [None, True, False]
    assert read1("true") is True


def test_regex_is_raw_source() -> None:
    got = read1('#"[0-9]+\\s"')
    assert type(got) is Pattern and got.source == "[0-9]+\\\\s"  # Q2: pass 2 doubled the unknown escape
    assert read1('#"a\\"b\\n"').source == 'a\\"b\\n'


def test_inst_and_uuid_are_host_objects() -> None:
    inst = read1('#inst "2020-02-29T10:20:30.5Z"')
    assert type(inst) is HostObject and inst.class_name == "java.util.Date"
    assert inst.payload == "2020-02-29T10:20:30.5Z"
    uuid = read1('#uuid "A-2-3-4-5"')
    assert type(uuid) is HostObject and uuid.class_name == "java.util.UUID"
    assert uuid.payload == "0000000a-0002-0003-0004-000000000005"


def test_comma_is_whitespace_and_comments_are_skipped() -> None:
    assert read_all("[1,2,,3]") == read_all("[1 2 3]")
    assert read_all("; leading\n1 ; trailing\n#!shebang\n2") == [1, 2]


def test_java_whitespace_not_python_whitespace() -> None:
    # U+00A0 is whitespace to Python but not to Java: it is part of the symbol.
    assert read1("a\u00a0b") is Symbol("a\u00a0b")
    # U+2003 is whitespace to both.
    assert read_all("a\u2003b") == [Symbol("a"), Symbol("b")]
