"""The one place where the turn loop calls error recovery (runtime.md §6, §9).

Recovery is a separate package of pure functions (``spellc.loop.recovery``).
The pipeline reaches it only through these wrappers, so the seams of §6.2 are
visible in one file and the loop keeps working — failures then simply end the
run with their Spell error — if a piece of recovery is missing.
"""

from __future__ import annotations

from collections.abc import Collection
from importlib import import_module
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, spell_map
from spell_runtime.errors import ControlError

K_FAULT: Final = Keyword("fault", "spell")
K_REASON: Final = Keyword("reason", "spell")
K_TYPE: Final = Keyword("type")
INVALID_LIMIT: Final = ":max-consecutive-errors must be a positive integer"


def _recovery(name: str) -> Any:
    """A function of the recovery package, or None while it does not exist."""
    try:
        module = import_module("spellc.loop.recovery")
    except ImportError:
        return None
    return getattr(module, name, None)


def available() -> bool:
    """Whether quine recovery can be attempted at all."""
    return all(_recovery(n) is not None for n in ("same_tail_program", "inert_recovery_program",
                                                   "reader_recovery_program", "ErrorCounter"))


# -- the counter (§6.9) ---------------------------------------------------------------------------
def new_counter(limit: int) -> Any:
    """The lifecycle counter, or None when recovery is absent (then nothing is counted)."""
    cls = _recovery("ErrorCounter")
    return None if cls is None else cls(limit)


def new_frame(counter: Any) -> Any:
    return None if counter is None else counter.new_frame()


def record_success(counter: Any, frame: Any) -> None:
    if counter is not None and frame is not None:
        counter.record_success(frame)


def record_failure(counter: Any, frame: Any, phase: str, message: str, handle: Any,
                   fault: Any = None) -> None:
    """Count one own failure; raises the typed ``:recovery-exhausted`` at the limit."""
    if counter is None or frame is None:
        return
    try:
        counter.record_failure(frame, phase, message, handle=handle, fault=fault)
    except TypeError:
        counter.record_failure(frame, phase, message, handle=handle)


def counter_value(counter: Any) -> int:
    return 0 if counter is None else int(getattr(counter, "count", 0))


def validate_max_consecutive_errors(value: Any) -> int:
    """§6.9: a positive integer, else the typed ``:invalid-max-consecutive-errors``."""
    fn = _recovery("validate_max_consecutive_errors")
    if fn is not None:
        return int(fn(value))
    if type(value) is int and value > 0:
        return value
    raise ControlError(INVALID_LIMIT, spell_map(K_TYPE, Keyword("invalid-max-consecutive-errors"),
                                                Keyword("option"), Keyword("max-consecutive-errors"),
                                                Keyword("value"), value))


# -- classification and gating (§9) ---------------------------------------------------------------
def classify(error: Any, effect_namespaces: Collection[str] = ()) -> Any:
    """The ``Fault`` of a failure (None when classification is absent: treated as a document fault).

    ``effect_namespaces`` adds the agent's own namespace names (aliases such as ``files``) to
    the standard ones, so failures of their functions are judged as effect failures.
    """
    fn = _recovery("classify")
    if fn is None:
        return None
    standard = _recovery("DEFAULT_EFFECT_NAMESPACES") or frozenset()
    return fn(error, effect_namespaces=frozenset(standard) | frozenset(effect_namespaces))


def should_recover(fault: Any, recover_unknown: bool, counter: Any) -> bool:
    """§9.3: may this failure be sent back to the model (and counted)?"""
    if fault is None:
        return True
    fn = _recovery("should_recover")
    if fn is None:
        return getattr(fault, "verdict", "document") == "document"
    return bool(fn(fault, recover_unknown, counter_value(counter) > 0))


def stamp(data: Optional[SpellMap], fault: Any) -> SpellMap:
    """``data`` with ``:spell/fault``/``:spell/reason`` (an existing verdict is kept)."""
    base = data if data is not None else SpellMap()
    if fault is None or base.get(K_REASON) is not None:
        return base
    return base.assoc(K_FAULT, Keyword(fault.verdict)).assoc(K_REASON, Keyword(fault.reason))


# -- program rewriting (§6.3–§6.6) ----------------------------------------------------------------
def namespace_fixup(program: Any, result: SpellMap, namespaces: dict[str, SpellMap], effects_ran: bool) -> Any:
    fn = _recovery("namespace_fixup")
    if fn is None:
        return None
    return fn(program, result, namespaces, effects_ran=effects_ran)


def same_tail_program(program: Any, result: SpellMap, receive: bool, fault: Any) -> Any:
    fn = _recovery("same_tail_program")
    return None if fn is None else fn(program, result, receive, fault=fault)


def inert_recovery_program(program: Any, result: SpellMap, receive: bool, fault: Any) -> Any:
    fn = _recovery("inert_recovery_program")
    return None if fn is None else fn(program, result, receive, fault=fault)


def reader_recovery_program(raw_text: str, message: str, receive: bool, fault: Any) -> Any:
    fn = _recovery("reader_recovery_program")
    return None if fn is None else fn(raw_text, message, receive, fault=fault)
