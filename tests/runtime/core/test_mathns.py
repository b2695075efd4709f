"""The ``math/`` namespace (language.md §14.11): Java ``Math`` results, integer helpers, the namespace map."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import mathns as m
from spell_runtime.core.numbers import rand
from spell_runtime.core.registry import BUILTINS, info_of
from spell_runtime.data.atoms import BigInt, Keyword, Symbol
from spell_runtime.data.hashmap import SpellMap
from spell_runtime.errors import HostError


def same(value: Any, expected: Any) -> bool:
    if type(value) is float and type(expected) is float and math.isnan(expected):
        return math.isnan(value)
    return type(value) is type(expected) and value == expected and (
        type(value) is not float or math.copysign(1.0, value) == math.copysign(1.0, expected))


@pytest.mark.parametrize(("fn", "args", "expected"), [
    (m.sqrt, (16,), 4.0), (m.sqrt, (-1,), math.nan), (m.sqrt, (-0.0,), -0.0), (m.sqrt, (Fraction(1, 4),), 0.5),
    (m.cbrt, (27,), 3.0), (m.cbrt, (-8,), -2.0), (m.cbrt, (0.0,), 0.0),
    (m.pow_, (2, 10), 1024.0), (m.pow_, (0, -1), math.inf), (m.pow_, (-0.0, -1), -math.inf),
    (m.pow_, (-8, 1 / 3), math.nan), (m.pow_, (1, math.nan), math.nan), (m.pow_, (-1, math.inf), math.nan),
    (m.pow_, (math.nan, 0), 1.0), (m.pow_, (10, 400), math.inf), (m.pow_, (-10, 401), -math.inf),
    (m.exp, (0,), 1.0), (m.exp, (1000,), math.inf), (m.expm1, (0,), 0.0),
    (m.log, (math.e,), 1.0), (m.log, (0,), -math.inf), (m.log, (-1,), math.nan),
    (m.log10, (1000,), 3.0), (m.log10, (0.0,), -math.inf), (m.log1p, (-1,), -math.inf), (m.log1p, (-2,), math.nan),
    (m.log2, (8,), 3.0), (m.log2, (0,), -math.inf),
    (m.sin, (0,), 0.0), (m.sin, (math.inf,), math.nan), (m.cos, (0,), 1.0), (m.tan, (math.inf,), math.nan),
    (m.asin, (2,), math.nan), (m.acos, (1,), 0.0), (m.atan, (math.inf,), math.pi / 2),
    (m.atan2, (1, 1), math.pi / 4), (m.hypot, (3, 4), 5.0),
    (m.sinh, (1000,), math.inf), (m.sinh, (-1000,), -math.inf), (m.cosh, (-1000,), math.inf), (m.tanh, (0,), 0.0),
    (m.degrees, (math.pi,), 180.0), (m.radians, (180,), math.pi),
    (m.abs_double, (-5,), 5.0), (m.sign, (-4,), -1.0), (m.sign, (0.0,), 0.0), (m.sign, (-0.0,), -0.0),
    (m.sign, (math.nan,), math.nan), (m.sign, (Decimal("2.5"),), 1.0),
])
def test_java_math_results(fn: Any, args: tuple[Any, ...], expected: float) -> None:
    assert same(fn(*args), expected)


@pytest.mark.parametrize(("fn", "x", "expected"), [
    (m.floor, 3.7, 3), (m.floor, -3.2, -4), (m.ceil, 3.2, 4), (m.ceil, -3.7, -3), (m.trunc, -3.9, -3),
    (m.trunc, 7, 7), (m.trunc, Fraction(-7, 2), -3), (m.trunc, Decimal("9.99"), 9),
    (m.round_, 2.5, 3), (m.round_, -2.5, -2), (m.round_, 3.2, 3), (m.round_, 0.49999999999999994, 0),
    (m.round_, -0.5, 0), (m.round_, math.nan, 0), (m.round_, 2**60 + 0.0, 2**60),
    (m.floor, 1e300, 2**63 - 1), (m.ceil, -1e300, -(2**63)), (m.round_, math.inf, 2**63 - 1),
    (m.trunc, math.nan, 0), (m.floor, math.nan, 0), (m.trunc, BigInt(10**30), 2**63 - 1),
])
def test_rounding_returns_saturated_longs(fn: Any, x: Any, expected: int) -> None:
    assert same(fn(x), expected)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-(2.0**52), max_value=2.0**52))
def test_round_is_floor_of_x_plus_half(x: float) -> None:
    assert m.round_(x) == math.floor(Fraction(x) + Fraction(1, 2))


@given(st.integers(-(2**17), 2**17))
def test_cbrt_of_a_cube_is_exact(k: int) -> None:
    assert m.cbrt(k**3) == float(k)


def test_number_theory() -> None:
    assert same(m.factorial(5), BigInt(120)) and same(m.factorial(0), BigInt(1))
    assert m.factorial(20) == 2432902008176640000 and m.factorial(5.9) == 120
    assert [m.gcd(12, 18), m.gcd(0, 5), m.gcd(-4, 6), m.gcd(2.5, 4)] == [6, 5, 2, 2]
    assert m.gcd(-(2**63), 0) == -(2**63)
    assert [m.lcm(4, 6), m.lcm(0, 5), m.lcm(-4, 6)] == [12, 0, 12]
    assert same(m.lcm(4.0, 6), 12.0)
    with pytest.raises(HostError) as info:
        m.lcm(2**62, 3)
    assert info.value.message == "integer overflow"


def test_factorial_of_a_negative_number_carries_data() -> None:
    with pytest.raises(HostError) as info:
        m.factorial(-1)
    assert info.value.message == "factorial: negative argument"
    assert isinstance(info.value.data, SpellMap) and info.value.data.get(Keyword("n")) == -1


def test_predicates() -> None:
    assert m.nan_p(math.nan) and not m.nan_p(42) and m.infinite_p(-math.inf) and not m.infinite_p(1e308)


def test_arguments_must_be_numbers() -> None:
    for fn in (m.sqrt, m.floor, m.nan_p, m.abs_double):
        with pytest.raises(HostError) as info:
            fn("4")
        assert info.value.message.startswith("class java.lang.String cannot be cast to class java.lang.Number")
    with pytest.raises(HostError) as info:
        m.sqrt(None)
    assert info.value.message == "Cannot perform arithmetic on nil"


def test_namespace_map() -> None:
    ns = BUILTINS[Symbol("math")]
    assert ns is m.MATH_NS
    assert ns.get(Keyword("sqrt")) is m.sqrt and ns.get(Keyword("rand")) is rand
    assert ns.get(Keyword("PI")) == math.pi and ns.get(Keyword("E")) == math.e
    assert ns.get(Keyword("INF")) == math.inf and ns.get(Keyword("NEG-INF")) == -math.inf
    assert math.isnan(ns.get(Keyword("NaN")))
    assert "java.lang.Math" in ns.get(Keyword("short-docs"))
    assert "factorial" in ns.get(Keyword("docs")).get(Keyword("guide"))
    assert "(math/round 2.5) ;=> 3" in ns.get(Keyword("detail")).get(Keyword("round"))
    info = info_of(m.sqrt)
    assert info is not None and info.host_name == "math/sqrt" and (info.min_args, info.max_args) == (1, 1)
    for name in ("sqrt cbrt exp expm1 log log10 log1p sin cos tan asin acos atan sinh cosh tanh pow atan2 hypot "
                 "log2 abs sign floor ceil round trunc degrees radians factorial gcd lcm rand NaN? infinite?").split():
        assert ns.contains(Keyword(name)), name
