"""Compile caches never hand a recovery rewrite the original form's code, nor the reverse.

Namespace fixup (``recovery.fixup``) rebuilds only the collections around a replaced symbol and keeps
their source spans (runtime.md §8.3), then the turn loop evaluates the rewrite under the same source
name (``pipeline._eval_failure``). A unit key made from the *text at the form's span* would be the
original text for the rewrite: the old code (the unbound symbol) would run again, and after it the
original form would find the rewrite's unit. The pipeline compiles the rewrite from its forms, without
the source text, and each cache checks identity or keys by printed text — these tests pin that for
every cache a turn's program goes through: the top-level unit, long bodies' sub-units, and the
program templates of wrapper quines (``compiler.templates``), with optimisations on and off.

Checked to fail on broken keys (``compiler.compile_unit``/``compile_subunit``): cutting the key text
from the last compiled source (``state.source_index``) when a form comes without source text fails
the long-body cases (the rewrite's sub-unit runs the original's code: "Unbound symbol: trim"); adding
a top-level hit without the identity check of incremental units, and finding sub-units by span
instead of identity, fails every case here, the session included.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from spell_runtime.errors import SpellError
from spell_runtime.errors_result import error_result
from spell_runtime.program import close_env

import spellc
from spellc import state
from spellc.api import new_env
from spellc.compiler import optimisations, run_form
from spellc.compiler import templates as program_templates
from spellc.loop.pipeline import _core_namespaces
from spellc.loop.recovery import namespace_fixup
from spellc.providers.test_provider import TestProvider

SOURCE = "<completion>"  # the turn loop's source name, shared by a program and its rewrite
FILLER = " ".join("(def v%d %d)" % (i, i) for i in range(9))  # makes a body long enough for sub-units

PROGRAMS = {
    "short": '(do (def a (trim " a ")) (cat a "!"))',
    "long body": '(do %s (def a (trim " a ")) (cat a "!" v8))' % FILLER,
    "wrapper quine": '(quine completion (eval (do %s (def a (trim " a ")) (cat a "!" v8))))' % FILLER,
}
EXPECTED = {"short": "a!", "long body": "a!8", "wrapper quine": "a!8"}


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    state.reset_caches()
    program_templates.clear()
    yield
    state.reset_caches()
    program_templates.clear()


def evaluate(program: Any, text: Any) -> Any:
    """Evaluate like the turn loop (``pipeline._run``): incremental, under the completion source name."""
    D = new_env()
    try:
        return run_form(D, program, SOURCE, text, incremental=True)[0]
    finally:
        close_env(D)


def failure_of(program: Any, text: Any) -> SpellError:
    with pytest.raises(SpellError) as info:
        evaluate(program, text)
    return info.value


def rewrite(program: Any, failure: SpellError) -> Any:
    """The turn loop's deterministic repair of ``program`` after ``failure`` (``pipeline._fixup``)."""
    fixed = namespace_fixup(program, error_result(failure), _core_namespaces())
    assert fixed is not None and fixed is not program
    return fixed


@pytest.mark.parametrize("on", [True, False], ids=["opt", "no-opt"])
@pytest.mark.parametrize("shape", sorted(PROGRAMS))
def test_a_rewrite_runs_its_own_code_and_the_original_again_its_own(shape: str, on: bool) -> None:
    text = PROGRAMS[shape]
    with optimisations(on):
        program = spellc.read_string(text)
        failed = failure_of(program, text)
        assert failed.message == "Unbound symbol: trim"
        fixed = rewrite(program, failed)
        assert spellc.pr_str(fixed).count("strings/trim") == 1
        assert evaluate(fixed, None) == EXPECTED[shape]  # not the original's cached code
        # the reverse: the original text read again (a new turn, a resumed run) finds its own code
        again = failure_of(spellc.read_string(text), text)
        assert again.message == "Unbound symbol: trim"
        assert again.position == failed.position
        # and the very same objects once more, which the identity caches find first
        assert failure_of(program, text).message == "Unbound symbol: trim"
        assert evaluate(fixed, None) == EXPECTED[shape]


@pytest.mark.parametrize("on", [True, False], ids=["opt", "no-opt"])
def test_a_rewrite_compiled_first_is_not_what_the_original_finds(on: bool) -> None:
    # the rewrite's entries made before any of the original's: the original must still fail
    text = PROGRAMS["long body"]
    with optimisations(on):
        original = spellc.read_string(text)
        fixed = rewrite(original, failure_of(spellc.read_string(text), text))
        state.reset_caches()
        program_templates.clear()
        assert evaluate(fixed, None) == "a!8"
        assert failure_of(original, text).message == "Unbound symbol: trim"


def test_a_session_repairs_a_long_body_and_its_next_turn_sees_the_repair() -> None:
    # the whole loop: the repaired program's value, with no model call for the repair, then a next
    # turn whose prefix holds the repaired forms at other places than the model wrote them
    start = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
    body = '%s (def a (trim " a ")) ' % FILLER
    provider = TestProvider(responses=[body + "'(!extend)))", '(cat a "!" v8))))'])
    out = spellc.run(init=start, model_profile=provider)
    assert out["result"] == "a!8", out
    assert len(provider.requests) == 2
    assert '(def a (strings/trim " a "))' in provider.requests[1]
    assert "_error" not in provider.requests[1]


def test_the_fixup_result_keeps_the_original_spans() -> None:
    # what makes the keys above matter: the rewrite stands where the original stood
    from spell_runtime.data.positions import span_of

    text = PROGRAMS["short"]
    program = spellc.read_string(text)
    fixed = rewrite(program, failure_of(program, text))
    assert span_of(fixed) == span_of(program)
    assert span_of(fixed[1]) == span_of(program[1]) and fixed[1] is not program[1]
    assert fixed[2] is program[2]
