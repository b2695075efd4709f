"""Message receipt (runtime.md §5.9, §11.5): messages are appended to a program, never injected into a run.

A receipt drains the agent's whole mailbox batch (the coordinator claims the
batch's request slots in the same step) and appends, per message,
``(think "<site>")``, ``(def msg-<n> <envelope>)`` and ``(quote (!extend <name>))``
to the wrapper quine's ``(do …)`` body. The appended ``!extend`` becomes the
trailing expression, so the model's proposed trailing action is not run: it
sees the messages and decides again. The three forms of one message share one
contribution budget (the run's display limit) and only ``:body`` is clipped to
fit it: the routing fields (``:from``, ``:edge-id``…) stay exact, because
programs reply with them. As everywhere in spellc (§4), the binding *is* the
snapshot — there is no hidden original behind a clipped body.

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
from spell_runtime.errors import HostError
from spell_runtime.gensym import gensym
from spell_runtime.printer import render_form
from spell_runtime.snapshot.display import clip_to_budget
from spell_runtime.snapshot.limits import DEFAULT_LIMIT
from spell_runtime.valueform import value_form

STARTUP: Final = "startup: tail not run"
PRE_EVAL: Final = "pre-eval: tail not run"
WAIT_RESUMED: Final = "wait resumed"
DORMANT_RESUMED: Final = "dormant resumed"
RECEIVE: Final = "receive: not evaluated"

S_THINK: Final = Symbol("think")
S_QUOTE: Final = Symbol("quote")
S_EXTEND: Final = Symbol("!extend")
S_DEF: Final = Symbol("def")
K_BODY: Final = Keyword("body")


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
    """The three forms per message, in mailbox order; each triple fits one contribution budget."""
    target = limit if limit is not None else DEFAULT_LIMIT
    forms: list[Any] = []
    for message in messages:
        forms.extend(_contribution(name, message, label, target))
    return forms


def _contribution(name: Any, message: SpellMap, label: str, target: int) -> list[Any]:
    """``(think label)``, ``(def msg-N envelope)``, ``(quote (!extend name))``, rendered within ``target`` chars.

    Only ``:body`` is clipped: it gets what the annotation, the routing fields and the continuation
    leave of the budget (so a receipt at the smallest display limit still shows every field exactly).
    """
    binding = gensym("msg-")
    think = plist([S_THINK, label])
    extend = plist([S_QUOTE, plist([S_EXTEND, name])])
    if not message.contains(K_BODY):
        return [think, plist([S_DEF, binding, value_form(message)]), extend]
    fixed = len(render_form(think)) + len(render_form(extend)) + 2
    skeleton = len(render_form(plist([S_DEF, binding, value_form(message.assoc(K_BODY, None))]))) - len("nil")
    budget = target - fixed - skeleton
    for _attempt in range(4):
        body = clip_to_budget(message.get(K_BODY), budget).value
        definition = plist([S_DEF, binding, value_form(message.assoc(K_BODY, body))])
        overflow = fixed + len(render_form(definition)) - target
        if overflow <= 0 or budget <= 1:
            break
        budget -= overflow
    return [think, definition, extend]


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
    if coordinator is None or not is_wrapper_quine(program):
        return program
    handle = agent.handle
    # A receipt is a coordinator operation: once the run has returned it raises ``Coordinator is
    # closed`` (§11.1), which ends an agent that outlived its run at its next receiving turn.
    messages = coordinator.drain(handle) if coordinator.has_messages(handle) or coordinator.closed else []
    program = append_receipt(program, messages, STARTUP if root else PRE_EVAL, agent.run.context_max_chars)
    coordinator.set_checkpoint(handle, Checkpoint(program, depth, node))
    return program
