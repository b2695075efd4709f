"""Which atoms survive a print/read round trip (runtime.md §4.3.1 "reader atoms").

A value form must evaluate back to the value, so a symbol, keyword or number
may be written as itself only when the reader turns its printed text back into
an equal value. Symbols and keywords made at run time (``(symbol "a b")``,
``(keyword "1/x")``) can hold any text, so the test follows the Clojure reader's
token rules (LispReader ``matchSymbol``) and the project's namespace split
(``symbol_from_text``) instead of assuming printability. Where the Clojure
reader's behaviour is exotic (a symbol starting with ``%``), the test answers
"not readable": the only cost is the longer ``(symbol "...")`` spelling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, Optional

from .data.atoms import BigInt, Float32, Keyword, Symbol, symbol_from_text
from .numtext import float32_text, to_float32

# Characters that end a token (whitespace, comma, and Clojure's terminating macro characters).
_JAVA_WHITESPACE: Final = frozenset(
    "\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)
_TOKEN_BREAKERS: Final = _JAVA_WHITESPACE | frozenset(',";@^`~()[]{}\\\u0085')
_BAD_SYMBOL_START: Final = frozenset("#'%:")


def _first_symbol_match(text: str) -> Optional[re.Match[str]]:
    """``_symbol_match`` until its first call, which puts the compiled pattern's ``fullmatch`` in its place:
    the pattern is compiled when a token is first checked, not by every start-up (issue 12)."""
    global _symbol_match
    # LispReader.symbolPat with Java's \D (ASCII) and '.' (no line terminators; those are excluded above).
    _symbol_match = re.compile(r":?([^0-9/].*/)?(/|[^0-9/][^/]*)", re.DOTALL).fullmatch
    return _symbol_match(text)


_symbol_match: Callable[[str], Optional[re.Match[str]]] = _first_symbol_match


def is_java_whitespace(c: str) -> bool:
    """Java ``Character.isWhitespace`` for one UTF-16 code unit."""
    return c in _JAVA_WHITESPACE


def _split(text: str) -> tuple[Optional[str], str]:
    """The reader's (namespace, name) split: ``a/b/c`` → (``a/b``, ``c``); ``ns//`` → (``ns``, ``/``)."""
    if len(text) > 2 and text.endswith("//"):
        return text[:-2], "/"
    sym = symbol_from_text(text)
    return sym.ns, sym.name


def _token_ok(text: str) -> bool:
    """True when ``text`` reads as one symbol/keyword token (not a number, not invalid)."""
    if not text or not _TOKEN_BREAKERS.isdisjoint(text):
        return False
    m = _symbol_match(text)
    if m is None:
        return False
    ns, name = m.group(1), m.group(2)
    if (ns is not None and ns.endswith(":/")) or name.endswith(":") or text.find("::", 1) != -1:
        return False
    return True


def is_reader_symbol(s: Symbol) -> bool:
    """True when printing ``s`` and reading the text back gives ``s``."""
    text = repr(s)
    first = text[:1]
    # The reader sends any Unicode decimal digit (Java ``Character.isDigit``) to the number reader.
    if not first or first in _BAD_SYMBOL_START or first.isdecimal():
        return False
    if first in "+-" and text[1:2].isdecimal():
        return False
    if text in ("nil", "true", "false"):
        return False
    if text.startswith("*/"):  # the reader's comment-marker pass would turn a leading */ into ;/
        return False
    if text != "/" and not _token_ok(text):
        return False
    return _split(text) == (s.ns, s.name)


def is_reader_keyword(k: Keyword) -> bool:
    """True when printing ``k`` and reading the text back gives ``k``."""
    text = repr(k)
    if text.startswith("::") or not _token_ok(text):
        return False
    return _split(text[1:]) == (k.ns, k.name)


def is_reader_number(x: Any) -> bool:
    """True for a number whose printed text reads back as an equal number (not NaN, exact floats)."""
    t = type(x)
    if t is int or t is BigInt or t is Fraction or t is Decimal:
        return True
    if t is float:
        return bool(x == x)
    if t is Float32:
        v = to_float32(x)
        if v != v:
            return False
        if v in (float("inf"), float("-inf")):
            return True
        return float(float32_text(v)) == v
    return False


def is_reader_atom(x: Any) -> bool:
    """A symbol, keyword or number that round-trips through text (runtime.md §4.3.1)."""
    t = type(x)
    if t is Symbol:
        return is_reader_symbol(x)
    if t is Keyword:
        return is_reader_keyword(x)
    return is_reader_number(x)
