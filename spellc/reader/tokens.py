"""Symbol, keyword and literal-name tokens (Clojure's ``interpretToken``/``matchSymbol``).

A token is whatever the lexer collected up to whitespace or a terminating macro
character. Validity follows Clojure's ``symbolPat`` (no leading digit, no empty
name, no trailing ``:``, no inner ``::``), with Java's ``.`` that does not match
line terminators. Clojure 1.12's array-class symbols (``String/1``) are accepted.
``::k`` resolves against the reader's namespace, ``user`` (language.md A1).

Namespace splitting: ``a/b/c`` is namespace ``a/b``, name ``c`` (language.md §2.6,
nested paths of §12.2); a token ending in ``//`` names the symbol ``/`` in the
namespace before it (``clojure.core//``).
"""

from __future__ import annotations

import re
from typing import Any, Final, Optional

from spell_runtime.data.atoms import Keyword, Symbol

from .errors import ReadFailure

CURRENT_NS: Final = "user"

_NOT_LINE_END: Final = "[^\\n\\r\\x85\\u2028\\u2029]"
_SYMBOL: Final = re.compile("(:?)([^0-9/]" + _NOT_LINE_END + "*/)?(/|[^0-9/][^/]*)", re.S)
_ARRAY_SYMBOL: Final = re.compile(r"([^ \t\n\x0b\x0c\r/]+)/([1-9])")

# Token text → value. Tokens mean the same thing everywhere (symbols and keywords are interned),
# so the reader loop looks here first and only calls interpret_token for new tokens.
TOKEN_CACHE: dict[str, Any] = {"nil": None, "true": True, "false": False}
_CACHE_LIMIT: Final = 200_000


def split_name(text: str) -> tuple[Optional[str], str]:
    """(namespace, name) of a valid symbol text."""
    if text == "/" or "/" not in text:
        return None, text
    if text.endswith("//"):
        return text[:-2], "/"
    idx = text.rfind("/")
    return text[:idx], text[idx + 1:]


def _match_symbol(s: str) -> Any:
    m = _SYMBOL.fullmatch(s)
    if m is None:
        a = _ARRAY_SYMBOL.fullmatch(s)
        if a is not None:
            return Symbol(a.group(2), a.group(1))
        raise ReadFailure("Invalid token: " + s)
    ns = m.group(2)
    name = m.group(3)
    if (ns is not None and ns.endswith(":/")) or name.endswith(":") or s.find("::", 1) != -1:
        raise ReadFailure("Invalid token: " + s)
    if s.startswith("::"):
        ks_ns, ks_name = split_name(s[2:])
        if ks_ns is not None:  # ::alias/name, and no aliases exist
            raise ReadFailure("Invalid token: " + s)
        return Keyword(ks_name, CURRENT_NS)
    if s[0] == ":":
        kns, kname = split_name(s[1:])
        return Keyword(kname, kns)
    sns, sname = split_name(s)
    return Symbol(sname, sns)


_MISSING: Final[Any] = object()
_DIGITS: Final = "0123456789"


def interpret_token(s: str) -> Any:
    """nil, a boolean, a symbol or a keyword; ``ReadFailure("Invalid token: <s>")`` otherwise."""
    value = TOKEN_CACHE.get(s, _MISSING)  # no KeyError raised per new token (the reader loop just missed)
    if value is not _MISSING:
        return value
    if s and ":" not in s and "/" not in s and s[0] not in _DIGITS:
        # A plain symbol, most new tokens of a cold read: the symbol pattern would match it whole as a
        # name without namespace, and no colon rule can refuse it (issue 12: ~0.4 ms of compile-300's
        # cold read; tests/spellc/reader/test_reader_tokens.py checks it against the full rules).
        value = Symbol(s)
    else:
        value = _match_symbol(s)
    if len(TOKEN_CACHE) >= _CACHE_LIMIT:
        TOKEN_CACHE.clear()
        TOKEN_CACHE.update(nil=None, true=True, false=False)
    TOKEN_CACHE[s] = value
    return value
