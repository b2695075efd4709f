"""Units without a unit function: top-level ``def``s of a constant or of a ``fn`` (issue 12.1).

A top-level form normally compiles to ``def _unit(D, _U): try: return <form> except ...`` (see
``spellc.compiler``). When the form is ``(def name value)`` (``defn``, ``define`` and ``persist`` with
a value expand to it) and ``value`` analyzes to

* a constant (``ir.Const``: a literal, a quoted form, literal data), the unit is
  ``spell_runtime.units.DefValue(name, value)``: nothing is emitted or compiled at all;
* a ``fn`` with a compilable body (``ir.Fn``), only the body (and the ``fn``s inside it) is emitted
  and compiled, exactly as inside the unit (``Emitter.defined_fn``), and the unit is
  ``spell_runtime.units.DefFn(name, params, body, code)``,

which do what the unit function did: ``support.define`` (undo entry, binding, value) under the
same handler. ``spellc build`` writes the same objects into its module (``Emitter.direct_unit``). Any other value (a call, a map holding a ``fn`` as ``defmacro`` writes, ...) can fail
or run code, and keeps its unit function. With optimisations off (``spell_runtime.optimise``)
every form gets its unit function, so the differential tests of ``tests/spellc/optimise`` compare
the two.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, Optional

from spell_runtime import optimise
from spell_runtime.units import DefFn, DefValue

from ..analyze import ir
from ..emit.emitter import Emitter

Unit = Callable[[dict[Any, Any], list[Any]], Any]
ExecModule = Callable[[ast.Module, Emitter, str, bool], dict[str, Any]]


def is_direct(node: ir.Node) -> bool:
    """Whether ``node`` (a top-level form's IR) is a ``def`` that needs no unit function."""
    if type(node) is not ir.Def or not optimise.ENABLED[0]:
        return False
    value = node.value
    return type(value) is ir.Const or (type(value) is ir.Fn and value.body is not None)


def direct_unit(node: ir.Node, exec_module: ExecModule, filename: str, via_source: bool) -> Optional[Unit]:
    """The unit of a top-level form that ``is_direct``, else None; ``exec_module`` compiles and runs
    the module of a ``fn``'s body (``compiler._exec_module``)."""
    if not is_direct(node):
        return None
    assert type(node) is ir.Def
    value = node.value
    if type(value) is ir.Const:
        return DefValue(node.sym, value.value)
    assert type(value) is ir.Fn
    emitter = Emitter()
    emitter.text_places = via_source
    fname = emitter.defined_fn(node)
    mod = ast.Module(body=list(emitter.functions), type_ignores=[])
    code = exec_module(mod, emitter, filename, via_source)[fname]
    return DefFn(node.sym, value.params, value.body_forms, code)


__all__ = ["is_direct", "direct_unit"]
