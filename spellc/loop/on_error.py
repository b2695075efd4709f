"""The ``:on-error`` run option (runtime.md §9.4, project extension).

The host's callback is called exactly once per failure that reaches the
recovery decision point (§6.2) — recovered or not — with
``{:fault f :reason r :message m :phase :reader|:eval :handle h :in form :recovered? bool}``.
Failures propagated from a child completion were decided (and reported) where
they happened, so they do not reach this point again; typed exceptions bypass
the decision entirely. Agents run on several threads, so the callback may be
called from any of them (the handle says whose failure it is). Whatever the
callback raises is recorded as a trace warning and otherwise ignored: a
reporting hook must never change the run.
"""

from __future__ import annotations

from typing import Any, Final

from spell_runtime.data import Keyword, SpellMap

K_FAULT: Final = Keyword("fault")
K_REASON: Final = Keyword("reason")
K_MESSAGE: Final = Keyword("message")
K_PHASE: Final = Keyword("phase")
K_HANDLE: Final = Keyword("handle")
K_IN: Final = Keyword("in")
K_RECOVERED: Final = Keyword("recovered?")
CALLBACK_FAILED: Final = ":on-error callback failed: %s"


def report_failure(agent: Any, fault: Any, message: str, phase: str, form: Any, recovered: bool) -> None:
    """Call the run's ``:on-error`` callback, if any, for one failure at the decision point."""
    callback = agent.run.on_error
    if callback is None:
        return
    event = SpellMap.from_pairs([
        (K_FAULT, Keyword(fault.verdict)), (K_REASON, Keyword(fault.reason)), (K_MESSAGE, message),
        (K_PHASE, Keyword(phase)), (K_HANDLE, agent.handle), (K_IN, form), (K_RECOVERED, recovered)])
    try:
        callback(event)
    except Exception as e:  # noqa: BLE001 - the host's callback must not change the run (§9.4)
        trace = agent.run.trace
        if trace is not None:
            trace.warn(CALLBACK_FAILED % e, SpellMap.from_pairs([(K_HANDLE, agent.handle)]))
