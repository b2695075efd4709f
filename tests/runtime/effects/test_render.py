"""Values quoted in effect messages print as Spell prints them, with or without the printer module."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data import BigInt, Char, Keyword, Symbol, plist, spell_map, vec
from spell_runtime.effects.render import _fallback_pr, pr, string_literal, text
from spell_runtime.printer import pr_str

VALUES: list[Any] = [None, True, False, 0, -7, 2.5, 1e20, 1e-7, float("inf"), "a\"b\n\t\\", Keyword("k"),
                     Keyword("x", "ns"), Symbol("sh", "io"), vec([1, "x", vec([])]),
                     spell_map(Keyword("a"), 1, "b", vec([2])), plist([1, plist([])]), BigInt(5), Char("c")]


@pytest.mark.parametrize("value", VALUES)
def test_fallback_agrees_with_the_printer(value: Any) -> None:
    assert _fallback_pr(value) == pr_str(value) == pr(value)


@given(st.text())
def test_string_literal_agrees_with_the_printer(s: str) -> None:
    assert string_literal(s) == pr_str(s)


def test_text_is_clojure_str() -> None:
    assert text(None) == "" and text("s") == "s" and text(Char("c")) == "c" and text(Keyword("k")) == ":k"
    assert text(BigInt(5)) == "5"
