"""Number tokens, read exactly as Clojure's ``LispReader.matchNumber``.

The three patterns are tried in Clojure's order (integer, then floating, then
ratio), with Java's ASCII-only ``[0-9]``. Integers that fit a signed 64-bit long
are ``int``; wider ones, and any with the ``N`` suffix, are ``BigInt``. A ratio is
divided like Clojure does (long division when both parts fit a long, BigInt
otherwise) so ``4/2`` is the long ``2`` and ``1/0`` fails with ``Divide by zero``.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Final, Optional, Union

from spell_runtime.bigdigits import parse_int
from spell_runtime.data.atoms import LONG_MAX, LONG_MIN, BigInt

from .errors import ReadFailure

Number = Union[int, BigInt, float, Fraction, Decimal]

_INT: Final = r"([-+]?)(?:(0)|([1-9][0-9]*)|0[xX]([0-9A-Fa-f]+)|0([0-7]+)|([1-9][0-9]?)[rR]([0-9A-Za-z]+)|0[0-9]+)(N)?"
_FLOAT: Final = r"([-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)(M)?"
_RATIO: Final = r"([-+]?[0-9]+)/([0-9]+)"
_compiled: Optional[tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]] = None
"""``_INT``, ``_FLOAT`` and ``_RATIO`` compiled, on the first number that is not a plain decimal
long (``read_number``'s fast path): compiling them when the reader loads cost every ``spellc eval``
about half a millisecond (issue 12.4)."""


def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    global _compiled
    _compiled = (re.compile(_INT), re.compile(_FLOAT), re.compile(_RATIO))
    return _compiled

# java.math.BigInteger parses digits in groups of this many per radix.
_DIGITS_PER_INT: Final = (0, 0, 30, 19, 15, 13, 11, 11, 10, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6,
                          6, 6, 6, 6, 6, 6, 6, 6, 6, 5)


def _to_int(digits: str, radix: int = 10) -> int:
    """``int(digits, radix)`` without CPython's 4300-digit limit on string conversion."""
    return parse_int(digits, radix)


def _long_or_big(value: int) -> int:
    return value if LONG_MIN <= value <= LONG_MAX else BigInt(value)


def _parse_radix(digits: str, radix: int) -> int:
    """``new BigInteger(digits, radix)``, failing with the JVM's messages."""
    if not 2 <= radix <= 36:
        raise ReadFailure("Radix out of range")
    stripped = digits.lstrip("0")
    if not stripped:
        return 0
    try:
        return _to_int(stripped, radix)
    except ValueError:
        pass
    # Report the digit group that Integer.parseInt would have rejected.
    per = _DIGITS_PER_INT[radix]
    first = len(stripped) % per or per
    groups = [stripped[:first]] + [stripped[i:i + per] for i in range(first, len(stripped), per)]
    for group in groups:
        try:
            int(group, radix)
        except ValueError:
            suffix = "" if radix == 10 else f" under radix {radix}"
            raise ReadFailure(f'For input string: "{group}"{suffix}') from None
    raise ReadFailure(f'For input string: "{digits}"')  # pragma: no cover - int() and groups agree


def _divide(num: int, den: int, both_long: bool) -> Union[int, BigInt, Fraction]:
    if den == 0:
        raise ReadFailure("Divide by zero")
    q = Fraction(num, den)
    if q.denominator == 1:
        value = q.numerator
        return value if both_long else BigInt(value)
    return q


def match_number(token: str) -> Number:
    """The number ``token`` denotes, or ``ReadFailure("Invalid number: <token>")``."""
    int_pattern, float_pattern, ratio_pattern = _compiled or _patterns()
    m = int_pattern.fullmatch(token)
    if m is not None:
        if m.group(2) is not None:
            return BigInt(0) if m.group(8) is not None else 0
        if m.group(3) is not None:
            value = _to_int(m.group(3))
        elif m.group(4) is not None:
            value = _to_int(m.group(4), 16)
        elif m.group(5) is not None:
            value = _to_int(m.group(5), 8)
        elif m.group(7) is not None:
            value = _parse_radix(m.group(7), int(m.group(6)))
        else:
            raise ReadFailure("Invalid number: " + token)
        if m.group(1) == "-":
            value = -value
        if m.group(8) is not None:
            return BigInt(value)
        return _long_or_big(value)
    m = float_pattern.fullmatch(token)
    if m is not None:
        if m.group(4) is not None:
            return Decimal(m.group(1))
        return float(token)
    m = ratio_pattern.fullmatch(token)
    if m is not None:
        num = _to_int(m.group(1).lstrip("+-"))
        if m.group(1)[0] == "-":
            num = -num
        den = _to_int(m.group(2))
        both_long = LONG_MIN <= num <= LONG_MAX and den <= LONG_MAX
        return _divide(num, den, both_long)
    raise ReadFailure("Invalid number: " + token)


def read_number(token: str) -> Number:
    """``match_number`` with fast paths for the plain decimal longs and doubles (``12``, ``-0.5``,
    ``100.0``) that dominate programs: a program with a double no longer compiles the three patterns
    (~0.3 ms of a cold ``spellc run``, issue 12)."""
    if not token.isascii():
        return match_number(token)
    if token.isdigit() and (token[0] != "0" or len(token) == 1):
        value = _to_int(token)
        return value if value <= LONG_MAX else BigInt(value)
    whole, dot, fraction = token.partition(".")
    if dot and (fraction.isdigit() or not fraction):
        digits = whole[1:] if whole[:1] in ("-", "+") else whole
        if digits.isdigit():  # ``_FLOAT`` without exponent or ``M``, and never an ``_INT``
            return float(token)
    return match_number(token)
