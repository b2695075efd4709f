"""The ``pr-str`` builtin (language.md §5): readable text of its arguments joined by spaces.

``str``/``cat`` live with the other string builtins; they share ``display_str``
from ``spell_runtime.printer``.
"""

from __future__ import annotations

from typing import Any

from ..printer import pr_str
from .registry import builtin


@builtin("pr-str")
def pr_str_builtin(*xs: Any) -> str:
    """``(pr-str a b c)``: the readable forms of the arguments separated by single spaces."""
    return " ".join([pr_str(x) for x in xs])
