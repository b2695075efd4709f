"""The ``math/`` namespace (language.md §14.11): ``java.lang.Math`` on doubles plus a few integer helpers.

Java's ``Math`` functions never raise: a domain error is NaN (``(math/sqrt -1)``),
an overflow is an infinity, ``(math/log 0)`` is ``-Infinity``. Python's ``math``
raises in all three cases, so every wrapper here maps those exceptions back to
the IEEE value Java returns. Arguments go through ``doubleValue()`` as the
reference's reflective calls do: any number is accepted, anything else fails
with the JVM cast text.

Rounding members return longs. language.md §16.1.9 specifies that they saturate
(``math/floor`` of ``1e300`` is Long.MAX_VALUE); ``math/round`` is Java's
``Math.round`` (half up toward positive infinity, NaN → 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final

from ..data.atoms import Keyword
from ..data.hashmap import spell_map
from ..errors import HostError
from .numbers import abs_, category, is_zero, lt, mul, quot, rand, to_double, truncate_double
from .numcoerce import to_long
from .registry import member, namespace, register_value


def _double(x: Any) -> float:
    category(x)
    return to_double(x)


def _java(fn: Callable[[float], float], x: float, overflow_sign: float = 1.0) -> float:
    """``fn(x)`` with Java's results where Python's ``math`` raises."""
    try:
        return fn(x)
    except ValueError:
        return math.nan
    except OverflowError:
        return math.copysign(math.inf, overflow_sign)


def _log_like(fn: Callable[[float], float], x: float, pole: float) -> float:
    """Logarithms: ``-Infinity`` at the pole, NaN below it (Java's ``Math.log`` family)."""
    if x == pole:
        return -math.inf
    return _java(fn, x)


@member("math/sqrt")
def sqrt(x: Any) -> float:
    return _java(math.sqrt, _double(x))


@member("math/cbrt")
def cbrt(x: Any) -> float:
    return java_cbrt(_double(x))


def java_cbrt(x: float) -> float:
    """The cube root rounded to the nearest double (Java gives ``(math/cbrt 27) ;=> 3.0``; libm may be an ulp off)."""
    if x == 0.0 or not math.isfinite(x):
        return x
    target = Fraction(x)

    def error(c: float) -> Fraction:
        return abs(Fraction(c) ** 3 - target)

    r = math.cbrt(x)
    for direction in (-math.inf, math.inf):  # walk while a neighbour is closer (libm can be a few ulps off)
        step = math.nextafter(r, direction)
        while error(step) < error(r):
            r = step
            step = math.nextafter(r, direction)
    return r


@member("math/exp")
def exp(x: Any) -> float:
    return _java(math.exp, _double(x))


@member("math/expm1")
def expm1(x: Any) -> float:
    return _java(math.expm1, _double(x))


@member("math/log")
def log(x: Any) -> float:
    return _log_like(math.log, _double(x), 0.0)


@member("math/log10")
def log10(x: Any) -> float:
    return _log_like(math.log10, _double(x), 0.0)


@member("math/log1p")
def log1p(x: Any) -> float:
    return _log_like(math.log1p, _double(x), -1.0)


@member("math/log2")
def log2(x: Any) -> float:
    """``(/ (Math/log x) (Math/log 2))`` in doubles, as the reference computes it (may be an ulp off)."""
    return _log_like(math.log, _double(x), 0.0) / math.log(2.0)


def _trig(fn: Callable[[float], float]) -> Callable[[Any], float]:
    def apply(x: Any) -> float:
        return _java(fn, _double(x))

    return apply


sin = member("math/sin")(_trig(math.sin))
cos = member("math/cos")(_trig(math.cos))
tan = member("math/tan")(_trig(math.tan))
asin = member("math/asin")(_trig(math.asin))
acos = member("math/acos")(_trig(math.acos))
atan = member("math/atan")(_trig(math.atan))
tanh = member("math/tanh")(_trig(math.tanh))


@member("math/sinh")
def sinh(x: Any) -> float:
    v = _double(x)
    return _java(math.sinh, v, v)


@member("math/cosh")
def cosh(x: Any) -> float:
    return _java(math.cosh, _double(x))


@member("math/atan2")
def atan2(y: Any, x: Any) -> float:
    return math.atan2(_double(y), _double(x))


@member("math/hypot")
def hypot(x: Any, y: Any) -> float:
    return math.hypot(_double(x), _double(y))


@member("math/pow")
def pow_(x: Any, y: Any) -> float:
    return java_pow(_double(x), _double(y))


def java_pow(x: float, y: float) -> float:
    """Java ``Math.pow``: C99 ``pow`` except that NaN exponents and ``±1 ** ±Infinity`` give NaN."""
    if y != y:
        return math.nan
    if abs(x) == 1.0 and math.isinf(y):
        return math.nan
    try:
        return math.pow(x, y)
    except ZeroDivisionError:
        return math.inf
    except ValueError:
        if x == 0.0:  # 0 ** negative: an infinity, negative for -0.0 and an odd integer exponent
            odd = y == math.floor(y) and math.fmod(y, 2.0) != 0.0
            return -math.inf if odd and math.copysign(1.0, x) < 0 else math.inf
        return math.nan
    except OverflowError:
        odd = y == math.floor(y) and math.fmod(y, 2.0) != 0.0
        return -math.inf if x < 0 and odd else math.inf


@member("math/abs")
def abs_double(x: Any) -> float:
    return abs(_double(x))


@member("math/sign")
def sign(x: Any) -> float:
    v = _double(x)
    if v != v or v == 0.0:
        return v
    return math.copysign(1.0, v)


@member("math/floor")
def floor(x: Any) -> int:
    v = _double(x)
    return truncate_double(math.floor(v) if math.isfinite(v) else v)


@member("math/ceil")
def ceil(x: Any) -> int:
    v = _double(x)
    return truncate_double(math.ceil(v) if math.isfinite(v) else v)


@member("math/round")
def round_(x: Any) -> int:
    """Java ``Math.round``: floor(x + 1/2) computed exactly, saturating, NaN → 0."""
    v = _double(x)
    if not math.isfinite(v):
        return truncate_double(v)
    f = math.floor(v)
    return truncate_double(float(f + 1) if v - f >= 0.5 else float(f))


@member("math/trunc")
def trunc(x: Any) -> int:
    category(x)
    if type(x) is int:
        return x
    v = to_double(x) if isinstance(x, float) else None
    if v is not None:
        return truncate_double(v)
    n: int = math.trunc(x)
    return max(min(n, 2**63 - 1), -(2**63))


@member("math/degrees")
def degrees(x: Any) -> float:
    return math.degrees(_double(x))


@member("math/radians")
def radians(x: Any) -> float:
    return math.radians(_double(x))


@member("math/factorial")
def factorial(n: Any) -> Any:
    """n! as a BigInt; the reference's loop truncates a double argument (``(long n)``)."""
    from ..data.atoms import BigInt

    if lt(n, 0):
        raise HostError("factorial: negative argument", spell_map(Keyword("n"), n))
    return BigInt(math.factorial(to_long(n)))


@member("math/gcd")
def gcd(a: Any, b: Any) -> int:
    """gcd of ``(Math/abs (long a))`` and ``(Math/abs (long b))``; like Java, |Long.MIN_VALUE| stays negative."""
    g = math.gcd(to_long(a), to_long(b))
    return -(2**63) if g == 2**63 else g


@member("math/lcm")
def lcm(a: Any, b: Any) -> Any:
    """``(Math/abs (* (quot a (gcd a b)) b))``, 0 when either is zero; overflow is an error as for ``*``."""
    if is_zero(a) or is_zero(b):
        return 0
    return abs_(mul(quot(a, gcd(a, b)), b))


@member("math/NaN?")
def nan_p(x: Any) -> bool:
    v = _double(x)
    return v != v


@member("math/infinite?")
def infinite_p(x: Any) -> bool:
    return math.isinf(_double(x))


_GUIDE: Final = """MATH - java.lang.Math on doubles, plus integer helpers.

  Powers and roots: sqrt cbrt pow exp expm1
  Logarithms:       log (natural) log10 log2 log1p
  Trigonometry:     sin cos tan asin acos atan atan2, hyperbolic sinh cosh tanh
  Angles:           degrees (radians -> degrees), radians (degrees -> radians)
  Rounding:         floor ceil round trunc  (these return integers)
  Other:            abs sign hypot rand
  Integers:         factorial (a BigInt) gcd lcm
  Tests:            NaN? infinite?
  Constants:        PI E INF NEG-INF NaN

Most members return doubles, and a double is never = to an integer:
(= 2 (math/sqrt 4)) is false. Convert before comparing, e.g. (math/round x) or (long x).
Invalid inputs give NaN or an infinity instead of failing: (math/sqrt -1) is ##NaN,
(math/log 0) is ##-Inf.

Use (!describe math :fn-name) for the details of one member."""

_DETAIL: Final = {
    "sqrt": "(math/sqrt x) - square root as a double. (math/sqrt 16) ;=> 4.0, (math/sqrt -1) ;=> ##NaN",
    "pow": "(math/pow x y) - x raised to y as a double. (math/pow 2 10) ;=> 1024.0",
    "abs": "(math/abs x) - absolute value as a DOUBLE: (math/abs -5) ;=> 5.0. The core abs keeps the type.",
    "sign": "(math/sign x) - -1.0, 0.0 or 1.0 (NaN stays NaN).",
    "floor": "(math/floor x) - largest integer <= x, as a long. (math/floor -3.2) ;=> -4",
    "ceil": "(math/ceil x) - smallest integer >= x, as a long. (math/ceil 3.2) ;=> 4",
    "round": ("(math/round x) - nearest long, halves rounded toward positive infinity: "
              "(math/round 2.5) ;=> 3, (math/round -2.5) ;=> -2. NaN gives 0."),
    "trunc": "(math/trunc x) - x with its fraction dropped (toward zero), as a long. (math/trunc -3.9) ;=> -3",
    "log": "(math/log x) - natural logarithm. (math/log 0) ;=> ##-Inf, negative x ;=> ##NaN",
    "log2": "(math/log2 x) - log(x)/log(2) in doubles; may be one ulp off for exact powers of two.",
    "factorial": ("(math/factorial n) - n! as a BigInt: (math/factorial 5) ;=> 120N, (str (math/factorial 5)) ;=> \"120\". "
                  "Negative n is an error."),
    "gcd": "(math/gcd a b) - greatest common divisor of |a| and |b| as a long. (math/gcd 0 5) ;=> 5",
    "lcm": "(math/lcm a b) - least common multiple; 0 when either argument is 0.",
    "rand": "(math/rand) - a random double in [0, 1); (math/rand n) in [0, n). Same as the core rand.",
    "NaN?": "(math/NaN? x) - true when x is ##NaN.",
    "infinite?": "(math/infinite? x) - true for ##Inf and ##-Inf.",
}

MEMBERS: Final[dict[str, Any]] = {
    "sqrt": sqrt, "cbrt": cbrt, "pow": pow_, "exp": exp, "expm1": expm1, "abs": abs_double, "sign": sign,
    "floor": floor, "ceil": ceil, "round": round_, "trunc": trunc,
    "log": log, "log10": log10, "log2": log2, "log1p": log1p,
    "sin": sin, "cos": cos, "tan": tan, "asin": asin, "acos": acos, "atan": atan, "atan2": atan2,
    "sinh": sinh, "cosh": cosh, "tanh": tanh, "degrees": degrees, "radians": radians,
    "factorial": factorial, "gcd": gcd, "lcm": lcm, "hypot": hypot, "rand": rand,
    "NaN?": nan_p, "infinite?": infinite_p,
    "PI": math.pi, "E": math.e, "INF": math.inf, "NEG-INF": -math.inf, "NaN": math.nan,
}

MATH_NS: Final = namespace(MEMBERS, short_docs="Mathematical functions (mirrors java.lang.Math).",
                           guide=_GUIDE, detail=_DETAIL)

register_value("math", MATH_NS, __name__)
