"""Two switches for the incremental turn path, read from the environment at each use.

``SPELLC_FULL_READ=1`` makes every turn render and read its completion in full (the
path the incremental one must equal; the scenario comparison test runs both).
``SPELLC_CHECK_INCREMENTAL=1`` does the full read as well after every incremental one
and raises ``IncrementalMismatch`` when they differ in text, forms, types or spans —
the debug mode the test suite runs with (tests/conftest.py).
"""

from __future__ import annotations

import os
from typing import Final

FULL_READ_VAR: Final = "SPELLC_FULL_READ"
CHECK_VAR: Final = "SPELLC_CHECK_INCREMENTAL"


class IncrementalMismatch(AssertionError):
    """An incremental read or render differed from the full path (a bug in spellc, never the model's)."""


def _on(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def full_read() -> bool:
    """True when the incremental path is switched off."""
    return _on(FULL_READ_VAR)


def checking() -> bool:
    """True when every incremental result is checked against the full path."""
    return _on(CHECK_VAR)
