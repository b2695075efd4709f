"""The one place where the turn loop calls error recovery (runtime.md §6, §9).

Recovery is a separate package of pure functions (``spellc.loop.recovery``);
the pipeline reaches it only through these wrappers, so every seam of §6.2 —
count, classify and gate, fixup, rewrite — is visible in one short file, and
the loop's view of the agent (its namespace names, its optional counter) is
adapted here rather than in the recovery functions.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Optional

from spell_runtime.data import SpellMap

from . import recovery
from .recovery import ErrorCounter, Fault, Frame


# -- the counter (§6.9) ---------------------------------------------------------------------------
def new_counter(limit: int) -> ErrorCounter:
    """The lifecycle counter of one agent (a new run starts at 0)."""
    return ErrorCounter(limit)


def new_frame(counter: Optional[ErrorCounter]) -> Optional[Frame]:
    return None if counter is None else counter.new_frame()


def record_success(counter: Optional[ErrorCounter], frame: Optional[Frame]) -> None:
    """A completion succeeded or handed off; ``frame`` None means handoff is disabled (synthetic runs)."""
    if counter is not None and frame is not None:
        counter.record_success(frame)


def record_failure(counter: Optional[ErrorCounter], frame: Optional[Frame], phase: str, message: str, handle: Any,
                   fault: Optional[Fault] = None) -> None:
    """Count one own failure; raises the typed ``:recovery-exhausted`` at the limit (before any repair)."""
    if counter is not None and frame is not None:
        counter.record_failure(frame, phase, message, handle, fault=fault)


def validate_max_consecutive_errors(value: Any) -> int:
    """§6.9: a positive integer, else the typed ``:invalid-max-consecutive-errors``."""
    return recovery.validate_max_consecutive_errors(value)


# -- classification and gating (§9) ---------------------------------------------------------------
def classify(error: Any, effect_namespaces: Collection[str] = ()) -> Fault:
    """The ``Fault`` of a failure; the agent's own namespace names (aliases such as ``files``)
    count as effect namespaces next to the standard ones."""
    names = recovery.DEFAULT_EFFECT_NAMESPACES | frozenset(effect_namespaces)
    return recovery.classify(error, effect_namespaces=names)


def should_recover(fault: Fault, recover_unknown: bool, counter: Optional[ErrorCounter]) -> bool:
    """§9.3: may this failure be sent back to the model (and counted)? Asked before counting it."""
    already = counter is not None and counter.count > 0
    return recovery.should_recover(fault, recover_unknown, already)


def stamp(data: Optional[SpellMap], fault: Optional[Fault]) -> SpellMap:
    """``data`` with ``:spell/fault``/``:spell/reason`` (an existing verdict is kept)."""
    base = data if data is not None else SpellMap()
    return base if fault is None else recovery.with_fault(base, fault)


# -- program rewriting (§6.3–§6.6) ----------------------------------------------------------------
def namespace_fixup(program: Any, result: SpellMap, namespaces: dict[str, SpellMap], effects_ran: bool) -> Any:
    return recovery.namespace_fixup(program, result, namespaces, effects_ran=effects_ran)


def same_tail_program(program: Any, result: SpellMap, receive: bool, fault: Fault) -> Any:
    return recovery.same_tail_program(program, result, receive, fault)


def inert_recovery_program(program: Any, result: SpellMap, receive: bool, fault: Fault) -> Any:
    return recovery.inert_recovery_program(program, result, receive, fault)


def reader_recovery_program(raw_text: str, message: str, receive: bool, fault: Fault) -> Any:
    return recovery.reader_recovery_program(raw_text, message, receive, fault)
