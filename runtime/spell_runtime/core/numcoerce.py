"""Numeric coercions and parsing: ``int long double float bigint bigdec rationalize numerator
denominator parse-number parse-boolean boolean`` and ``rand-int`` (language.md §14.2, §16.1.9).

Each follows the Clojure function the reference binds (``RT.intCast``,
``RT.longCast``, ``clojure.core/bigint``...), because the interesting cases are
the JVM's: doubles truncate toward zero, NaN becomes 0, out-of-range values fail
with ``Value out of range for int: 1.0E20``, and ``bigint``/``bigdec``/
``rationalize`` of a double go through its *decimal text* (``BigDecimal.valueOf``),
so ``(rationalize 0.1)`` is ``1/10`` and ``(bigint 1e23)`` is ``100000000000000000000000N``.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, Optional, cast

from ..bigdigits import parse_int
from ..data.atoms import BigInt, Char, Float32
from ..data.fn import is_truthy
from ..errors import HostError
from ..printer import to_str
from .hostcast import NIL_ARITHMETIC, cast_error
from .numbers import DCTX, NUMBER_CLASS, category, decimal_divide, mul, norm_bigint, norm_ratio, to_double
from .registry import builtin

_INT_MIN: Final = -(2**31)
_INT_MAX: Final = 2**31 - 1
_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1
_FLOAT_MAX: Final = 3.4028234663852886e38

# Pattern texts, compiled by ``_pattern`` when a builtin first needs one: compiling the four with
# the library cost every start-up ~2 M instructions (issue 12), for builtins most programs never call.
_DEC_TEXT: Final = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_BAD_DEC_CHAR: Final = r"[^0-9.eE+-]"
_INT_TEXT: Final = r"[+-]?[0-9]+"
_NUMBER_IN_TEXT: Final = r"-?[0-9]+(?:\.[0-9]+)?"
_COMPILED: dict[str, re.Pattern[str]] = {}


def _pattern(text: str) -> re.Pattern[str]:
    """The compiled pattern of one of the texts above (compiled once, on first use)."""
    p = _COMPILED.get(text)
    if p is None:
        p = _COMPILED[text] = re.compile(text)
    return p


def _first_number_search(text: str) -> Optional[re.Match[str]]:
    """``_number_search`` until its first call, which puts the compiled pattern's ``search`` in its place."""
    global _number_search
    _number_search = _pattern(_NUMBER_IN_TEXT).search
    return _number_search(text)


_number_search: Callable[[str], Optional[re.Match[str]]] = _first_number_search
"""``_NUMBER_IN_TEXT``'s search, called directly by ``parse-number`` (which programs call in loops):
after the first call as cheap as a search on a pattern compiled at import."""


def _text(x: Any) -> str:
    return to_str(x)


def _out_of_range(kind: str, x: Any) -> HostError:
    return HostError("Value out of range for %s: %s" % (kind, _text(x)))


def _integral(x: Any, kind: str, lo: int, hi: int) -> int:
    """Java's cast of a number to a fixed-width integer: truncating, range-checked, NaN → 0."""
    t = type(x)
    if t is float or t is Float32:
        v = float(x)
        if v != v:
            return 0
        if v < float(lo) or v > float(hi):  # compared as doubles: 2**63 passes and saturates, as in Java
            raise _out_of_range(kind, x)
        return min(max(math.trunc(v), lo), hi)
    if t is Char:
        return ord(x.ch)
    if x is None:
        raise HostError(NIL_ARITHMETIC)
    c = category(x)
    n = int(x) if c <= 1 else math.trunc(Fraction(x))
    if n < lo or n > hi:
        raise _out_of_range(kind, x)
    return n


def to_int(x: Any) -> int:
    """``(int x)``: a 32-bit integer (kept as a long: it compares ``=`` to the same long)."""
    if type(x) is int:
        if _INT_MIN <= x <= _INT_MAX:
            return x
        raise _out_of_range("int", x)
    if type(x) is bool or not (type(x) is Char or x is None or type(x) in (float, Float32, BigInt, Fraction, Decimal)):
        raise cast_error(x, "java.lang.Character")
    return _integral(x, "int", _INT_MIN, _INT_MAX)


def to_long(x: Any) -> int:
    """``(long x)``: a 64-bit integer, truncating."""
    if type(x) is int:
        return x
    return _integral(x, "long", _LONG_MIN, _LONG_MAX)


builtin("int")(to_int)
builtin("long")(to_long)


@builtin("rand-int")
def rand_int(n: Any) -> int:
    """``(int (rand n))`` (here, beside ``int``, rather than in ``numbers``, which this module builds on)."""
    return to_int(mul(n, random.random()))


@builtin("double")
def to_double_(x: Any) -> float:
    category(x)
    return to_double(x)


@builtin("float")
def to_float(x: Any) -> Float32:
    """``(float x)``: rounded to binary32; beyond ±Float.MAX_VALUE is an error, as in ``RT.floatCast``."""
    if type(x) is Float32:
        return x
    category(x)
    n = to_double(x)
    if n < -_FLOAT_MAX or n > _FLOAT_MAX:
        raise _out_of_range("float", x)
    from ..numtext import to_float32

    return Float32(to_float32(n))


def _not_decimal_char(text: str) -> HostError:
    if text.count(".") > 1:
        return HostError("Character array contains more than one decimal point.")
    bad = _pattern(_BAD_DEC_CHAR).search(text)
    ch = bad.group(0) if bad else (text[:1] or " ")
    return HostError('Character %s is neither a decimal digit number, decimal point, nor "e" notation '
                     "exponential mark." % ch)


def double_decimal(x: Any) -> Decimal:
    """``BigDecimal.valueOf(double)``: the decimal of the double's shortest text."""
    from ..numtext import double_text

    text = double_text(float(x))
    if not math.isfinite(float(x)):
        raise _not_decimal_char(text.lstrip("-"))
    return Decimal(text)


@builtin("bigint")
def to_bigint(x: Any) -> BigInt:
    t = type(x)
    if t is BigInt:
        return cast(BigInt, x)
    if t is int:
        return BigInt(x)
    if t is Decimal:
        return BigInt(math.trunc(x))
    if t is float or t is Float32:
        return BigInt(math.trunc(double_decimal(x)))
    if t is Fraction:
        return BigInt(math.trunc(x))
    if t is str:
        return BigInt(_parse_big_integer(x))
    if x is None:
        raise HostError(NIL_ARITHMETIC)
    raise HostError("No matching ctor found for class java.math.BigInteger")


def _parse_big_integer(s: str) -> int:
    """Java ``new BigInteger(String)``: an optional sign and decimal digits, nothing else."""
    body = s[1:] if s[:1] in "+-" else s
    if not body:
        raise HostError("Zero length BigInteger")
    if "-" in body or "+" in body:
        raise HostError("Illegal embedded sign character")
    if not _pattern(_INT_TEXT).fullmatch(s):
        raise HostError('For input string: "%s"' % body)
    return -parse_int(body) if s[:1] == "-" else parse_int(body)


@builtin("bigdec")
def to_bigdec(x: Any) -> Decimal:
    t = type(x)
    if t is Decimal:
        return cast(Decimal, x)
    if t is float or t is Float32:
        return double_decimal(x)
    if t is Fraction:
        return decimal_divide(Decimal(x.numerator), Decimal(x.denominator))
    if t is int or t is BigInt:
        return Decimal(int(x))
    if t is str:
        if not _pattern(_DEC_TEXT).fullmatch(x):
            if not _pattern(_BAD_DEC_CHAR).search(x) and x.count(".") < 2 and not any(c.isdigit() for c in x):
                raise HostError("No digits found.")
            raise _not_decimal_char(x)
        return DCTX.create_decimal(x)
    if x is None:
        raise HostError(NIL_ARITHMETIC)
    raise HostError("No matching ctor found for class java.math.BigDecimal")


@builtin("rationalize")
def rationalize(x: Any) -> Any:
    """Clojure ``Numbers.rationalize``: doubles via their decimal text, BigDecimals exactly."""
    c = category(x)
    if c == 4:
        return _rationalize_decimal(double_decimal(x))
    if c == 3:
        return _rationalize_decimal(x)
    return x


def _rationalize_decimal(d: Decimal) -> Any:
    sign, digits, exponent = d.as_tuple()
    assert isinstance(exponent, int)
    unscaled = parse_int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    if exponent >= 0:
        return BigInt(unscaled * 10**exponent)
    return norm_ratio(Fraction(unscaled, 10**-exponent))


@builtin("numerator")
def numerator(x: Any) -> Any:
    if type(x) is not Fraction:
        raise cast_error(x, "clojure.lang.Ratio")
    return norm_bigint(x.numerator)


@builtin("denominator")
def denominator(x: Any) -> Any:
    if type(x) is not Fraction:
        raise cast_error(x, "clojure.lang.Ratio")
    return norm_bigint(x.denominator)


@builtin("parse-number", host="parse-number")
def parse_number(x: Any) -> Any:
    """Δ Spell-specific: the first ``-?\\d+(?:\\.\\d+)?`` in ``(str x)``, as a double or a long."""
    m = _number_search(_text(x))
    if m is None:
        return None
    text = m.group(0)
    if "." in text:
        return float(text)
    n = -parse_int(text[1:]) if text[:1] == "-" else parse_int(text)
    if n < _LONG_MIN or n > _LONG_MAX:
        raise HostError('For input string: "%s"' % text)
    return n


@builtin("parse-boolean", host="parse-boolean")
def parse_boolean(x: Any) -> Any:
    """Δ ``"true"``/``"false"`` exactly; anything else, strings or not, is nil."""
    if type(x) is str:
        if x == "true":
            return True
        if x == "false":
            return False
    return None


@builtin("boolean")
def boolean(x: Any) -> bool:
    return is_truthy(x)


__all__ = ["to_int", "to_long", "to_bigint", "to_bigdec", "rationalize", "double_decimal", "NUMBER_CLASS"]
