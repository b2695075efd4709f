"""The JVM texts of host failures raised by the collection builtins (language.md §15.3).

The reference runs on Clojure, so a type error inside a builtin surfaces as a
Java exception message that names Java classes; programs (and the model reading
error messages) see those texts, so builtins reproduce them. This module is the
one place that knows the class names and message layouts: ``class_name`` (what
``(class x)`` would print), the ``ClassCastException`` text with its module
clause, the "Don't know how to create ISeq" text, and ``int_cast`` (Clojure's
``RT.intCast``, which indexes and counts pass through).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from math import isnan, trunc
from typing import Any

from ..bigdigits import int_text
from ..data.atoms import BigInt, Char, Float32, HostObject, Keyword, Symbol
from ..data.hashmap import SpellMap, SpellSet
from ..data.plist import PList
from ..data.sorted import SortedMap
from ..errors import HostError
from ..invoke import host_class_name
from .registry import EnvFn, info_of

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1
LONG_MIN = -(2**63)
LONG_MAX = 2**63 - 1


def class_name(x: Any) -> str:
    """The Java class name the reference reports for ``x`` in host error messages."""
    t = type(x)
    if t is PList:
        if x.is_seq:
            return "clojure.lang.LazySeq"
        return "clojure.lang.PersistentList" if x.count else "clojure.lang.PersistentList$EmptyList"
    if isinstance(x, SpellMap):
        if t is SortedMap:
            return "clojure.lang.PersistentTreeMap"
        return "clojure.lang.PersistentHashMap" if len(x) > 8 else "clojure.lang.PersistentArrayMap"
    if isinstance(x, SpellSet):
        return "clojure.lang.PersistentTreeSet" if type(x._m) is SortedMap else "clojure.lang.PersistentHashSet"
    if isinstance(x, HostObject):
        return x.class_name
    if t is EnvFn or (callable(x) and t is not Keyword and t is not Symbol and not isinstance(x, type)):
        return function_class_name(x)
    return host_class_name(x)


def function_class_name(f: Any) -> str:
    """A JVM-style class name for a host function (``clojure.core$inc``)."""
    info = info_of(f)
    if info is not None:
        name = info.host_name
        return name.replace("/", "$") if "/" in name else "spell.eval$" + name
    if type(f) is EnvFn:
        return str(f.name)
    return "spell.eval$" + str(getattr(f, "__qualname__", "fn"))


def simple_class_name(x: Any) -> str:
    """``Class.getSimpleName()``: the class name after the last dot."""
    return class_name(x).rsplit(".", 1)[-1]


def _module_of(cls: str) -> str:
    if cls.startswith("java."):
        return "module java.base of loader 'bootstrap'"
    return "unnamed module of loader 'app'"


def cast_message(source: str, target: str) -> str:
    """The JDK ``ClassCastException`` text for casting an instance of ``source`` to ``target``."""
    ms, mt = _module_of(source), _module_of(target)
    if ms == mt:
        where = f"{source} and {target} are in {ms}"
    else:
        where = f"{source} is in {ms}; {target} is in {mt}"
    return f"class {source} cannot be cast to class {target} ({where})"


def cast_error(x: Any, target: str) -> HostError:
    """The host error for using ``x`` where the reference casts to class ``target``."""
    return HostError(cast_message(class_name(x), target))


def not_seqable(x: Any) -> HostError:
    """``(seq x)`` on a value that is not a collection, string or nil."""
    return HostError("Don't know how to create ISeq from: " + class_name(x))


def _java_number_text(x: Any) -> str:
    if type(x) is float or type(x) is Float32:
        from ..printer import pr_str

        return pr_str(x)
    return int_text(x) if type(x) in (int, BigInt) else str(x)


def long_cast(x: Any) -> int:
    """Clojure ``RT.longCast`` of a number (truncating; range-checked)."""
    t = type(x)
    if t is int:
        return x  # type: ignore[no-any-return]
    if t is BigInt:
        if not LONG_MIN <= x <= LONG_MAX:
            raise HostError("Value out of range for long: " + int_text(x))
        return int(x)
    if t is float or t is Float32:
        if isnan(x):
            return 0
        if not LONG_MIN <= x <= LONG_MAX:
            raise HostError("Value out of range for long: " + _java_number_text(x))
        return int(trunc(x))
    if t is Fraction or t is Decimal:
        n = int(trunc(x))
        if not LONG_MIN <= n <= LONG_MAX:
            raise HostError("Value out of range for long: " + str(n))
        return n
    raise cast_error(x, "java.lang.Number")


def int_cast(x: Any) -> int:
    """Clojure ``RT.intCast(Object)``, the conversion an ``int`` index parameter applies."""
    if type(x) is int and INT_MIN <= x <= INT_MAX:
        return x
    if x is None:
        raise HostError('Cannot invoke "java.lang.Character.charValue()" because "x" is null')
    t = type(x)
    if t is Char:
        return ord(x.ch)
    if t is bool or t not in (int, BigInt, float, Float32, Fraction, Decimal):
        raise cast_error(x, "java.lang.Character")
    n = long_cast(x)
    if not INT_MIN <= n <= INT_MAX:
        raise HostError(f"Value out of range for int: {n}")
    return n


def is_integer(x: Any) -> bool:
    """Clojure ``Util.isInteger``: longs and BigInts (never booleans)."""
    t = type(x)
    return t is int or t is BigInt
