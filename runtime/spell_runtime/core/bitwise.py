"""Bit operations on longs (language.md §14.12).

Clojure's ``Numbers.bitOpsCast`` accepts only fixed-width integers — a double,
BigInt or ratio is rejected with ``bit operation not supported for: class
java.lang.Double`` — and every result is a 64-bit two's-complement long: shifts
take their count modulo 64 and wrap silently, unlike ``+``, which checks.
"""

from __future__ import annotations

from typing import Any, Final

from ..errors import HostError
from .hostcast import NIL_ARITHMETIC, class_name
from .registry import builtin

_MASK: Final = (1 << 64) - 1
_SIGN: Final = 1 << 63


def wrap64(v: int) -> int:
    """``v`` reduced to a signed 64-bit value."""
    v &= _MASK
    return v - (1 << 64) if v & _SIGN else v


def bit_operand(x: Any) -> int:
    """The long behind a bit-operation argument, or the reference's rejection."""
    if type(x) is int:
        return x
    if x is None:
        raise HostError(NIL_ARITHMETIC)
    raise HostError("bit operation not supported for: class " + class_name(x))


def _fold(op: Any, x: Any, y: Any, more: tuple[Any, ...]) -> int:
    acc: int = op(bit_operand(x), bit_operand(y))
    for z in more:
        acc = op(acc, bit_operand(z))
    return acc


def _and(a: int, b: int) -> int:
    return a & b


def _or(a: int, b: int) -> int:
    return a | b


def _xor(a: int, b: int) -> int:
    return a ^ b


def _and_not(a: int, b: int) -> int:
    return a & ~b


@builtin("bit-and")
def bit_and(x: Any, y: Any, *more: Any) -> int:
    if not more and type(x) is int and type(y) is int:
        return x & y
    return _fold(_and, x, y, more)


@builtin("bit-or")
def bit_or(x: Any, y: Any, *more: Any) -> int:
    if not more and type(x) is int and type(y) is int:
        return x | y
    return _fold(_or, x, y, more)


@builtin("bit-xor")
def bit_xor(x: Any, y: Any, *more: Any) -> int:
    if not more and type(x) is int and type(y) is int:
        return x ^ y
    return _fold(_xor, x, y, more)


@builtin("bit-and-not")
def bit_and_not(x: Any, y: Any, *more: Any) -> int:
    return _fold(_and_not, x, y, more)


@builtin("bit-not")
def bit_not(x: Any) -> int:
    return ~bit_operand(x)


@builtin("bit-shift-left")
def bit_shift_left(x: Any, n: Any) -> int:
    return wrap64(bit_operand(x) << (bit_operand(n) & 63))


@builtin("bit-shift-right")
def bit_shift_right(x: Any, n: Any) -> int:
    return bit_operand(x) >> (bit_operand(n) & 63)


@builtin("unsigned-bit-shift-right")
def unsigned_bit_shift_right(x: Any, n: Any) -> int:
    return wrap64((bit_operand(x) & _MASK) >> (bit_operand(n) & 63))


def _bit(n: Any) -> int:
    return wrap64(1 << (bit_operand(n) & 63))


@builtin("bit-set")
def bit_set(x: Any, n: Any) -> int:
    return bit_operand(x) | _bit(n)


@builtin("bit-clear")
def bit_clear(x: Any, n: Any) -> int:
    return bit_operand(x) & ~_bit(n)


@builtin("bit-flip")
def bit_flip(x: Any, n: Any) -> int:
    return bit_operand(x) ^ _bit(n)


@builtin("bit-test")
def bit_test(x: Any, n: Any) -> bool:
    return (bit_operand(x) & _bit(n)) != 0
