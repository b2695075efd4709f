"""Natively lowered operators agree with the library functions they stand for (issue 3, item 7).

``(+ a b)`` in compiled code is inline Python arithmetic with an overflow check and a
fallback; calling the builtin as a value goes through ``spell_runtime.core.numbers``.
Both must give the same value — or the same error — for any numbers.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data import BigInt

import spellc
from spellc.analyze import bound
from spellc.api import new_env
from spellc.compiler import run_form

LONG = 2**63
NUMBERS = st.one_of(
    st.integers(-LONG, LONG - 1),
    st.sampled_from([LONG - 1, -LONG, LONG - 2, -LONG + 1, 0, 1, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.builds(BigInt, st.integers(-(2**70), 2**70)),
    st.builds(Fraction, st.integers(-50, 50), st.integers(2, 9)).filter(lambda f: f.denominator != 1),
    st.builds(Decimal, st.integers(-1000, 1000)),
    st.sampled_from([None, True, "x"]),
)

BINARY = ["+", "-", "*", "<", ">", "<=", ">=", "=", "not="]
UNARY = ["inc", "dec", "zero?", "pos?", "neg?", "-", "nil?", "not"]

D = new_env()


def compiled(op: str, arity: int) -> tuple[Any, Any, Any]:
    """(fn with ``op`` in head position, fn calling its argument, the builtin value).

    The operator is compiled while no code has bound its name, so it is lowered to native
    Python operations; the test checks that it was (no generic call in the code).
    """
    params = "[a b]" if arity == 2 else "[a]"
    sym = spellc.symbol(op)
    was_bound = sym in bound.BOUND
    bound.BOUND.discard(sym)
    try:
        native = run_form(D, spellc.read_string("(fn %s (%s %s))" % (params, op, params[1:-1])))[0]
    finally:
        if was_bound:
            bound.BOUND.add(sym)
    names = native.code.__code__.co_names
    assert not {"_applier", "_apply_pub", "_miss"} & set(names), (op, names)
    via_value = run_form(D, spellc.read_string("(fn [f %s] (f %s))" % (params[1:-1], params[1:-1])))[0]
    assert {"_applier", "_apply_pub"} & set(via_value.code.__code__.co_names)  # the generic call path
    return native, via_value, run_form(D, spellc.read_string(op))[0]


def outcome(call: Any) -> tuple[str, str]:
    try:
        value = call()
    except spellc.SpellError as e:
        # the message after the head, which differs ("+" vs "f")
        return ("error", str(e).split(": ", 2)[-1])
    return ("value", spellc.pr_str(value))


@settings(max_examples=300)
@given(st.sampled_from(BINARY), NUMBERS, NUMBERS)
def test_binary_operators_match_the_library(op: str, a: Any, b: Any) -> None:
    native, via_value, builtin = compiled(op, 2)
    lowered = outcome(lambda: native.code(D, spellc.symbol("g"), a, b))
    library = outcome(lambda: via_value.code(D, spellc.symbol("g"), builtin, a, b))
    assert lowered == library, (op, a, b)


@settings(max_examples=200)
@given(st.sampled_from(UNARY), NUMBERS)
def test_unary_operators_match_the_library(op: str, a: Any) -> None:
    native, via_value, builtin = compiled(op, 1)
    lowered = outcome(lambda: native.code(D, spellc.symbol("g"), a))
    library = outcome(lambda: via_value.code(D, spellc.symbol("g"), builtin, a))
    assert lowered == library, (op, a)


def test_overflow_is_an_error_both_ways() -> None:
    native, via_value, builtin = compiled("+", 2)
    assert outcome(lambda: native.code(D, spellc.symbol("g"), LONG - 1, 1)) == ("error", "integer overflow")
    assert outcome(lambda: via_value.code(D, spellc.symbol("g"), builtin, LONG - 1, 1)) == ("error", "integer overflow")
