"""The emitter asks whether a builtin is pure by name (``spell_runtime.pure_names``) instead of
loading ``purity`` for its symbol set: the two answers must agree for every symbol."""

from __future__ import annotations

from spell_runtime.data import Symbol
from spell_runtime.pure_names import PURE_NAMES
from spell_runtime.purity import HIGHER_ORDER, PURE_FUNCTIONS

from spellc.emit.pipelines import _pure_name


def test_pure_functions_are_the_pure_names() -> None:
    assert PURE_FUNCTIONS == frozenset(Symbol(n) for n in PURE_NAMES)
    assert Symbol("+") in PURE_FUNCTIONS and Symbol("rand-int") not in PURE_FUNCTIONS


def test_the_emitters_test_agrees_with_membership() -> None:
    candidates = [*PURE_FUNCTIONS, *HIGHER_ORDER, Symbol("gensym"), Symbol("rand-int"), Symbol("eval"),
                  Symbol("count", "strings"), Symbol("reverse", "strings"), Symbol("+", "math"), Symbol("/")]
    for sym in candidates:
        assert _pure_name(sym, PURE_NAMES) is (sym in PURE_FUNCTIONS), sym
    # a namespaced symbol whose name is a pure core function's is not that function
    assert not _pure_name(Symbol("count", "strings"), PURE_NAMES)
