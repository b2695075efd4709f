"""Argument checks shared by the effect functions.

Misuse by the program (wrong types, invalid options, malformed ranges) is the
one kind of effect failure that raises instead of returning an envelope
(runtime.md §1.7): it raises ``SpellArgumentError`` so the evaluator reports it
as ``Function call failed: <fn>: <message>`` and fault classification marks it
``:invalid-argument`` (a document fault the model can fix). Checks run before
any file is opened or process started, so a rejected call has no effect.
"""

from __future__ import annotations

import decimal
import fractions
from typing import Any, NoReturn, Optional

from ..bigdigits import int_text
from ..data.atoms import BigInt, Float32, Keyword
from ..data.hashmap import SpellMap, SpellSet
from ..data.plist import PList
from ..data.vector import as_pvector, is_vector, vec
from ..errors import SpellArgumentError
from .render import pr

K_ARGS = Keyword("args")
K_VALUE = Keyword("value")

NO_ARG: Any = object()
"""Default of an optional positional parameter the call did not supply (``nil`` is a value)."""

_INTEGER_TYPES = (int, BigInt)
_NUMBER_TYPES = (int, BigInt, float, Float32, fractions.Fraction, decimal.Decimal)


def reject(message: str, data: Optional[SpellMap] = None) -> NoReturn:
    """Raise the argument error ``message`` (with optional exception data)."""
    raise SpellArgumentError(message, data)


def given(*args: Any) -> tuple[Any, ...]:
    """The optional positional arguments actually passed (they are always a prefix)."""
    return tuple(a for a in args if a is not NO_ARG)


def is_integer(v: Any) -> bool:
    """A Spell integer (long or BigInt); booleans and ``1.0`` are not."""
    return type(v) in _INTEGER_TYPES


def is_number(v: Any) -> bool:
    """Any Spell number (booleans are not numbers)."""
    return type(v) in _NUMBER_TYPES


def require_strings(label: str, values: list[Any], suffix: str = "") -> None:
    """The reference's ``<label> must be strings, got <first bad><suffix>`` check, data ``{:args [...]}``."""
    for v in values:
        if type(v) is not str:
            reject(f"{label} must be strings, got {pr(v)}{suffix}",
                   SpellMap.from_pairs([(K_ARGS, vec(values))]))


def require_path(fn_name: str, path: Any, what: str = "path") -> str:
    """A path argument: must be a string (no spec text exists; this one names the function)."""
    if type(path) is not str:
        reject(f"{fn_name}: {what} must be a string, got {pr(path)}")
    return path


def require_map(fn_name: str, opts: Any) -> SpellMap:
    """An options argument: a map, or nil meaning no options."""
    if opts is None:
        return SpellMap()
    if not isinstance(opts, SpellMap):
        reject(f"{fn_name}: options must be a map, got {pr(opts)}")
    return opts


def natural_option(label: str, value: Any) -> str:
    """A count option given as a non-negative integer or a string of digits, as CLI text."""
    if is_integer(value) and value >= 0:
        return int_text(value)
    if type(value) is str and value.isascii() and value.isdigit():
        return value
    reject(f"{label} must be a non-negative integer, got {pr(value)}",
           SpellMap.from_pairs([(K_VALUE, value)]))


def items_of(coll: Any) -> Optional[list[Any]]:
    """The elements of a Spell collection (map entries as vectors), or None for a non-collection."""
    if is_vector(coll):
        return list(as_pvector(coll))
    if type(coll) is PList or type(coll) is SpellSet:
        return list(coll)
    if isinstance(coll, SpellMap):
        return [vec([k, v]) for k, v in coll.items()]
    return None
