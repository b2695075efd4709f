"""The snapshot renderer is ``render_form(value_form(v))`` (runtime.md §4.3), measured in UTF-16 and capped."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snapshot_values import data_values, kw, lines, smap, units
from spell_runtime.data import LineVector, SpellFn, SpellSet, keyword, plist, symbol, vec
from spell_runtime.data.atoms import Char, Pattern
from spell_runtime.errors import HostError
from spell_runtime.printer import render_form
from spell_runtime.snapshot import render
from spell_runtime.snapshot.backend import core
from spell_runtime.valueform import value_form


def reference(v: Any) -> str:
    return render_form(value_form(v))


@settings(max_examples=300, deadline=None)
@given(data_values)
def test_render_matches_the_printer(v: Any) -> None:
    assert render(v) == reference(v)


@settings(max_examples=300, deadline=None)
@given(data_values, st.integers(-4, 4) | st.integers(-400, 400))
def test_capped_length_is_exact_or_refused(v: Any, delta: int) -> None:
    full = units(reference(v))
    cap = max(0, full + delta)
    got = core.rendered_length(v, cap)
    assert got == (full if full <= cap else -1)
    assert core.rendered_length(v, -1) == full


@pytest.mark.parametrize("v", [
    symbol("a b"), symbol("x", "a b"), keyword("a b"), keyword("b", "n s"), symbol("nil"),
    smap(symbol("k"), vec([symbol("s")])),                     # literal keys, value needs a form
    smap(vec([symbol("s")]), 1),                                # literal collection key
    smap(keyword("a b"), 1),                                    # a key with no literal spelling
    SpellSet.from_items([keyword("a b"), 1]),
    plist([keyword("a b"), plist([1])]),
    smap(kw("out"), lines(["a", "b"], 3), kw("n"), 2),
    LineVector(vec(["a", "g", "b"]), ((1, 1), (None, 1), (9, 1))),
    LineVector(vec([]), ((4, 0),)),
    LineVector(vec(["a", "b", "c"]), ((2, 1),)),                # rows past the segments have no line
    plist([symbol("first-line"), 1, vec(["x"])]),               # quoted data shaped like a first-line form
    SpellFn(vec([symbol("x")]), plist([plist([symbol("first-line"), 3, vec(["r"])]), smap(kw("a"), 1)])),
    smap(kw("fn", "spell"), True, kw("params"), 1),  # function-flagged, not a function
    vec([Char("a"), Char("\n"), 1.5, float("inf"), float("nan")]),
    "quote \" back \\ nl \n tab \t cr \r ff \f bs \b nul \x00 é 😀",
    smap(), vec(), plist([]), SpellSet.from_items([]),
])
def test_render_matches_the_printer_on_tricky_values(v: Any) -> None:
    assert render(v) == reference(v)


def test_first_line_layout() -> None:
    assert render(smap(kw("out"), lines(["a", "b"], 41), kw("n"), 2)) == (
        '{:out (first-line 41 [\n "a" ; 41\n "b" ; 42\n]) :n 2}')


def test_unrepresentable_values_raise_like_value_form() -> None:
    with pytest.raises(HostError, match="Value has no ordinary source representation"):
        render(Pattern("a+"))
    with pytest.raises(HostError, match="Value has no ordinary source representation"):
        render(vec([object()]))


def test_utf16_lengths() -> None:
    assert core.rendered_length("😀", -1) == 4
    assert core.rendered_length(keyword("😀"), -1) == 3
    assert core.rendered_length("a\nb", 6) == 6
    assert core.rendered_length("a\nb", 5) == -1
    assert core.rendered_length(vec(["a\nb"]), 7) == -1
    assert core.rendered_length("x" * 10**7, 100) == -1


def test_deep_function_body_renders_without_recursion_limits() -> None:
    body: Any = symbol("x")
    for _ in range(3000):
        body = plist([symbol("inc"), body])
    fn = SpellFn(vec([symbol("x")]), plist([body]))
    text = render(fn)
    assert text == reference(fn)
    assert text.startswith("(fn [x] (inc (inc") and text.endswith("x" + ")" * 3001)
