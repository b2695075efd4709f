"""Deciding the ``Fault`` of a failure (runtime.md §9.2 classification rules).

The rules are applied in the spec's order: a typed exception is judged by its
``:type``; a reader failure is the document's; messages the evaluator itself
produces name their reason; a host function that failed *because an inner Spell
evaluation failed* inherits the inner verdict (so a wrapper such as ``eval`` or
``!llm-self`` never reclassifies); argument misuse is the document's; other
exceptions of pure builtins are the document's (``:expression-runtime``), of
effect functions the environment's (``:host-function``); provider failures are
the environment's; anything else is unknown.

A verdict already stamped on the failure (``:spell/reason`` in a result map,
``SpellError.extra`` or exception data) always wins: that is the origin's
judgement, and §9.1 forbids reclassifying it.

For a ``SpellError`` the original host exception is found through Python's
exception chaining (the evaluator raises the converted error while handling the
original), which recovers the exception class that an error result map has lost.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, PList, SpellMap, Symbol
from spell_runtime.errors import NO_VALUE, ControlError, HostError, SpellArgumentError, SpellError
from spell_runtime.printer import display_str

from spellc.providers.base import ProviderError
from spellc.reader.errors import ReaderError

from .fault_texts import evaluator_reason, is_argument_text, limit_reason
from .faults import Fault, fault_for, fault_from_data
from .messages import FN_CALL_PREFIX
from .vocab import K_ERR, K_EXPR, K_FAULT, K_RESULT, K_THROWN, K_TYPE

DEFAULT_EFFECT_NAMESPACES: Final = frozenset(
    {"io", "io-read", "io-write", "io-exec", "web", "globals", "agents", "patterns", "workers", "feedback"})
"""Roots of the effect namespaces of language.md §12.4 (pass MCP aliases in addition when configured)."""

EFFECT_BUILTINS: Final = frozenset({"!llm-self", "receive", "!ask-await", "leaf-llm", "llm"})
"""Unqualified effect builtins: their non-argument failures are the environment's."""

_TYPED_REASONS: Final = {
    "budget-exceeded": "budget-exceeded",
    "depth-exceeded": "depth-exceeded",
    "recovery-exhausted": "recovery-exhausted",
    "interactive-interrupt": "interrupted",
    "coordinator-closed": "interrupted",
    # runtime.md §11.8: capacity is a host-imposed limit; the misuse signals are the program's doing.
    "coordinator-capacity": "coordinator-capacity",
    "synchronous-agent-call": "agent-misuse",
    "agent-in-computation-future": "agent-misuse",
    "agent-blocking-call": "agent-misuse",
    "stale-agent-lifecycle": "agent-misuse",
    "stale-computation-lifecycle": "agent-misuse",
    "request-cancelled": "agent-misuse",
}

_INTERNAL_TYPES: Final = (AttributeError, NameError, KeyError, AssertionError, ImportError, NotImplementedError,
                          SystemError)
"""Python exceptions that signal a bug in spellc's own code rather than a problem with the values."""

_MAX_CHAIN: Final = 64


def classify(error: Any, *, effect_namespaces: Collection[str] = DEFAULT_EFFECT_NAMESPACES) -> Fault:
    """The fault of a SpellError, error result map, ControlError, ProviderError or any exception."""
    if isinstance(error, Fault):
        return error
    if isinstance(error, ControlError):
        return typed_fault(error.data)
    if isinstance(error, ProviderError):
        return fault_for("provider")
    if isinstance(error, ReaderError):
        return fault_for("reader-error")
    if isinstance(error, SpellError):
        return _spell_error_fault(error, effect_namespaces)
    if isinstance(error, SpellMap):
        return _map_fault(error, effect_namespaces)
    if isinstance(error, BaseException):
        return _bare_exception_fault(error)
    return fault_for("unclassified")


def classify_host_exception(exc: BaseException, head: Any, *,
                            effect_namespaces: Collection[str] = DEFAULT_EFFECT_NAMESPACES) -> Fault:
    """The fault of a host exception raised by the call whose head form is ``head``.

    Meant for the evaluator at the moment it converts a host exception into
    ``Function call failed: <head>: ...``, so the verdict is stamped at the origin.
    """
    stamped = _stamp_of(exc)
    if stamped is not None:
        return stamped
    if isinstance(exc, ControlError):
        return typed_fault(exc.data)
    if isinstance(exc, SpellError):
        return _spell_error_fault(exc, effect_namespaces)
    if isinstance(exc, HostError) and isinstance(exc.result, SpellMap):
        return _inner_fault(exc, exc.result, effect_namespaces)
    message = exc.message if isinstance(exc, HostError) else str(exc)
    return _host_fault(message, head, exc, effect_namespaces)


def typed_fault(data: Any) -> Fault:
    """Rule 1: a typed exception's fault from its ``:type`` (terminal, except ``:sleep-refused``)."""
    kind = data.get(K_TYPE) if isinstance(data, SpellMap) else None
    name = kind.name if type(kind) is Keyword else None
    if name == "sleep-refused":
        stamped = fault_from_data(data)
        return stamped if stamped is not None else fault_for("invalid-argument")
    if name == "recovery-exhausted":
        verdict = data.get(K_FAULT)
        return fault_for("recovery-exhausted", verdict.name if type(verdict) is Keyword else None, terminal=True)
    stamped = fault_from_data(data)
    if stamped is not None:
        return fault_for(stamped.reason, stamped.verdict, terminal=True)
    return fault_for(_TYPED_REASONS.get(name or "", "unclassified"), terminal=True)


def is_effect_head(head: Any, effect_namespaces: Collection[str] = DEFAULT_EFFECT_NAMESPACES) -> bool:
    """True when a call head names an effect function (``io/sh``, ``!llm-self``...)."""
    if type(head) is not Symbol:
        return False
    if head.ns is None:
        return head.name in EFFECT_BUILTINS
    return head.ns.split("/", 1)[0] in effect_namespaces


# --------------------------------------------------------------------------- the three input shapes

def _spell_error_fault(e: SpellError, effect_namespaces: Collection[str]) -> Fault:
    stamped = fault_from_data(SpellMap.from_pairs(e.extra.items())) if e.extra else None
    if stamped is not None:
        return stamped
    if isinstance(e, ReaderError):
        return fault_for("reader-error")
    if e.thrown is not NO_VALUE:
        return fault_for("thrown")
    message = e.message
    if not message.startswith(FN_CALL_PREFIX):
        return fault_for(evaluator_reason(message) or "unclassified")
    if isinstance(e.result, SpellMap):
        return _inner_fault(e, e.result, effect_namespaces)
    head = _head_of(e.expr)
    origin = e.__cause__ or e.__context__
    if isinstance(origin, SpellError):
        origin = None  # an unrelated Spell error that happened to be in flight
    return _host_fault(_host_message(message, head), head, origin, effect_namespaces)


def _map_fault(m: SpellMap, effect_namespaces: Collection[str]) -> Fault:
    stamped = fault_from_data(m)
    if stamped is not None:
        return stamped
    if not m.contains(K_ERR) and m.get(K_TYPE) is not None:
        return typed_fault(m)  # exception data, e.g. a run's :error-data
    if m.contains(K_THROWN):
        return fault_for("thrown")
    err = m.get(K_ERR)
    message = err if type(err) is str else ""
    if not message.startswith(FN_CALL_PREFIX):
        return fault_for(evaluator_reason(message) or "unclassified")
    inner = m.get(K_RESULT)
    if isinstance(inner, SpellMap):
        return _map_fault(inner, effect_namespaces)
    head = _head_of(m.get(K_EXPR))
    return _host_fault(_host_message(message, head), head, None, effect_namespaces)


def _bare_exception_fault(exc: BaseException) -> Fault:
    """An exception that never went through the evaluator: runtime machinery, unless it says otherwise."""
    stamped = _stamp_of(exc)
    if stamped is not None:
        return stamped
    if isinstance(exc, SpellArgumentError) or (isinstance(exc, HostError) and is_argument_text(exc.message)):
        return fault_for("invalid-argument")
    return fault_for("internal")


# --------------------------------------------------------------------------- host failures

def _host_fault(message: str, head: Any, origin: Optional[BaseException],
                effect_namespaces: Collection[str]) -> Fault:
    """Rules 3 and 5–9 for ``Function call failed: <head>: <message>``."""
    if type(head) is Symbol and head.ns is None and head.name == "throw":
        return fault_for("thrown")  # (throw nil) / (throw false)
    if message.startswith("Wrong number of args"):
        return fault_for("arity")
    limit = limit_reason(message)
    if limit is not None:
        return fault_for(limit)
    if origin is not None:
        stamped = _stamp_of(origin)
        if stamped is not None:
            return stamped
        if isinstance(origin, ProviderError):
            return fault_for("provider")
        if isinstance(origin, ControlError):
            return typed_fault(origin.data)
        if isinstance(origin, SpellArgumentError):
            return fault_for("invalid-argument")
    if is_argument_text(message):
        return fault_for("invalid-argument")
    if origin is not None and _is_internal(origin):
        return fault_for("internal")
    if is_effect_head(head, effect_namespaces):
        return fault_for("host-function")
    return fault_for("expression-runtime")


def _inner_fault(outer: BaseException, inner: SpellMap, effect_namespaces: Collection[str]) -> Fault:
    """Rule 4: the verdict of the inner evaluation, from its live exception when the chain still has it."""
    stamped = fault_from_data(inner)
    if stamped is not None:
        return stamped
    live = _find_inner_error(outer, inner.get(K_ERR))
    if live is not None:
        return _spell_error_fault(live, effect_namespaces)
    return _map_fault(inner, effect_namespaces)


def _find_inner_error(outer: BaseException, message: Any) -> Optional[SpellError]:
    seen: set[int] = {id(outer)}
    current = outer.__cause__ or outer.__context__
    for _ in range(_MAX_CHAIN):
        if current is None or id(current) in seen:
            return None
        if isinstance(current, SpellError) and current.message == message:
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _stamp_of(exc: BaseException) -> Optional[Fault]:
    if isinstance(exc, SpellError):
        return fault_from_data(SpellMap.from_pairs(exc.extra.items())) if exc.extra else None
    return fault_from_data(getattr(exc, "data", None))


def _is_internal(exc: BaseException) -> bool:
    if isinstance(exc, _INTERNAL_TYPES):
        return True
    return type(exc) is RuntimeError


def _head_of(expr: Any) -> Any:
    return expr.first if type(expr) is PList and expr.count else None


def _host_message(message: str, head: Any) -> str:
    """The host exception's own text inside ``Function call failed: <H>: <M>``."""
    rest = message[len(FN_CALL_PREFIX):]
    if head is not None:
        shown = display_str(head) + ": "
        if rest.startswith(shown):
            return rest[len(shown):]
    _, sep, tail = rest.partition(": ")
    return tail if sep else rest
