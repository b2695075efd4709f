"""What the emitter does with proven types and loop vectors kept as lists (issue 13 items 2–3).

The facts come from the analyzer: ``analyze.types`` (a private loop variable's Python type) and
``analyze.linear`` (a vector-typed variable used linearly), whose module docstrings carry the
legality arguments. Here they change code in three places:

* a loop variable known to hold a long drops its ``type(x) is int`` tests (``int_vars``), and a
  loop's tail value known not to be a map drops the recur-request test (only maps can be one);
* a linear vector variable lives in a Python ``list``: its initial value is copied once
  (``.tolist()``), ``(recur ... (conj v x) ...)`` appends after every recur argument has been
  evaluated (``recur_jump_lists``), and wherever the variable's value is *read* — the loop's
  result, the private bindings a failure adds to its error env — the list is frozen into a
  vector (``_vec``; ``_vec_longs`` when ``analyze.elements`` proved it holds only longs, which
  records that for ``reduce``);
* a recur request arriving as a value (outlined code only) copies the vector it brings back
  into a list (``_to_list``).
"""

from __future__ import annotations

import ast
from typing import Any

from spell_runtime.abi import H

from ..analyze import ir
from ..analyze.elements import list_elements
from ..analyze.linear import transient_vectors
from ..analyze.types import LONG, NOT_MAPS, loop_types
from . import pyast as P
from .base import FnExit, FnInfo, LoopExit, Scope
from .calls import CallEmitter


class TypedEmitter(CallEmitter):
    """Typed private locals and loop vectors kept as lists (see the module docstring)."""

    def enter_typed_loop(self, node: ir.Loop, vars_: list[str]) -> tuple[Any, ...]:
        """Record the loop's proven types (its variables' locals are ``vars_``); returns what
        ``leave_typed_loop`` restores. Call after the loop's variables joined ``self.private``."""
        # the last two slots: int_ranges (restored unchanged: branches restore their own) and the
        # loop lists' element facts, which a nested function's same-named loop may have replaced
        saved = (self.int_vars, self.var_types, self.transients, self.range_ints, self.int_ranges, self.list_longs)
        types = loop_types(node)
        own = {p: v for p, v in zip(node.patterns, vars_)}
        longs = {v for p, v in own.items() if types.get(p) == LONG}
        self.int_vars = self.int_vars | longs
        self.range_ints = self.range_ints | longs  # an if test's range holds in its branch (``bounds``)
        self.var_types = {**self.var_types, **{v: types[p] for p, v in own.items() if p in types}}
        lists = transient_vectors(node, types)
        if lists:
            self.transients = self.transients | {own[p] for p in lists}
            elements = list_elements(node, types, lists)
            # own locals first lose facts a same-named local of another function may have left
            self.list_longs = {**{v: f for v, f in self.list_longs.items() if v not in own.values()},
                               **{own[p]: f for p, f in elements.items()}}
        return saved

    def leave_typed_loop(self, saved: tuple[Any, ...]) -> None:
        """Restore what ``enter_typed_loop`` saved (or a function body's five-slot save, which adds
        ``int_ranges`` but not ``list_longs``: that changes only between balanced enter/leave pairs)."""
        self.int_vars, self.var_types, self.transients, self.range_ints = saved[:4]
        if len(saved) > 4:
            self.int_ranges = saved[4]
        if len(saved) > 5:
            self.list_longs = saved[5]

    def loop_init(self, var: str, value: ast.expr) -> ast.expr:
        """A loop variable's initial value (a list copy for a loop vector)."""
        return P.call(P.attr(value, "tolist")) if var in self.transients else value

    def relist(self, tail: LoopExit) -> list[ast.stmt]:
        """After a recur request rebound the loop variables: loop vectors back into lists."""
        return [P.assign(v, P.callname(H.TO_LIST, P.name(v))) for v in tail.recur_vars if v in self.transients]

    def has_lists(self, tail: LoopExit) -> bool:
        return any(v in self.transients for v in tail.recur_vars)

    def recur_jump_lists(self, node: ir.Recur, scope: Scope, info: FnInfo, tail: LoopExit) -> list[ast.stmt]:
        """A loop ``recur`` where some variables are lists: every argument is evaluated first (for a
        list, only the element its ``conj`` adds), then the other variables are assigned and the
        elements appended — appending cannot fail, so no failure sees a list ahead of its value."""
        args: list[ir.Node] = []
        appends: list[tuple[str, int]] = []
        for var, arg in zip(tail.recur_vars, node.args):
            if var in self.transients:
                if type(arg) is ir.NativeOp:  # (conj v x): only x is evaluated, in this position
                    appends.append((var, len(args)))
                    args.append(arg.args[1])
                continue  # (recur ... v ...): the list stays as it is
            args.append(arg)
        stmts, exprs = self.exprs_in_order(args, scope, info)
        out = list(stmts)
        temps = [self.tmp() for _ in exprs]
        out += [P.assign(t, e) for t, e in zip(temps, exprs)]
        appended = {i for _, i in appends}
        plain = [v for v in tail.recur_vars if v not in self.transients]
        out += [P.assign(v, P.name(t)) for v, t in zip(plain, [t for i, t in enumerate(temps) if i not in appended])]
        out += [P.expr_stmt(P.call(P.attr(P.name(var), "append"), P.name(temps[i]))) for var, i in appends]
        out.append(P.cont())
        return out

    def may_be_map_typed(self, node: ir.Node) -> bool:
        """``ir.may_be_map``, and also False for a private local whose proven type is not a map."""
        if type(node) is ir.Local:
            var = self.private.get(node.sym)
            if var is not None and self.var_types.get(var) in NOT_MAPS:
                return False
        if type(node) is ir.Late and self.late_checks_return(node):
            return False  # its fallback's value is checked for a recur request there (``e_Late``)
        return ir.may_be_map(node)

    def late_checks_return(self, node: ir.Late) -> bool:
        """Is ``node`` the tail value of a fn body whose static code never yields a map? Then only its
        dynamic evaluation (``emit.late``) can give a recur request (Q17): ``e_Late`` checks that
        value there, and the static path goes without the test (``deliver``)."""
        tail = self.exit
        return (self.late_flag and node.ctx is ir.Ctx.RETURN and isinstance(tail, FnExit) and not tail.longs
                and not ir.may_be_map(node.node))


__all__ = ["TypedEmitter"]
