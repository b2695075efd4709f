"""The three quine recoveries against the spec's worked examples (runtime.md §6.4–§6.6, §6.8, §9.4)."""

from __future__ import annotations

from typing import Any

import pytest
from recovery_test_support import (
    K_CONTAINING,
    K_PHASE,
    K_RESULT,
    SPEC_PROMPT,
    bad_result,
    read,
    trailing_failure,
)
from spell_runtime.core.quine import serialize_prefix
from spell_runtime.data import Keyword, PList, SpellMap, Symbol, plist, spell_map
from spell_runtime.edits import apply_edits
from spell_runtime.printer import render_form

from spellc.api import spell_eval
from spellc.loop.recovery import (
    classify,
    fault_for,
    inert_recovery_program,
    reader_recovery_program,
    same_tail_program,
)
from spellc.reader import ReaderError, balance_parens, read_first

P = '"' + SPEC_PROMPT.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
"""The recovery prompt as a string literal, escaped by hand (independent of the renderer)."""

SELF_CALL = "(quote (!llm-self (reopen completion) {:receive? true}))"


# --------------------------------------------------------------------------- §6.4 same-tail

SAME_TAIL_BEFORE = '(quine completion (eval (do (quine prompt "keep this assignment") (def earlier 41) \'(missing-tail))))'
SAME_TAIL_AFTER = ('(quine completion (eval (do (quine prompt "keep this assignment") (def earlier 41) '
                   '(quote (missing-tail)) (def _error {:error "Unbound symbol: missing-tail" '
                   ':in (quote (missing-tail))}) (quote (!llm-self (reopen completion) {:receive? true})) ')


def test_same_tail_spec_example_with_real_evaluation() -> None:
    program = read(SAME_TAIL_BEFORE)
    recovered = same_tail_program(program, spell_eval(program), True)
    assert recovered is not None
    assert serialize_prefix(recovered) == SAME_TAIL_AFTER


def test_same_tail_spec_example_with_constructed_result() -> None:
    program = read(SAME_TAIL_BEFORE)
    inner = bad_result("Unbound symbol: missing-tail", Symbol("missing-tail"), read("(missing-tail)"))
    recovered = same_tail_program(program, trailing_failure(program, inner), True)
    assert recovered is not None and serialize_prefix(recovered) == SAME_TAIL_AFTER


def test_same_tail_repair_continues_to_the_original_value() -> None:
    recovered = same_tail_program(read(SAME_TAIL_BEFORE), spell_eval(read(SAME_TAIL_BEFORE)), True)
    assert recovered is not None
    completion = read(serialize_prefix(recovered) + "(+ earlier 1))")
    assert spell_eval(completion).get(Keyword("ok")) == 42


def test_same_tail_keeps_receipt_choice_and_adds_reason() -> None:
    program = read(SAME_TAIL_BEFORE)
    recovered = same_tail_program(program, spell_eval(program), False, fault_for("unbound-symbol"))
    assert recovered is not None
    assert serialize_prefix(recovered).endswith(
        '(def _error {:error "Unbound symbol: missing-tail" :in (quote (missing-tail)) :reason :unbound-symbol}) '
        '(quote (!llm-self (reopen completion) {:receive? false})) ')


def test_same_tail_quotes_the_trace() -> None:
    program = read("(quine completion (eval (do (defn inner [x] (missing x)) (defn outer [y] (inner y)) '(outer 1))))")
    recovered = same_tail_program(program, spell_eval(program), True)
    assert recovered is not None
    assert ('(def _error {:error "Unbound symbol: missing" :in (quote (outer 1)) :trace (quote [inner outer])})'
            in serialize_prefix(recovered))


def test_same_tail_with_effectful_tail_uses_the_containing_form() -> None:
    program = read("(quine completion (eval (do (def n 5) '(do (+ 1 2) (undefined-x)))))")
    recovered = same_tail_program(program, spell_eval(program), True)
    assert recovered is not None
    assert ('(def _error {:error "Unbound symbol: undefined-x" :in (quote (do (+ 1 2) (undefined-x)))})'
            in serialize_prefix(recovered))


def test_second_same_tail_failure_appends_after_the_first() -> None:
    first = same_tail_program(read(SAME_TAIL_BEFORE), spell_eval(read(SAME_TAIL_BEFORE)), True)
    assert first is not None
    program = read(serialize_prefix(first) + "'(second-failure))")
    second = same_tail_program(program, spell_eval(program), True)
    assert second is not None
    assert serialize_prefix(second).endswith(
        "(quote (missing-tail)) (def _error {:error \"Unbound symbol: missing-tail\" :in (quote (missing-tail))}) "
        + SELF_CALL + " (quote (second-failure)) (def _error {:error \"Unbound symbol: second-failure\" "
        ":in (quote (second-failure))}) " + SELF_CALL + " ")


def _tail_case() -> tuple[PList, SpellMap]:
    program = read(SAME_TAIL_BEFORE)
    return program, spell_eval(program)


@pytest.mark.parametrize("mutate", [
    pytest.param(lambda p, r: (plist([Symbol("quine"), Symbol("other"), *list(p)[2:]]), r), id="name-not-completion"),
    pytest.param(lambda p, r: (plist([Symbol("do"), *list(p)[1:]]), r), id="not-a-quine"),
    pytest.param(lambda p, r: (read("(quine completion (eval (do (def a 1) (missing-tail))))"), r), id="tail-not-quoted"),
    pytest.param(lambda p, r: (read("(quine completion (eval (do)))"), r), id="empty-body"),
    pytest.param(lambda p, r: (read("(quine completion (eval (do '(missing-tail)) 1))"), r), id="eval-arity"),
    pytest.param(lambda p, r: (p, r.dissoc(K_PHASE)), id="no-recovery-phase"),
    pytest.param(lambda p, r: (p, r.assoc(Keyword("expr"), Symbol("x"))), id="expr-not-last"),
    pytest.param(lambda p, r: (p, r.assoc(K_RESULT, r.get(K_RESULT).assoc(K_RESULT, spell_map()))), id="nested"),
    pytest.param(lambda p, r: (p, r.dissoc(K_RESULT)), id="no-source"),
    pytest.param(lambda p, r: (p, r.assoc(K_RESULT, r.get(K_RESULT).assoc(K_CONTAINING, read("(other)")))),
                 id="different-failed-form"),
])
def test_same_tail_requires_every_provenance_condition(mutate: Any) -> None:
    program, result = mutate(*_tail_case())
    assert same_tail_program(program, result, True) is None


def test_nested_eval_in_tail_is_not_same_tail() -> None:
    program = read("(quine completion (eval (do '(eval '(zzz)))))")
    assert same_tail_program(program, spell_eval(program), True) is None


def test_body_failure_is_not_same_tail() -> None:
    program = read("(quine completion (eval (do missing-body '(!extend completion))))")
    assert same_tail_program(program, spell_eval(program), True) is None


def test_invalid_argument_in_tail_is_same_tail_with_reason() -> None:
    # §9.5: '(io/sh "make" :timeout 60) is a document fault repaired in place
    program = read("(quine completion (eval (do '(io/sh \"make\" :timeout 60))))")
    result = spell_eval(program)
    fault = classify(result)
    assert (fault.verdict, fault.reason) == ("document", "invalid-argument")
    recovered = same_tail_program(program, result, True, fault)
    assert recovered is not None
    assert serialize_prefix(recovered).endswith(
        '(def _error {:error "io/sh: io/sh: all command segments must be strings, got :timeout. For options, pass '
        'a map as the last argument: {:timeout 60}" :in (quote (io/sh "make" :timeout 60)) '
        ':reason :invalid-argument}) ' + SELF_CALL + " ")


# --------------------------------------------------------------------------- §6.5 inert

INERT_BEFORE = ('(quine completion (eval (do\n  (quine prompt "List the files.")\n  (def files (io/ls "."))\n'
                "  '(!call-now n (count files)))))")
INERT_AFTER = ('(quine completion (eval (do (quine prompt "List the files.") (def files (io/ls ".")) '
               '(quote (!call-now n (count files))))) (do (def _recovery_prompt ' + P + ') (def _error {:error '
               '"io/ls: io/ is an effect namespace - use it in the trailing expression via eval" :in (quote (def files '
               '(io/ls ".")))})) (prune 2) (eval (do (quote (!llm-self (reopen completion) {:receive? true})) ')


def test_inert_spec_example_with_real_evaluation() -> None:
    program = read(INERT_BEFORE)
    result = spell_eval(program)
    assert same_tail_program(program, result, True) is None
    assert serialize_prefix(inert_recovery_program(program, result, True)) == INERT_AFTER


def test_inert_spec_example_with_constructed_result() -> None:
    program = read(INERT_BEFORE)
    result = bad_result("io/ls: io/ is an effect namespace - use it in the trailing expression via eval",
                        Symbol("ls", "io"), read('(def files (io/ls "."))'))
    assert serialize_prefix(inert_recovery_program(program, result, True)) == INERT_AFTER


def test_inert_reason_entry_matches_section_9_4() -> None:
    program = read(INERT_BEFORE)
    result = spell_eval(program)
    recovered = inert_recovery_program(program, result, True, classify(result))
    assert ('(def _error {:error "io/ls: io/ is an effect namespace - use it in the trailing expression via eval" '
            ':in (quote (def files (io/ls "."))) :reason :effect-outside-eval})') in serialize_prefix(recovered)


def test_inert_prune_removes_failed_program_and_context_at_next_edit() -> None:
    program = read(INERT_BEFORE)
    recovered = inert_recovery_program(program, spell_eval(program), True)
    continued = read(serialize_prefix(recovered) + '(quine task "List the files.") (quine context-summary "No effect '
                     'ran; io/ls was called outside eval.") \'(!call-now files (io/ls "."))))')
    edited = apply_edits(continued, {})
    assert render_form(edited) == (
        '(quine completion (eval (do (quote (!llm-self (reopen completion) {:receive? true})) (quine task "List the '
        'files.") (quine context-summary "No effect ran; io/ls was called outside eval.") (quote (!call-now files '
        '(io/ls "."))))))')


def test_repeated_inert_recoveries_are_all_pruned_by_one_edit() -> None:
    first = inert_recovery_program(read(INERT_BEFORE), spell_eval(read(INERT_BEFORE)), True)
    continued = read(serialize_prefix(first) + "(quine task \"t\") second-body-failure '(!extend completion))")
    second = inert_recovery_program(continued, spell_eval(continued), True)
    assert render_form(second).count("(prune 2)") == 2
    final = read(serialize_prefix(second) + "(quine task \"newest\") '(!extend completion))")
    assert render_form(apply_edits(final, {})) == (
        '(quine completion (eval (do (quote (!llm-self (reopen completion) {:receive? true})) (quine task "newest") '
        '(quote (!extend completion)))))')


def test_inert_wraps_a_non_quine_program() -> None:
    program = read("(do undefined-symbol)")
    recovered = inert_recovery_program(program, spell_eval(program), True)
    assert serialize_prefix(recovered).startswith("(quine completion (do undefined-symbol) (do (def _recovery_prompt ")


def test_inert_wraps_a_quine_with_another_name() -> None:
    program = read("(quine other (eval (do missing)))")
    recovered = inert_recovery_program(program, spell_eval(program), False)
    assert serialize_prefix(recovered).startswith("(quine completion (quine other (eval (do missing))) (do ")
    assert serialize_prefix(recovered).endswith(
        "(prune 2) (eval (do (quote (!llm-self (reopen completion) {:receive? false})) ")


def test_inert_for_an_unexpected_tail_shape() -> None:
    program = read("(quine completion (eval missing-shape))")
    recovered = inert_recovery_program(program, spell_eval(program), True)
    assert render_form(recovered).startswith(
        "(quine completion (eval missing-shape) (do (def _recovery_prompt ")
    assert '(def _error {:error "Unbound symbol: missing-shape" :in (quote missing-shape)})' in render_form(recovered)


def test_inert_error_map_optional_entries() -> None:
    bare = bad_result("Stack overflow", None)
    assert '(def _error {:error "Stack overflow"})' in render_form(inert_recovery_program(read("(f)"), bare, True))
    traced = bad_result("Unbound symbol: missing", Symbol("missing"), read("(outer 1)"),
                        [Symbol("inner"), Symbol("outer")])
    assert ('(def _error {:error "Unbound symbol: missing" :in (quote (outer 1)) :trace (quote [inner outer])})'
            in render_form(inert_recovery_program(read("(f)"), traced, True)))
    expr_only = bad_result("Function call failed: /: Divide by zero", read("(/ 1 0)"))
    assert ('(def _error {:error "/: Divide by zero" :in (quote (/ 1 0)) :reason :expression-runtime})'
            in render_form(inert_recovery_program(read("(f)"), expr_only, True, classify(expr_only))))


def test_division_by_zero_in_the_body_gets_inert_recovery() -> None:
    # §9.5: (/ 1 0) in the body is a document fault repaired by inert recovery
    program = read("(quine completion (eval (do (def x (/ 1 0)) '(!extend))))")
    result = spell_eval(program)
    fault = classify(result)
    assert (fault.verdict, fault.reason) == ("document", "expression-runtime")
    assert same_tail_program(program, result, True, fault) is None
    assert ('(def _error {:error "/: Divide by zero" :in (quote (def x (/ 1 0))) :reason :expression-runtime})'
            in serialize_prefix(inert_recovery_program(program, result, True, fault)))


def test_inert_recovery_program_evaluates_to_its_self_call_only() -> None:
    program = read(INERT_BEFORE)
    recovered = inert_recovery_program(program, spell_eval(program), True)
    # without an agent, the self-call is unbound: the only thing evaluated is the fresh program's tail
    result = spell_eval(recovered)
    assert result.get(Keyword("err")) == "Function call failed: eval: Unbound symbol: !llm-self"


# --------------------------------------------------------------------------- §6.6 reader

RAW = "(quine completion (eval (do \\invalidchar)))"


def _reader_message(text: str) -> str:
    with pytest.raises(ReaderError) as info:
        read_first(balance_parens(text))
    return str(info.value)


def test_reader_spec_example() -> None:
    message = _reader_message("(quine completion (eval (do \\invalidchar)")
    assert message == "Unsupported character: \\invalidchar"
    recovered = reader_recovery_program(RAW, message, True)
    assert serialize_prefix(recovered) == (
        '(quine completion "(quine completion (eval (do \\\\invalidchar)))" (do (def _recovery_prompt ' + P + ') '
        '(def _error {:error "Reader error: Unsupported character: \\\\invalidchar" '
        ':raw "(quine completion (eval (do \\\\invalidchar)))"})) (prune 2) '
        '(eval (do (quote (!llm-self (reopen completion) {:receive? true})) ')


def test_reader_recovery_without_message_and_with_reason() -> None:
    recovered = reader_recovery_program("{:odd-map}", None, False, fault_for("reader-error"))
    assert ('(def _error {:error "Reader error: Unknown reader error" :raw "{:odd-map}" :reason :reader-error})'
            in render_form(recovered))
    assert render_form(recovered).endswith("(eval (do (quote (!llm-self (reopen completion) {:receive? false})))))")
    assert "Reader error: Unknown reader error" in render_form(reader_recovery_program("x", "", True))


def test_reader_raw_text_is_pruned_at_next_edit() -> None:
    recovered = reader_recovery_program(RAW, "Unsupported character: \\invalidchar", True)
    continued = read(serialize_prefix(recovered) + "(quine task \"reader task\") '(!extend completion))")
    edited = render_form(apply_edits(continued, {}))
    assert "invalidchar" not in edited and "_error" not in edited and "_recovery_prompt" not in edited
    assert edited == ('(quine completion (eval (do (quote (!llm-self (reopen completion) {:receive? true})) '
                      '(quine task "reader task") (quote (!extend completion)))))')


def test_builders_do_not_mutate_their_inputs() -> None:
    program = read(INERT_BEFORE)
    before = render_form(program)
    result = spell_eval(program)
    inert_recovery_program(program, result, True)
    tail_program = read(SAME_TAIL_BEFORE)
    tail_before = render_form(tail_program)
    same_tail_program(tail_program, spell_eval(tail_program), True)
    assert render_form(program) == before and render_form(tail_program) == tail_before

