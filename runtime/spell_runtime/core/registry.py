"""The table of builtins and the two calling conventions builtins use.

A *plain* builtin is an ordinary Python function of its Spell arguments; compiled
code and other builtins call it directly. A builtin that must call back into Spell
(``map``, ``reduce``, ``update``..., language.md §8.4) needs the *calling
environment* ``D`` (the compiled code's binding table): it is registered with
``env=True`` and is stored wrapped in ``EnvFn``, whose ``fn`` takes ``D`` first.
Host closures made at run time that call functions (``partial``, ``comp``...) are
``EnvFn`` objects too. ``spell_runtime.invoke.call(D, f, args)`` hides the
difference from builtins that call function values.

Every builtin has a *host name* for printing (``#object[clojure.core$inc]``) and
arity messages (``Wrong number of args (2) passed to: clojure.core/inc``), and
an arity range used only on the error path to tell an arity mistake from a
``TypeError`` raised inside the builtin.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Optional, TypeVar

from ..data.atoms import Symbol
from ..data.hashmap import SpellMap

F = TypeVar("F", bound=Callable[..., Any])


class EnvFn:
    """A builtin or host closure that receives the calling environment first."""

    __slots__ = ("fn", "name", "__weakref__")

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self.fn = fn
        self.name = name

    def __repr__(self) -> str:
        return "EnvFn(%s)" % self.name


class BuiltinInfo:
    """What the evaluator knows about one builtin."""

    __slots__ = ("name", "host_name", "min_args", "max_args", "env", "value")

    def __init__(self, name: str, host_name: str, min_args: int, max_args: Optional[int], env: bool,
                 value: Any) -> None:
        self.name = name
        self.host_name = host_name
        self.min_args = min_args
        self.max_args = max_args
        self.env = env
        self.value = value


BUILTINS: dict[Symbol, Any] = {}
"""Unqualified name → value (a function, an ``EnvFn`` or a namespace map)."""

INFO: dict[int, BuiltinInfo] = {}
"""id(value) → info, for every registered builtin function value."""

OWNERS: dict[Symbol, str] = {}
"""Unqualified name → the module that registers it: what a built module's share of the library is made
of (``spell_runtime.library``, ``spellc.emit.constants.library_modules``)."""

FAST: dict[int, dict[int, Callable[..., Any]]] = {}
"""id(builtin value) → {argument count: a fixed-arity function with the same meaning}.

Higher-order builtins that call a builtin argument many times (``reduce +``) use
these instead of the variadic value, which must inspect its argument count on
every call."""


def register_fast(name: str, arity: int, fn: Callable[..., Any]) -> None:
    """Declare ``fn`` as the ``arity``-argument fast path of builtin ``name``."""
    value = BUILTINS[Symbol(name)]
    FAST.setdefault(id(value), {})[arity] = fn


def arity_range(fn: Callable[..., Any], skip: int = 0) -> tuple[int, Optional[int]]:
    """(minimum, maximum or None) positional arguments ``fn`` accepts, minus ``skip`` leading ones."""
    code = getattr(fn, "__code__", None)
    if code is not None and not hasattr(fn, "__wrapped__") and not hasattr(fn, "__signature__"):
        # A plain function: read its code object (``inspect`` costs ~6 ms of start-up to import).
        n = code.co_argcount  # positional parameters, positional-only ones included
        defaults = len(fn.__defaults__ or ())
        varargs = bool(code.co_flags & 0x04)  # CO_VARARGS
        return n - defaults - skip, None if varargs else n - skip
    import inspect

    sig = inspect.signature(fn)
    lo = 0
    hi: Optional[int] = 0
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            if p.default is p.empty:
                lo += 1
            if hi is not None:
                hi += 1
        elif p.kind is p.VAR_POSITIONAL:
            hi = None
    return lo - skip, None if hi is None else hi - skip


def builtin(name: str, *, env: bool = False, host: Optional[str] = None) -> Callable[[F], F]:
    """Register the decorated function as the Spell builtin ``name``.

    ``host`` is the host name used in arity messages and printing; it defaults to
    ``clojure.core/<name>`` (the reference maps most builtins straight to Clojure).
    """

    def register(fn: F) -> F:
        host_name = host if host is not None else "clojure.core/" + name
        lo, hi = arity_range(fn, 1 if env else 0)
        value: Any = EnvFn(fn, name) if env else fn
        info = BuiltinInfo(name, host_name, lo, hi, env, value)
        sym = Symbol(name)
        BUILTINS[sym] = value
        # the module registering it (whose import brings it back), not the one defining ``fn``
        OWNERS[sym] = sys._getframe(1).f_globals.get("__name__", fn.__module__)
        INFO[id(value)] = info
        return fn

    return register


def register_value(name: str, value: Any, module: str) -> None:
    """Bind a non-function builtin (a namespace map such as ``strings``) registered by ``module``."""
    BUILTINS[Symbol(name)] = value
    OWNERS[Symbol(name)] = module


def info_of(value: Any) -> Optional[BuiltinInfo]:
    """The registration record of a builtin value, if it is one."""
    return INFO.get(id(value))


def namespace(members: dict[str, Any], *, short_docs: str = "", guide: str = "",
              detail: Optional[dict[str, str]] = None) -> SpellMap:
    """A namespace map: keyword-keyed members plus the documentation keys of language.md §12.3."""
    from ..data.atoms import Keyword

    pairs: list[tuple[Any, Any]] = [(Keyword(k), v) for k, v in members.items()]
    if short_docs:
        pairs.append((Keyword("short-docs"), short_docs))
    if guide:
        pairs.append((Keyword("docs"), SpellMap.from_pairs([(Keyword("guide"), guide)])))
    if detail:
        pairs.append((Keyword("detail"), SpellMap.from_pairs((Keyword(k), v) for k, v in detail.items())))
    return SpellMap.from_pairs(pairs)


def member(name: str, *, env: bool = False, host: Optional[str] = None) -> Callable[[F], Any]:
    """Register the decorated function as a namespace member (not bound unqualified).

    Returns the value to put in the namespace map (the function, or its ``EnvFn``).
    ``name`` is the Spell-facing name such as ``strings/trim``.
    """

    def register(fn: F) -> Any:
        host_name = host if host is not None else name
        lo, hi = arity_range(fn, 1 if env else 0)
        value: Any = EnvFn(fn, name) if env else fn
        INFO[id(value)] = BuiltinInfo(name, host_name, lo, hi, env, value)
        return value

    return register
