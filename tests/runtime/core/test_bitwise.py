"""Bit operations on 64-bit longs (language.md §14.12)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.core import bitwise as b
from spell_runtime.data.atoms import BigInt
from spell_runtime.errors import HostError

LONG_MIN = -(2**63)
LONG_MAX = 2**63 - 1
LONGS = st.integers(LONG_MIN, LONG_MAX)


def test_logic_operations() -> None:
    assert [b.bit_and(12, 10), b.bit_or(12, 10), b.bit_xor(12, 10), b.bit_not(5)] == [8, 14, 6, -6]
    assert b.bit_and(15, 7, 3) == 3 and b.bit_or(1, 2, 4) == 7 and b.bit_xor(1, 3, 7) == 5
    assert b.bit_and_not(15, 5) == 10 and b.bit_and_not(15, 1, 2) == 12


def test_shifts_wrap_and_take_counts_modulo_64() -> None:
    assert b.bit_shift_left(1, 10) == 1024
    assert b.bit_shift_left(1, 63) == LONG_MIN
    assert b.bit_shift_left(1, 64) == 1
    assert b.bit_shift_left(3, 63) == LONG_MIN
    assert b.bit_shift_right(-16, 2) == -4
    assert b.bit_shift_right(LONG_MIN, 63) == -1
    assert b.unsigned_bit_shift_right(-1, 60) == 15
    assert b.unsigned_bit_shift_right(-1, 0) == -1
    assert b.unsigned_bit_shift_right(LONG_MIN, 63) == 1


def test_single_bits() -> None:
    assert b.bit_test(5, 2) is True and b.bit_test(5, 1) is False
    assert [b.bit_set(0, 3), b.bit_clear(15, 0), b.bit_flip(0, 1)] == [8, 14, 2]
    assert b.bit_set(0, 63) == LONG_MIN and b.bit_test(-1, 63) is True
    assert b.bit_clear(-1, 63) == LONG_MAX


@pytest.mark.parametrize(("x", "cls"), [(1.5, "java.lang.Double"), (BigInt(1), "clojure.lang.BigInt"),
                                        (Fraction(1, 2), "clojure.lang.Ratio"), ("1", "java.lang.String"),
                                        (True, "java.lang.Boolean")])
def test_non_longs_are_rejected(x: Any, cls: str) -> None:
    for fn, args in ((b.bit_and, (x, 1)), (b.bit_or, (1, x)), (b.bit_not, (x,)), (b.bit_shift_left, (1, x)),
                     (b.bit_test, (x, 1))):
        with pytest.raises(HostError) as info:
            fn(*args)
        assert info.value.message == "bit operation not supported for: class " + cls


def test_nil_is_rejected() -> None:
    with pytest.raises(HostError) as info:
        b.bit_and(None, 1)
    assert info.value.message == "Cannot perform arithmetic on nil"


@given(LONGS, st.integers(0, 200))
def test_shift_results_are_64_bit(x: int, n: int) -> None:
    for r in (b.bit_shift_left(x, n), b.bit_shift_right(x, n), b.unsigned_bit_shift_right(x, n)):
        assert LONG_MIN <= r <= LONG_MAX
    assert b.unsigned_bit_shift_right(x, n) == b.wrap64((x % 2**64) >> (n % 64))
    assert b.bit_shift_left(x, n) == b.wrap64(x * 2 ** (n % 64))


@given(LONGS, LONGS)
def test_logic_matches_twos_complement(x: int, y: int) -> None:
    assert b.bit_and(x, y) == x & y and b.bit_or(x, y) == x | y and b.bit_xor(x, y) == x ^ y
    assert b.bit_and_not(x, y) == x & ~y and b.bit_not(x) == -x - 1
