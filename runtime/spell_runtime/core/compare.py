"""Ordering and the equality/logic builtins: ``compare = not= not identity any? nil? some? true?
false? boolean? distinct?`` (language.md §4.2, §4.4, §14.4).

``compare`` is Clojure's ``Util.compare``: nil sorts first, numbers compare
numerically across categories, and everything else defers to the Java class's
``compareTo`` — which is why strings, characters, keywords and symbols return
Java's *magnitudes* (code-unit or length differences, A5) rather than -1/0/1,
why vectors compare by length before elements, and why a mismatched pair fails
with the JVM's cast text naming the class the left operand expected.
"""

from __future__ import annotations

from typing import Any

from ..data.atoms import Char, Keyword, Symbol
from ..data.equality import spell_eq
from ..data.hashmap import normkey
from ..data.sorted import set_natural_compare
from ..data.text import is_bmp, to_units
from ..data.vector import LineVector, PVector, VectorView
from ..errors import HostError
from .hostcast import cast_message
from .numbers import compare_numbers, is_number
from .registry import builtin


def compare(a: Any, b: Any) -> int:
    """Clojure ``compare``: negative, zero or positive, with Java's magnitudes."""
    if a is b:
        return 0
    ta = type(a)
    if ta is int and type(b) is int:
        return int(a > b) - int(a < b)
    if a is None:
        return -1
    if b is None:
        return 1
    if is_number(a):
        return compare_numbers(a, b)
    if ta is str:
        if type(b) is not str:
            raise HostError(cast_message(b, "java.lang.String"))
        return compare_strings(a, b)
    if ta is Keyword or ta is Symbol:
        if type(b) is not ta:
            raise HostError(cast_message(b, "clojure.lang." + ta.__name__))
        return _compare_named(a, b)
    if ta is Char:
        if type(b) is not Char:
            raise HostError(cast_message(b, "java.lang.Character"))
        return ord(a.ch) - ord(b.ch)
    if ta is bool:
        if type(b) is not bool:
            raise HostError(cast_message(b, "java.lang.Boolean"))
        return 0 if a is b else (1 if a else -1)
    if ta is PVector or ta is LineVector or ta is VectorView:
        tb = type(b)
        if tb is not PVector and tb is not LineVector and tb is not VectorView:
            raise HostError(cast_message(b, "clojure.lang.IPersistentVector"))
        return _compare_vectors(a, b)
    raise HostError(cast_message(a, "java.lang.Comparable"))


def compare_strings(a: str, b: str) -> int:
    """Java ``String.compareTo``: the first differing UTF-16 code units' difference, else the length difference."""
    if a == b:
        return 0
    if not (is_bmp(a) and is_bmp(b)):
        a = to_units(a)
        b = to_units(b)
    for x, y in zip(a, b):
        if x != y:
            return ord(x) - ord(y)
    return len(a) - len(b)


def _compare_named(a: Any, b: Any) -> int:
    """``Symbol.compareTo`` (keywords delegate to their symbol): namespace first, nil namespace lowest."""
    if a.ns is None:
        if b.ns is not None:
            return -1
    else:
        if b.ns is None:
            return 1
        c = compare_strings(a.ns, b.ns)
        if c:
            return c
    return compare_strings(a.name, b.name)


def _compare_vectors(a: Any, b: Any) -> int:
    """``APersistentVector.compareTo``: the shorter vector first, then element by element."""
    na = len(a)
    nb = len(b)
    if na != nb:
        return -1 if na < nb else 1
    for x, y in zip(a, b):
        c = compare(x, y)
        if c:
            return c
    return 0


builtin("compare")(compare)


@builtin("=")
def equals(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return spell_eq(x, more[0])
    prev = x
    for y in more:
        if not spell_eq(prev, y):
            return False
        prev = y
    return True


@builtin("not=")
def not_equals(x: Any, *more: Any) -> bool:
    if len(more) == 1:
        return not spell_eq(x, more[0])
    return not equals(x, *more)


@builtin("not")
def not_(x: Any) -> bool:
    return x is None or x is False


@builtin("identity")
def identity(x: Any) -> Any:
    return x


@builtin("any?")
def any_(x: Any) -> bool:
    return True


@builtin("nil?")
def nil_(x: Any) -> bool:
    return x is None


@builtin("some?")
def some_(x: Any) -> bool:
    return x is not None


@builtin("true?")
def true_(x: Any) -> bool:
    return x is True


@builtin("false?")
def false_(x: Any) -> bool:
    return x is False


@builtin("boolean?")
def boolean_(x: Any) -> bool:
    return type(x) is bool


@builtin("distinct?")
def distinct_(x: Any, *more: Any) -> bool:
    """True when no two arguments are ``=`` (Spell equality, so ``1`` and ``1N`` collide, ``1`` and ``1.0`` do not)."""
    if len(more) == 1:
        return not spell_eq(x, more[0])
    seen = {normkey(x)}
    for y in more:
        k = normkey(y)
        if k in seen:
            return False
        seen.add(k)
    return True



set_natural_compare(compare)  # the default order of sorted maps and sets (data/sorted.py)
