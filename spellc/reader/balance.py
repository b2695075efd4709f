"""Paren counting for truncated model completions (language.md §2.4).

A completion often stops before its last closers; the runtime appends them before
reading. Only ``(``/``)`` are counted, outside string literals and ``;`` comments,
exactly as the reference does, so a bracket mismatch still surfaces as a reader
error instead of being papered over.
"""

from __future__ import annotations

import re
from typing import Final

_OUTSIDE: Final = re.compile(r'[()";]')
_INSIDE: Final = re.compile(r'["\\]')


def paren_balance(s: str) -> int:
    """Number of ``(`` minus number of ``)`` outside strings and ``;`` comments."""
    return paren_scan(s)[0]


def paren_scan(s: str) -> tuple[int, bool]:
    """(``paren_balance(s)``, whether ``s`` ends outside any string literal and comment).

    A text that ends outside both leaves the count of whatever follows it unaffected, so
    ``paren_balance(a + b) == paren_balance(a) + paren_balance(b)`` whenever ``a`` ends clean:
    the incremental reader (``reader.resume``) counts only the model's response.
    """
    n = 0
    pos = 0
    length = len(s)
    outside = _OUTSIDE.search
    inside = _INSIDE.search
    while True:
        m = outside(s, pos)
        if m is None:
            return n, True
        c = m.group()
        pos = m.end()
        if c == "(":
            n += 1
        elif c == ")":
            n -= 1
        elif c == ";":
            nl = s.find("\n", pos)
            if nl < 0:
                return n, False
            pos = nl + 1
        else:  # a string literal: skip to its closing quote, honouring escapes
            while True:
                q = inside(s, pos)
                if q is None:
                    return n, False
                pos = q.end()
                if q.group() == '"':
                    break
                pos += 1
                if pos > length:
                    return n, False


def balance_parens(s: str) -> str:
    """``s`` plus a newline and the missing ``)``s; the newline keeps a trailing ``;`` comment from eating them."""
    balance = paren_balance(s)
    if balance > 0:
        return s + "\n" + ")" * balance
    return s
