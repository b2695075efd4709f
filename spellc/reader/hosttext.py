"""How a value reads inside a JVM exception message.

Clojure builds messages such as ``Duplicate key: `` + key with Java string
concatenation, i.e. ``String.valueOf``: ``null`` for nil, strings and characters
raw, BigInts without ``N``, doubles as ``Double.toString``, collections printed
readably. Atoms are rendered here so the reader's error path does not pull in
the whole printer; only a collection key needs it (imported lazily).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from spell_runtime.data.atoms import BigInt, Char, Keyword, Pattern, Symbol
from spell_runtime.numtext import bigdec_text, double_text


def host_text(x: Any) -> str:
    """``String.valueOf(x)`` for a value the reader produced."""
    if x is None:
        return "null"
    t = type(x)
    if t is bool:
        return "true" if x else "false"
    if t is str:
        return str(x)
    if t is int or t is BigInt:
        return str(int(x))
    if t is Keyword or t is Symbol:
        return str(x)
    if t is Char:
        return str(x.ch)
    if t is float:
        return double_text(x)
    if t is Fraction:
        return f"{x.numerator}/{x.denominator}"
    if t is Decimal:
        return bigdec_text(x)
    if t is Pattern:
        return str(x.source)
    from spell_runtime.printer import pr_str

    return pr_str(x)
