"""Compile caches hand out a compiled unit only where its compiled positions are right (``compiler.places``).

Each case compiles the same text at two places in one process, the first place running without
error, the second failing: the failure must name the second place (position, and the call sites of
its trace), with optimisations on and off. Before the fix, a macro's second expansion, a second fn
built as data, a second stale body and a long body's second identical element each reused the
first place's compiled unit and reported the first place.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from spell_runtime.data import Symbol, plist
from spell_runtime.errors import SpellError

import spellc
import spellc.api
from spellc import state
from spellc.analyze import bound
from spellc.compiler import optimisations, run_form
from spellc.compiler.places import place_key, places_of
from spellc.reader import read_all


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    was = set(bound.BOUND)
    state.reset_caches()
    yield
    state.reset_caches()  # units compiled while a core name was bound must not outlive the binding
    bound.BOUND.clear()
    bound.BOUND.update(was)


def span_at(text: str, line: int, piece: str, nth: int = 1) -> tuple[int, int, int, int]:
    """The span (line, 0-based column, end line, end column) of the ``nth`` ``piece`` on ``line``."""
    row = text.split("\n")[line - 1]
    col = -1
    for _ in range(nth):
        col = row.index(piece, col + 1)
    return (line, col, line, col + len(piece))


def failure(text: str) -> tuple[Any, Any, list[Any]]:
    """(position, expr, the call sites of the trace) of the program's failure."""
    with pytest.raises(SpellError) as info:
        spellc.eval_string(text, "<p>")
    e = info.value
    return e.position, spellc.pr_str(e.expr), [(spellc.pr_str(f.head), f.position) for f in e.frames or []]


def both_ways(text: str) -> list[tuple[Any, Any, list[Any]]]:
    out = []
    for on in (True, False):
        with optimisations(on):
            out.append(failure(text))
    return out


def test_a_second_expansion_of_a_macro_fails_at_its_own_place() -> None:
    # the unit cache: both expansions are the text (do (g y)), neither has a span of its own
    text = ("(defn g [v] (+ 1 v))\n(defmacro m [v] (list 'do v))\n(def y 1)\n(defn f [x]\n"
            "  (m (g y)) (def y :a) (m (g y)))\n(f 1)")
    expected = (span_at(text, 1, "(+ 1 v)"), "(+ 1 v)",
                [("g", span_at(text, 5, "(g y)", 2)), ("f", span_at(text, 6, "(f 1)"))])
    assert both_ways(text) == [expected, expected]


def test_a_failing_expansion_at_its_own_place_without_a_call() -> None:
    text = "(defmacro m [v] (list 'do v))\n(def y 1)\n(defn f [x]\n  (m (+ x y)) (def y :a) (m (+ x y)))\n(f 1)"
    expected = (span_at(text, 4, "(+ x y)", 2), "(+ x y)", [("f", span_at(text, 5, "(f 1)"))])
    assert both_ways(text) == [expected, expected]


def test_a_second_fn_built_as_data_fails_at_its_own_place() -> None:
    # the fn cache: both bodies are compiled from the printed text of (fn [x] (+ x :a))
    text = ("(def f '{:spell/fn true :params [x] :body ((+ x :a))})\n"
            "(def g\n  '{:spell/fn true :params [x] :body ((+ x :a))})\n"
            "(try (f 1) (catch e nil))\n(g 1)")
    expected = (span_at(text, 3, "(+ x :a)"), "(+ x :a)", [("g", span_at(text, 5, "(g 1)"))])
    assert both_ways(text) == [expected, expected]


def test_a_second_stale_body_fails_at_its_own_place() -> None:
    # the fn cache again: binding a core name moves the epoch, and both bodies are compiled anew
    # from their fn forms, which print alike
    text = ("(def f (fn [x] (+ x :a)))\n(def g\n  (fn [x] (+ x :a)))\n(def inc (fn [x] x))\n"
            "(try (f 1) (catch e nil))\n(g 1)")
    expected = (span_at(text, 3, "(+ x :a)"), "(+ x :a)", [("g", span_at(text, 6, "(g 1)"))])
    assert both_ways(text) == [expected, expected]


def test_a_second_identical_element_of_a_long_body_fails_at_its_own_place() -> None:
    # the sub-unit cache: a long body's leading elements are units cached by their source text
    text = "(do (def y 1) (+ 1 y) 1 2 3 4 5 6\n  (def y :a) (+ 1 y) 7)"
    for on in (True, False):
        with optimisations(on):
            D = spellc.api.new_env()
            with pytest.raises(SpellError) as info:
                run_form(D, read_all(text)[0], "<c>", text, incremental=True)
            assert info.value.position == span_at(text, 2, "(+ 1 y)")


def test_the_same_text_at_the_same_place_still_finds_its_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    # what the caches are for: a program evaluated again (the turn loop re-reads its program)
    from spellc import compiler

    text = "(defmacro m [v] (list 'do v))\n(defn f [x] (m (+ x 1)) (m (+ x 1)))\n(f 1)"
    assert spellc.eval_string(text, "<p>") == 2
    compiled = len(state.unit_cache)
    from spellc.analyze.analyzer import analyze_form as analyze

    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return analyze(*args, **kwargs)

    monkeypatch.setattr(compiler, "analyze_form", counted)
    assert spellc.eval_string(text, "<p>") == 2
    assert calls[0] == 0 and len(state.unit_cache) == compiled


def test_places_name_every_span_and_leave_quoted_data_out() -> None:
    first, second = read_all("[(f (g 1))]\n [(f (g 1))]")
    inner_a, inner_b = first[0], second[0]
    assert places_of(inner_a) and places_of(inner_a) != places_of(inner_b)
    expansion_a, expansion_b = plist([Symbol("do"), inner_a]), plist([Symbol("do"), inner_b])
    assert place_key(expansion_a, exact_text=False) != place_key(expansion_b, exact_text=False)
    # exact source text with a span: the span alone
    assert place_key(inner_a, exact_text=True) == (1, 1, 1, 10)
    quoted_a, quoted_b = read_all("'(!extend)\n  '(!extend)")
    assert places_of(quoted_a) == places_of(quoted_b) == ()


def test_a_bare_symbol_element_of_a_long_body_fails_at_its_own_place() -> None:
    # a symbol element is a sub-unit without a span of its own, shared by every place (symbols are
    # interned): its failure was placed at line 1, column 0, first place or not; a short body (the
    # element evaluated inline) always gave its place
    bound_first = "(do (def y 1) y 1 2 3 4 5 6 7)"
    long_body = "(do 0 1 2 3\n   y 4 5 6 7 8)"
    wrapper = "(quine completion (eval (do 0 1 2 3 4 5 6 7\n%sy)))"
    for on in (True, False):
        with optimisations(on):
            for text in (long_body, long_body, "(do 0 1\n   y 4)"):
                run_form(spellc.api.new_env(), read_all(bound_first)[0], "<c>", bound_first, incremental=True)
                with pytest.raises(SpellError) as info:
                    run_form(spellc.api.new_env(), read_all(text)[0], "<c>", text, incremental=True)
                assert (info.value.message, info.value.position) == ("Unbound symbol: y", (2, 3, 2, 4))
            for indent in ("  ", "   ", "   "):  # the same shape twice: the second is a template's instance
                text = wrapper % indent
                with pytest.raises(SpellError) as info:
                    run_form(spellc.api.new_env(), read_all(text)[0], "<c>", text, incremental=True)
                assert info.value.position == (2, len(indent), 2, len(indent) + 1)
