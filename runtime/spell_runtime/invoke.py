"""Calling a Spell value from Python: how builtins run function arguments (language.md §8.4–§8.5).

``call(D, f, args)`` applies any callable Spell value ``f`` with the calling
environment ``D``:

* a Spell function: arity checked (a mismatch is a *host* error
  ``Wrong number of args: expected N, got M`` with data ``{:expected N, :actual M}``),
  body run in ``D`` extended with the parameters, **no** recur handling (Q18) and no
  trace entry; a Spell error inside becomes a host error carrying the inner result,
  so the builtin's own call fails with ``Function call failed: <builtin>: <inner>``;
* a builtin: called directly (``EnvFn`` ones get ``D`` first);
* keywords, symbols, maps, sets and vectors: the lookups of §8.5;
* anything else: the JVM's cast error text.
"""

from __future__ import annotations

from typing import Any

from .core.registry import EnvFn
from .data.atoms import Keyword, Symbol
from .data.fn import SpellFn, as_spell_fn, is_spell_fn
from .data.hashmap import SpellMap, SpellSet, spell_map
from .data.lookup import get
from .data.vector import LineVector, PVector, VectorView
from .errors import HostError, SpellError, StackOverflow

K_EXPECTED = Keyword("expected")
K_ACTUAL = Keyword("actual")


def arity_error(expected: int, actual: int) -> HostError:
    """The host error a builtin-invoked Spell function raises on an arity mismatch."""
    return HostError("Wrong number of args: expected %d, got %d" % (expected, actual),
                     spell_map(K_EXPECTED, expected, K_ACTUAL, actual))


def call_spell_fn(D: Any, f: SpellFn, args: tuple[Any, ...]) -> Any:
    """Run a Spell function for a builtin (no recur handling, no trace)."""
    if f.arity != len(args):
        if f.arity < 0:
            raise HostError("count not supported on this type: %s" % _simple_class(f.params))
        raise arity_error(f.arity, len(args))
    code = f.code
    if code is None:
        from .hooks import compile_fn

        code = compile_fn(f)
    try:
        return code(D, None, *args)
    except SpellError as e:
        if type(e) is StackOverflow:  # crosses the builtin as it is (``errors.StackOverflow``)
            raise
        err = HostError(e.message, None, _result_of(e))
        err.inner_frames = e.frames
        raise err from None


def _result_of(e: SpellError) -> Any:
    from .errors_result import error_result

    return error_result(e)


def call(D: Any, f: Any, args: tuple[Any, ...]) -> Any:
    """Apply the Spell value ``f`` to ``args`` in calling environment ``D``."""
    t = type(f)
    if t is SpellFn:
        return call_spell_fn(D, f, args)
    if t is EnvFn:
        return f.fn(D, *args)
    if callable(f) and t is not Keyword and t is not Symbol:
        return f(*args)
    if t is Keyword or t is Symbol:
        if len(args) == 1:
            return get(args[0], f)
        if len(args) == 2:
            return get(args[0], f, args[1])
        raise HostError("Wrong number of args (%d) passed to: %s" % (len(args), f))
    if isinstance(f, SpellMap):
        if is_spell_fn(f):
            return call_spell_fn(D, as_spell_fn(f), args)
        if len(args) == 1:
            return f.get(args[0])
        if len(args) == 2:
            return f.get(args[0], args[1])
        raise HostError("Wrong number of args (%d) passed to: PersistentArrayMap" % len(args))
    if t is SpellSet:
        if len(args) == 1:
            return f.get(args[0])
        raise HostError("Wrong number of args (%d) passed to: PersistentHashSet" % len(args))
    if t is PVector or t is LineVector or t is VectorView:
        if len(args) == 1 and type(args[0]) is int and 0 <= args[0] < len(f):
            return f[args[0]]
        if len(args) == 1:
            if type(args[0]) is int:
                raise HostError("")
            raise HostError("Key must be integer")
        raise HostError("Wrong number of args (%d) passed to: PersistentVector" % len(args))
    if f is None:
        raise HostError("Cannot call nil as a function")
    raise HostError(not_callable_message(f))


def not_callable_message(f: Any) -> str:
    """The JVM's text for calling a value that is not a function."""
    cls = host_class_name(f)
    return ("class %s cannot be cast to class clojure.lang.IFn (%s is in module java.base of loader "
            "'bootstrap'; clojure.lang.IFn is in unnamed module of loader 'app')" % (cls, cls))


def host_class_name(x: Any) -> str:
    """The Java class name the reference would report for ``x``."""
    from decimal import Decimal
    from fractions import Fraction

    from .data.atoms import BigInt, Char, Float32, Pattern

    t = type(x)
    names: dict[type, str] = {
        bool: "java.lang.Boolean", int: "java.lang.Long", BigInt: "clojure.lang.BigInt",
        float: "java.lang.Double", Float32: "java.lang.Float", Fraction: "clojure.lang.Ratio",
        Decimal: "java.math.BigDecimal", str: "java.lang.String", Char: "java.lang.Character",
        Keyword: "clojure.lang.Keyword", Symbol: "clojure.lang.Symbol", Pattern: "java.util.regex.Pattern",
        PVector: "clojure.lang.PersistentVector", LineVector: "clojure.lang.PersistentVector",
        VectorView: "clojure.lang.PersistentVector",
        SpellSet: "clojure.lang.PersistentHashSet",
    }
    name = names.get(t)
    if name is not None:
        return name
    from .data.plist import PList

    if t is PList:
        return "clojure.lang.PersistentList" if not f_is_seq(x) else "clojure.lang.LazySeq"
    if isinstance(x, SpellMap):
        return "clojure.lang.PersistentArrayMap"
    return "java.lang.Object"


def f_is_seq(x: Any) -> bool:
    return bool(getattr(x, "is_seq", False))


def _simple_class(x: Any) -> str:
    return host_class_name(x).rsplit(".", 1)[-1]
