"""Reader recovery (runtime.md §6.6).

Text that cannot be read has no forms to keep, so the failed completion is
embedded as a string: once as an inert quine argument (what ``(prune 2)``
removes later) and once under ``:raw`` in ``_error`` so the model sees it next
to the reader's message. The rest mirrors inert recovery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from spell_runtime.data import PList, SpellMap, plist

from .forms import fresh_program, prune_marker, reason_entry, recovery_context
from .prompt import READER_ERROR_PREFIX, UNKNOWN_READER_ERROR
from .vocab import K_ERROR, K_RAW, S_COMPLETION, S_QUINE

if TYPE_CHECKING:
    from .faults import Fault


def reader_error_text(reader_message: Optional[str]) -> str:
    """``Reader error: <message>`` (``Unknown reader error`` when the reader gave none)."""
    return READER_ERROR_PREFIX + (reader_message or UNKNOWN_READER_ERROR)


def reader_recovery_program(raw_text: str, reader_message: Optional[str], receive: bool,
                            fault: Optional[Fault] = None) -> PList:
    """The recovery program for unreadable text; ``raw_text`` is the balanced completion the reader saw."""
    pairs: list[tuple[Any, Any]] = [(K_ERROR, reader_error_text(reader_message)), (K_RAW, raw_text)]
    if fault is not None:
        pairs.append(reason_entry(fault))
    error = SpellMap.from_pairs(pairs)
    return plist([S_QUINE, S_COMPLETION, raw_text, recovery_context(error), prune_marker(), fresh_program(receive)])
