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

# The rarer tokens' expressions (tagged literals, ``%`` arguments, characters, ``#!`` lines) are
# compiled on first use by the module ``__getattr__`` below, which then binds them here, so later
# reads of ``lexer.TAG_TOKEN`` are plain attribute reads: compiling them with the reader cost every
# ``spellc eval`` about 2 ms (issue 12.4).
TAG_TOKEN: re.Pattern[str]
PERCENT_TOKEN: re.Pattern[str]
CHAR_TOKEN: re.Pattern[str]
LINE_REST: re.Pattern[str]

_LAZY: Final = {
    "TAG_TOKEN": (TOKEN_BODY, re.S),
    "PERCENT_TOKEN": ("%[^" + WS_CLASS + TERM_CLASS + "]*", re.S),
    "CHAR_TOKEN": (".[^" + WS_CLASS + TERM_CLASS + "]*", re.S),
    "LINE_REST": ("[^\\n\\r]*", 0),
}


def __getattr__(name: str) -> re.Pattern[str]:
    spec = _LAZY.get(name)
    if spec is None:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    pattern = re.compile(*spec)
    globals()[name] = pattern
    return pattern
