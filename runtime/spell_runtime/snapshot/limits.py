"""Display limits: the run default, validation and the 120 % grace (runtime.md §4.2).

A limit is a *target* in UTF-16 units per displayed value. Only integers of at
least 128 are meaningful targets — a boolean, a float or a tiny number is a
mistake, reported with the product text and the typed data of the spec so that
``run`` can refuse a bad ``:context-max-chars`` before anything executes.
"""

from __future__ import annotations

from typing import Any, Final

from ..data.atoms import BigInt, Keyword
from ..data.hashmap import spell_map
from ..errors import ControlError

DEFAULT_LIMIT: Final = 10000
"""The run default of ``:context-max-chars``."""

MIN_LIMIT: Final = 128

LIMIT_MESSAGE: Final = "Context character limit must be an integer of at least 128"

K_TYPE: Final = Keyword("type")
K_INVALID: Final = Keyword("invalid-context-limit")
K_MAX_CHARS: Final = Keyword("max-chars")


def check_limit(value: Any) -> int:
    """``value`` as a limit; ``ControlError`` with ``{:type :invalid-context-limit :max-chars v}`` otherwise."""
    t = type(value)
    if (t is int or t is BigInt) and value >= MIN_LIMIT:
        return int(value)
    raise ControlError(LIMIT_MESSAGE, spell_map(K_TYPE, K_INVALID, K_MAX_CHARS, value))


def effective_limit(limit: Any = None, run_default: Any = DEFAULT_LIMIT) -> int:
    """The target for one output: ``limit``, or the run default when ``limit`` is nil (both validated)."""
    default = check_limit(DEFAULT_LIMIT if run_default is None else run_default)
    return default if limit is None else check_limit(limit)


def grace(limit: int) -> int:
    """``quot(limit * 6, 5)``: a value whose whole rendering is at most this long is shown unchanged."""
    return (limit * 6) // 5
