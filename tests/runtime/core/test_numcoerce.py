"""Numeric coercions and parsing (language.md §14.2, §16.1.9)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import numcoerce as c
from spell_runtime.data.atoms import BigInt, Char, Float32, Keyword
from spell_runtime.errors import HostError


def same(value: Any, expected: Any) -> bool:
    return type(value) is type(expected) and value == expected


def host_error(fn: Any, *args: Any) -> str:
    with pytest.raises(HostError) as info:
        fn(*args)
    return info.value.message


@pytest.mark.parametrize(("x", "expected"), [
    (3.99, 3), (-3.99, -3), (7, 7), (Char("a"), 97), (Fraction(7, 2), 3), (Decimal("-2.5"), -2),
    (BigInt(5), 5), (math.nan, 0), (Float32(2.5), 2),
])
def test_int_truncates(x: Any, expected: int) -> None:
    assert same(c.to_int(x), expected)


@pytest.mark.parametrize(("x", "text"), [
    (1e20, "Value out of range for int: 1.0E20"),
    (3000000000, "Value out of range for int: 3000000000"),
    (BigInt(2**40), "Value out of range for int: 1099511627776"),
    (-2147483649.0, "Value out of range for int: -2.147483649E9"),
])
def test_int_out_of_range(x: Any, text: str) -> None:
    assert host_error(c.to_int, x) == text


def test_int_of_non_numbers() -> None:
    assert host_error(c.to_int, "1") == (
        "class java.lang.String cannot be cast to class java.lang.Character (java.lang.String and "
        "java.lang.Character are in module java.base of loader 'bootstrap')")
    assert "java.lang.Boolean cannot be cast" in host_error(c.to_int, True)
    assert host_error(c.to_int, None) == "Cannot perform arithmetic on nil"


def test_long_truncates_and_range_checks_as_doubles() -> None:
    assert same(c.to_long(2.7), 2) and same(c.to_long(-2.7), -2) and same(c.to_long(Fraction(-7, 2)), -3)
    assert c.to_long(2.0**63) == 2**63 - 1  # Long.MAX_VALUE as a double passes Java's check and saturates
    assert host_error(c.to_long, 1e19 * 10) == "Value out of range for long: 1.0E20"
    assert host_error(c.to_long, BigInt(2**63)) == "Value out of range for long: 9223372036854775808"
    assert "cannot be cast to class java.lang.Number" in host_error(c.to_long, Keyword("a"))


def test_double_and_float() -> None:
    assert same(c.to_double_(3), 3.0) and same(c.to_double_(Fraction(1, 4)), 0.25)
    assert same(c.to_double_(Float32(0.5)), 0.5)
    assert c.to_double_(BigInt(10**400)) == math.inf
    f = c.to_float(0.1)
    assert type(f) is Float32 and f == 0.10000000149011612
    assert c.to_float(f) is f
    assert math.isnan(c.to_float(math.nan))
    assert host_error(c.to_float, 1e39) == "Value out of range for float: 1.0E39"
    assert host_error(c.to_float, math.inf) == "Value out of range for float: Infinity"
    assert "cannot be cast" in host_error(c.to_double_, "1")


def test_bigint() -> None:
    assert same(c.to_bigint("99999999999999999999"), BigInt(99999999999999999999))
    assert same(c.to_bigint("-12"), BigInt(-12)) and same(c.to_bigint("+12"), BigInt(12))
    assert same(c.to_bigint(5), BigInt(5)) and same(c.to_bigint(2.9), BigInt(2))
    assert same(c.to_bigint(Fraction(-7, 2)), BigInt(-3)) and same(c.to_bigint(Decimal("9.99")), BigInt(9))
    assert c.to_bigint(1e23) == 10**23  # through the double's decimal text, as BigDecimal.valueOf
    assert host_error(c.to_bigint, "12a") == 'For input string: "12a"'
    assert host_error(c.to_bigint, "") == "Zero length BigInteger"
    assert host_error(c.to_bigint, "1_000") == 'For input string: "1_000"'
    assert host_error(c.to_bigint, "1-2") == "Illegal embedded sign character"
    assert host_error(c.to_bigint, math.nan).startswith("Character N is neither a decimal digit number")


def test_bigdec() -> None:
    assert str(c.to_bigdec(3)) == "3" and str(c.to_bigdec(0.1)) == "0.1"
    assert str(c.to_bigdec(1e10)) == "1.0E+10"
    assert str(c.to_bigdec("1.50")) == "1.50" and str(c.to_bigdec(".5")) == "0.5"
    assert str(c.to_bigdec(Fraction(1, 4))) == "0.25"
    assert c.to_bigdec(Float32(0.5)) == Decimal("0.5")
    assert host_error(c.to_bigdec, Fraction(1, 3)).startswith("Non-terminating decimal expansion")
    assert host_error(c.to_bigdec, "1.2.3") == "Character array contains more than one decimal point."
    assert host_error(c.to_bigdec, "abc").startswith("Character a is neither a decimal digit number")
    assert host_error(c.to_bigdec, "nan").startswith("Character n is neither")
    assert host_error(c.to_bigdec, "") == "No digits found."


def test_rationalize() -> None:
    assert same(c.rationalize(0.1), Fraction(1, 10))
    assert same(c.rationalize(2.0), BigInt(2))
    assert same(c.rationalize(1e20), BigInt(10**20))
    assert same(c.rationalize(Decimal("1.25")), Fraction(5, 4))
    assert same(c.rationalize(7), 7) and same(c.rationalize(Fraction(1, 3)), Fraction(1, 3))
    assert "cannot be cast" in host_error(c.rationalize, "1")


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_rationalize_round_trips_through_the_double(x: float) -> None:
    r = c.rationalize(x)
    assert float(r) == x


def test_numerator_and_denominator() -> None:
    assert same(c.numerator(Fraction(-3, 4)), -3) and same(c.denominator(Fraction(-3, 4)), 4)
    assert same(c.numerator(Fraction(2**70, 3)), BigInt(2**70))
    assert host_error(c.numerator, 5) == (
        "class java.lang.Long cannot be cast to class clojure.lang.Ratio (java.lang.Long is in module java.base of "
        "loader 'bootstrap'; clojure.lang.Ratio is in unnamed module of loader 'app')")
    assert "cannot be cast to class clojure.lang.Ratio" in host_error(c.denominator, 0.5)


@pytest.mark.parametrize(("x", "expected"), [
    ("abc 12.5 x", 12.5), ("1e5", 1), ("abc-12.5xyz", -12.5), ("7 apples", 7), ("none", None), (None, None),
    ("-0", 0), ("12.", 12), ("v1.2.3", 1.2), (42, 42), (Keyword("a7"), 7),
])
def test_parse_number(x: Any, expected: Any) -> None:
    assert same(c.parse_number(x), expected)


def test_parse_number_overflow() -> None:
    assert host_error(c.parse_number, "-99999999999999999999") == 'For input string: "-99999999999999999999"'


def test_parse_boolean_and_boolean() -> None:
    assert c.parse_boolean("true") is True and c.parse_boolean("false") is False
    assert c.parse_boolean("yes") is None and c.parse_boolean("True") is None and c.parse_boolean(True) is None
    assert c.boolean(0) is True and c.boolean(None) is False and c.boolean(False) is False and c.boolean("") is True
