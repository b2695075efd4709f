"""A completion's balanced text and first form, reading only the response when it can (§5.2 steps 5–6).

``read_completion`` is what the turn loop calls instead of
``read_first(balance_parens(prefix + response))``: when the prefix is one
``render_prefix`` made (its checkpoint is remembered) it resumes the reader there,
otherwise — and whenever the resumed read fails, so errors keep their full-path
message and position — it reads in full. In checking mode every incremental result
is compared with the full read: the same text, and forms of the same types with the
same values and the same spans all the way down.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

from spell_runtime import gensym

from ...reader import balance_parens, read_first
from ...reader.resume import read_after
from .compare import first_difference
from .prefix import checkpoint_for
from .switches import IncrementalMismatch, checking, full_read


def read_completion(raw_text: str, prefix: Optional[str]) -> tuple[str, Any]:
    """(balanced text, first form) of the completion ``raw_text``, which starts with ``prefix``."""
    if prefix is not None and not full_read():
        cp = checkpoint_for(prefix)
        if cp is not None and raw_text.startswith(cp.text):
            counter = _gensym_state() if checking() else None
            got = read_after(cp, raw_text[len(cp.text):])
            if got is not None:
                if counter is not None:
                    _check(raw_text, got, counter)
                return got
    text = balance_parens(raw_text)
    return text, read_first(text)


def _gensym_state() -> Any:
    """A copy of the process gensym counter (``#(...)`` in a response draws from it)."""
    return copy.copy(gensym._counter)


def _check(raw_text: str, got: tuple[str, Any], counter: Any) -> None:
    """Compare with the full read, made from the gensym counter as the incremental read found it
    (then put back), so both draw the same ``%`` parameter numbers and the run's own sequence is
    unchanged. Debug mode only: another thread drawing gensyms meanwhile would be seen twice."""
    text = balance_parens(raw_text)
    if got[0] != text:
        raise IncrementalMismatch("incremental balanced text differs:\n%r\n%r" % (got[0], text))
    advanced = gensym._counter
    gensym._counter = counter
    try:
        full = read_first(text)
    finally:
        gensym._counter = advanced
    where = first_difference(got[1], full)
    if where is not None:
        raise IncrementalMismatch("incremental read differs from the full read at %s" % where)
