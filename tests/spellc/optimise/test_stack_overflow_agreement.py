"""A recursion that never ends fails with ``Stack overflow`` alike with optimisations on and off
(language.md A8): the same error at the same place, the same names bound there and the same frames
outside the recursion. How deep it gets first is each mode's own (``optimise_programs.outcome``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from optimise_programs import agree, bound_names_restored
from spell_runtime.errors import SpellError

import spellc
from spellc.compiler import optimisations

# A macro rebinds ``-`` in the caller's frame, so ``fib``'s argument grows instead of shrinking.
ENDLESS_FIB = """(defmacro def-minus [] '(def - (fn [a b] (+ a b 100))))
(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(defn h [] (def-minus) (fib 5))
(h)"""


@pytest.fixture(autouse=True)
def _bound_names() -> Iterator[None]:
    yield from bound_names_restored()


def test_an_endless_recursion_overflows_alike_on_and_off() -> None:
    kind, message, _, trace, env, position = agree(ENDLESS_FIB)
    assert (kind, message, position) == ("err", "Stack overflow", (2, 31, 2, 44))
    assert trace[-3:] == ("fib", "fib", "h")
    assert {"n", "fib", "h"} <= set(env)


@pytest.mark.parametrize("on", [True, False])
def test_at_least_about_ten_thousand_nested_calls_fit_before_the_overflow(on: bool) -> None:
    with optimisations(on), pytest.raises(SpellError) as info:
        spellc.eval_string("(defn f [n] (+ 1 (f n)))\n(f 1)")
    assert info.value.message == "Stack overflow"
    assert len(info.value.trace or []) >= 9_900
