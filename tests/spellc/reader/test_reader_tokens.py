"""``interpret_token`` reads a plain symbol (no colon, no slash, no leading digit) without the
symbol pattern (a cold read meets hundreds of new ones): for any token text it must give exactly
what the full symbol rules (``_match_symbol``) give, the same symbol or the same error."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from spellc.reader.errors import ReadFailure
from spellc.reader.tokens import TOKEN_CACHE, _match_symbol, interpret_token

TOKEN_CHARS = "ab-*+!?<>=._:/#'0123456789\u0663\u00e9"


def _outcome(read: Any, text: str) -> tuple[str, Any]:
    try:
        return "ok", read(text)
    except ReadFailure as e:
        return "error", str(e)


@given(st.text(alphabet=st.sampled_from(TOKEN_CHARS), min_size=1, max_size=8) | st.text(min_size=1, max_size=6))
def test_a_new_token_reads_as_the_symbol_rules_say(text: str) -> None:
    if text in ("nil", "true", "false"):
        return
    TOKEN_CACHE.pop(text, None)  # a new token, as in a fresh process
    expected = _outcome(_match_symbol, text)
    assert _outcome(interpret_token, text) == expected
    if expected[0] == "ok":
        assert TOKEN_CACHE[text] is expected[1]


def test_plain_and_other_tokens() -> None:
    for text in ["x", "-", "..", "a.b", "\u0663x", "x'", "\u00e9"]:
        TOKEN_CACHE.pop(text, None)
        assert interpret_token(text) is _match_symbol(text)
    for text in ["1x", ":k", "a/b", "a:", "::k", "a::b", "/", "a//"]:
        TOKEN_CACHE.pop(text, None)
        assert _outcome(interpret_token, text) == _outcome(_match_symbol, text)
