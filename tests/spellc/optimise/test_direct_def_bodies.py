"""A top-level ``def`` of a ``fn`` compiles its body without a unit function (``spellc.compiler.direct``):
for generated functions (``optimise_programs``), the body ``Emitter.defined_fn`` emits is the one
the unit function would hold, node for node with positions, and so are its constants and call table.
(``test_switch_equivalence`` compares what such programs observe with optimisations off, where
every form has its unit function.)"""

from __future__ import annotations

import ast

from hypothesis import HealthCheck, given, settings
from optimise_programs import fn_program

import spellc
from spellc import state
from spellc.analyze import ir
from spellc.analyze.analyzer import analyze_form
from spellc.compiler.direct import is_direct
from spellc.emit.emitter import Emitter


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fn_program())
def test_direct_bodies_are_the_unit_functions_bodies(text: str) -> None:
    state.base_namespace()
    direct_defs = 0
    for form in spellc.read_all(text):
        node, _ = analyze_form(form)
        if not is_direct(node) or type(node.value) is not ir.Fn:  # type: ignore[attr-defined]
            continue
        assert type(node) is ir.Def
        direct_defs += 1
        direct, unit = Emitter(), Emitter()
        direct.defined_fn(node)
        unit.emit_unit(node)
        assert [ast.dump(f, include_attributes=True) for f in direct.functions] == \
            [ast.dump(f, include_attributes=True) for f in unit.functions]
        assert direct.table == unit.table
        for name, value in direct.consts.items():
            assert type(unit.consts[name]) is type(value) and unit.consts[name] == value
    assert direct_defs >= 1  # the generated function itself
