"""IR → Python ``ast`` (the code shape is explained in ``spell_runtime.context``).

``Emitter`` stacks the concerns in one line of single inheritance over ``base.EmitterBase``
(values, natives, pipelines, fast paths, calls, typed loops, scopes; each reaches the others through
``self`` and the dispatch tables), as mypyc compiles only single inheritance (``spellc.native``):

- ``base``: state, fresh names, constants, positions, expression dispatch, nesting/outlining;
- ``scopes``: statements, tail exits, body sequences, let/loop/recur/fn/for/try, def;
- ``values``: leaves and literal collections;
- ``natives``: native operators (one builder per family of ``analyze.native_ops``);
- ``calls``: call sites;
- ``source``: the Python text of a module (``spellc build``);
- ``constants``: the constructors a built module rebuilds its constants with.

The emitter reads each IR node's context (``ir.Ctx``, set by the analyzer) and keeps no
notion of tail position of its own. Helper names come from ``spell_runtime.abi``; what the
compiler keeps between compilations is listed in ``spellc.state``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from spell_runtime.abi import H, L

from ..analyze import ir
from . import late
from . import pyast as P
from .base import FnInfo, Result, ReturnExit, Scope
from .scopes import ScopeEmitter


class Emitter(ScopeEmitter):
    """Emits one compiled module (a unit plus the bodies of the ``fn`` forms in it)."""

    def emit_unit(self, node: ir.Node, fname: str = "_unit") -> ast.Module:
        """``def _unit(D, _U): ...`` returning the form's value; ``_U`` collects escaping defs' undo entries."""
        fn = self.unit_function(node, fname)
        return ast.Module(body=[*self.functions, fn], type_ignores=[])

    def unit_function(self, node: ir.Node, fname: str) -> ast.FunctionDef:
        """The unit's function; the ``fn`` bodies it needs accumulate in ``self.functions``."""
        scope = Scope(L.UNIT_UNDO, always_list=True)
        info = FnInfo(is_fn=False)
        with self._unit_state(node):
            body = self.stmts(node, scope, info)  # the unit's form is in RETURN context
            body[:0] = late.flag_init(self)
        # ``except: raise _conv_here()``: the exception, ``D`` and ``_T`` are read from the frame on
        # this failure path (``frame_paths``), as scope handlers read them; four nodes fewer per unit
        # than ``except BaseException as _e: raise _conv(_e, D, _T)`` (issue 12).
        handler = [P.raise_(P.callname(H.CONV_HERE))]
        fn = P.fndef(fname, ["D", "_U"], [P.try_(body, None, handler)])
        return fn

    def defined_fn(self, node: ir.Def) -> str:
        """The compiled body of the ``fn`` a top-level ``(def name (fn ...))`` binds, emitted into
        ``self.functions`` exactly as ``unit_function`` would emit it (same state, same positions,
        same names and constants), without the unit around it: its Python name. The unit is then a
        ``spell_runtime.units.DefFn`` (``spellc.compiler.direct``)."""
        fn = node.value
        assert type(fn) is ir.Fn and fn.body is not None
        with self._unit_state(node), P.at(node.pos), P.at(fn.pos):  # as ``stmts``, then ``expr`` of both
            fname = self.tmp("_fn")  # as ``e_Fn``
            self.fn_body(fn.body, fn.pos, fname)
        return fname

    def direct_unit(self, node: ir.Def, name: str) -> ast.stmt:
        """``name = _def_value(sym, value)`` or ``name = _def_fn(sym, params, body, _fnN)``: the unit
        of a top-level def that needs no function (``spellc.compiler.direct.is_direct``) in a module
        written by ``spellc build``; a fn's body joins ``self.functions``."""
        value = node.value
        with P.at(node.pos):
            if type(value) is ir.Const:
                return P.assign(name, P.callname(H.DEF_VALUE, self.const(node.sym), self.const(value.value)))
            assert type(value) is ir.Fn
            fname = self.defined_fn(node)
            return P.assign(name, P.callname(H.DEF_FN, self.const(node.sym), self.const(value.params),
                                             self.const(value.body_forms), P.name(fname)))

    @contextmanager
    def _unit_state(self, node: ir.Node) -> Iterator[None]:
        """The emitter's state at the top of a unit (restored after)."""
        saved_marking, self.marking = self.marking, False
        saved_n, self._n = self._n, 0
        saved_depths = self.blocks, self.indent, self.edepth, self.exit
        self.blocks, self.indent, self.edepth, self.exit = 1, 2, 0, ReturnExit()  # the unit's def and try
        saved_flag, self.late_flag = self.late_flag, late.has_late(node)
        try:
            yield
        finally:
            self.late_flag = saved_flag
            self.marking = saved_marking
            self._n = saved_n
            self.blocks, self.indent, self.edepth, self.exit = saved_depths

    def watch_statement(self) -> list[ast.stmt]:
        """``_watch_epoch((_fn1, <its fn form>, ...), 0)`` for a module ``spellc build`` writes (epoch
        0, ``epoch_base``): registers the bodies in ``guarded``, which go stale if the importing
        process has bound a builtin they refer to (``spell_runtime.stale_bodies``); none if none."""
        if not self.guarded:
            return []
        bodies = [x for name, const, _ in self.guarded for x in (P.name(name), const)]
        return [P.expr_stmt(P.callname(H.WATCH_EPOCH, P.tuple_(bodies), P.const(0)))]

    def binds_builtins(self, unit: str, syms: list[Any]) -> ast.stmt:
        """``_unitN = _binds_builtins(_unitN, (syms...))`` for a module ``spellc build`` writes: the
        unit's form binds core builtin names that were static when it was analyzed, so running it
        must move the binding epoch (``spell_runtime.units.BindsBuiltins``)."""
        return P.assign(unit, P.callname(H.BINDS_BUILTINS, P.name(unit), P.tuple_([self.const(s) for s in syms])))

    def emit_fn_module(self, fn_node: ir.Fn, fname: str = "_fnbody") -> ast.Module:
        """A module defining just the compiled body of one ``fn`` (for functions built from data)."""
        assert fn_node.body is not None
        self.fn_body(fn_node.body, fn_node.pos, fname)
        return ast.Module(body=list(self.functions), type_ignores=[])


__all__ = ["Emitter", "Result"]
