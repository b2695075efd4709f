"""Spell atoms: keywords, symbols, characters and the numeric kinds Python lacks.

Keywords and symbols are *interned*: one object per (namespace, name). They keep
Python's identity ``__eq__``/``__hash__`` on purpose — architecture.md §3 measured
Python-level hash/eq making dict work ×2.1 slower, and the compiled code's
environment dict is keyed by symbols. Because a symbol object is shared by every
occurrence, source positions of symbol occurrences live on the enclosing
collection (see ``plist.PList.child_spans``), never on the symbol.

Numbers follow Clojure's tower (language.md §16.1): a plain ``int`` is a 64-bit
long (arithmetic checks overflow), ``BigInt`` marks arbitrary-precision integers
(printed with ``N``), ``float`` is a double, ``Float32`` a JVM float,
``fractions.Fraction`` a ratio and ``decimal.Decimal`` a BigDecimal.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, ClassVar, Final, Self

from ..bigdigits import int_text


class _Named:
    """An interned name with an optional namespace; one object per (namespace, name) per kind."""

    __slots__ = ("ns", "name", "_text", "__weakref__")
    _table: ClassVar[dict[tuple[str | None, str], Any]]
    _lock: ClassVar[threading.Lock]
    _prefix: ClassVar[str]

    ns: str | None
    name: str
    _text: str

    def __new__(cls, name: str, ns: str | None = None) -> Self:
        key = (ns, name)
        found = cls._table.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        with cls._lock:
            found = cls._table.get(key)
            if found is None:
                found = object.__new__(cls)
                found.ns = ns
                found.name = name
                found._text = cls._prefix + (name if ns is None else ns + "/" + name)
                cls._table[key] = found
            return found

    def __reduce__(self) -> tuple[object, tuple[str, str | None]]:
        return (type(self), (self.name, self.ns))

    def __repr__(self) -> str:
        return self._text

    __str__ = __repr__

    # ``(:k m)``, ``(:k m default)``: installed by ``lookup.py``, which sits above the collections
    # this module may not import (house-review.md change 6).
    __call__: Callable[..., Any]


class Keyword(_Named):
    """An interned keyword ``:ns/name``; compare with ``is``."""

    __slots__ = ()
    _table: ClassVar[dict[tuple[str | None, str], Keyword]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _prefix: ClassVar[str] = ":"


class Symbol(_Named):
    """An interned symbol ``ns/name``; compare with ``is``."""

    __slots__ = ()
    _table: ClassVar[dict[tuple[str | None, str], Symbol]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _prefix: ClassVar[str] = ""


def keyword(name: str, ns: str | None = None) -> Keyword:
    """The interned keyword; ``keyword("a/b")`` keeps the slash in the name like Clojure."""
    return Keyword(name, ns)


def symbol(name: str, ns: str | None = None) -> Symbol:
    """The interned symbol with that namespace and name."""
    return Symbol(name, ns)


def symbol_from_text(text: str) -> Symbol:
    """Split ``a/b/c`` the way the Clojure reader does: namespace ``a/b``, name ``c``."""
    if text == "/" or "/" not in text:
        return Symbol(text)
    idx = text.rfind("/")
    if idx <= 0:
        return Symbol(text)
    return Symbol(text[idx + 1 :], text[:idx])


class Char:
    """A JVM ``char``: exactly one UTF-16 code unit. Never equal to a string."""

    __slots__ = ("ch",)
    ch: str

    def __init__(self, ch: str) -> None:
        self.ch = ch

    def __eq__(self, other: object) -> bool:
        return type(other) is Char and other.ch == self.ch

    def __hash__(self) -> int:
        return hash(("char", self.ch))

    def __repr__(self) -> str:
        return "Char(%r)" % self.ch


class BigInt(int):
    """A Clojure BigInt: an integer that prints with ``N`` and never overflows."""

    __slots__ = ()

    def __repr__(self) -> str:
        return int_text(self) + "N"


class Float32(float):
    """A JVM float (binary32). Arithmetic on it yields doubles, as on the JVM."""

    __slots__ = ()


class Pattern:
    """A regex value (``#"..."``); equality is identity, as in Clojure."""

    __slots__ = ("source", "_compiled")
    source: str

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return "Pattern(%r)" % self.source


class HostObject:
    """An opaque host value that Spell can hold but not read back (``#inst``, ``reduced``...)."""

    __slots__ = ("class_name", "payload")

    def __init__(self, class_name: str, payload: object) -> None:
        self.class_name = class_name
        self.payload = payload

    def __repr__(self) -> str:
        return "HostObject(%s)" % self.class_name


LONG_MIN: Final = -(2**63)
LONG_MAX: Final = 2**63 - 1

# Frequently used keywords and symbols, interned once for the whole runtime.
K_SPELL_FN: Final = Keyword("fn", "spell")
K_SPELL_MACRO: Final = Keyword("macro", "spell")
K_SPELL_RECUR: Final = Keyword("recur", "spell")
K_SPELL_FUTURE: Final = Keyword("future", "spell")
K_SPELL_EXCEPTION: Final = Keyword("exception", "spell")
K_PARAMS: Final = Keyword("params")
K_BODY: Final = Keyword("body")
K_VALS: Final = Keyword("vals")
K_EXPANDER: Final = Keyword("expander")
K_REF: Final = Keyword("ref")
