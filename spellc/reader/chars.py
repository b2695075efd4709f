"""Java's character classes, as the Clojure reader sees them.

Python's ``str.isspace`` and ``\\s`` disagree with ``Character.isWhitespace``
(Python counts U+0085, U+00A0, U+2007 and U+202F; Java does not), and the
reader's notions of "macro" and "terminating macro" characters decide where a
token ends. Keeping the exact sets here lets the lexer's regular expressions and
the slow paths agree character for character with the reference.
"""

from __future__ import annotations

import unicodedata
from typing import Final

# Character.isWhitespace: Zs/Zl/Zp minus the no-break spaces, plus \t \n \v \f \r and \x1c-\x1f.
JAVA_WHITESPACE: Final = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)
# The reader also treats the comma as whitespace.
READER_WHITESPACE: Final = JAVA_WHITESPACE | {","}

# Regex character-class bodies for the same sets (used inside [...]).
WS_CLASS: Final = (
    "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\u1680\\u2000-\\u2006\\u2008-\\u200a\\u2028\\u2029\\u205f\\u3000,"
)
# Characters with a reader macro; `#`, `'` and `%` do not end a token.
MACROS: Final = frozenset("\";'@^`~()[]{}\\%#")
TERMINATING: Final = MACROS - {"#", "'", "%"}
MACRO_CLASS: Final = "\";'@^`~()\\[\\]{}\\\\%#"
TERM_CLASS: Final = "\";@^`~()\\[\\]{}\\\\"


def is_java_digit(c: str) -> bool:
    """``Character.isDigit``: any Unicode decimal digit (category Nd)."""
    return c.isdecimal()


def java_digit(c: str, radix: int) -> int:
    """``Character.digit(c, radix)``: the digit's value, or -1 when it is none in that radix."""
    o = ord(c)
    if 0x30 <= o <= 0x39:
        value = o - 0x30
    elif 0x61 <= o <= 0x7A:
        value = o - 0x61 + 10
    elif 0x41 <= o <= 0x5A:
        value = o - 0x41 + 10
    elif 0xFF21 <= o <= 0xFF3A:  # fullwidth A-Z
        value = o - 0xFF21 + 10
    elif 0xFF41 <= o <= 0xFF5A:  # fullwidth a-z
        value = o - 0xFF41 + 10
    else:
        value = unicodedata.decimal(c, -1)
        if value < 0:
            return -1
    return value if value < radix else -1
