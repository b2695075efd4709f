"""The consecutive-error limit and its per-completion frames (runtime.md §6.9).

The counter belongs to an agent lifecycle, not to a completion, so a chain of
repairs shares it; each completion evaluation gets a *frame* so that one
completion is counted at most once however many ways it fails (reader, then
its repair's evaluation...) and resets the count at most once. A successful
handoff to a child resets the streak, which is why distinct repaired mistakes
never exhaust the limit while the same unrepaired one does.

The limit is checked right after counting and *before* the caller dispatches a
repair, so the Nth failure costs no further model call.
"""

from __future__ import annotations

import enum
import threading
from typing import TYPE_CHECKING, Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap
from spell_runtime.errors import ControlError

from .limit import validate_max_consecutive_errors
from .prompt import LIMIT_MESSAGE
from .vocab import K_FAULT, K_REASON_QUALIFIED, K_TYPE

if TYPE_CHECKING:
    from .faults import Fault

PHASES: Final = frozenset({"reader", "eval"})

K_PHASE: Final = Keyword("phase")
K_CONSECUTIVE: Final = Keyword("consecutive-errors")
K_ATTEMPTS: Final = Keyword("attempts")
K_LIMIT: Final = Keyword("limit")
K_MAX: Final = Keyword("max-consecutive-errors")
K_HANDLE: Final = Keyword("handle")
K_PARSE_ERROR: Final = Keyword("parse-error")
K_ERROR: Final = Keyword("error")
EXHAUSTED: Final = Keyword("recovery-exhausted")


class FrameState(enum.Enum):
    OPEN = "open"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class Frame:
    """One completion evaluation's standing towards the counter."""

    __slots__ = ("state",)

    def __init__(self) -> None:
        self.state = FrameState.OPEN

    def __repr__(self) -> str:
        return "Frame(%s)" % self.state.value


class ErrorCounter:
    """Consecutive own failures of one agent lifecycle, raising ``:recovery-exhausted`` at the limit."""

    def __init__(self, limit: int) -> None:
        self._limit = validate_max_consecutive_errors(limit)
        self._count = 0
        self._lock = threading.Lock()

    @property
    def limit(self) -> int:
        return self._limit

    @property
    def count(self) -> int:
        return self._count

    def new_frame(self) -> Frame:
        """A frame for a completion about to be evaluated (a repair completion gets its own)."""
        return Frame()

    def reset(self) -> None:
        """Start a new lifecycle generation (a revived agent, a new run) at 0."""
        with self._lock:
            self._count = 0

    def record_success(self, frame: Frame) -> None:
        """The completion succeeded or handed off to a child: reset, once per frame, only if still open."""
        with self._lock:
            if frame.state is FrameState.OPEN:
                frame.state = FrameState.SUCCEEDED
                self._count = 0

    def record_failure(self, frame: Frame, phase: str, message: Optional[str] = None, handle: Any = None, *,
                       fault: Optional[Fault] = None) -> None:
        """Count the completion's own failure (once per frame) and raise if the limit is reached.

        ``message`` is the raw reader message or raw ``:err`` (not cleaned);
        ``fault`` is the verdict of this failure, carried by the exhaustion (§9.4).
        A frame that already succeeded (it handed off) still counts a later own failure.
        """
        if phase not in PHASES:
            raise ValueError(f"phase must be 'reader' or 'eval', not {phase!r}")
        with self._lock:
            if frame.state is FrameState.FAILED:
                return
            frame.state = FrameState.FAILED
            self._count += 1
            count = self._count
        if count >= self._limit:
            raise ControlError(LIMIT_MESSAGE % (self._limit, phase),
                               exhaustion_data(phase, count, self._limit, handle, message, fault))


def exhaustion_data(phase: str, count: int, limit: int, handle: Any, message: Optional[str],
                    fault: Optional[Fault]) -> SpellMap:
    """The data map of ``:recovery-exhausted`` in the spec's key order."""
    pairs: list[tuple[Any, Any]] = [
        (K_TYPE, EXHAUSTED), (K_PHASE, Keyword(phase)), (K_CONSECUTIVE, count), (K_ATTEMPTS, count),
        (K_LIMIT, limit), (K_MAX, limit), (K_HANDLE, handle),
    ]
    if message is not None:
        pairs.append((K_PARSE_ERROR if phase == "reader" else K_ERROR, message))
    if fault is not None:
        pairs.append((K_FAULT, fault.verdict_keyword))
        pairs.append((K_REASON_QUALIFIED, EXHAUSTED))
    return SpellMap.from_pairs(pairs)
