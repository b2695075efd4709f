"""Validation of ``:max-consecutive-errors`` (runtime.md §6.9).

An invalid limit is a configuration mistake, not a model failure, so it is
raised as a typed exception before any model call. Only a positive long is
accepted: ``nil`` and ``false`` do not mean "use the default", ``1.5`` is not
rounded and ``"3"`` is not parsed, because silently accepting them would hide a
broken profile.
"""

from __future__ import annotations

from typing import Any, Final

from spell_runtime.data import Keyword, spell_map
from spell_runtime.errors import ControlError

from .prompt import INVALID_LIMIT_MESSAGE

DEFAULT_MAX_CONSECUTIVE_ERRORS: Final = 3

K_TYPE: Final = Keyword("type")
K_OPTION: Final = Keyword("option")
K_VALUE: Final = Keyword("value")
INVALID_LIMIT_TYPE: Final = Keyword("invalid-max-consecutive-errors")
OPTION_NAME: Final = Keyword("max-consecutive-errors")


def validate_max_consecutive_errors(value: Any) -> int:
    """``value`` itself when it is a positive integer; otherwise the typed error with the exact data."""
    if type(value) is int and value > 0:
        return value
    raise ControlError(INVALID_LIMIT_MESSAGE,
                       spell_map(K_TYPE, INVALID_LIMIT_TYPE, K_OPTION, OPTION_NAME, K_VALUE, value))
