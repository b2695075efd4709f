"""Inert recovery for evaluation errors (runtime.md §6.5).

Any failure that is not a proven trailing-expression failure may have happened
anywhere — an earlier body form, a nested ``eval``, a malformed wrapper — so
nothing of the failed program may run again. Appending to the *quine's argument
list* achieves that: ``quine`` evaluates only its last argument, so the failed
program and the recovery context become inert data the model can read for one
turn, and ``(prune 2)`` removes both at the next edit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from spell_runtime.data import PList, SpellMap

from .forms import error_map, error_text, failed_form, inert_arguments_appended
from .messages import clean_error_message
from .vocab import K_TRACE

if TYPE_CHECKING:
    from .faults import Fault


def inert_error_map(err_result: SpellMap, fault: Optional[Fault] = None) -> SpellMap:
    """``_error`` built from the failure itself: message, ``:in`` the failing top-level form, trace, reason."""
    return error_map(clean_error_message(error_text(err_result)), failed_form(err_result),
                     err_result.get(K_TRACE), fault)


def inert_recovery_program(program: Any, err_result: SpellMap, receive: bool,
                           fault: Optional[Fault] = None) -> PList:
    """``(quine completion <failed program...> (do <context>) (prune 2) (eval (do (quote <self-call>))))``."""
    return inert_arguments_appended(program, inert_error_map(err_result, fault), receive)
