"""The native operator table (``analyze.native_ops``) is complete and consistent with the emitter and
the runtime ABI."""

from __future__ import annotations

from spell_runtime import library
from spell_runtime.abi import H, helper_names
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import Symbol

import spellc
from spellc import state
from spellc.analyze import ir
from spellc.analyze.analyzer import analyze_form
from spellc.analyze.native_ops import BY_CALL, BY_NAME, NATIVE_OP_SPECS
from spellc.emit.natives import NativeEmitter


def test_every_operator_has_a_builder_and_lowers_a_core_builtin() -> None:
    library.load()
    assert len(BY_NAME) == len(NATIVE_OP_SPECS) == len(BY_CALL)
    for spec in NATIVE_OP_SPECS:
        assert spec.family in NativeEmitter._LOWER, spec
        assert Symbol(spec.spell) in BUILTINS, spec
        if spec.family not in ("identity", "eq"):  # those are inline only
            assert H.op(spec.name) in helper_names(), spec


def test_calls_lower_by_name_and_arity_and_ifs_read_the_bool_column() -> None:
    library.load()
    with state.LOCK:  # as if no code had bound a builtin name yet (other tests do)
        saved = set(state.BOUND)
        state.BOUND.clear()
        try:
            _check_lowering()
        finally:
            state.BOUND.update(saved)


def _check_lowering() -> None:
    for spec in NATIVE_OP_SPECS:
        args = " ".join("x%d" % i for i in range(spec.arity))
        node, _ = analyze_form(spellc.read_string("(if (%s %s) 1 2)" % (spec.spell, args)))
        assert isinstance(node, ir.If) and isinstance(node.test, ir.NativeOp) and node.test.op == spec.name
        assert node.test_is_bool is spec.returns_bool
        assert ir.may_be_map(node.test) is spec.may_be_map
    other_arity, _ = analyze_form(spellc.read_string("(+ 1 2 3)"))
    assert not isinstance(other_arity, ir.NativeOp)
