"""Calling function values from builtins, with the dispatch resolved once per builtin call.

``spell_runtime.invoke.call`` decides on every call what kind of value it was
given. Builtins such as ``map``, ``filter`` or ``reduce`` call the *same*
function once per element, so they ask ``caller(D, f, n)`` for a plain Python
callable of ``n`` arguments and then call that directly:

* a registered host builtin (``inc``, ``+``) is returned as is, so ``(map inc v)``
  costs what Python's own ``map(inc, v)`` costs;
* an ``EnvFn`` becomes ``partial(fn, D)`` (a C-level partial);
* a compiled Spell function becomes a small closure over its compiled body that
  turns a Spell error into the host error of language.md §8.4 (step 3);
* anything else (keywords, maps, uncompiled or mis-aritied Spell functions...)
  goes through ``call_fn``, which reports errors exactly as ``invoke.call`` does.

``call_fn`` adds one thing ``invoke.call`` leaves to the evaluator: a builtin
called with an argument count it does not accept raises Clojure's
``Wrong number of args (n) passed to: <host name>`` instead of Python's
``TypeError`` text (``(reduce inc [1 2])`` must name ``clojure.core/inc``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from types import BuiltinFunctionType, FunctionType
from typing import Any

from ..data.atoms import Keyword, Symbol
from ..data.fn import SpellFn
from ..data.lookup import get
from ..errors import HostError, SpellError, StackOverflow
from ..errors_result import error_result
from ..invoke import call
from .registry import FAST, INFO, BuiltinInfo, EnvFn


def spell_failure(e: SpellError) -> Exception:
    """The host error a builtin raises when a Spell function it called failed (§8.4 step 3); a stack
    overflow goes on as it is (``errors.StackOverflow``)."""
    if type(e) is StackOverflow:
        return e
    err = HostError(e.message, None, error_result(e))
    err.inner_frames = e.frames
    return err


def builtin_arity_error(info: BuiltinInfo, n: int) -> HostError:
    """Clojure's arity text for a builtin given ``n`` arguments."""
    return HostError(f"Wrong number of args ({n}) passed to: {info.host_name}")


def _accepts(info: BuiltinInfo, n: int) -> bool:
    return info.min_args <= n and (info.max_args is None or n <= info.max_args)


def call_fn(D: Any, f: Any, args: tuple[Any, ...]) -> Any:
    """``invoke.call`` with Clojure's arity error for builtins given a wrong argument count."""
    info = INFO.get(id(f))
    if info is not None and not _accepts(info, len(args)):
        raise builtin_arity_error(info, len(args))
    return call(D, f, args)


def _spell_caller(D: Any, code: Callable[..., Any], n: int) -> Callable[..., Any]:
    if n == 1:
        def one(x: Any) -> Any:
            try:
                return code(D, None, x)
            except SpellError as e:
                raise spell_failure(e) from None
        return one
    if n == 2:
        def two(x: Any, y: Any) -> Any:
            try:
                return code(D, None, x, y)
            except SpellError as e:
                raise spell_failure(e) from None
        return two

    def many(*args: Any) -> Any:
        try:
            return code(D, None, *args)
        except SpellError as e:
            raise spell_failure(e) from None
    return many


def _lookup_caller(k: Any, n: int) -> Callable[..., Any]:
    """A keyword or symbol applied as a function to one argument (or two, with a default): the
    lookup ``invoke.call`` makes (§8.5), as a closure over ``get`` — measured: cheaper per call
    than ``partial`` with a keyword argument or than calling the keyword itself, and about 40%
    of the generic path's cost."""
    if n == 1:
        def lookup1(m: Any) -> Any:
            return get(m, k)
        return lookup1

    def lookup2(m: Any, default: Any) -> Any:
        return get(m, k, default)
    return lookup2


def caller(D: Any, f: Any, n: int) -> Callable[..., Any]:
    """A Python callable that applies ``f`` to ``n`` positional arguments in calling env ``D``."""
    t = type(f)
    if t is SpellFn:
        code = f.code
        if code is not None and f.arity == n:
            return _spell_caller(D, code, n)
    elif t is FunctionType or t is BuiltinFunctionType:
        fast = FAST.get(id(f))
        if fast is not None and n in fast:
            return fast[n]
        info = INFO.get(id(f))
        if info is None or _accepts(info, n):
            return f  # type: ignore[no-any-return]
    elif t is EnvFn:
        info = INFO.get(id(f))
        if info is None or _accepts(info, n):
            return partial(f.fn, D)
    elif (t is Keyword or t is Symbol) and (n == 1 or n == 2):
        return _lookup_caller(f, n)

    def generic(*args: Any) -> Any:
        return call_fn(D, f, args)
    return generic


def caller1(D: Any, f: Any) -> Callable[[Any], Any]:
    """``caller(D, f, 1)``."""
    return caller(D, f, 1)


def caller2(D: Any, f: Any) -> Callable[[Any, Any], Any]:
    """``caller(D, f, 2)``."""
    return caller(D, f, 2)
