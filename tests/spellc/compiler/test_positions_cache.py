"""Compiled units are cached, but never across places: positions are compiled into the code."""

from __future__ import annotations

import pytest

import spellc

LOOP = "(loop [i 5] (recur (quot 10 (dec i))))"


def _position(source: str) -> tuple[int, int, int, int] | None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(source)
    return info.value.position


def test_the_same_text_at_another_line_reports_its_own_line() -> None:
    first = _position(LOOP)
    later = _position("(def a 1)\n(def b 2)\n  " + LOOP)
    assert first is not None and later is not None
    assert first[0] == 1 and later[0] == 3
    assert later[1] == first[1] + 2  # the same call, two columns further right

