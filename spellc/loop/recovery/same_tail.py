"""Trailing-expression ("same-tail") recovery (runtime.md §6.4).

When the failure is *proven* to come from the quoted trailing expression of the
standard wrapper, the cheapest repair is to keep the whole program and append
the error plus a new self-call to its body: the failed tail stops being last and
so becomes inert, the earlier (pure) body forms re-run to restore their
bindings, and the model continues right after the self-call with the context it
already had. The five provenance conditions exist because appending to the
body is only safe when nothing else in the program failed; every other failure
goes to inert recovery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from spell_runtime.data import PList, SpellMap, plist, spell_eq

from .forms import def_error, error_map, error_text, failed_form, is_completion_quine, quoted, self_call
from .messages import clean_error_message
from .vocab import K_EXPR, K_RECOVERY_PHASE, K_RESULT, K_TRACE, K_TRAILING, S_DO, S_EVAL, S_QUOTE

if TYPE_CHECKING:
    from .faults import Fault


def trailing_parts(program: Any) -> Optional[tuple[PList, PList, Any]]:
    """(LAST, its ``do`` form, V) when ``program`` is ``(quine completion ... (eval (do ... (quote V))))``."""
    if not is_completion_quine(program) or program.count < 3:
        return None
    last = program[program.count - 1]
    if not (type(last) is PList and last.count == 2 and last.first is S_EVAL):
        return None
    body = last[1]
    if not (type(body) is PList and body.count >= 2 and body.first is S_DO):
        return None
    tail = body[body.count - 1]
    if not (type(tail) is PList and tail.count == 2 and tail.first is S_QUOTE):
        return None
    return last, body, tail[1]


def trailing_source(program: Any, err_result: SpellMap) -> Optional[SpellMap]:
    """The inner result of a failure proven to come from the program's trailing expression, else None."""
    parts = trailing_parts(program)
    if parts is None:
        return None
    last, _body, tail = parts
    if err_result.get(K_RECOVERY_PHASE) is not K_TRAILING or not spell_eq(err_result.get(K_EXPR), last):
        return None
    source = err_result.get(K_RESULT)
    if not isinstance(source, SpellMap) or source.get(K_RESULT) is not None:
        return None
    if not spell_eq(failed_form(source), tail):
        return None
    return source


def same_tail_program(program: Any, err_result: SpellMap, receive: bool,
                      fault: Optional[Fault] = None) -> Optional[PList]:
    """The program with ``(def _error ...)`` and a quoted self-call appended to its body, or None.

    None means the five provenance conditions do not all hold; use ``inert_recovery_program``.
    """
    source = trailing_source(program, err_result)
    if source is None:
        return None
    last = program[program.count - 1]
    body = last[1]
    error = error_map(clean_error_message(error_text(source)), failed_form(source), source.get(K_TRACE), fault)
    new_body = plist([*body, def_error(error), quoted(self_call(receive))])
    items = list(program)
    items[-1] = plist([S_EVAL, new_body])
    return plist(items)
