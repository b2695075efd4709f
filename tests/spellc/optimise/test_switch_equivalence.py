"""Every optimisation is unobservable: generated programs give identical values, error messages,
error envs, traces and positions with the switch on and off (issue 13 item 5;
``spell_runtime.optimise``). The generators are described in ``optimise_programs``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from optimise_programs import PRELUDE, fn_program, loop_program, outcome, outcomes_both_ways, programs

from spellc.compiler import optimisations

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(programs)
def test_generated_programs_agree(text: str) -> None:
    on, off = outcomes_both_ways(text)
    assert on == off, text


@SETTINGS
@given(fn_program())
def test_generated_functions_agree(text: str) -> None:
    on, off = outcomes_both_ways(text)
    assert on == off, text


@SETTINGS
@given(loop_program())
def test_generated_loops_agree(text: str) -> None:
    on, off = outcomes_both_ways(text)
    assert on == off, text


def test_the_switch_changes_the_code() -> None:
    """Off really is another compilation: no static builtin reference, so a rebound-looking name
    resolves dynamically — observable only through speed, so check the generated Python instead."""
    from spell_runtime import library

    import spellc
    from spellc.analyze import bound
    from spellc.compiler import python_source

    library.load()  # the builtin table the static test reads (empty when this test runs first)
    # Tests that ran earlier in this process may have bound some core names (which makes them
    # dynamic from then on, process-wide): use one that is still static.
    op, helper = next((o, h) for o, h in (("+", "_op_add"), ("-", "_op_sub"), ("*", "_op_mul"), ("<", "_op_lt"))
                      if bound.is_static_builtin(spellc.symbol(o)))
    form = spellc.read_string("(defn f [a] (%s a 1))" % op)
    with optimisations(True):
        fast = python_source(form)
    with optimisations(False):
        slow = python_source(form)
    assert helper in fast and helper not in slow
    # the generic call site (emit/calls.py), whose global head's callee is chosen by ``_callee_g``
    assert "_callee_g" in slow and "_callee_g" not in fast


def test_callee_reads_caller_parameter_both_ways() -> None:
    text = PRELUDE + "(defn outer [x] (add-x 1)) (outer 41)"
    assert outcomes_both_ways(text) == (("ok", "42"), ("ok", "42"))


def test_overflow_in_loop_reports_the_same_env() -> None:
    text = "(loop [i 0 acc 9223372036854775806] (if (< i 5) (recur (inc i) (+ acc i)) acc))"
    on, off = outcomes_both_ways(text)
    assert on == off
    assert on[0] == "err" and "overflow" in on[1]
    assert ("i", "2") in on[4] and ("acc", "9223372036854775807") in on[4]


def test_outcome_sees_errors() -> None:
    assert outcome("(+ 1 nil)")[0] == "err"
    assert outcome("(+ 1 2)") == ("ok", "3")
