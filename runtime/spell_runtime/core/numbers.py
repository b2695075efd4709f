"""The numeric tower: Clojure arithmetic and comparison on Spell numbers (language.md §14.1, §16.1).

Two layers, because the compiler lowers ``(+ a b)`` straight to ``add(a, b)``
(architecture.md §2.2) and most arithmetic in real programs is long on long:

* the *fast functions* (``add``, ``sub``, ``mul``, ``div``, ``lt`` ...) take a
  fixed number of arguments, test ``type(x) is int`` first (``bool`` is an
  ``int`` subclass and must not pass), then ``float``, and only then fall into
  the general path;
* the general path (``_arith``/``_compare``) promotes both operands to the higher
  category of long < BigInt < ratio < BigDecimal < double, as Clojure's
  ``Numbers.ops(x).combine(ops(y))`` does, so results keep Clojure's types:
  ``(+ 1 1N)`` is ``2N``, ``(+ 1/2 1/2)`` is ``1N``, ``(* 2 0.5)`` is ``1.0``.

Errors are the reference's host texts: ``integer overflow``, ``Divide by zero``,
the JVM cast text for non-numbers, A7's readable text for nil. The operand
checked first is the one Clojure checks first (for ``/``, ``quot``, ``rem``
the divisor), so mixed mistakes fail with the same message.

Division by zero: the reference applies builtins dynamically, through Clojure's
boxed ``Numbers.divide(Object, Object)``, which checks for a zero divisor before
looking at types — so ``(/ 1.0 0)`` and ``(/ 1.0 0.0)`` fail with ``Divide by
zero`` there (conformance README), unlike the primitive IEEE path that
language.md §16.1.3 describes. We follow the reference; a NaN operand still
gives NaN, as in ``Numbers.divide``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal
from fractions import Fraction
from typing import Any, Final, cast

from ..data.atoms import BigInt, Float32
from ..errors import HostError
from ..printer import to_str
from .hostcast import cast_error, class_name
from .registry import builtin

OVERFLOW: Final = "integer overflow"
DIVIDE_BY_ZERO: Final = "Divide by zero"
NON_TERMINATING: Final = "Non-terminating decimal expansion; no exact representable decimal result."
NUMBER_CLASS: Final = "java.lang.Number"

LONG: Final = 0
BIGINT: Final = 1
RATIO: Final = 2
DECIMAL: Final = 3
DOUBLE: Final = 4

_CATEGORY: Final[dict[type, int]] = {int: LONG, BigInt: BIGINT, Fraction: RATIO, Decimal: DECIMAL,
                                     float: DOUBLE, Float32: DOUBLE}

DCTX: Final = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)
"""Decimal context wide enough that +, -, * are exact, as Java's BigDecimal is."""

_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1
_TWO_63: Final = 2.0**63

# --------------------------------------------------------------------------- categories and conversions


def category(x: Any) -> int:
    """The tower category of ``x``; a host cast error for anything that is not a number."""
    c = _CATEGORY.get(type(x))
    if c is None:
        raise cast_error(x, NUMBER_CLASS)
    return c


def is_number(x: Any) -> bool:
    """True for every Spell number (never for booleans)."""
    return type(x) in _CATEGORY


def _cat2(a: Any, b: Any) -> int:
    ca = _CATEGORY.get(type(a))
    if ca is None:
        raise cast_error(a, NUMBER_CLASS)
    cb = _CATEGORY.get(type(b))
    if cb is None:
        raise cast_error(b, NUMBER_CLASS)
    return ca if ca > cb else cb


def to_double(x: Any) -> float:
    """The double value of a number; huge exact values become infinities as on the JVM."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def to_ratio(x: Any) -> Fraction:
    """An exact rational for a long, BigInt or ratio."""
    if type(x) is Fraction:
        return x
    return Fraction(int(x))


def to_decimal(x: Any) -> Decimal:
    """The BigDecimal of an exact number; a ratio must have a terminating expansion."""
    t = type(x)
    if t is Decimal:
        return cast(Decimal, x)
    if t is Fraction:
        return exact_quotient(x, 0)
    return Decimal(int(x))


def norm_ratio(f: Fraction) -> Any:
    """A ratio result: integral ones become BigInts, as Clojure's ``Numbers.divide`` makes them."""
    if f.denominator == 1:
        return BigInt(f.numerator)
    return f


def norm_bigint(n: int) -> Any:
    """Clojure's ``normalize(BigInteger)``: a long when it fits, else a BigInt."""
    if _LONG_MIN <= n <= _LONG_MAX:
        return int(n)
    return BigInt(n)


def exact_quotient(q: Fraction, preferred_scale: int) -> Decimal:
    """The exact decimal of ``q`` with Java's scale choice, or the non-terminating error.

    Java returns the exact quotient at the preferred scale when it fits, else at
    the smallest scale that represents it exactly (BigDecimal.divide(BigDecimal)).
    """
    den = q.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        raise HostError(NON_TERMINATING)
    scale = max(twos, fives)
    n = q.numerator * 10**scale // q.denominator
    while scale > preferred_scale and n % 10 == 0:
        n //= 10
        scale -= 1
    if scale < preferred_scale:
        n *= 10 ** (preferred_scale - scale)
        scale = preferred_scale
    return Decimal("%dE%d" % (n, -scale))


def _scale(d: Decimal) -> int:
    exp = d.as_tuple().exponent
    return -exp if isinstance(exp, int) else 0


def decimal_divide(x: Decimal, y: Decimal) -> Decimal:
    """Java ``BigDecimal.divide(BigDecimal)``: exact, preferred scale ``x.scale - y.scale``."""
    preferred = _scale(x) - _scale(y)
    if x == 0:
        return Decimal("0E%d" % -preferred)
    return exact_quotient(Fraction(x) / Fraction(y), preferred)


def decimal_quotient(x: Decimal, y: Decimal) -> Decimal:
    """Java ``BigDecimal.divideToIntegralValue``: the truncated quotient at the preferred scale."""
    preferred = _scale(x) - _scale(y)
    q = math.trunc(Fraction(x) / Fraction(y))
    if preferred > 0:
        return Decimal("%dE%d" % (q * 10**preferred, -preferred))
    scale = 0
    while scale > preferred and q != 0 and q % 10 == 0:
        q //= 10
        scale -= 1
    return Decimal("%dE%d" % (q, -scale))


def _is_nan(x: Any) -> bool:
    t = type(x)
    return (t is float or t is Float32) and x != x


def _checked(r: int) -> int:
    if -9223372036854775808 <= r <= 9223372036854775807:
        return r
    raise HostError(OVERFLOW)


def _promoted(r: int) -> Any:
    if -9223372036854775808 <= r <= 9223372036854775807:
        return r
    return BigInt(r)


def _double_div(n: float, d: float) -> float:
    try:
        return n / d
    except ZeroDivisionError:  # a tiny exact divisor rounded to 0.0
        if n != n or n == 0:
            return math.nan
        return math.copysign(math.inf, n) * math.copysign(1.0, d)


# --------------------------------------------------------------------------- + - * (general path)

_ADD: Final = 0
_SUB: Final = 1
_MUL: Final = 2


def _arith(op: int, a: Any, b: Any, promote: bool) -> Any:
    """``a op b`` for any two numbers, in the higher of their categories."""
    c = _cat2(a, b)
    if c == DOUBLE:
        x = to_double(a)
        y = to_double(b)
        return x + y if op == _ADD else (x - y if op == _SUB else x * y)
    if c <= BIGINT:
        r = a + b if op == _ADD else (a - b if op == _SUB else a * b)
        if c == BIGINT:
            return BigInt(r)
        return _promoted(r) if promote else _checked(r)
    if c == RATIO:
        p = to_ratio(a)
        q = to_ratio(b)
        return norm_ratio(p + q if op == _ADD else (p - q if op == _SUB else p * q))
    u = to_decimal(a)
    v = to_decimal(b)
    return DCTX.add(u, v) if op == _ADD else (DCTX.subtract(u, v) if op == _SUB else DCTX.multiply(u, v))


# --------------------------------------------------------------------------- fast functions


def add(a: Any, b: Any) -> Any:
    """``(+ a b)``."""
    if type(a) is int and type(b) is int:
        r = a + b
        if -9223372036854775808 <= r <= 9223372036854775807:
            return r
        raise HostError(OVERFLOW)
    if type(a) is float and type(b) is float:
        return a + b
    return _arith(_ADD, a, b, False)


def sub(a: Any, b: Any) -> Any:
    """``(- a b)``."""
    if type(a) is int and type(b) is int:
        r = a - b
        if -9223372036854775808 <= r <= 9223372036854775807:
            return r
        raise HostError(OVERFLOW)
    if type(a) is float and type(b) is float:
        return a - b
    return _arith(_SUB, a, b, False)


def mul(a: Any, b: Any) -> Any:
    """``(* a b)``."""
    if type(a) is int and type(b) is int:
        r = a * b
        if -9223372036854775808 <= r <= 9223372036854775807:
            return r
        raise HostError(OVERFLOW)
    if type(a) is float and type(b) is float:
        return a * b
    return _arith(_MUL, a, b, False)


def add_p(a: Any, b: Any) -> Any:
    """``(+' a b)``: promotes to BigInt instead of overflowing."""
    if type(a) is int and type(b) is int:
        r = a + b
        if -9223372036854775808 <= r <= 9223372036854775807:
            return r
        return BigInt(r)
    if type(a) is float and type(b) is float:
        return a + b
    return _arith(_ADD, a, b, True)


def sub_p(a: Any, b: Any) -> Any:
    """``(-' a b)``."""
    if type(a) is int and type(b) is int:
        r = a - b
        if -9223372036854775808 <= r <= 9223372036854775807:
            return r
        return BigInt(r)
    if type(a) is float and type(b) is float:
        return a - b
    return _arith(_SUB, a, b, True)


def mul_p(a: Any, b: Any) -> Any:
    """``(*' a b)``."""
    if type(a) is int and type(b) is int:
        r = a * b
        if -9223372036854775808 <= r <= 9223372036854775807:
            return r
        return BigInt(r)
    if type(a) is float and type(b) is float:
        return a * b
    return _arith(_MUL, a, b, True)


def div(a: Any, b: Any) -> Any:
    """``(/ a b)``: exact for exact operands (long/long gives a long or a ratio)."""
    if type(a) is int and type(b) is int:
        if b == 0:
            raise HostError(DIVIDE_BY_ZERO)
        q, r = divmod(a, b)
        if r == 0:
            return _promoted(q)
        return Fraction(a, b)
    if type(a) is float and type(b) is float:
        if b == 0.0:
            if a != a:
                return a
            raise HostError(DIVIDE_BY_ZERO)
        return a / b
    return _div_any(a, b)


def _div_any(a: Any, b: Any) -> Any:
    if _is_nan(a):
        return a
    if _is_nan(b):
        return b
    cb = category(b)
    if b == 0:
        raise HostError(DIVIDE_BY_ZERO)
    ca = category(a)
    c = ca if ca > cb else cb
    if c == DOUBLE:
        return _double_div(to_double(a), to_double(b))
    if c <= BIGINT:
        q, r = divmod(int(a), int(b))
        if r == 0:
            return BigInt(q) if c == BIGINT else _promoted(q)
        return Fraction(int(a), int(b))
    if c == RATIO:
        return norm_ratio(to_ratio(a) / to_ratio(b))
    return decimal_divide(to_decimal(a), to_decimal(b))


def neg(a: Any) -> Any:
    """``(- a)``."""
    if type(a) is int:
        if a == -9223372036854775808:
            raise HostError(OVERFLOW)
        return -a
    if type(a) is float:
        return -a
    c = category(a)
    if c == BIGINT:
        return BigInt(-a)
    if c == DECIMAL:
        return a.copy_negate()
    if c == DOUBLE:
        return -float(a)
    return -a


def inc(a: Any) -> Any:
    """``(inc a)``."""
    if type(a) is int:
        if a == 9223372036854775807:
            raise HostError(OVERFLOW)
        return a + 1
    if type(a) is float:
        return a + 1.0
    return _arith(_ADD, a, 1, False)


def dec(a: Any) -> Any:
    """``(dec a)``."""
    if type(a) is int:
        if a == -9223372036854775808:
            raise HostError(OVERFLOW)
        return a - 1
    if type(a) is float:
        return a - 1.0
    return _arith(_SUB, a, 1, False)


def inc_p(a: Any) -> Any:
    """``(inc' a)``."""
    if type(a) is int:
        if a == 9223372036854775807:
            return BigInt(a + 1)
        return a + 1
    if type(a) is float:
        return a + 1.0
    return _arith(_ADD, a, 1, True)


def dec_p(a: Any) -> Any:
    """``(dec' a)``."""
    if type(a) is int:
        if a == -9223372036854775808:
            return BigInt(a - 1)
        return a - 1
    if type(a) is float:
        return a - 1.0
    return _arith(_SUB, a, 1, True)


# --------------------------------------------------------------------------- comparison

_UNORDERED: Final = 2


def _compare(a: Any, b: Any) -> int:
    """-1, 0 or 1 in the promoted category, or 2 when a NaN makes the pair unordered."""
    c = _cat2(a, b)
    x: Any
    y: Any
    if c == DOUBLE:
        x = to_double(a)
        y = to_double(b)
    elif c <= BIGINT:
        x = a
        y = b
    elif c == RATIO:
        x = to_ratio(a)
        y = to_ratio(b)
    else:
        x = to_decimal(a)
        y = to_decimal(b)
    if x < y:
        return -1
    if x > y:
        return 1
    if x == y:
        return 0
    return _UNORDERED


def lt(a: Any, b: Any) -> bool:
    """``(< a b)``."""
    if type(a) is int and type(b) is int:
        return a < b
    if type(a) is float and type(b) is float:
        return a < b
    return _compare(a, b) == -1


def gt(a: Any, b: Any) -> bool:
    """``(> a b)``."""
    if type(a) is int and type(b) is int:
        return a > b
    if type(a) is float and type(b) is float:
        return a > b
    return _compare(a, b) == 1


def le(a: Any, b: Any) -> bool:
    """``(<= a b)``; false when either is NaN."""
    if type(a) is int and type(b) is int:
        return a <= b
    if type(a) is float and type(b) is float:
        return a <= b
    r = _compare(a, b)
    return r == -1 or r == 0


def ge(a: Any, b: Any) -> bool:
    """``(>= a b)``; false when either is NaN."""
    if type(a) is int and type(b) is int:
        return a >= b
    if type(a) is float and type(b) is float:
        return a >= b
    r = _compare(a, b)
    return r == 1 or r == 0


def num_equiv(a: Any, b: Any) -> bool:
    """Clojure ``==``: numeric equality across categories (``(== 1 1.0)`` is true)."""
    if type(a) is int and type(b) is int:
        return a == b
    if type(a) is float and type(b) is float:
        return a == b
    return _compare(a, b) == 0


def compare_numbers(a: Any, b: Any) -> int:
    """Clojure ``Numbers.compare``: -1, 0 or 1 (a NaN compares as 0, as on the JVM)."""
    if type(a) is int and type(b) is int:
        return (a > b) - (a < b)
    r = _compare(a, b)
    return 0 if r == _UNORDERED else r


# --------------------------------------------------------------------------- quot rem mod


def quot(a: Any, b: Any) -> Any:
    """``(quot a b)``: quotient truncated toward zero."""
    if type(a) is int and type(b) is int:
        if b == 0:
            raise HostError(DIVIDE_BY_ZERO)
        q = a // b
        if q < 0 and q * b != a:
            q += 1
        if q == 9223372036854775808:  # Long.MIN_VALUE / -1 wraps on the JVM
            return -9223372036854775808
        return q
    return _quot_any(a, b)


def _quot_any(a: Any, b: Any) -> Any:
    cb = category(b)
    if b == 0:
        raise HostError(DIVIDE_BY_ZERO)
    ca = category(a)
    c = ca if ca > cb else cb
    if c == DOUBLE:
        return float(_double_trunc_quotient(to_double(a), to_double(b)))
    if c <= BIGINT:
        q = _trunc_div(int(a), int(b))
        return BigInt(q) if c == BIGINT else _promoted(q)
    if c == RATIO:
        return norm_bigint(math.trunc(to_ratio(a) / to_ratio(b)))
    return decimal_quotient(to_decimal(a), to_decimal(b))


def _trunc_div(n: int, d: int) -> int:
    q = n // d
    if q < 0 and q * d != n:
        q += 1
    return q


def _double_trunc_quotient(n: float, d: float) -> int:
    q = _double_div(n, d)
    if not math.isfinite(q):
        raise HostError("Infinite or NaN")
    return math.trunc(q)


def rem(a: Any, b: Any) -> Any:
    """``(rem a b)``: remainder with the sign of the dividend."""
    if type(a) is int and type(b) is int:
        if b == 0:
            raise HostError(DIVIDE_BY_ZERO)
        return a - b * _trunc_div(a, b)
    return _rem_any(a, b)


def _rem_any(a: Any, b: Any) -> Any:
    cb = category(b)
    if b == 0:
        raise HostError(DIVIDE_BY_ZERO)
    ca = category(a)
    c = ca if ca > cb else cb
    if c == DOUBLE:
        n = to_double(a)
        d = to_double(b)
        return n - float(_double_trunc_quotient(n, d)) * d
    if c <= BIGINT:
        r = int(a) - int(b) * _trunc_div(int(a), int(b))
        return BigInt(r) if c == BIGINT else r
    if c == RATIO:
        q = math.trunc(to_ratio(a) / to_ratio(b))
        return sub(a, mul(BigInt(q), b))
    x = to_decimal(a)
    y = to_decimal(b)
    return DCTX.subtract(x, DCTX.multiply(decimal_quotient(x, y), y))


def mod(a: Any, b: Any) -> Any:
    """``(mod a b)``: Clojure's ``rem`` adjusted to the sign of the divisor."""
    if type(a) is int and type(b) is int:
        if b == 0:
            raise HostError(DIVIDE_BY_ZERO)
        return a % b
    m = _rem_any(a, b)
    if m == 0 or is_pos(a) == is_pos(b):
        return m
    return add(m, b)


def is_pos(x: Any) -> bool:
    """``(pos? x)`` for a number (cast error otherwise)."""
    if type(x) is int or type(x) is float:
        return x > 0
    category(x)
    return bool(x > 0)


def is_neg(x: Any) -> bool:
    """``(neg? x)``."""
    if type(x) is int or type(x) is float:
        return x < 0
    category(x)
    return bool(x < 0)


def is_zero(x: Any) -> bool:
    """``(zero? x)``."""
    if type(x) is int or type(x) is float:
        return x == 0
    category(x)
    return bool(x == 0)


def abs_(a: Any) -> Any:
    """``(abs a)``, same numeric type (Long.MIN_VALUE stays itself, as Java's ``Math.abs``)."""
    if type(a) is int:
        return a if a >= 0 or a == -9223372036854775808 else -a
    if type(a) is float:
        return abs(a)
    c = category(a)
    if c == BIGINT:
        return BigInt(abs(a))
    if c == DECIMAL:
        return a.copy_abs()
    if c == DOUBLE:
        return abs(float(a))
    return abs(a)


# --------------------------------------------------------------------------- registered builtins


def _cast_number(x: Any) -> Any:
    """``(cast Number x)``: what ``(+ x)`` and ``(* x)`` return."""
    if x is None or type(x) in _CATEGORY:
        return x
    cls = class_name(x)
    raise HostError("Cannot cast %s to java.lang.Number" % cls)


def _sum_like(op2: Callable[[Any, Any], Any], empty: int) -> Callable[..., Any]:
    """A variadic ``+``/``*``-style builtin folding the two-argument ``op2`` from the left."""

    def fold(*args: Any) -> Any:
        n = len(args)
        if n == 2:
            return op2(args[0], args[1])
        if n == 0:
            return empty
        if n == 1:
            return _cast_number(args[0])
        acc = op2(args[0], args[1])
        for x in args[2:]:
            acc = op2(acc, x)
        return acc

    return fold


def _difference_like(op2: Callable[[Any, Any], Any], unary: Callable[[Any], Any]) -> Callable[..., Any]:
    """A variadic ``-``/``/``-style builtin: one argument applies ``unary``, more fold ``op2``."""

    def fold(x: Any, *more: Any) -> Any:
        n = len(more)
        if n == 1:
            return op2(x, more[0])
        if n == 0:
            return unary(x)
        acc = x
        for y in more:
            acc = op2(acc, y)
        return acc

    return fold


plus = builtin("+")(_sum_like(add, 0))
times = builtin("*")(_sum_like(mul, 1))
plus_p = builtin("+'")(_sum_like(add_p, 0))
times_p = builtin("*'")(_sum_like(mul_p, 1))
minus = builtin("-")(_difference_like(sub, neg))
divide = builtin("/")(_difference_like(div, lambda x: div(1, x)))
minus_p = builtin("-'")(_difference_like(sub_p, lambda x: sub_p(0, x)))


builtin("inc")(inc)
builtin("dec")(dec)
builtin("inc'")(inc_p)
builtin("dec'")(dec_p)
builtin("quot")(quot)
builtin("rem")(rem)
builtin("mod")(mod)
builtin("abs")(abs_)


def _chain(op: Any, x: Any, more: tuple[Any, ...]) -> bool:
    """Clojure's comparison chain: stops at the first false pair, so later operands go unchecked."""
    prev = x
    for y in more:
        if not op(prev, y):
            return False
        prev = y
    return True


@builtin("<")
def lt_chain(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return lt(x, more[0])
    return _chain(lt, x, more)


@builtin(">")
def gt_chain(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return gt(x, more[0])
    return _chain(gt, x, more)


@builtin("<=")
def le_chain(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return le(x, more[0])
    return _chain(le, x, more)


@builtin(">=")
def ge_chain(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return ge(x, more[0])
    return _chain(ge, x, more)


def max2(x: Any, y: Any) -> Any:
    """Clojure ``Numbers.max``: a NaN wins, ties go to the second argument."""
    if _is_nan(x):
        return x
    if _is_nan(y):
        return y
    return x if gt(x, y) else y


def min2(x: Any, y: Any) -> Any:
    """Clojure ``Numbers.min``."""
    if _is_nan(x):
        return x
    if _is_nan(y):
        return y
    return x if lt(x, y) else y


@builtin("max")
def max_(x: Any, *more: Any) -> Any:
    acc = x
    for y in more:
        acc = max2(acc, y)
    return acc


@builtin("min")
def min_(x: Any, *more: Any) -> Any:
    acc = x
    for y in more:
        acc = min2(acc, y)
    return acc


def _extreme_key(D: Any, k: Any, x: Any, more: tuple[Any, ...], better: Any, at_least: Any) -> Any:
    """Clojure's ``max-key``/``min-key`` loop: the first pair decides strictly, later ties go to the later value."""
    from ..invoke import call

    if not more:
        return x
    y = more[0]
    kx = call(D, k, (x,))
    ky = call(D, k, (y,))
    if better(kx, ky):
        v, kv = x, kx
    else:
        v, kv = y, ky
    for w in more[1:]:
        kw = call(D, k, (w,))
        if at_least(kw, kv):
            v, kv = w, kw
    return v


@builtin("max-key", env=True)
def max_key(D: Any, k: Any, x: Any, *more: Any) -> Any:
    return _extreme_key(D, k, x, more, gt, ge)


@builtin("min-key", env=True)
def min_key(D: Any, k: Any, x: Any, *more: Any) -> Any:
    return _extreme_key(D, k, x, more, lt, le)


_NO_ARG: Final[Any] = object()


@builtin("rand")
def rand(n: Any = _NO_ARG) -> Any:
    """``(rand)`` in [0, 1); ``(rand n)`` is ``(* n (rand))``."""
    r = random.random()
    if n is _NO_ARG:
        return r
    return mul(n, r)


def truncate_double(x: float) -> int:
    """Java's ``(long) x`` for a finite-or-not double: truncation, saturating, NaN → 0."""
    if x != x:
        return 0
    if x >= _TWO_63:
        return _LONG_MAX
    if x <= -_TWO_63:
        return _LONG_MIN
    return math.trunc(x)


# --------------------------------------------------------------------------- predicates (language.md §14.3)


@builtin("number?")
def number_p(x: Any) -> bool:
    return type(x) in _CATEGORY


@builtin("integer?")
def integer_p(x: Any) -> bool:
    t = type(x)
    return t is int or t is BigInt


@builtin("int?")
def int_p(x: Any) -> bool:
    """Fixed-precision integers only: ``(int? 1N)`` is false."""
    return type(x) is int


@builtin("pos-int?")
def pos_int_p(x: Any) -> bool:
    return type(x) is int and x > 0


@builtin("neg-int?")
def neg_int_p(x: Any) -> bool:
    return type(x) is int and x < 0


@builtin("ratio?")
def ratio_p(x: Any) -> bool:
    return type(x) is Fraction


@builtin("rational?")
def rational_p(x: Any) -> bool:
    t = type(x)
    return t is int or t is BigInt or t is Fraction or t is Decimal


def _parity_arg(x: Any) -> int:
    t = type(x)
    if t is int or t is BigInt:
        return int(x)
    raise HostError("Argument must be an integer: " + to_str(x))


@builtin("even?")
def even_p(x: Any) -> bool:
    if type(x) is int:
        return x & 1 == 0
    return _parity_arg(x) & 1 == 0


@builtin("odd?")
def odd_p(x: Any) -> bool:
    if type(x) is int:
        return x & 1 == 1
    return _parity_arg(x) & 1 == 1


builtin("pos?")(is_pos)
builtin("neg?")(is_neg)
builtin("zero?")(is_zero)
