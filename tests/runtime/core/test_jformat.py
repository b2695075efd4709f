"""``format`` as Java's Formatter (language.md §16.4): conversions, flags, indices, rounding, error texts."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core.jformat import hex_double, java_format, java_hash, scan_spec
from spell_runtime.core.strings import format_
from spell_runtime.data.atoms import BigInt, Char, Float32, Keyword
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError


def fmt(f: str, *args: Any) -> str:
    return java_format(f, args)


def host_error(f: str, *args: Any) -> str:
    with pytest.raises(HostError) as info:
        java_format(f, args)
    return info.value.message


@pytest.mark.parametrize(("f", "args", "expected"), [
    ("%s=%d", ("x", 5), "x=5"),
    ("%.2f|%5d|%s", (0.125, 42, None), "0.13|   42|null"),
    ("%03d", (7,), "007"),
    ("%x", (255,), "ff"),
    ("%5s|%-4s|", ("ab", "ab"), "   ab|ab  |"),
    ("%.3s|%S", ("abcdef", "hi"), "abc|HI"),
    ("%s", (vec([1, "a"]),), '[1 "a"]'),
    ("%s %s %s", (Keyword("k"), 1.0, BigInt(5)), ":k 1.0 5"),
    ("%b %b %b %B", (None, False, 0, True), "false false true TRUE"),
    ("%c%c%C", (Char("a"), 0x1F600, Char("b")), "a\U0001F600B"),
    ("100%% %n", (), "100% \n"),
    ("%5%|%-3%|", (), "    %|%  |"),
    ("%2$s %1$s %<s %s", ("a", "b"), "b a a a"),
    ("%s %<s %s", ("a", "b"), "a a b"),
    ("%d extra", (1, 2, 3), "1 extra"),
])
def test_general_conversions(f: str, args: tuple[Any, ...], expected: str) -> None:
    assert fmt(f, *args) == expected


@pytest.mark.parametrize(("f", "arg", "expected"), [
    ("%,d", 1234567, "1,234,567"), ("%,d", -1234, "-1,234"), ("%,d", 123, "123"),
    ("%+d", 5, "+5"), ("% d", 5, " 5"), ("%(d", -5, "(5)"), ("%(d", 5, "5"),
    ("%05d", -5, "-0005"), ("%-5d|", 5, "5    |"), ("%(6d|", -42, "  (42)|"), ("%0(6d", -42, "(0042)"),
    ("%,010d", 1234567, "01,234,567"), ("%d", -(2**63), "-9223372036854775808"),
    ("%x", -1, "ffffffffffffffff"), ("%X", 255, "FF"), ("%#x", 255, "0xff"), ("%#X", 255, "0XFF"),
    ("%08x", 255, "000000ff"), ("%#08x", 255, "0x0000ff"), ("%o", 8, "10"), ("%#o", 8, "010"),
    ("%o", -1, "1777777777777777777777"),
])
def test_integer_conversions(f: str, arg: int, expected: str) -> None:
    assert fmt(f, arg) == expected


@pytest.mark.parametrize(("f", "arg", "expected"), [
    ("%.1f", 0.25, "0.3"), ("%.2f", 0.125, "0.13"), ("%.0f", 2.5, "3"), ("%.0f", -0.5, "-1"),
    ("%f", 1.0, "1.000000"), ("%.2f", 3.14159, "3.14"), ("%f", 1e20, "100000000000000000000.000000"),
    ("%08.3f", -3.14159, "-003.142"), ("%,.2f", 1234567.891, "1,234,567.89"), ("%(,.2f", -1234.5, "(1,234.50)"),
    ("%+.1f", 2.0, "+2.0"), ("%#.0f", 3.0, "3."), ("%10.4f|", math.pi, "    3.1416|"), ("%-8.2f|", 1.5, "1.50    |"),
    ("%f", -0.0, "-0.000000"), ("%.3f", Float32(0.1), "0.100"),
    ("%e", 12345.678, "1.234568e+04"), ("%.2e", 0.0, "0.00e+00"), ("%E", 1e-10, "1.000000E-10"),
    ("%.0e", 5.0, "5e+00"), ("%#.0e", 5.0, "5.e+00"), ("%e", 9.9999999, "1.000000e+01"), ("%.3e", 1e100, "1.000e+100"),
    ("%12.3e|", -1234.5, "  -1.235e+03|"), ("%012.3e", 1234.5, "0001.235e+03"),
    ("%g", 0.0001234, "0.000123400"), ("%g", 123456789.0, "1.23457e+08"), ("%g", 0.0, "0.00000"),
    ("%g", 100000.0, "100000"), ("%g", 999999.5, "1.00000e+06"), ("%.3g", 1234.0, "1.23e+03"),
    ("%g", 0.00001, "1.00000e-05"), ("%G", 1e-5, "1.00000E-05"), ("%.0g", 7.0, "7"),
    ("%f", math.nan, "NaN"), ("%+f", math.inf, "+Infinity"), ("%(f", -math.inf, "(Infinity)"),
    ("%8f|", math.nan, "     NaN|"), ("%E", math.inf, "INFINITY"), ("%08f", math.inf, "Infinity"),
    ("%a", 1.0, "0x1.0p0"), ("%a", 3.0, "0x1.8p1"), ("%A", -0.1, "-0X1.999999999999AP-4"), ("%a", 0.0, "0x0.0p0"),
    ("%a", 5e-324, "0x0.0000000000001p-1022"), ("%.1a", 1.0, "0x1.0p0"), ("%.1a", 1.96875, "0x1.0p1"), ("%.1a", 1.90625, "0x1.ep0"),
    ("%.1a", 1.9, "0x1.ep0"), ("%.1a", 1.99, "0x1.0p1"),
])
def test_floating_conversions(f: str, arg: float, expected: str) -> None:
    assert fmt(f, arg) == expected


@pytest.mark.parametrize(("f", "arg", "expected"), [
    ("%.3f", Decimal("1.5"), "1.500"), ("%.1f", Decimal("0.05"), "0.1"), ("%.1f", Decimal("-0.05"), "-0.1"),
    ("%f", Decimal("1E+3"), "1000.000000"), ("%e", Decimal("1.5"), "1.500000e+00"),
    ("%.2e", Decimal("12345"), "1.23e+04"), ("%g", Decimal("0.0001"), "0.000100000"), ("%g", Decimal("1E+7"), "1.00000e+07"),
    ("%,.2f", Decimal("1234567.005"), "1,234,567.01"), ("%s", Decimal("1.50"), "1.50"),
])
def test_bigdecimal_conversions(f: str, arg: Decimal, expected: str) -> None:
    assert fmt(f, arg) == expected


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15), st.integers(0, 12))
def test_fixed_point_is_half_up_of_the_exact_value(x: float, places: int) -> None:
    exact = Decimal(x)
    rounded = exact.copy_abs().quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    negative = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
    assert fmt("%." + str(places) + "f", x) == ("-" if negative else "") + format(rounded, "f")


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 10))
def test_scientific_round_trips_to_the_rounded_value(x: float, places: int) -> None:
    text = fmt("%." + str(places) + "e", x)
    mantissa, _, exponent = text.partition("e")
    assert len(exponent) >= 3 and exponent[0] in "+-"
    digits = mantissa.lstrip("-")
    assert digits[0] != "0" or x == 0
    assert len(digits.partition(".")[2]) == places
    if x != 0:
        value = Decimal(mantissa).scaleb(int(exponent))
        assert abs(value - Decimal(x)) <= Decimal(5).scaleb(int(exponent) - places - 1)


@given(st.integers(-(2**63), 2**63 - 1), st.integers(0, 30))
def test_grouped_and_padded_integers(v: int, width: int) -> None:
    text = fmt("%,0" + str(width + 1) + "d", v) if width else fmt("%,d", v)
    assert int(text.replace(",", "")) == v
    assert len(text) >= width


def test_hex_double_rounding_carries_into_the_exponent() -> None:
    assert hex_double(1.99, 1) == ("1.0", "1")
    assert hex_double(2.0**-1074, 2) == ("1.00", "-1074")


def test_hash_codes_are_javas() -> None:
    assert fmt("%h", "hello") == "5e918d2"
    assert java_hash("") == 0 and java_hash(True) == 1231 and java_hash(1) == 1 and java_hash(-1) == 0
    assert fmt("%h %H", None, "hello") == "null 5E918D2"


@pytest.mark.parametrize(("f", "args", "text"), [
    ("%d", (1.5,), "d != java.lang.Double"),
    ("%d", (BigInt(1),), "d != clojure.lang.BigInt"),
    ("%d", (True,), "d != java.lang.Boolean"),
    ("%x", ("a",), "x != java.lang.String"),
    ("%f", (1,), "f != java.lang.Long"),
    ("%e", (Fraction(1, 2),), "e != clojure.lang.Ratio"),
    ("%a", (Decimal(1),), "a != java.math.BigDecimal"),
    ("%c", ("x",), "c != java.lang.String"),
    ("%c", (-1,), "Code point = 0xffffffff"),
    ("%s %s", (1,), "Format specifier '%s'"),
    ("%3$s", (1, 2), "Format specifier '%3$s'"),
    ("%<s", (1,), "Format specifier '%<s'"),
    ("%-5d %s", (1,), "Format specifier '%s'"),
    ("%q", (1,), "Conversion = 'q'"),
    ("%", (), "Conversion = '%'"),
    ("100%", (), "Conversion = '%'"),
    ("%5", (1,), "Conversion = '5'"),
    ("%-d", (1,), "%-d"),
    ("%0s", (1,), "Conversion = s, Flags = 0"),
    ("%-s", (1,), "%-s"),
    ("%-08d", (1,), "Flags = '-0'"),
    ("%+ d", (1,), "Flags = '+ '"),
    ("%--5d", (1,), "Flags = '-'"),
    ("%.2d", (1,), "2"),
    ("%.2c", (Char("a"),), "2"),
    ("%#s", (1,), "Conversion = s, Flags = #"),
    ("%#b", (1,), "Conversion = b, Flags = #"),
    ("%,e", (1.0,), "Conversion = e, Flags = ,"),
    ("%#g", (1.0,), "Conversion = g, Flags = #"),
    ("%,x", (1,), "Conversion = x, Flags = ,"),
    ("%+x", (1,), "Conversion = x, Flags = +"),
    ("%5n", (), "5"),
    ("%+%", (), "Flags = '+'"),
    ("%0$s", (1,), "Illegal format argument index = 0"),
    ("%t", (1,), "Conversion = 't'"),
    ("%tY", (1,), "Date/time conversions are not supported: %tY"),
    ("%F", (1.0,), "Conversion = 'F'"),
])
def test_error_texts(f: str, args: tuple[Any, ...], text: str) -> None:
    assert host_error(f, *args) == text


def test_parse_errors_come_before_argument_errors() -> None:
    assert host_error("%d %q", 1.5) == "Conversion = 'q'"
    assert host_error("%d %-d", 1.5) == "%-d"


def test_null_arguments() -> None:
    assert fmt("%s|%d|%f|%c|%5s|%-5s|", None, None, None, None, None, None) == "null|null|null|null| null|null |"


def test_the_builtin_checks_the_format_argument() -> None:
    assert format_("%s-%s", 1, 2) == "1-2"
    with pytest.raises(HostError) as info:
        format_(5)
    assert info.value.message.startswith("class java.lang.Long cannot be cast to class java.lang.String")
    with pytest.raises(HostError):
        format_(None)


def test_widths_count_utf16_units() -> None:
    assert fmt("%3s|", "\U0001F600") == " \U0001F600|"
    assert fmt("%.1s|", "\U0001F600x") == "\ud83d|"


# The JDK's specifier pattern, which ``scan_spec`` reads by hand (it was compiled at the first ``format``).
_JDK_SPEC = re.compile(r"%(\d+\$)?([-#+ 0,(<]*)?(\d+)?(\.\d+)?([tT])?([a-zA-Z%])")


def _regex_parts(text: str) -> Any:
    m = _JDK_SPEC.match(text, 0)
    if m is None:
        return None
    return m.group(1), m.group(2) or "", m.group(3), m.group(4), m.group(5) is not None, m.group(6), m.end()


@given(st.text(alphabet="%$.-#+ 0,(<12tTdsfxX\u0663\u00b2;", max_size=9))
def test_the_specifier_scanner_reads_what_the_jdk_pattern_matches(rest: str) -> None:
    text = "%" + rest
    assert scan_spec(text, 0) == _regex_parts(text)


@pytest.mark.parametrize("text", ["%1$s", "%0$d", "%05d", "%-+,(10.3f", "%<s", "%t", "%tH", "%5t", "%1.x", "%.f",
                                  "%12", "%1$", "%00d", "%\u0663d", "%\u00b2d", "%%", "%.2f"])
def test_the_specifier_scanner_on_its_edges(text: str) -> None:
    assert scan_spec(text, 0) == _regex_parts(text)
    assert scan_spec("ab" + text, 2) == (None if _regex_parts(text) is None else
                                         (*_regex_parts(text)[:-1], _regex_parts(text)[-1] + 2))
