"""The regular expressions that cut Spell text into tokens.

One expression, ``NEXT``, skips whitespace, commas and ``;`` comments and then
recognizes the next token; its group number says what kind it is, so the reader
loop handles the common tokens (delimiters, symbols, numbers, plain strings)
without calling out. Token boundaries follow Clojure's ``readToken`` and
``readNumber``: a symbol runs until whitespace or a *terminating* macro
character (so ``a#b'c`` is one symbol), a number until whitespace or *any* macro
character. ``\\d`` in a ``str`` pattern is Unicode ``Nd``, which is exactly Java's
``Character.isDigit``.
"""

from __future__ import annotations

import re
from typing import Final

from .chars import MACRO_CLASS, TERM_CLASS, WS_CLASS

TOKEN_BODY: Final = "(?:[+\\-](?!\\d)|[^" + WS_CLASS + MACRO_CLASS + "\\d+\\-])[^" + WS_CLASS + TERM_CLASS + "]*"

# Group numbers of NEXT.
DELIMITER: Final = 1
PLAIN_STRING: Final = 2  # the body of a string without backslashes
TOKEN: Final = 3  # symbol, keyword, nil, true, false
NUMBER: Final = 4
MACRO_CHAR: Final = 5  # a reader-macro character (or the quote of a string with escapes)

NEXT: Final = re.compile(
    "(?:[" + WS_CLASS + "]|;[^\\n\\r]*)*+"
    "(?:([()\\[\\]{}])"
    '|"([^"\\\\]*)"'
    "|(" + TOKEN_BODY + ")"
    "|([+\\-]?\\d[^" + WS_CLASS + MACRO_CLASS + "]*)"
    "|(.))",
    re.S,
)
TAG_TOKEN: Final = re.compile(TOKEN_BODY, re.S)
PERCENT_TOKEN: Final = re.compile("%[^" + WS_CLASS + TERM_CLASS + "]*", re.S)
CHAR_TOKEN: Final = re.compile(".[^" + WS_CLASS + TERM_CLASS + "]*", re.S)
LINE_REST: Final = re.compile("[^\\n\\r]*")
