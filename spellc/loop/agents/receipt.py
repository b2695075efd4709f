"""Message receipt (runtime.md §5.9, §11.5): messages are appended to a program, never injected into a run.

A receipt drains the agent's whole mailbox batch (the coordinator claims the
batch's request slots in the same step) and appends, per message,
``(think "<site>")``, ``(def msg-<n> <envelope>)`` and ``(quote (!extend <name>))``
to the wrapper quine's ``(do …)`` body. The appended ``!extend`` becomes the
trailing expression, so the model's proposed trailing action is not run: it
sees the messages and decides again. Only ``:body`` is a bounded snapshot; the
envelope's routing fields (``:from``, ``:edge-id``…) stay exact, because
programs reply with them.

The *resumable checkpoint* is the newest program evaluated with receipt on (or
returned by ``receive``); waits and dormant wakes resume it, never a raw
helper's text. It is stored on the coordinator's agent entry, so it survives
the lifecycle that recorded it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Optional

from spell_runtime.core.quine import reopen_quine, split_quine
from spell_runtime.data import Keyword, SpellMap, Symbol, plist
from spell_runtime.errors import ControlError, HostError
from spell_runtime.gensym import gensym
from spell_runtime.snapshot.limits import DEFAULT_LIMIT
from spell_runtime.snapshot.serialize import descriptor_form

STARTUP: Final = "startup: tail not run"
PRE_EVAL: Final = "pre-eval: tail not run"
WAIT_RESUMED: Final = "wait resumed"
DORMANT_RESUMED: Final = "dormant resumed"
RECEIVE: Final = "receive: not evaluated"

S_THINK: Final = Symbol("think")
S_QUOTE: Final = Symbol("quote")
S_EXTEND: Final = Symbol("!extend")
K_NAME: Final = Keyword("name")
K_VALUE: Final = Keyword("value")
K_BODY_ONLY: Final = Keyword("body-only?")


@dataclass(frozen=True)
class Checkpoint:
    """A resumable program and where it was evaluated (depth, trace node)."""

    program: Any
    depth: int
    node: Optional[int]


def is_wrapper_quine(program: Any) -> bool:
    """True for ``(quine NAME … (eval (do …)))`` with a symbol name: the only shape a receipt can extend."""
    try:
        name, _inert, _body = split_quine(program)
    except HostError:
        return False
    return type(name) is Symbol


def receipt_forms(name: Any, messages: list[SpellMap], label: str, limit: Optional[int]) -> list[Any]:
    """The three forms per message, in mailbox order."""
    target = limit if limit is not None else DEFAULT_LIMIT
    forms: list[Any] = []
    for message in messages:
        binding = gensym("msg-")
        descriptor = SpellMap.from_pairs([(K_NAME, binding), (K_VALUE, message), (K_BODY_ONLY, True)])
        forms.append(plist([S_THINK, label]))
        forms.append(descriptor_form(descriptor, target))
        forms.append(plist([S_QUOTE, plist([S_EXTEND, name])]))
    return forms


def append_receipt(program: Any, messages: list[SpellMap], label: str, limit: Optional[int]) -> Any:
    """``program`` with the receipt forms of ``messages`` appended (unchanged when there are none)."""
    if not messages:
        return program
    name, _inert, _body = split_quine(program)
    return reopen_quine(program, receipt_forms(name, messages, label, limit))


def receive_at_evaluation(agent: Any, program: Any, depth: int, node: Optional[int], root: bool) -> Any:
    """The receipt point of a receiving completion (startup for a lifecycle's root, else pre-eval).

    Returns the program to evaluate; records it as the agent's checkpoint. Outside multi-agent
    runs, or for programs that are not wrapper quines, the program is returned untouched.
    """
    coordinator = agent.run.coordinator
    if coordinator is None or coordinator.closed or not is_wrapper_quine(program):
        return program
    handle = agent.handle
    try:
        messages = coordinator.drain(handle) if coordinator.has_messages(handle) else []
    except ControlError:  # closed meanwhile: nothing to receive
        return program
    program = append_receipt(program, messages, STARTUP if root else PRE_EVAL, agent.run.context_max_chars)
    coordinator.set_checkpoint(handle, Checkpoint(program, depth, node))
    return program
