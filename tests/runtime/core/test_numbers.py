"""The numeric tower (language.md §14.1, §14.3, §16.1): fast functions, contagion, errors, builtins."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import numbers as n
from spell_runtime.core.numcoerce import rand_int
from spell_runtime.data.atoms import BigInt, Float32, Keyword
from spell_runtime.data.hashmap import spell_map
from spell_runtime.errors import HostError

LONG_MIN = -(2**63)
LONG_MAX = 2**63 - 1
STRING_CAST = ("class java.lang.String cannot be cast to class java.lang.Number (java.lang.String and "
               "java.lang.Number are in module java.base of loader 'bootstrap')")


def same(value: Any, expected: Any) -> bool:
    """Equal *and* of the same Python type (so 2 and 2N, 1.0 and 1 are told apart)."""
    return type(value) is type(expected) and value == expected


def host_error(fn: Any, *args: Any) -> str:
    with pytest.raises(HostError) as info:
        fn(*args)
    return info.value.message


# --------------------------------------------------------------------------- contagion (§16.1.1)


@pytest.mark.parametrize(("fn", "a", "b", "expected"), [
    (n.add, 1, 2, 3),
    (n.add, 1, 2.0, 3.0),
    (n.add, 1, BigInt(1), BigInt(2)),
    (n.add, Fraction(1, 2), Fraction(1, 2), BigInt(1)),
    (n.mul, Fraction(1, 2), 4, BigInt(2)),
    (n.div, 6, 3, 2),
    (n.div, BigInt(6), 3, BigInt(2)),
    (n.div, 1, 3, Fraction(1, 3)),
    (n.add, Fraction(1, 2), 0.5, 1.0),
    (n.add, Decimal("0.5"), 1, Decimal("1.5")),
    (n.add, Float32(0.10000000149011612), 0, 0.10000000149011612),
    (n.add, Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)),
    (n.sub, BigInt(5), 5, BigInt(0)),
    (n.mul, 2, 0.5, 1.0),
    (n.div, 1.0, 4, 0.25),
    (n.div, 10, 4, Fraction(5, 2)),
    (n.sub, Decimal("1.50"), Decimal("0.5"), Decimal("1.00")),
    (n.mul, Decimal("1.5"), Decimal("1.5"), Decimal("2.25")),
])
def test_contagion_keeps_clojure_result_types(fn: Any, a: Any, b: Any, expected: Any) -> None:
    assert same(fn(a, b), expected)


def test_float32_arithmetic_yields_plain_doubles() -> None:
    r = n.add(Float32(0.5), Float32(0.25))
    assert type(r) is float and r == 0.75


def test_decimal_keeps_scale_as_java_does() -> None:
    assert str(n.add(Decimal("1.50"), Decimal("2"))) == "3.50"
    assert str(n.mul(Decimal("1.5"), Decimal("2.0"))) == "3.00"


@pytest.mark.parametrize(("a", "b", "expected"), [
    (Decimal(1), Decimal(4), "0.25"),
    (Decimal("1.00"), Decimal(2), "0.50"),
    (Decimal(100), Decimal(1), "100"),
    (Decimal(6), Decimal("0.2"), "3E+1"),
    (Decimal(0), Decimal("0.5"), "0E+1"),
])
def test_decimal_division_uses_javas_preferred_scale(a: Decimal, b: Decimal, expected: str) -> None:
    assert str(n.div(a, b)) == expected


def test_decimal_division_that_does_not_terminate_fails() -> None:
    assert host_error(n.div, Decimal(1), Decimal(3)) == (
        "Non-terminating decimal expansion; no exact representable decimal result.")
    assert host_error(n.add, Fraction(1, 3), Decimal(1)) == (
        "Non-terminating decimal expansion; no exact representable decimal result.")


def test_ratio_meets_decimal_in_the_decimal_category() -> None:
    assert same(n.add(Fraction(1, 4), Decimal("1.0")), Decimal("1.25"))


# --------------------------------------------------------------------------- overflow (§16.1.2)


@pytest.mark.parametrize(("fn", "args"), [
    (n.add, (LONG_MAX, 1)),
    (n.sub, (LONG_MIN, 1)),
    (n.mul, (3037000500, 3037000500)),
    (n.mul, (LONG_MAX, 2)),
    (n.inc, (LONG_MAX,)),
    (n.dec, (LONG_MIN,)),
    (n.neg, (LONG_MIN,)),
])
def test_long_overflow_is_an_error(fn: Any, args: tuple[Any, ...]) -> None:
    assert host_error(fn, *args) == "integer overflow"


@pytest.mark.parametrize(("fn", "args", "expected"), [
    (n.add_p, (LONG_MAX, 1), BigInt(2**63)),
    (n.sub_p, (LONG_MIN, 1), BigInt(LONG_MIN - 1)),
    (n.mul_p, (LONG_MAX, 2), BigInt(LONG_MAX * 2)),
    (n.inc_p, (LONG_MAX,), BigInt(2**63)),
    (n.dec_p, (LONG_MIN,), BigInt(LONG_MIN - 1)),
    (n.add_p, (1, 2), 3),
    (n.inc_p, (1.5,), 2.5),
])
def test_primed_operators_promote(fn: Any, args: tuple[Any, ...], expected: Any) -> None:
    assert same(fn(*args), expected)


def test_bigint_operands_never_overflow() -> None:
    assert same(n.add(BigInt(LONG_MAX), 1), BigInt(2**63))
    assert same(n.inc(BigInt(LONG_MAX)), BigInt(2**63))


LONGS = st.one_of(st.integers(LONG_MIN, LONG_MAX), st.integers(LONG_MAX - 2**20, LONG_MAX),
                  st.integers(LONG_MIN, LONG_MIN + 2**20), st.integers(-(2**32), 2**32))


@given(LONGS, LONGS)
def test_long_arithmetic_is_exact_or_overflows(a: int, b: int) -> None:
    for fn, exact in ((n.add, a + b), (n.sub, a - b), (n.mul, a * b)):
        if LONG_MIN <= exact <= LONG_MAX:
            assert same(fn(a, b), exact)
        else:
            assert host_error(fn, a, b) == "integer overflow"


@given(LONGS, LONGS)
def test_primed_arithmetic_is_exact(a: int, b: int) -> None:
    for fn, exact in ((n.add_p, a + b), (n.sub_p, a - b), (n.mul_p, a * b)):
        r = fn(a, b)
        assert r == exact
        assert type(r) is (int if LONG_MIN <= exact <= LONG_MAX else BigInt)


@given(st.floats(), st.floats())
def test_double_arithmetic_is_ieee(a: float, b: float) -> None:
    for fn, expected in ((n.add, a + b), (n.sub, a - b), (n.mul, a * b)):
        r = fn(a, b)
        assert type(r) is float
        assert r == expected or (math.isnan(r) and math.isnan(expected))


@given(st.integers(-(2**53), 2**53), st.floats(allow_nan=False))
def test_long_and_double_mix_as_doubles(a: int, b: float) -> None:
    assert n.add(a, b) == float(a) + b


# --------------------------------------------------------------------------- division (§16.1.3)


@pytest.mark.parametrize(("a", "b"), [(1, 0), (1.0, 0), (1.0, 0.0), (1, 0.0), (Fraction(1, 2), 0),
                                      (Decimal(1), Decimal(0)), (BigInt(5), 0), ("a", 0)])
def test_any_zero_divisor_fails_as_in_the_reference(a: Any, b: Any) -> None:
    assert host_error(n.div, a, b) == "Divide by zero"


def test_nan_operands_divide_to_nan() -> None:
    assert math.isnan(n.div(math.nan, 0.0))
    assert math.isnan(n.div(1, math.nan))


def test_division_checks_the_divisor_first() -> None:
    assert host_error(n.div, 1, "a") == STRING_CAST
    assert host_error(n.div, None, 2) == "Cannot perform arithmetic on nil"


def test_long_min_divided_by_minus_one_becomes_a_bigint() -> None:
    assert same(n.div(LONG_MIN, -1), BigInt(2**63))


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6).filter(lambda d: d != 0))
def test_long_division_is_exact(a: int, b: int) -> None:
    r = n.div(a, b)
    if a % b == 0:
        assert same(r, a // b)
    else:
        assert same(r, Fraction(a, b))


# --------------------------------------------------------------------------- quot rem mod (§16.1.4)


@pytest.mark.parametrize(("fn", "a", "b", "expected"), [
    (n.quot, 17, 5, 3), (n.quot, -17, 5, -3), (n.rem, -17, 5, -2), (n.mod, -17, 5, 3), (n.mod, 17, -5, -3),
    (n.quot, -7, 2, -3), (n.rem, -7, 2, -1), (n.mod, -7, 2, 1), (n.mod, 7, -2, -1), (n.mod, -7, -2, -1),
    (n.quot, 7.5, 2, 3.0), (n.mod, 5.5, 2, 1.5), (n.rem, 5.5, 2, 1.5), (n.mod, -5.5, 2, 0.5),
    (n.quot, BigInt(7), 2, BigInt(3)), (n.rem, BigInt(7), 2, BigInt(1)), (n.mod, BigInt(-7), 2, BigInt(1)),
    (n.quot, Fraction(7, 2), 1, 3), (n.rem, Fraction(7, 2), 1, Fraction(1, 2)),
    (n.rem, Fraction(3, 2), Fraction(1, 2), BigInt(0)),
    (n.quot, Decimal("7.5"), Decimal(2), Decimal("3.0")), (n.rem, Decimal("7.5"), Decimal(2), Decimal("1.5")),
    (n.quot, LONG_MIN, -1, LONG_MIN), (n.rem, LONG_MIN, -1, 0), (n.mod, 0, 5, 0),
])
def test_quot_rem_mod(fn: Any, a: Any, b: Any, expected: Any) -> None:
    assert same(fn(a, b), expected)


@pytest.mark.parametrize("fn", [n.quot, n.rem, n.mod])
@pytest.mark.parametrize("zero", [0, 0.0, Decimal(0)])
def test_quot_rem_mod_by_zero(fn: Any, zero: Any) -> None:
    assert host_error(fn, 5, zero) == "Divide by zero"


def test_double_quotient_of_an_infinity_is_the_jvm_error() -> None:
    assert host_error(n.quot, math.inf, 2) == "Infinite or NaN"


@given(st.integers(LONG_MIN, LONG_MAX), st.integers(LONG_MIN, LONG_MAX).filter(lambda d: d != 0))
def test_quot_rem_identity_and_signs(a: int, b: int) -> None:
    q = n.quot(a, b)
    r = n.rem(a, b)
    if not (a == LONG_MIN and b == -1):
        assert q * b + r == a
    assert r == 0 or (r > 0) == (a > 0)
    m = n.mod(a, b)
    assert m == 0 or (m > 0) == (b > 0)
    assert (m - r) % b == 0


# --------------------------------------------------------------------------- comparison


@pytest.mark.parametrize(("a", "b"), [(1, 2), (1, 1.5), (Fraction(1, 3), 0.5), (BigInt(1), 2),
                                      (Decimal("0.1"), Fraction(1, 5)), (-math.inf, LONG_MIN)])
def test_ordering_across_categories(a: Any, b: Any) -> None:
    assert n.lt(a, b) and n.le(a, b) and n.gt(b, a) and n.ge(b, a)
    assert not n.lt(b, a) and not n.gt(a, b)
    assert n.compare_numbers(a, b) == -1 and n.compare_numbers(b, a) == 1


def test_equal_numbers_of_different_categories() -> None:
    assert n.le(1, 1.0) and n.ge(1, 1.0) and not n.lt(1, 1.0)
    assert n.num_equiv(1, 1.0) and n.num_equiv(Fraction(1, 2), 0.5) and n.num_equiv(Decimal("1.0"), 1)
    assert not n.num_equiv(1, 2)


def test_long_meets_double_as_a_double() -> None:
    assert n.num_equiv(2**53 + 1, float(2**53))
    assert not n.lt(2**53, float(2**53 + 1) - 1)


def test_nan_is_unordered() -> None:
    for fn in (n.lt, n.gt, n.le, n.ge, n.num_equiv):
        assert fn(math.nan, 1) is False
        assert fn(1, math.nan) is False
    assert n.compare_numbers(math.nan, 1) == 0


@pytest.mark.parametrize("fn", [n.lt, n.gt, n.le, n.ge, n.add, n.sub, n.mul])
def test_non_numbers_fail_with_the_jvm_cast_text(fn: Any) -> None:
    assert host_error(fn, 1, "a") == STRING_CAST
    assert host_error(fn, None, 1) == "Cannot perform arithmetic on nil"
    assert "java.lang.Boolean cannot be cast" in host_error(fn, True, 1)
    assert host_error(fn, Keyword("k"), 1) == (
        "class clojure.lang.Keyword cannot be cast to class java.lang.Number (clojure.lang.Keyword is in unnamed "
        "module of loader 'app'; java.lang.Number is in module java.base of loader 'bootstrap')")


def test_unary_operations_reject_non_numbers() -> None:
    for fn in (n.inc, n.dec, n.neg, n.abs_, n.inc_p, n.is_zero, n.is_pos):
        assert host_error(fn, "a") == STRING_CAST
        assert host_error(fn, None) == "Cannot perform arithmetic on nil"


# --------------------------------------------------------------------------- registered builtins


def test_variadic_arithmetic() -> None:
    assert n.plus() == 0 and n.times() == 1
    assert n.plus(1, 2, 3) == 6 and n.times(2, 3, 4) == 24
    assert n.minus(5) == -5 and n.minus(10, 1, 2) == 7
    assert same(n.divide(2), Fraction(1, 2)) and n.divide(100, 5, 2) == 10
    assert same(n.plus_p(LONG_MAX, 1, 1), BigInt(2**63 + 1))
    assert same(n.minus_p(LONG_MIN), BigInt(2**63))
    assert same(n.times_p(2**62, 2, 2), BigInt(2**64))


def test_one_argument_plus_and_times_cast_to_number() -> None:
    assert n.plus(5) == 5 and n.times(2.5) == 2.5
    assert n.plus(None) is None
    assert host_error(n.plus, "a") == "Cannot cast java.lang.String to java.lang.Number"
    assert host_error(n.times, True) == "Cannot cast java.lang.Boolean to java.lang.Number"


def test_errors_in_long_chains_name_the_first_bad_value() -> None:
    assert host_error(n.plus, 1, 2, "x") == STRING_CAST
    assert host_error(n.plus, LONG_MAX, 1, 1.0) == "integer overflow"


def test_comparison_chains_stop_at_the_first_false_pair() -> None:
    assert n.lt_chain(1, 2, 3) and not n.lt_chain(1, 3, 2)
    assert n.le_chain(2, 2, 3) and not n.gt_chain(3, 2, 2) and n.ge_chain(3, 3)
    assert n.lt_chain("anything") is True
    assert n.lt_chain(3, 2, "not reached") is False
    assert host_error(n.lt_chain, 1, 2, "x") == STRING_CAST


def test_max_and_min() -> None:
    assert same(n.max_(1, 2.0), 2.0) and same(n.max_(2, 1.0), 2)
    assert n.max_(1, 7, 3) == 7 and n.min_(4, 2, 9) == 2
    assert same(n.max_(1, 1.0), 1.0)  # a tie goes to the later argument
    assert math.isnan(n.max_(1, math.nan, 3)) and math.isnan(n.min_(math.nan, 1))
    assert n.max_("only") == "only"
    assert host_error(n.max_, 1, "a") == STRING_CAST


def test_max_key_and_min_key_call_the_key_function() -> None:
    k = Keyword("v")
    items = [spell_map(k, 1, Keyword("id"), "a"), spell_map(k, 3, Keyword("id"), "b"),
             spell_map(k, 3, Keyword("id"), "c"), spell_map(k, 0, Keyword("id"), "d")]
    assert n.max_key(None, k, *items) is items[2]  # ties after the first pair go to the later value
    assert n.min_key(None, k, *items) is items[3]
    assert n.max_key(None, k, items[1], items[2]) is items[2]
    assert n.max_key(None, k, items[0]) is items[0]
    assert n.min_key(None, len, "abc", "a", "b") == "b"


def test_abs_keeps_the_type() -> None:
    assert same(n.abs_(-7), 7) and same(n.abs_(-2.5), 2.5) and same(n.abs_(BigInt(-3)), BigInt(3))
    assert same(n.abs_(Fraction(-1, 2)), Fraction(1, 2)) and same(n.abs_(Decimal("-1.50")), Decimal("1.50"))
    assert same(n.abs_(Float32(-0.5)), 0.5)
    assert n.abs_(LONG_MIN) == LONG_MIN


def test_inc_and_dec_of_every_category() -> None:
    assert same(n.inc(5), 6) and same(n.dec(0), -1) and same(n.inc(1.5), 2.5)
    assert same(n.inc(Fraction(1, 2)), Fraction(3, 2)) and same(n.dec(Decimal("1.5")), Decimal("0.5"))
    assert same(n.dec(BigInt(1)), BigInt(0))


def test_rand_and_rand_int_stay_in_range() -> None:
    for _ in range(200):
        r = n.rand()
        assert type(r) is float and 0.0 <= r < 1.0
        assert 0.0 <= n.rand(10) < 10.0
        i = rand_int(5)
        assert type(i) is int and 0 <= i < 5
    assert type(n.rand(Fraction(1, 2))) is float
    assert host_error(n.rand, "a") == STRING_CAST


# --------------------------------------------------------------------------- predicates (§14.3)


def test_number_predicates() -> None:
    assert n.number_p(1) and n.number_p(1.5) and n.number_p(Fraction(1, 2)) and n.number_p(Decimal(1))
    assert not n.number_p(True) and not n.number_p("1") and not n.number_p(None)
    assert n.integer_p(5) and n.integer_p(BigInt(5)) and not n.integer_p(1.0) and not n.integer_p(True)
    assert n.int_p(5) and not n.int_p(BigInt(5))
    assert n.pos_int_p(1) and not n.pos_int_p(0) and n.neg_int_p(-1) and not n.neg_int_p(BigInt(-1))
    assert n.ratio_p(Fraction(1, 3)) and not n.ratio_p(1)
    assert n.rational_p(1) and n.rational_p(Decimal("1.5")) and not n.rational_p(1.5)


def test_sign_predicates() -> None:
    assert n.is_zero(0) and n.is_zero(0.0) and n.is_zero(Decimal("0.00")) and not n.is_zero(1)
    assert not n.is_pos(0) and n.is_neg(-0.5) and n.is_pos(Fraction(1, 2))
    assert not n.is_pos(math.nan) and not n.is_neg(math.nan) and not n.is_zero(math.nan)


def test_parity() -> None:
    assert n.even_p(0) and n.odd_p(-3) and n.even_p(BigInt(2**70)) and not n.odd_p(LONG_MIN)
    assert host_error(n.even_p, 1.5) == "Argument must be an integer: 1.5"
    assert host_error(n.odd_p, None) == "Argument must be an integer: "
