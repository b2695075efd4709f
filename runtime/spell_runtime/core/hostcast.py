"""Host type-error texts for the numeric and string builtins (language.md §15.3, A7).

Class names and the ``ClassCastException`` layout come from ``hostnames`` (the
one place that knows them); this module adds the numeric library's policy for
nil, where the JVM's null-pointer texts vary between versions and A7 asks for a
readable fixed text instead.
"""

from __future__ import annotations

from typing import Any, Final

from ..errors import HostError
from .hostnames import cast_message as _cast_message
from .hostnames import class_name

NIL_ARITHMETIC: Final = "Cannot perform arithmetic on nil"
"""The readable stand-in for the JVM's null-pointer text in numeric builtins (language.md A7)."""


def cast_message(x: Any, target: str) -> str:
    """``class X cannot be cast to class <target> (...)`` for the value ``x``."""
    return _cast_message(class_name(x), target)


def cast_error(x: Any, target: str) -> HostError:
    """The host error for using ``x`` where a ``target`` instance was required (nil gets A7's text)."""
    if x is None:
        if target == "java.lang.Number":
            return HostError(NIL_ARITHMETIC)
        simple = target.rsplit(".", 1)[-1]
        return HostError("Cannot use nil as %s %s" % ("an" if simple[:1] in "AEIOU" else "a", simple))
    return HostError(cast_message(x, target))


__all__ = ["NIL_ARITHMETIC", "cast_error", "cast_message", "class_name"]
