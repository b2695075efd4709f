"""The compiler's state (``spellc.state``): units are cached by text, place and epoch."""

from __future__ import annotations

from spell_runtime.program import close_env

import spellc
from spellc import state
from spellc.api import new_env
from spellc.compiler import compile_unit


def test_a_unit_is_reused_for_the_same_text_and_place_and_recompiled_after_the_epoch_moves() -> None:
    form = spellc.read_string("(+ 40 2)")
    first = compile_unit(form, "<state-test>")
    assert compile_unit(form, "<state-test>") is first
    keys = [k for k in state.unit_cache if k.source_name == "<state-test>"]
    assert [k.epoch for k in keys] == [state.EPOCH[0]]
    moved = state.EPOCH[0]
    state.EPOCH[0] += 1  # as if code had bound a builtin name for the first time
    try:
        again = compile_unit(form, "<state-test>")
        assert again is not first
        D = new_env()
        try:
            assert again(D, []) == 42
        finally:
            close_env(D)
    finally:
        state.EPOCH[0] = moved


def test_reset_caches_forgets_compiled_code_but_not_bound_names() -> None:
    compile_unit(spellc.read_string("(inc 1)"), "<state-test-2>")
    bound_before = set(state.BOUND)
    state.reset_caches()
    assert not state.unit_cache and not state.fn_cache and not state.sub_cache
    assert state.BOUND == bound_before
