"""Turning evaluator error texts into what recovery needs from them.

Two normalisations exist on purpose. ``clean_error_message`` (runtime.md §6.1)
produces the text the model reads in ``_error``: wrapper noise and rendered
exception data are removed but the explanation is kept whole.
``symbol_error`` (language.md §12.5) only has to find *which symbol* failed to
resolve, so it strips every ``Function call failed: <token>: `` wrapper and
keeps just the prefix and the symbol token; the trailing text and any data map
would otherwise be mistaken for part of the symbol.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Optional

FN_CALL_PREFIX: Final = "Function call failed: "
UNBOUND_PREFIX: Final = "Unbound symbol: "
NS_LOOKUP_PREFIX: Final = "Namespace lookup failed: "

_WRAPPER: Final = re.compile(r"Function call failed: [^\s:]+: ")
_TOKEN: Final = re.compile(r"[^\s)\]}{]*")


def clean_error_message(msg: str) -> str:
    """The model-facing text of an ``:err`` (runtime.md §6.1)."""
    s = msg[len(FN_CALL_PREFIX):] if msg.startswith(FN_CALL_PREFIX) else msg
    for prefix in (UNBOUND_PREFIX, NS_LOOKUP_PREFIX):
        idx = s.find(prefix)
        if idx >= 0:
            s = s[idx:]
            break
    idx = s.rfind(" {")
    if idx >= 0 and s.endswith("}"):
        s = s[:idx]
    return s


def normalize_symbol_message(msg: str) -> str:
    """The message reduced as language.md §12.5 step 1 says, e.g. ``Unbound symbol: trim``."""
    s = msg
    while True:
        m = _WRAPPER.match(s)
        if m is None:
            break
        s = s[m.end():]
    s = s.strip()
    for prefix in (UNBOUND_PREFIX, NS_LOOKUP_PREFIX):
        idx = s.find(prefix)
        if idx >= 0:
            rest = s[idx + len(prefix):]
            token = _TOKEN.match(rest)
            return prefix + (token.group() if token is not None else "")
    return s


@dataclass(frozen=True)
class SymbolError:
    """A resolution failure that namespace fixup may repair.

    ``text`` is the symbol exactly as the message names it (``trim`` or
    ``strings/floor``); ``member`` is the name to look for in namespace maps
    (its last path segment).
    """

    qualified: bool
    text: str
    member: str


def symbol_error(msg: str) -> Optional[SymbolError]:
    """The unbound or misqualified symbol named by an error message, if any."""
    m = normalize_symbol_message(msg)
    if m.startswith(UNBOUND_PREFIX):
        text = m[len(UNBOUND_PREFIX):]
        return SymbolError(False, text, text) if text else None
    if m.startswith(NS_LOOKUP_PREFIX):
        text = m[len(NS_LOOKUP_PREFIX):]
        parts = text.split("/")
        while parts and not parts[-1]:
            parts.pop()  # Java's split drops trailing empty parts
        member = parts[-1] if parts else ""
        return SymbolError(True, text, member) if member else None
    return None
