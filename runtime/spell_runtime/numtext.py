"""Number text exactly as the JVM writes it (language.md §16.1.6–§16.1.8, A16).

The model reads printed numbers and programs compare printed text, so the
layout must be Java's, not Python's: ``1.0E7`` rather than ``10000000.0``,
``1.0E-4`` rather than ``0.0001``, ``1E+3`` for a BigDecimal.

Digits. Java (JDK 19+) picks the *shortest* decimal that rounds back to the
binary value, the closest one among equally short candidates, and — when one
digit would do — also considers two-digit decimals and keeps the closest
(``Double.MIN_VALUE`` prints ``4.9E-324``, not ``5.0E-324``). Python's ``repr``
gives the same digits for every *normal* double (a one-digit decimal that
rounds to a normal double is within 2**-53 of it, far closer than any other
two-digit decimal), so ``repr`` is the fast path and the exact search below is
used only for subnormal doubles and for every binary32 ``float``, for which
Python has no shortest-digits API.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction

_MIN_NORMAL_DOUBLE = 2.2250738585072014e-308


def _layout(negative: bool, digits: str, exp: int) -> str:
    """Java's layout of the value ``0.d1d2...dn × 10^(exp+1)``, i.e. ``d1.d2...dn × 10^exp``."""
    sign = "-" if negative else ""
    if -3 <= exp < 7:
        if exp >= 0:
            whole = digits[: exp + 1].ljust(exp + 1, "0")
            frac = digits[exp + 1 :] or "0"
            return sign + whole + "." + frac
        return sign + "0." + "0" * (-exp - 1) + digits
    return sign + digits[0] + "." + (digits[1:] or "0") + "E" + str(exp)


def _repr_digits(text: str) -> tuple[str, int]:
    """Significant digits and decimal exponent of a positive ``repr`` text."""
    mant, _, exp_text = text.partition("e")
    exp = int(exp_text) if exp_text else 0
    point = mant.find(".")
    if point < 0:
        point = len(mant)
    raw = mant.replace(".", "")
    stripped = raw.lstrip("0")
    leading = len(raw) - len(stripped)
    return stripped.rstrip("0") or "0", exp + point - 1 - leading


def _decimal_exponent(v: Fraction) -> int:
    """floor(log10(v)) for a positive rational, exactly."""
    e = math.floor(math.log10(v.numerator) - math.log10(v.denominator))
    while Fraction(10) ** e > v:
        e -= 1
    while Fraction(10) ** (e + 1) <= v:
        e += 1
    return e


def _shortest(v: Fraction, lo: Fraction, hi: Fraction, inclusive: bool, max_digits: int) -> tuple[str, int]:
    """Java's choice of decimal for the binary value ``v`` whose rounding interval is (lo, hi).

    ``inclusive`` says whether the interval's end points themselves round to ``v``
    (round-half-even: they do when ``v``'s significand is even).
    """

    def rounds_to_v(c: Fraction) -> bool:
        if inclusive:
            return lo <= c <= hi
        return lo < c < hi

    exp = _decimal_exponent(v)
    chosen: list[tuple[Fraction, int, int]] = []  # (value, significand, power of ten)
    for precision in range(1, max_digits + 2):
        power = exp - precision + 1
        scale = Fraction(10) ** power
        n = math.floor(v / scale)
        found = [(c * scale, c, power) for c in (n, n + 1) if rounds_to_v(c * scale)]
        if found:
            chosen = found
            if precision == 1:
                power2 = exp - 1
                scale2 = Fraction(10) ** power2
                n2 = math.floor(v / scale2)
                chosen += [(c * scale2, c, power2) for c in (n2, n2 + 1) if rounds_to_v(c * scale2)]
            break
    if not chosen:  # unreachable for real binary values; keep the exact expansion
        return _repr_digits(repr(float(v)))

    def rank(item: tuple[Fraction, int, int]) -> tuple[Fraction, int]:
        significand = item[1]
        while significand and significand % 10 == 0:
            significand //= 10
        return abs(item[0] - v), significand % 2

    _, significand, power = min(chosen, key=rank)
    digits = str(significand)
    stripped = digits.rstrip("0")
    return stripped, power + len(digits) - 1


def _interval(x: float, pack: str, bits_fmt: str) -> tuple[Fraction, Fraction, bool]:
    """The rounding interval of the positive finite binary value ``x`` in format ``pack``."""
    (bits,) = struct.unpack(bits_fmt, struct.pack(pack, x))
    (down,) = struct.unpack(pack, struct.pack(bits_fmt, bits - 1))
    (up,) = struct.unpack(pack, struct.pack(bits_fmt, bits + 1))
    v = Fraction(x)
    below = Fraction(down)
    above = Fraction(up) if math.isfinite(up) else v + (v - below)
    return (below + v) / 2, (v + above) / 2, bits % 2 == 0


def _finite_text(x: float, digits_of: Callable[[float], tuple[str, int]]) -> str:
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    digits, exp = digits_of(abs(x))
    return _layout(x < 0, digits, exp)


def _double_digits(a: float) -> tuple[str, int]:
    if a >= _MIN_NORMAL_DOUBLE:
        return _repr_digits(repr(a))
    lo, hi, inclusive = _interval(a, "<d", "<Q")
    return _shortest(Fraction(a), lo, hi, inclusive, 17)


def _float32_digits(a: float) -> tuple[str, int]:
    lo, hi, inclusive = _interval(a, "<f", "<I")
    return _shortest(Fraction(a), lo, hi, inclusive, 9)


def to_float32(x: float) -> float:
    """``x`` rounded to IEEE binary32 (returned as the equal Python float); overflow gives an infinity."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def double_text(x: float) -> str:
    """Java ``Double.toString``: ``1.0``, ``1.0E7``, ``1.0E-4``, ``-0.0``, ``Infinity``, ``NaN``."""
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Infinity" if x > 0 else "-Infinity"
    return _finite_text(x, _double_digits)


def float32_text(x: float) -> str:
    """Java ``Float.toString`` of the binary32 value ``x``: ``(float 0.1)`` is ``0.1``."""
    x = to_float32(x)
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Infinity" if x > 0 else "-Infinity"
    return _finite_text(x, _float32_digits)


def bigdec_text(d: Decimal) -> str:
    """Java ``BigDecimal.toString`` (scientific form when the scale is negative or the exponent small).

    Java has no negative zero, so ``-0.0M`` prints ``0.0``.
    """
    sign, digit_tuple, exponent = d.as_tuple()
    if not isinstance(exponent, int):  # NaN / Infinity cannot come from Spell; print them as Python does
        return str(d)
    coeff = "".join(str(digit) for digit in digit_tuple).lstrip("0") or "0"
    negative = bool(sign) and coeff != "0"
    scale = -exponent
    adjusted = -scale + len(coeff) - 1
    if scale >= 0 and adjusted >= -6:
        if scale == 0:
            body = coeff
        elif len(coeff) > scale:
            body = coeff[:-scale] + "." + coeff[-scale:]
        else:
            body = "0." + "0" * (scale - len(coeff)) + coeff
    else:
        body = coeff[0] + ("." + coeff[1:] if len(coeff) > 1 else "")
        body += "E" + ("+" if adjusted > 0 else "") + str(adjusted)
    return ("-" if negative else "") + body
