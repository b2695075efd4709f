"""The pieces every recovery program is assembled from (runtime.md §6.4–§6.6, §9.4).

All three recovery paths show the model the same ``_error`` map layout and end
with the same self-call, differing only in where they put them; building them
in one place keeps the product shapes (key order, quoting, ``:receive?``)
identical across paths.

``_error`` is inert data: the failed form and the trace are wrapped in
``quote`` (decision D11) so that evaluating ``(def _error ...)`` never resolves
the symbols of the failure again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Optional

from spell_runtime.data import Keyword, PList, SpellMap, is_vector, plist, spell_map, vec
from spell_runtime.printer import pr_str

from .prompt import RECOVERY_PROMPT
from .vocab import (
    K_CONTAINING,
    K_ERR,
    K_ERROR,
    K_EXPR,
    K_IN,
    K_REASON,
    K_RECEIVE,
    K_TRACE,
    S_COMPLETION,
    S_DEF,
    S_DO,
    S_ERROR,
    S_EVAL,
    S_LLM_SELF,
    S_PRUNE,
    S_QUINE,
    S_QUOTE,
    S_RECOVERY_PROMPT,
    S_REOPEN,
)

if TYPE_CHECKING:
    from .faults import Fault


def quoted(form: Any) -> PList:
    """``(quote form)``."""
    return plist([S_QUOTE, form])


def self_call(receive: bool) -> PList:
    """``(!llm-self (reopen completion) {:receive? r})``; ``r`` keeps the failing call's receipt choice (§6.11)."""
    return plist([S_LLM_SELF, plist([S_REOPEN, S_COMPLETION]), spell_map(K_RECEIVE, bool(receive))])


def failed_form(result: SpellMap) -> Any:
    """The form a failure names: its ``:containing-form``, else its ``:expr`` (None when it has neither)."""
    containing = result.get(K_CONTAINING)
    return containing if containing is not None else result.get(K_EXPR)


def error_text(result: SpellMap) -> str:
    """The raw ``:err`` of a result (a non-string message is rendered rather than dropped)."""
    err = result.get(K_ERR)
    if type(err) is str:
        return err
    return pr_str(err)


ERROR_TEXT_CHARS: Final = 4_000
"""How much of an error message ``_error`` shows (issue 16.3): the head and tail of a longer one,
clipped by the snapshot renderer with its usual omission marker. A message can hold whole values
(``(throw (ex-info (slurp f) {}))``, a 435 KB macro expansion failure); sent whole, every recovery
prompt would carry it."""

TRACE_ENTRIES: Final = 40
"""Call-path entries ``_error`` shows; deep recursion keeps the innermost ones."""


def bounded_message(message: str) -> str:
    """``message`` clipped by the snapshot renderer to about ``ERROR_TEXT_CHARS`` characters."""
    if len(message) <= ERROR_TEXT_CHARS:
        return message
    from spell_runtime.snapshot.display import snapshot

    clipped = snapshot(message, ERROR_TEXT_CHARS).value
    return clipped if type(clipped) is str else message[:ERROR_TEXT_CHARS]


def error_map(message: str, failed: Any, trace: Any, fault: Optional[Fault]) -> SpellMap:
    """``{:error m :in (quote f) :trace (quote t) :reason r}``, each optional entry only when it applies."""
    pairs: list[tuple[Any, Any]] = [(K_ERROR, bounded_message(message))]
    if failed is not None:
        pairs.append((K_IN, quoted(failed)))
    if trace is not None and (is_vector(trace) or type(trace) is PList) and len(trace):
        if len(trace) > TRACE_ENTRIES:
            trace = vec(list(trace)[:TRACE_ENTRIES])
        pairs.append((K_TRACE, quoted(trace)))
    if fault is not None:
        pairs.append(reason_entry(fault))
    return SpellMap.from_pairs(pairs)


def reason_entry(fault: Fault) -> tuple[Any, Any]:
    """The final ``:reason <code>`` entry of ``_error`` (§9.4)."""
    return (K_REASON, Keyword(fault.reason))


def def_error(error: SpellMap) -> PList:
    """``(def _error <map>)``."""
    return plist([S_DEF, S_ERROR, error])


def recovery_context(error: SpellMap) -> PList:
    """``(do (def _recovery_prompt "<prompt>") (def _error <map>))``: the inert context argument."""
    return plist([S_DO, plist([S_DEF, S_RECOVERY_PROMPT, RECOVERY_PROMPT]), def_error(error)])


def prune_marker() -> PList:
    """``(prune 2)``: removes the failed program and the context at the next edit (§6.8)."""
    return plist([S_PRUNE, 2])


def fresh_program(receive: bool) -> PList:
    """``(eval (do (quote <self-call>)))``: the new last quine argument, which the model continues."""
    return plist([S_EVAL, plist([S_DO, quoted(self_call(receive))])])


def is_completion_quine(form: Any) -> bool:
    """True for a list ``(quine completion ...)``: the wrapper recovery may extend in place."""
    return type(form) is PList and form.count >= 2 and form.first is S_QUINE and form[1] is S_COMPLETION


def inert_arguments_appended(program: Any, error: SpellMap, receive: bool) -> PList:
    """``program`` (wrapped as ``(quine completion program)`` if needed) plus context, marker and fresh program."""
    base = list(program) if is_completion_quine(program) else [S_QUINE, S_COMPLETION, program]
    return plist([*base, recovery_context(error), prune_marker(), fresh_program(receive)])
