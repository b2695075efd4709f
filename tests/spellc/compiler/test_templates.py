"""Program templates (spellc.compiler.templates): a grown wrapper program reuses the code compiled
for the previous one, with its own constants, and behaves exactly like a program compiled whole."""

from __future__ import annotations

from typing import Any

import pytest
from spell_runtime.data import Keyword
from spell_runtime.errors_result import error_result
from spell_runtime.program import close_env

import spellc
from spellc import compiler
from spellc.api import new_env
from spellc.compiler import compile_unit, run_form, templates


def program(body: list[str]) -> str:
    return "(quine completion (eval (do %s)))" % " ".join(body)


BODY = ["(def v%d (* %d 2))" % (i, i) for i in range(9)]


def outcome(src: str, incremental: bool) -> Any:
    """The value, or the failure as (message, containing form, error map text without the env)."""
    D = new_env()
    try:
        value, _ = run_form(D, spellc.read_string(src), "<tpl>", src, incremental=incremental)
        return spellc.pr_str(value)
    except spellc.SpellError as e:
        result = error_result(e)
        return (e.message, spellc.pr_str(e.containing_form), spellc.pr_str(result.dissoc(Keyword("env"))))
    finally:
        close_env(D)


@pytest.fixture(autouse=True)
def fresh_templates() -> None:
    templates.clear()


def test_a_grown_program_reuses_the_code_of_the_previous_one() -> None:
    first = program(BODY + ["'(+ v1 v2)"])
    grown = program(BODY + ["(def w 40)", "'(+ w v1)"])
    unit_a = compile_unit(spellc.read_string(first), "<tpl>", first, incremental=True)
    unit_b = compile_unit(spellc.read_string(grown), "<tpl>", grown, incremental=True)
    assert unit_a is not unit_b
    assert unit_a.__code__ is unit_b.__code__  # type: ignore[attr-defined]
    assert outcome(grown, True) == outcome(grown, False) == "42"


def test_the_program_name_is_bound_to_the_new_program() -> None:
    first = program(BODY + ["'(count (nth (nth completion 2) 1))"])
    grown = program(BODY + ["(def x 1)", "'(count (nth (nth completion 2) 1))"])
    assert outcome(first, True) == outcome(first, False) == "11"
    assert outcome(grown, True) == outcome(grown, False) == "12"


@pytest.mark.parametrize("failing", [
    ["(def bad (undefined-fn 1))", "'(+ 1 2)"],  # an element fails: it is the containing form
    ["(undefined-fn 2)"],  # the trailing expression fails (the last sub-unit)
    ["'(nth [1] 5)"],  # the program's own (eval ...) call fails, in the template's frame
])
def test_failures_are_the_same_as_in_a_program_compiled_whole(failing: list[str]) -> None:
    warm = program(BODY + ["'1"])
    assert outcome(warm, True) == "1"  # the shape's template now exists
    src = program(BODY + failing)
    got = outcome(src, True)
    assert isinstance(got, tuple)
    assert got == outcome(src, False)


def test_no_template_under_full_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPELLC_FULL_TURNS", "1")
    first = program(BODY + ["'1"])
    grown = program(BODY + ["(def y 2)", "'y"])
    unit_a = compile_unit(spellc.read_string(first), "<tpl>", first, incremental=True)
    unit_b = compile_unit(spellc.read_string(grown), "<tpl>", grown, incremental=True)
    assert unit_a.__code__ is not unit_b.__code__  # type: ignore[attr-defined]
    assert outcome(grown, True) == "2"


def test_a_short_body_is_compiled_whole() -> None:
    src = program(["(def a 1)", "'a"])
    assert templates.spine_of(spellc.read_string(src)) is None
    assert outcome(src, True) == "1"
    assert not compiler.templates._templates
