"""The lexer's rarer expressions are compiled on first use (``spellc.reader.lexer.__getattr__``, issue 12.4)."""

from __future__ import annotations

import re

import pytest

import spellc
from spellc.reader import lexer


def test_rare_expressions_are_bound_once_and_match_like_their_patterns() -> None:
    for name in ("TAG_TOKEN", "PERCENT_TOKEN", "CHAR_TOKEN", "LINE_REST"):
        pattern = getattr(lexer, name)
        assert isinstance(pattern, re.Pattern)
        assert vars(lexer)[name] is pattern  # bound on the module: later reads are plain attribute reads
    assert lexer.CHAR_TOKEN.match("\\newline)", 1).group() == "newline"
    assert lexer.LINE_REST.match("!/usr/bin/env spellc\n(+ 1 2)").group() == "!/usr/bin/env spellc"


def test_unknown_names_are_still_attribute_errors() -> None:
    with pytest.raises(AttributeError):
        lexer.NO_SUCH_TOKEN  # noqa: B018


def test_the_tokens_they_cut_read_as_before() -> None:
    forms = spellc.read_all('\\a \\newline #(+ %1 %2) #inst "2020-01-02" #uuid "00000000-0000-0000-0000-000000000000"')
    assert [spellc.pr_str(f) for f in forms[:2]] == ["\\a", "\\newline"]
    assert re.fullmatch(r"\(fn\* \[(p1__\d+#) (p2__\d+#)\] \(\+ \1 \2\)\)", spellc.pr_str(forms[2]))
    assert len(forms) == 5
