"""Small non-negative integers packed as text, one or two characters each (issue 12: built modules).

Built modules write their call-form spans and the Spell position of each in this form; it lives in a
module of its own, importing nothing, so both ``built_constants`` (which imports ``support``) and
``support`` (whose ``SpanTable`` decodes the positions) can use it without an import circle.
"""

from __future__ import annotations

_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
"""Base-32 digits of ``pack_numbers``: the first 32 end a number, the last 32 continue it."""
_DIGIT_VALUE = {c: i for i, c in enumerate(_DIGITS)}


def pack_numbers(numbers: list[int]) -> str:
    """Non-negative integers as base-32 digits, high first, one character each (under 32: one character,
    under 1024: two): a built module's call-form spans in about half the text of decimal numbers."""
    out: list[str] = []
    for n in numbers:
        groups = [n & 31]
        n >>= 5
        while n:
            groups.append(n & 31)
            n >>= 5
        out.extend(_DIGITS[32 + g] for g in reversed(groups[1:]))
        out.append(_DIGITS[groups[0]])
    return "".join(out)


def unpack_numbers(text: str) -> list[int]:
    """The numbers ``pack_numbers`` wrote."""
    numbers: list[int] = []
    acc = 0
    for c in text:
        v = _DIGIT_VALUE[c]
        if v < 32:
            numbers.append(acc * 32 + v)
            acc = 0
        else:
            acc = acc * 32 + v - 32
    return numbers


def zigzag(n: int) -> int:
    """A signed integer as a non-negative one (0, -1, 1, -2 … → 0, 1, 2, 3 …), for ``pack_numbers``."""
    return 2 * n if n >= 0 else -2 * n - 1


def unzigzag(n: int) -> int:
    """The signed integer ``zigzag`` packed."""
    return n // 2 if n % 2 == 0 else -(n + 1) // 2


__all__ = ["pack_numbers", "unpack_numbers", "zigzag", "unzigzag"]
