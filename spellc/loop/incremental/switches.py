"""Two switches for the incremental turn path, read from the environment at each use.

``SPELLC_FULL_TURNS=1`` makes every turn render, read and evaluate its completion in
full — no reader checkpoint, no replayed definitions (``spell_runtime.replay`` reads
the same variable) — the path the incremental one must equal; the scenario comparison
test runs both.
``SPELLC_CHECK_INCREMENTAL=1`` does the full read as well after every incremental one
and raises ``IncrementalMismatch`` when they differ in text, forms, types or spans —
the debug mode the test suite runs with (tests/conftest.py).
"""

from __future__ import annotations

import os
from typing import Final

from spell_runtime.errors import ControlError

FULL_TURNS_VAR: Final = "SPELLC_FULL_TURNS"
CHECK_VAR: Final = "SPELLC_CHECK_INCREMENTAL"


class IncrementalMismatch(ControlError):
    """An incremental read or render differed from the full path: a bug in spellc, never the model's,
    so it is a typed exception that ends the run instead of a failure recovery would hand the model."""


def _on(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def full_read() -> bool:
    """True when the incremental path is switched off."""
    return _on(FULL_TURNS_VAR)


def checking() -> bool:
    """True when every incremental result is checked against the full path."""
    return _on(CHECK_VAR)
