"""Spell text for values quoted inside effect messages.

Several product strings embed a program value (``got <v>``, ``String not found
in file: "<old>"``, ``Invalid URL: <url>``). They must read the way Spell prints,
so the real printer (``spell_runtime.printer.pr_str``) is used when it is
installed. It is imported lazily: messages are built only on failure paths, and
effects must keep working in a runtime slice without the printer. The fallback
covers the values such messages meet in practice (atoms, vectors, lists, maps,
sets) with the same text as the printer for those values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from ..bigdigits import int_text
from ..data.atoms import BigInt, Char, Keyword, Symbol
from ..data.hashmap import SpellMap, SpellSet
from ..data.plist import PList
from ..data.vector import is_vector

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\f": "\\f", "\b": "\\b"}


def string_literal(s: str) -> str:
    """``s`` as a Spell string literal (the escape table of runtime.md Appendix B item 5)."""
    return '"' + "".join(_ESCAPES.get(c, c) for c in s) + '"'


def _printer(name: str) -> Optional[Callable[[Any], str]]:
    try:
        from .. import printer  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    fn = getattr(printer, name, None)
    return fn if callable(fn) else None


def pr(v: Any) -> str:
    """``pr-str`` of ``v``."""
    fn = _printer("pr_str")
    if fn is not None:
        return fn(v)
    return _fallback_pr(v)


def text(v: Any) -> str:
    """Clojure ``str`` of ``v`` (nil is empty, strings and chars are raw)."""
    if v is None:
        return ""
    if type(v) is str:
        return v
    fn = _printer("display_str")
    if fn is not None:
        return fn(v)
    if type(v) is Char:
        return str(v.ch)
    return _fallback_pr(v)


def _fallback_pr(v: Any) -> str:
    if v is None:
        return "nil"
    if v is True:
        return "true"
    if v is False:
        return "false"
    t = type(v)
    if t is str:
        return string_literal(v)
    if t is int:
        return int_text(v)
    if t is BigInt:
        return int_text(v) + "N"
    if t is Keyword or t is Symbol:
        return str(v)
    if t is Char:
        return "\\" + str(v.ch)
    if t is float:
        return _double(v)
    if is_vector(v):
        return "[" + " ".join(_fallback_pr(x) for x in v) + "]"
    if t is PList:
        return "(" + " ".join(_fallback_pr(x) for x in v) + ")"
    if t is SpellSet:
        return "#{" + " ".join(_fallback_pr(x) for x in v) + "}"
    if isinstance(v, SpellMap):
        return "{" + ", ".join(_fallback_pr(k) + " " + _fallback_pr(x) for k, x in v.items()) + "}"
    return str(v)


def _double(x: float) -> str:
    if x != x:
        return "##NaN"
    if x in (float("inf"), float("-inf")):
        return "##Inf" if x > 0 else "##-Inf"
    r = repr(x)
    if "e" in r:
        mantissa, exp = r.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return mantissa + "E" + str(int(exp))
    return r
