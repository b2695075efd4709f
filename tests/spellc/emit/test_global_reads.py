"""A global read in a unit's code outside loops — code that runs once per evaluation — is one helper
call, ``_global(D, sym)`` (``support.lookup``); in fn bodies and loops it keeps the inline
``D[sym] if sym in D else _miss(D, sym)`` (issue 12: four ``ast`` nodes instead of twelve where the
extra Python call costs nothing). Both must resolve alike: the env, then builtins, else the unbound
error (with its gated-namespace hint) at the symbol's position — with and without optimisations,
from source and from a built module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from built_vs_source import assert_built_fails_as_the_source
from spell_runtime import support
from spell_runtime.abi import H
from spell_runtime.data import Symbol
from spell_runtime.program import close_env

import spellc
from spellc import state
from spellc.api import new_env
from spellc.compiler import optimisations, python_source

ONCE = "%s(D, _k" % H.GLOBAL
INLINE = "else %s(D, _k" % H.MISS_LOOKUP


@pytest.mark.parametrize("on", [True, False])
def test_a_unit_reads_a_global_with_one_call_and_fn_bodies_and_loops_read_it_inline(on: bool) -> None:
    with optimisations(on):
        assert ONCE in python_source(spellc.read_string("(do (def a 5) [a 1])"))
        fn_body = python_source(spellc.read_string("(fn [x] [x zz])"))
        loop = python_source(spellc.read_string("(loop [i 0] (if (< i zz) (recur (inc i)) i))"))
        for_ = python_source(spellc.read_string("(for [x [1 2]] [x zz])"))
    for text in (fn_body, loop, for_):
        assert INLINE in text and ONCE not in text, text


@pytest.fixture
def bound_names_kept() -> Iterator[None]:
    """The set of bound builtin names as it was (other tests count re-compilations of bodies that
    refer to ``inc`` directly: ``tests/spellc/compiler/test_stale_guard.py``)."""
    with state.LOCK:
        saved = set(state.BOUND)
    try:
        yield
    finally:
        with state.LOCK:
            state.BOUND.clear()
            state.BOUND.update(saved)


@pytest.mark.parametrize("on", [True, False])
@pytest.mark.usefixtures("bound_names_kept")
def test_a_unit_level_global_read_resolves_the_env_then_builtins(on: bool) -> None:
    # ``(let [inc …])`` binds the builtin name once, so later references to it are global reads.
    program = "(def a 5)\n(let [inc 1] inc)\n[a (map inc [1 2]) (do inc) (let [inc 7] inc)]"
    with optimisations(on):
        assert spellc.pr_str(spellc.eval_string(program)) == "[5 [2 3] #object[clojure.core$inc] 7]"
        assert ONCE in python_source(spellc.read_string("(map inc [1 2])"))  # ``inc`` is bound now


def test_the_helper_hands_back_env_values_and_builtins_and_fails_on_the_rest() -> None:
    D = new_env()
    try:
        D[Symbol("here")] = None  # a falsy value is a binding, not a miss
        assert support.lookup(D, Symbol("here")) is None
        assert support.lookup(D, Symbol("count")) is support.miss(D, Symbol("count"))
        with pytest.raises(spellc.SpellError, match="Unbound symbol: nowhere"):
            support.lookup(D, Symbol("nowhere"))
    finally:
        close_env(D)


def _failure(src: str) -> tuple[Any, ...]:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(src, "<globals>")
    e = info.value
    return str(e), e.position, [str(t) for t in e.trace or []]


@pytest.mark.parametrize("on", [True, False])
def test_an_unbound_unit_level_read_fails_at_the_symbol_as_a_read_in_a_fn_body_does(on: bool) -> None:
    with optimisations(on):
        top = _failure("(def a 1)\n[a\n   nowhere-at-all]")
        in_fn = _failure("(def a 1)\n((fn [] [a\n   nowhere-at-all]))")
    assert top[0] == in_fn[0] == "Unbound symbol: nowhere-at-all"
    assert top[1] is not None and top[1][0] == 3
    assert top[1] == in_fn[1]


@pytest.mark.parametrize("on", [True, False])
def test_an_effect_name_read_outside_eval_keeps_its_gated_hint(on: bool) -> None:
    with optimisations(on):
        message, position, _ = _failure("(def a 1)\n[a io/ls]")
    assert message == "io/ls: io/ is an effect namespace - use it in the trailing expression via eval"
    assert position is not None and position[0] == 2


def test_a_built_module_fails_on_a_gated_unit_level_read_as_the_source_does(tmp_path: Path) -> None:
    # (A plain unbound symbol is placed at 1:1 by a built module, before this change as after it:
    # left for issue 12.1's owners, not asserted here.)
    assert_built_fails_as_the_source(tmp_path, "(def a 1)\n[a\n  io/ls]\n",
                                     "prog.spl:3:3: io/ls: io/ is an effect namespace - use it in the trailing "
                                     "expression via eval")
