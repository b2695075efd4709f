"""Error recovery and fault classification as pure functions (runtime.md §6, §9).

The turn loop calls these at the seams of the per-completion pipeline (§6.2);
nothing here evaluates Spell, calls a model or keeps state except the
lifecycle ``ErrorCounter``. Keeping the rewriting pure lets every recovery
program be tested as data and rendered text, independent of the evaluator.

Modules: ``prompt`` (product strings), ``messages`` (error texts),
``substitute``/``fixup`` (namespace fixup), ``forms`` (shared recovery forms),
``same_tail``, ``inert``, ``reader_recovery`` (the three quine recoveries),
``limit``/``counter`` (the consecutive-error limit), ``faults``/``fault_texts``/
``classify`` (fault classification and the recovery gate).
"""

from .classify import DEFAULT_EFFECT_NAMESPACES, classify, classify_host_exception, is_effect_head, typed_fault
from .counter import ErrorCounter, Frame, FrameState, exhaustion_data
from .faults import REASON_VERDICTS, Fault, fault_for, fault_from_data, should_recover, with_fault
from .fixup import matching_namespaces, namespace_fixup
from .forms import reason_entry
from .inert import inert_error_map, inert_recovery_program
from .limit import DEFAULT_MAX_CONSECUTIVE_ERRORS, validate_max_consecutive_errors
from .messages import clean_error_message, normalize_symbol_message, symbol_error
from .prompt import (
    INVALID_LIMIT_MESSAGE,
    LIMIT_MESSAGE,
    READER_ERROR_PREFIX,
    RECOVERY_PROMPT,
    UNKNOWN_READER_ERROR,
    UNRECOVERABLE_READER_ERROR_PREFIX,
)
from .reader_recovery import reader_error_text, reader_recovery_program
from .same_tail import same_tail_program, trailing_source

__all__ = [
    "DEFAULT_EFFECT_NAMESPACES", "DEFAULT_MAX_CONSECUTIVE_ERRORS", "ErrorCounter", "Fault", "Frame", "FrameState",
    "INVALID_LIMIT_MESSAGE", "LIMIT_MESSAGE", "READER_ERROR_PREFIX", "REASON_VERDICTS", "RECOVERY_PROMPT",
    "UNKNOWN_READER_ERROR", "UNRECOVERABLE_READER_ERROR_PREFIX", "classify", "classify_host_exception",
    "clean_error_message", "exhaustion_data", "fault_for", "fault_from_data", "inert_error_map",
    "inert_recovery_program", "is_effect_head", "matching_namespaces", "namespace_fixup",
    "normalize_symbol_message", "reader_error_text", "reader_recovery_program", "reason_entry",
    "same_tail_program", "should_recover", "symbol_error", "trailing_source", "typed_fault",
    "validate_max_consecutive_errors", "with_fault",
]
