"""Properties of every rewritten program (hypothesis): readable, failing form inert, one trailing expression."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from recovery_test_support import (
    bad_result,
    evaluated_lists,
    failing_calls,
    forms,
    occurs_evaluated,
    pure_defs,
    quoted,
    read,
    trailing_expressions,
    trailing_failure,
    wrapper,
)
from spell_runtime.core.quine import serialize_prefix
from spell_runtime.data import Keyword, PList, Symbol, plist, spell_eq
from spell_runtime.printer import render_form

from spellc.loop.recovery import (
    fault_for,
    inert_recovery_program,
    reader_recovery_program,
    same_tail_program,
)

SELF_CALL_HEAD = Symbol("!llm-self")
faults = st.one_of(st.none(), st.sampled_from(["unbound-symbol", "thrown", "internal"]).map(fault_for))


def reads_back(program: Any) -> None:
    """The full rendering and the open prefix both read back as the same program."""
    assert spell_eq(read(render_form(program)), program)
    prefix = serialize_prefix(program)
    assert prefix.endswith(" ")
    assert spell_eq(read(prefix), program)


def defines_anything(program: Any) -> bool:
    """True when evaluating ``program`` would run a ``def`` (the recovery context must stay inert)."""
    return any(form.first is Symbol("def") for form in evaluated_lists(program))


def only_self_call_runs(program: Any, receive: bool) -> None:
    tails = trailing_expressions(program)
    assert len(tails) == 1
    tail = tails[0]
    assert type(tail) is PList and tail.first is SELF_CALL_HEAD
    assert tail[2].get(Keyword("receive?")) is receive


@settings(max_examples=150)
@given(st.lists(pure_defs, max_size=3), failing_calls, st.booleans(), faults)
def test_same_tail(body: list[Any], failing: PList, receive: bool, fault: Any) -> None:
    program = wrapper([plist([Symbol("quine"), Symbol("prompt"), "task"]), *body, quoted(failing)])
    inner = bad_result("Unbound symbol: " + str(failing.first), failing.first, failing)
    recovered = same_tail_program(program, trailing_failure(program, inner), receive, fault)
    assert recovered is not None
    reads_back(recovered)
    assert not occurs_evaluated(recovered, failing)
    only_self_call_runs(recovered, receive)
    # the original body is kept in place, in order
    assert list(recovered[2][1])[: program[2][1].count] == list(program[2][1])


@settings(max_examples=150)
@given(st.lists(pure_defs, max_size=3), failing_calls, st.lists(forms, max_size=2), st.booleans(), faults)
def test_inert_for_body_failures(body: list[Any], failing: PList, inert: list[Any], receive: bool,
                                 fault: Any) -> None:
    failing_def = plist([Symbol("def"), Symbol("broken"), failing])
    program = wrapper([*body, failing_def, quoted(plist([Symbol("!extend")]))], inert)
    result = bad_result("Unbound symbol: " + str(failing.first), failing.first, failing_def)
    assert same_tail_program(program, result, receive, fault) is None
    recovered = inert_recovery_program(program, result, receive, fault)
    reads_back(recovered)
    assert not occurs_evaluated(recovered, failing)
    assert not occurs_evaluated(recovered, failing_def)
    only_self_call_runs(recovered, receive)
    assert not defines_anything(recovered)
    # nothing of the failed program is evaluated any more: it is an inert argument
    assert not any(spell_eq(f, program[program.count - 1]) for f in evaluated_lists(recovered))


@settings(max_examples=150)
@given(forms, failing_calls, st.booleans(), faults)
def test_inert_for_any_program(program: Any, failing: PList, receive: bool, fault: Any) -> None:
    result = bad_result("Function call failed: x: boom {:a 1}", failing)
    recovered = inert_recovery_program(program, result, receive, fault)
    assert spell_eq(read(render_form(recovered)), recovered)
    reads_back(recovered)
    assert not occurs_evaluated(recovered, failing)
    only_self_call_runs(recovered, receive)


@settings(max_examples=150)
@given(failing_calls, st.booleans())
def test_trailing_failure_with_mismatched_provenance_goes_inert(failing: PList, receive: bool) -> None:
    program = wrapper([quoted(failing)])
    inner = bad_result("Unbound symbol: x", Symbol("x"), plist([Symbol("something-else")]))
    result = trailing_failure(program, inner)
    assert same_tail_program(program, result, receive) is None
    recovered = inert_recovery_program(program, result, receive)
    assert not occurs_evaluated(recovered, failing)
    only_self_call_runs(recovered, receive)


@settings(max_examples=200)
@given(st.text(max_size=80), st.one_of(st.none(), st.text(max_size=40)), st.booleans(), faults)
def test_reader_recovery(raw: str, message: Any, receive: bool, fault: Any) -> None:
    recovered = reader_recovery_program(raw, message, receive, fault)
    reads_back(recovered)
    assert recovered[2] == raw
    only_self_call_runs(recovered, receive)
    assert not defines_anything(recovered)


@settings(max_examples=100)
@given(st.lists(pure_defs, max_size=2), st.lists(failing_calls, min_size=2, max_size=4, unique_by=render_form),
       st.booleans())
def test_repeated_same_tail_failures_stay_inert(body: list[Any], failures: list[PList], receive: bool) -> None:
    program: Any = wrapper([*body, quoted(failures[0])])
    for i, failing in enumerate(failures):
        if i:
            items = list(program)
            items[-1] = plist([Symbol("eval"), plist([*program[program.count - 1][1], quoted(failing)])])
            program = plist(items)
        inner = bad_result("Unbound symbol: f", failing.first, failing)
        program = same_tail_program(program, trailing_failure(program, inner), receive)
        assert program is not None
    reads_back(program)
    for failing in failures:
        assert not occurs_evaluated(program, failing)
    only_self_call_runs(program, receive)
