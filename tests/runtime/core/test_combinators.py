"""Host-closure combinators: they capture their arguments and run Spell functions in the env of the final call."""

from __future__ import annotations

from typing import Any

import pytest
from spell_runtime.core.combinators import (
    comp,
    complement,
    constantly,
    every_pred,
    fnil,
    juxt,
    memoize,
    partial,
    some_fn,
)
from spell_runtime.core.registry import EnvFn
from spell_runtime.core.seqs import count, first, last, vector
from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.plist import EMPTY, plist
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError
from spell_runtime.invoke import call
from spell_runtime.printer import pr_str

D: dict[Any, Any] = {}
K = Symbol("k")


def spell_fn(params: list[str], code: Any) -> SpellFn:
    f = SpellFn(vec([Symbol(p) for p in params]), EMPTY)
    f.code = code
    return f


def inc(x: Any) -> Any:
    return x + 1


def add(*xs: Any) -> Any:
    return sum(xs)


def is_odd(x: int) -> bool:
    return x % 2 == 1


def is_even(x: int) -> bool:
    return x % 2 == 0


def run(f: Any, *args: Any, env: Any = D) -> Any:
    return call(env, f, args)


def test_combinators_return_env_closures_named_like_jvm_classes() -> None:
    c = comp(inc)
    assert type(c) is EnvFn and c.name == "spell.eval$comp$fn"
    assert pr_str(partial(add, 1)) == "#object[spell.eval$partial$fn]"


def test_comp_is_one_argument_and_right_to_left() -> None:
    assert run(comp(inc, inc), 5) == 7
    times10 = spell_fn(["x"], lambda D, h, x: x * 10)
    assert run(comp(times10, inc), 1) == 20
    assert run(comp(str, inc), 1) == "2"
    assert run(comp(), 4) == 4
    with pytest.raises(HostError, match=r"^Wrong number of args \(2\) passed to: spell.eval/comp/fn$"):
        run(comp(inc), 1, 2)
    with pytest.raises(HostError, match=r"Wrong number of args \(0\)"):
        run(comp())


def test_partial_captures_arguments() -> None:
    assert run(partial(add, 1, 2), 3, 4) == 10
    add3 = spell_fn(["a", "b", "c"], lambda D, h, a, b, c: a + b + c)
    assert run(partial(add3, 1, 2), 3) == 6
    with pytest.raises(HostError, match="^Wrong number of args: expected 3, got 2$"):
        run(partial(add3, 1), 2)


def test_closures_run_spell_functions_in_the_env_of_the_final_call() -> None:
    times_k = spell_fn(["x"], lambda D, h, x: x * D[K])
    p = partial(times_k)
    assert run(p, 2, env={K: 3}) == 6
    assert run(p, 2, env={K: 5}) == 10


def test_juxt_complement_constantly() -> None:
    assert pr_str(run(juxt(first, last, count), vec([1, 2, 3]))) == "[1 3 3]"
    assert pr_str(run(juxt(), 1)) == "[]"
    assert run(complement(is_even), 3) is True
    assert run(complement(spell_fn(["x"], lambda D, h, x: x > 10)), 5) is True
    assert run(complement(lambda: None)) is True
    assert run(constantly(Keyword("k")), 1, 2, 3) is Keyword("k")
    assert run(constantly(None)) is None


def test_every_pred_and_some_fn_pass_all_arguments_at_once() -> None:
    assert run(every_pred(is_odd, lambda x: x > 0), 3) is True
    assert run(every_pred(is_odd), 2) is False
    assert run(every_pred(), 1) is True
    both = every_pred(lambda a, b: a < b)
    assert run(both, 1, 2) is True and run(both, 2, 1) is False
    assert run(some_fn(is_even, lambda x: x < 0), -3) is True
    assert run(some_fn(is_even, lambda x: x < 0), 3) is None
    assert run(some_fn(lambda x: None, lambda x: x * 7), 1) == 7


def test_fnil_replaces_nil_arguments_covered_by_defaults() -> None:
    assert run(fnil(add, 0, 0), None, None) == 0
    assert run(fnil(inc, 10), None) == 11 and run(fnil(inc, 10), 1) == 2
    assert pr_str(run(fnil(vector, 1), None, None)) == "[1 nil]"
    assert run(fnil(lambda x: x, False), False) is False


def test_memoize_caches_by_spell_equality() -> None:
    calls: list[Any] = []

    def double(x: Any) -> Any:
        calls.append(x)
        return 2 * x if isinstance(x, (int, float)) else count(x)

    m = memoize(double)
    assert [run(m, 2), run(m, 2), run(m, 3)] == [4, 4, 6]
    assert calls == [2, 3]
    assert run(m, vec([1, 2])) == 2 and run(m, plist([1, 2])) == 2
    assert len(calls) == 3
    assert run(m, 2.0) == 4.0 and len(calls) == 4  # 2.0 is not = to 2, so it is a new entry

    zero = memoize(lambda: object())
    assert run(zero) is run(zero)
