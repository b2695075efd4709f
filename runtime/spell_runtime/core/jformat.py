"""Java's ``String.format`` (``java.util.Formatter``) for Spell's ``format`` (language.md §16.4).

The reference's ``format`` is ``clojure.core/format``, i.e. Java's Formatter with
the US locale, and programs lean on its exact output (padding, grouping,
``null`` for nil, HALF_UP rounding), so this module follows the JDK's algorithm
step by step rather than translating to Python's ``%``:

1. *Parse* the whole format string first, validating each specifier's flags,
   width and precision against its conversion (Java throws these errors before
   it looks at any argument: ``Conversion = 'q'``, ``Flags = '-0'``, ``%-d`` ...).
2. *Print* the specifiers in order, taking arguments by ordinary, explicit
   (``%2$s``) or relative (``%<s``) index; a missing argument is
   ``Format specifier '%s'`` and a wrong type ``d != java.lang.Double``.

Rounding of ``%f``/``%e``/``%g`` is HALF_UP on the exact value of the argument:
``(format "%.2f" 0.125)`` is ``"0.13"`` where Python gives ``"0.12"``.
``_exact`` is the single place that chooses the decimal a double is rounded
from. (The JDK's ``FormattedFloatingDecimal`` actually starts from the double's
shortest decimal text — ``%.1f`` of ``0.15`` is ``0.2`` on a JVM, ``0.1`` when the
exact binary value ``0.1499999...`` is rounded; language.md §16.4 asks for the
exact value, which agrees on every tie that is exactly representable.)
"""

from __future__ import annotations

import math
import struct
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final, Optional

from ..data.atoms import BigInt, Char, Float32, Keyword, Symbol
from ..data.equality import spell_hash
from ..data.text import substring, to_units, utf16_len
from ..errors import HostError
from ..printer import to_str
from .hostcast import class_name
from .numbers import DCTX

_FLAG_CHARS: Final = frozenset("-#+ 0,(<")
_CONVERSION_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ%")
_CONVERSIONS: Final = frozenset("bBhHsScCdoxXeEfgGaA%n")
_FLAG_ORDER: Final = "-^#+ 0,(<"
_MASK64: Final = (1 << 64) - 1
_MASK32: Final = (1 << 32) - 1

_GENERAL: Final = frozenset("bhs")
_INTEGRAL: Final = frozenset("dox")
_FLOATING: Final = frozenset("efga")


def _flags_text(flags: str) -> str:
    """Java ``Flags.toString``: the flags in the JDK's canonical order."""
    return "".join(c for c in _FLAG_ORDER if c in flags)


class _Spec:
    """One ``%...`` specifier (or a run of literal text when ``conv`` is empty)."""

    __slots__ = ("text", "index", "flags", "width", "precision", "conv", "upper")

    def __init__(self, text: str = "", index: int = 0, flags: str = "", width: int = -1, precision: int = -1,
                 conv: str = "", upper: bool = False) -> None:
        self.text = text
        self.index = index
        self.flags = flags
        self.width = width
        self.precision = precision
        self.conv = conv
        self.upper = upper

    def __str__(self) -> str:
        """Java ``FormatSpecifier.toString``, used in several exception texts."""
        out = "%" + _flags_text(self.flags.replace("^", ""))
        if self.index > 0:
            out += "%d$" % self.index
        if self.width != -1:
            out += str(self.width)
        if self.precision != -1:
            out += "." + str(self.precision)
        return out + (self.conv.upper() if self.upper else self.conv)

    def mismatch(self, flag: str) -> HostError:
        return HostError("Conversion = %s, Flags = %s" % (self.conv, flag))

    def bad_flags(self, bad: str) -> None:
        for flag in bad:
            if flag in self.flags:
                raise self.mismatch(flag)

    def missing_width(self) -> HostError:
        return HostError(str(self))

    def illegal_flags(self) -> HostError:
        return HostError("Flags = '%s'" % _flags_text(self.flags))


# --------------------------------------------------------------------------- parsing


def _parse(fmt: str) -> list[_Spec]:
    """Java ``Formatter.parse`` plus each specifier's constructor checks."""
    out: list[_Spec] = []
    i = 0
    n = len(fmt)
    while i < n:
        j = fmt.find("%", i)
        if j < 0:
            out.append(_Spec(text=fmt[i:]))
            break
        if j > i:
            out.append(_Spec(text=fmt[i:j]))
        i = j + 1
        if i >= n:
            raise HostError("Conversion = '%'")
        c = fmt[i]
        if c in _CONVERSIONS:
            spec = _Spec()
            _set_conversion(spec, c)
            i += 1
        else:
            found = scan_spec(fmt, j)
            if found is None:
                raise HostError("Conversion = '%s'" % c)
            spec = _from_parts(fmt, j, found)
            i = found[-1]
        _check(spec)
        out.append(spec)
    return out


SpecParts = tuple[Optional[str], str, Optional[str], Optional[str], bool, str, int]
"""A specifier's parts as written: argument index with its ``$``, flags, width, precision with its
``.``, whether a ``t``/``T`` date prefix is there, the conversion character, and the end offset."""


def _decimals_end(fmt: str, i: int) -> int:
    """The end of the run of decimal digits (what a regex's ``\\d`` takes) starting at ``fmt[i]``."""
    n = len(fmt)
    while i < n and fmt[i].isdecimal():
        i += 1
    return i


def scan_spec(fmt: str, j: int) -> Optional[SpecParts]:
    """The parts of the specifier at ``fmt[j]`` (a ``%``): what the JDK's pattern
    ``%(\\d+\\$)?([-#+ 0,(<]*)?(\\d+)?(\\.\\d+)?([tT])?([a-zA-Z%])`` matches there, or None.

    Read by hand rather than by that regex: compiling it cost ~0.4 ms of the first ``format`` of
    every process (issue 12). Each part is taken greedily, as the regex takes it first, and that is
    its only match: a part given back could only be read by the next one as the same characters
    at the same place (flags' zeros as width, width's digits as nothing at all), with the same
    rest to follow, except a ``t``/``T`` with no conversion after it, which is then the conversion
    itself. The tests check this against the regex."""
    n = len(fmt)
    i = j + 1
    index: Optional[str] = None
    k = _decimals_end(fmt, i)
    if i < k < n and fmt[k] == "$":
        index = fmt[i:k + 1]
        i = k + 1
    k = i
    while k < n and fmt[k] in _FLAG_CHARS:
        k += 1
    flags = fmt[i:k]
    i = k
    k = _decimals_end(fmt, i)
    width = fmt[i:k] if k > i else None
    i = k
    precision: Optional[str] = None
    if i + 1 < n and fmt[i] == "." and fmt[i + 1].isdecimal():
        k = _decimals_end(fmt, i + 1)
        precision = fmt[i:k]
        i = k
    if i + 1 < n and fmt[i] in "tT" and fmt[i + 1] in _CONVERSION_CHARS:
        return index, flags, width, precision, True, fmt[i + 1], i + 2
    if i < n and fmt[i] in _CONVERSION_CHARS:
        return index, flags, width, precision, False, fmt[i], i + 1
    return None


def _from_parts(fmt: str, j: int, parts: SpecParts) -> _Spec:
    index_text, flags, width, precision, date, c, end = parts
    spec = _Spec()
    if index_text:
        index = int(index_text[:-1])
        if index <= 0 or index > 2**31 - 1:
            raise HostError("Illegal format argument index = %d" % (index if index <= 0 else -(2**31)))
        spec.index = index
    for k, ch in enumerate(flags):
        if ch in flags[:k]:
            raise HostError("Flags = '%s'" % ch)
    spec.flags = flags
    if "<" in flags:
        spec.index = -1
    if width:
        spec.width = int(width)
    if precision:
        spec.precision = int(precision[1:])
    if date:
        raise HostError("Date/time conversions are not supported: %s" % fmt[j:end])
    if c not in _CONVERSIONS:
        raise HostError("Conversion = '%s'" % c)
    _set_conversion(spec, c)
    return spec


def _set_conversion(spec: _Spec, c: str) -> None:
    if c.isupper():
        spec.upper = True
        spec.flags += "^"
        c = c.lower()
    spec.conv = c
    if c == "%" or c == "n":
        spec.index = -2


def _check(spec: _Spec) -> None:
    c = spec.conv
    if c in _GENERAL:
        if c in "bh" and "#" in spec.flags:
            raise spec.mismatch("#")
        if spec.width == -1 and "-" in spec.flags:
            raise spec.missing_width()
        spec.bad_flags("+ 0,(")
    elif c == "c":
        if spec.precision != -1:
            raise HostError(str(spec.precision))
        spec.bad_flags("#+ 0,(")
        if spec.width == -1 and "-" in spec.flags:
            raise spec.missing_width()
    elif c in _INTEGRAL:
        _check_numeric(spec)
        if spec.precision != -1:
            raise HostError(str(spec.precision))
        spec.bad_flags("#" if c == "d" else ",")
    elif c in _FLOATING:
        _check_numeric(spec)
        if c == "a":
            spec.bad_flags("(,")
        elif c == "e":
            spec.bad_flags(",")
        elif c == "g":
            spec.bad_flags("#")
    elif c == "%":
        if spec.precision != -1:
            raise HostError(str(spec.precision))
        if spec.flags.replace("-", ""):
            raise spec.illegal_flags()
        if spec.width == -1 and "-" in spec.flags:
            raise spec.missing_width()
    elif c == "n":
        if spec.precision != -1:
            raise HostError(str(spec.precision))
        if spec.width != -1:
            raise HostError(str(spec.width))
        if spec.flags:
            raise spec.illegal_flags()


def _check_numeric(spec: _Spec) -> None:
    f = spec.flags
    if spec.width == -1 and ("-" in f or "0" in f):
        raise spec.missing_width()
    if ("+" in f and " " in f) or ("-" in f and "0" in f):
        raise spec.illegal_flags()


# --------------------------------------------------------------------------- printing


def java_format(fmt: str, args: tuple[Any, ...]) -> str:
    """``String.format(fmt, args)`` with Java's results and exception texts."""
    specs = _parse(fmt)
    out: list[str] = []
    last = -1
    ordinary = -1
    nargs = len(args)
    for spec in specs:
        if not spec.conv:
            out.append(spec.text)
            continue
        index = spec.index
        if index == -2:
            out.append(_print(spec, None))
            continue
        if index == -1:
            if last < 0 or last > nargs - 1:
                raise HostError("Format specifier '%s'" % spec)
        elif index == 0:
            ordinary += 1
            last = ordinary
            if last > nargs - 1:
                raise HostError("Format specifier '%s'" % spec)
        else:
            last = index - 1
            if last > nargs - 1:
                raise HostError("Format specifier '%s'" % spec)
        out.append(_print(spec, args[last]))
    return "".join(out)


def _print(spec: _Spec, arg: Any) -> str:
    c = spec.conv
    if c == "s":
        if "#" in spec.flags:
            raise spec.mismatch("#")
        return _print_text(spec, "null" if arg is None else _display(arg))
    if c == "d" or c == "o" or c == "x":
        if arg is None:
            return _print_text(spec, "null")
        if type(arg) is not int:
            raise _conversion_error(c, arg)
        return _justify(spec, _integer(spec, arg))
    if c in _FLOATING:
        if arg is None:
            return _print_text(spec, "null")
        t = type(arg)
        if t is float or t is Float32:
            return _justify(spec, _double(spec, float(arg)))
        if t is Decimal:
            if c == "a":
                raise _conversion_error(c, arg)
            return _justify(spec, _bigdec(spec, arg))
        raise _conversion_error(c, arg)
    if c == "b":
        return _print_text(spec, "false" if arg is None or arg is False else "true")
    if c == "c":
        return _print_text(spec, _character(c, arg))
    if c == "h":
        return _print_text(spec, "null" if arg is None else "%x" % java_hash(arg))
    if c == "%":
        return _justify(spec, "%")
    assert c == "n", c
    return "\n"


def _display(x: Any) -> str:
    return to_str(x)


def _conversion_error(c: str, arg: Any) -> HostError:
    return HostError("%s != %s" % (c, class_name(arg)))


def _character(c: str, arg: Any) -> str:
    if arg is None:
        return "null"
    if type(arg) is Char:
        return arg.ch
    if type(arg) is int:
        if 0 <= arg <= 0x10FFFF:
            return chr(arg)
        raise HostError("Code point = 0x%x" % (arg & _MASK32))
    raise _conversion_error(c, arg)


def _print_text(spec: _Spec, s: str) -> str:
    """Java ``print(String)``: precision truncates (in UTF-16 units), then case, then padding."""
    if spec.precision != -1 and spec.precision < utf16_len(s):
        s = substring(s, 0, spec.precision)
    if spec.upper:
        s = s.upper()
    return _justify(spec, s)


def _justify(spec: _Spec, s: str) -> str:
    if spec.width == -1:
        return s
    pad = spec.width - utf16_len(s)
    if pad <= 0:
        return s
    return s + " " * pad if "-" in spec.flags else " " * pad + s


def _leading_sign(spec: _Spec, neg: bool) -> str:
    if neg:
        return "(" if "(" in spec.flags else "-"
    if "+" in spec.flags:
        return "+"
    if " " in spec.flags:
        return " "
    return ""


def _adjust_width(spec: _Spec, width: int, neg: bool) -> int:
    if width != -1 and neg and "(" in spec.flags:
        return width - 1
    return width


def _magnitude(spec: _Spec, prefix: str, value: str, width: int) -> str:
    """Java ``localizedMagnitude``: group the integer digits, then zero-pad after the sign."""
    dot = value.find(".")
    if dot < 0:
        dot = len(value)
    whole = value[:dot]
    if "," in spec.flags and len(whole) > 3:
        head = len(whole) % 3 or 3
        whole = whole[:head] + "".join("," + whole[k:k + 3] for k in range(head, len(whole), 3))
    body = whole + value[dot:]
    if width != -1 and "0" in spec.flags:
        missing = width - len(prefix) - len(body)
        if missing > 0:
            return prefix + "0" * missing + body
    return prefix + body


def _integer(spec: _Spec, v: int) -> str:
    c = spec.conv
    if c == "d":
        neg = v < 0
        out = _magnitude(spec, _leading_sign(spec, neg), str(abs(v)), _adjust_width(spec, spec.width, neg))
        return out + ")" if neg and "(" in spec.flags else out
    spec.bad_flags("( +")
    alternate = "#" in spec.flags
    if c == "o":
        digits = "%o" % (v & _MASK64)
        prefix = "0" if alternate else ""
    else:
        digits = "%x" % (v & _MASK64)
        prefix = ("0X" if spec.upper else "0x") if alternate else ""
        if spec.upper:
            digits = digits.upper()
    zeros = "0" * (spec.width - len(digits) - len(prefix)) if "0" in spec.flags else ""
    return prefix + zeros + digits


# --------------------------------------------------------------------------- floating point


def _exact(x: float) -> Decimal:
    """The decimal a double is rounded from (see the module docstring)."""
    return Decimal(x)


def _quantum(places: int) -> Decimal:
    return Decimal("1E%d" % -places)


def fixed(d: Decimal, places: int) -> str:
    """``d`` rounded HALF_UP to ``places`` decimals, in plain notation."""
    q = d.quantize(_quantum(places), rounding=ROUND_HALF_UP, context=DCTX)
    return format(q, "f")


def scientific(d: Decimal, places: int) -> tuple[str, int]:
    """(mantissa text with ``places`` decimals, exponent) of the non-negative ``d``, rounded HALF_UP."""
    if d == 0:
        return fixed(Decimal(0), places), 0
    e = d.adjusted()
    m = d.scaleb(-e, context=DCTX)
    q = m.quantize(_quantum(places), rounding=ROUND_HALF_UP, context=DCTX)
    if q >= 10:
        e += 1
        q = m.scaleb(-1, context=DCTX).quantize(_quantum(places), rounding=ROUND_HALF_UP, context=DCTX)
    return format(q, "f"), e


def _exponent_text(e: int) -> str:
    return ("-" if e < 0 else "+") + "%02d" % abs(e)


def _with_dot(spec: _Spec, mant: str, places: int) -> str:
    return mant + "." if "#" in spec.flags and places == 0 else mant


def _double(spec: _Spec, value: float) -> str:
    if value != value:
        return "NAN" if spec.upper else "NaN"
    neg = value < 0 or (value == 0 and math.copysign(1.0, value) < 0)
    v = abs(value)
    sign = _leading_sign(spec, neg)
    if math.isinf(v):
        body = sign + ("INFINITY" if spec.upper else "Infinity")
    else:
        body = _double_body(spec, sign, v, neg)
    return body + ")" if neg and "(" in spec.flags else body


def _double_body(spec: _Spec, sign: str, v: float, neg: bool) -> str:
    c = spec.conv
    if c == "a":
        return sign + _hex_float(spec, v, neg)
    d = _exact(v)
    if c == "f":
        places = 6 if spec.precision == -1 else spec.precision
        mant = _with_dot(spec, fixed(d, places), places)
        return _magnitude(spec, sign, mant, _adjust_width(spec, spec.width, neg))
    if c == "e":
        places = 6 if spec.precision == -1 else spec.precision
        mant, e = scientific(d, places)
        return _scientific_text(spec, sign, _with_dot(spec, mant, places), e, neg)
    prec = 6 if spec.precision == -1 else (1 if spec.precision == 0 else spec.precision)
    if v == 0:
        return _magnitude(spec, sign, fixed(d, prec - 1), _adjust_width(spec, spec.width, neg))
    mant, e = scientific(d, prec - 1)
    if e < -4 or e >= prec:
        return _scientific_text(spec, sign, mant, e, neg)
    return _magnitude(spec, sign, fixed(d, prec - 1 - e), _adjust_width(spec, spec.width, neg))


def _scientific_text(spec: _Spec, sign: str, mant: str, e: int, neg: bool) -> str:
    exp = _exponent_text(e)
    width = spec.width
    if width != -1:
        width = _adjust_width(spec, width - len(exp) - 1, neg)
    return _magnitude(spec, sign, mant, width) + ("E" if spec.upper else "e") + exp


def _bigdec(spec: _Spec, value: Decimal) -> str:
    neg = value < 0
    v = value.copy_abs()
    sign = _leading_sign(spec, neg)
    c = spec.conv
    prec = 6 if spec.precision == -1 else spec.precision
    if c == "g":
        prec = 1 if spec.precision == 0 else prec
        if v == 0 or (Decimal("0.0001") <= v < Decimal(10) ** prec):
            places = prec - v.adjusted() - 1
            body = _magnitude(spec, sign, fixed(v, places), _adjust_width(spec, spec.width, neg))
        else:
            mant, e = scientific(v, prec - 1)
            body = _scientific_text(spec, sign, mant, e, neg)
    elif c == "f":
        body = _magnitude(spec, sign, _with_dot(spec, fixed(v, prec), prec), _adjust_width(spec, spec.width, neg))
    else:
        mant, e = scientific(v, prec)
        if v == 0:
            e = v.adjusted()
        body = _scientific_text(spec, sign, _with_dot(spec, mant, prec), e, neg)
    return body + ")" if neg and "(" in spec.flags else body


def _hex_float(spec: _Spec, v: float, neg: bool) -> str:
    """Java's ``%a``: ``Double.toHexString`` digits, optionally rounded to ``precision`` hex digits."""
    prec = 0 if spec.precision == -1 else (1 if spec.precision == 0 else spec.precision)
    mant, exp = hex_double(v, prec)
    prefix = "0X" if spec.upper else "0x"
    zeros = ""
    if "0" in spec.flags:
        lead = 3 if (neg or "+" in spec.flags or " " in spec.flags) else 2
        zeros = "0" * (spec.width - len(mant) - 1 - len(exp) - lead)
    if spec.upper:
        mant = mant.upper()
    if prec:
        whole, _, frac = mant.partition(".")
        mant = whole + "." + frac.ljust(prec, "0")
    return prefix + zeros + mant + ("P" if spec.upper else "p") + exp


def hex_double(v: float, prec: int) -> tuple[str, str]:
    """(``1.8``, ``1``) for 3.0: the mantissa and exponent texts of Java's hex form of ``v`` ≥ 0."""
    if v == 0:
        return "0.0", "0"
    (bits,) = struct.unpack("<Q", struct.pack("<d", v))
    exponent = (bits >> 52) & 0x7FF
    significand = bits & ((1 << 52) - 1)
    if prec == 0 or prec >= 13:
        if exponent == 0:
            return "0." + ("%013x" % significand).rstrip("0"), "-1022"
        return "1." + (("%013x" % significand).rstrip("0") or "0"), str(exponent - 1023)
    if exponent == 0:  # subnormal: normalize first, as the JDK scales by 2**54
        shift = 53 - significand.bit_length()
        significand = (significand << shift) & ((1 << 52) - 1)
        unbiased = -1022 - shift
    else:
        unbiased = exponent - 1023
    drop = 52 - 4 * prec
    kept = significand >> drop
    rest = significand & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    if rest > half or (rest == half and kept & 1):
        kept += 1
    if kept >> (4 * prec):
        kept = 0
        unbiased += 1
    return "1." + ("%0*x" % (prec, kept)), str(unbiased)


# --------------------------------------------------------------------------- %h


def java_hash(x: Any) -> int:
    """The Java ``hashCode`` of a Spell value as an unsigned 32-bit int (for ``%h``)."""
    t = type(x)
    if t is str:
        return _string_hash(x)
    if t is bool:
        return 1231 if x else 1237
    if t is int or t is BigInt:
        v: int = int(x) & _MASK64
        return (v ^ (v >> 32)) & _MASK32
    if t is float or t is Float32:
        f = float(x)
        bits = 0x7FF8000000000000 if f != f else struct.unpack("<Q", struct.pack("<d", f))[0]
        return (bits ^ (bits >> 32)) & _MASK32
    if t is Char:
        return ord(x.ch)
    if t is Symbol or t is Keyword:
        h = _hash_combine(_string_hash(x.name), _string_hash(x.ns) if x.ns is not None else 0)
        return (h + 0x9E3779B9) & _MASK32 if t is Keyword else h
    return spell_hash(x) & _MASK32


def _string_hash(s: str) -> int:
    h = 0
    for unit in to_units(s):
        h = (31 * h + ord(unit)) & _MASK32
    return h


def _hash_combine(seed: int, h: int) -> int:
    """Clojure ``Util.hashCombine`` in 32-bit arithmetic."""
    signed = seed - (1 << 32) if seed & 0x80000000 else seed
    return (seed ^ ((h + 0x9E3779B9 + (seed << 6) + (signed >> 2)) & _MASK32)) & _MASK32
