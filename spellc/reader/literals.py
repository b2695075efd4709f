"""String, character and regex literals, decoded as Clojure's reader decodes them.

Java strings are UTF-16, so a ``\\uXXXX`` escape yields one code unit; two escapes
forming a surrogate pair must become one Python character, and a lone surrogate
stays a lone surrogate. Error texts are the JVM's (language.md §2.9), including
the less common ones (``Invalid digit: 8`` for ``"\\18"``).
"""

from __future__ import annotations

import re
from typing import Final

from spell_runtime.data.atoms import Char
from spell_runtime.data.text import utf16_len

from .chars import MACROS, READER_WHITESPACE, is_java_digit, java_digit
from .errors import ReadFailure

_SIMPLE_ESCAPES: Final = {"t": "\t", "r": "\r", "n": "\n", "\\": "\\", '"': '"', "b": "\b", "f": "\f"}
_STRING_STOP: Final = re.compile(r'["\\]')
# Built with chr(): mypyc (spellc.native) cannot hold lone surrogates in a string literal.
_SURROGATE: Final = re.compile("[" + chr(0xD800) + "-" + chr(0xDFFF) + "]")
_JAVA_EOF_CHAR: Final = "\uffff"  # (char) -1, what Java prints for a missing character

CHAR_NAMES: Final = {
    "newline": "\n", "space": " ", "tab": "\t", "backspace": "\b", "formfeed": "\f", "return": "\r",
}


def _read_digits(text: str, i: int, first: str, base: int, length: int, exact: bool) -> tuple[int, int]:
    """Clojure's stream ``readUnicodeChar``: up to ``length`` digits, the first already read.

    Returns (value, index after the last digit consumed).
    """
    value = java_digit(first, base)
    if value == -1:
        raise ReadFailure("Invalid digit: " + first, i - 1)
    count = 1
    n = len(text)
    while count < length:
        if i >= n:
            break
        c = text[i]
        if c in READER_WHITESPACE or c in MACROS:
            break
        d = java_digit(c, base)
        if d == -1:
            raise ReadFailure("Invalid digit: " + c, i)
        value = value * base + d
        i += 1
        count += 1
    if count != length and exact:
        raise ReadFailure(f"Invalid character length: {count}, should be: {length}", i)
    return value, i


def read_string(text: str, start: int) -> tuple[str, int]:
    """The string whose opening quote is at ``start``; returns (value, index after the closing quote)."""
    parts: list[str] = []
    pos = start + 1
    n = len(text)
    surrogates = False
    search = _STRING_STOP.search
    while True:
        m = search(text, pos)
        if m is None:
            raise ReadFailure("EOF while reading string", n)
        i = m.start()
        if i > pos:
            parts.append(text[pos:i])
        if text[i] == '"':
            value = "".join(parts)
            if surrogates or _SURROGATE.search(value) is not None:
                value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
            return value, i + 1
        if i + 1 >= n:
            raise ReadFailure("EOF while reading string", n)
        c = text[i + 1]
        pos = i + 2
        simple = _SIMPLE_ESCAPES.get(c)
        if simple is not None:
            parts.append(simple)
        elif c == "u":
            first = text[pos] if pos < n else _JAVA_EOF_CHAR
            if java_digit(first, 16) == -1:
                raise ReadFailure("Invalid unicode escape: \\u" + first, pos)
            code, pos = _read_digits(text, pos + 1, first, 16, 4, True)
            if 0xD800 <= code <= 0xDFFF:
                surrogates = True
            parts.append(chr(code))
        elif is_java_digit(c):
            code, pos = _read_digits(text, pos, c, 8, 3, False)
            if code > 0o377:
                raise ReadFailure("Octal escape sequence must be in range [0, 377].", pos - 1)
            parts.append(chr(code))
        else:
            raise ReadFailure("Unsupported escape character: \\" + c, i)


def read_regex(text: str, start: int) -> tuple[str, int]:
    """The raw source of the regex whose opening quote is at ``start``, and the index after its end."""
    pos = start + 1
    n = len(text)
    search = _STRING_STOP.search
    while True:
        m = search(text, pos)
        if m is None:
            raise ReadFailure("EOF while reading regex", n)
        i = m.start()
        if text[i] == '"':
            return text[start + 1:i], i + 1
        if i + 1 >= n:
            raise ReadFailure("EOF while reading regex", n)
        pos = i + 2


def _token_digits(token: str, radix: int) -> int:
    value = 0
    for c in token[1:]:
        d = java_digit(c, radix)
        if d == -1:
            raise ReadFailure("Invalid digit: " + c)
        value = value * radix + d
    return value


def char_from_token(token: str) -> Char:
    """The character a ``\\token`` literal denotes (Clojure's ``CharacterReader``)."""
    if utf16_len(token) == 1:
        return Char(token)
    named = CHAR_NAMES.get(token)
    if named is not None:
        return Char(named)
    if token.startswith("u"):
        if len(token) != 5:
            raise ReadFailure("Invalid unicode character: \\" + token)
        code = _token_digits(token, 16)
        if 0xD800 <= code <= 0xDFFF:
            raise ReadFailure("Invalid character constant: \\u" + format(code, "x"))
        return Char(chr(code))
    if token.startswith("o"):
        length = len(token) - 1
        if length > 3:
            raise ReadFailure(f"Invalid octal escape sequence length: {length}")
        code = _token_digits(token, 8)
        if code > 0o377:
            raise ReadFailure("Octal escape sequence must be in range [0, 377].")
        return Char(chr(code))
    raise ReadFailure("Unsupported character: \\" + token)
