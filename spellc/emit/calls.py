"""Call sites: calls of a symbol head, of a builtin, of a keyword.

Calls of a symbol head check, before any argument is evaluated, whether the head
value is a user macro; otherwise a Spell function with the right arity is called
straight through its compiled ``code`` and anything else through the callable
``support.applier`` hands back (``support.apply_fn`` behind it), chosen before the
arguments so both share one argument list; every rare path is one runtime helper call
(architecture.md §2.5; the shape is in ``_call_expr``). Every call form gets a unique source position recorded in the module's
position table, which is how a host failure is attributed to its call form (see
``spell_runtime.support``).

In a function body whose parameters are published only around calls (``FnBody.published``,
issue 13.1) the application and the macro branch come from ``published_calls`` instead: a
direct call of the body's own compiled function when the head is that function, otherwise a
helper that publishes the parameters around the generic path.
"""

from __future__ import annotations

import ast
from typing import Optional

from spell_runtime.abi import H
from spell_runtime.core.registry import info_of

from ..analyze import ir
from . import late, published_calls
from . import pyast as P
from .base import FnInfo, Pos, Result, Scope
from .fastpaths import FastPathEmitter, keyword_assoc


class CallEmitter(FastPathEmitter):
    """Emits ``Call``, ``BuiltinCall`` and ``KeywordCall`` nodes."""

    # ------------------------------------------------------------------ calls
    def e_KeywordCall(self, node: ir.KeywordCall, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            # issue 13.3: the map read inline (natives.keyword_lookup), where it may run often
            if node.inline and not self.runs_once(info):
                return Result(stmts, self.keyword_lookup(exprs[0], self.const(node.kw), exprs[1:]))
            e = P.callname(H.GET, exprs[0], self.const(node.kw), *exprs[1:])
        return Result(stmts, e)

    def e_BuiltinCall(self, node: ir.BuiltinCall, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
        inline = self.inline_reduce(node, scope, info)  # issue 13: fastpaths.py
        if inline is not None:
            return inline
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            return Result(stmts, self._builtin_call(node, exprs))

    def _builtin_call(self, node: ir.BuiltinCall, exprs: list[ast.expr]) -> ast.expr:
        binfo = info_of(node.value)
        n = len(exprs)
        if binfo is not None and (n < binfo.min_args or (binfo.max_args is not None and n > binfo.max_args)):
            msg = "Wrong number of args (%d) passed to: %s" % (n, binfo.host_name)
            e: ast.expr = P.callname(H.HOST_FAIL_NOW, P.tuple_(exprs), P.const(msg))
        elif node.env:
            e = P.call(self.const(node.value.fn), P.name("D"), *exprs)
        elif keyword_assoc(node):  # issue 13.3: spell_runtime.keyword_assoc
            e = P.callname(H.ASSOC_KEYWORDS, *exprs)
        else:
            e = P.call(self.const(node.value), *exprs)
        return e

    def e_Call(self, node: ir.Call, scope: Scope, info: FnInfo) -> Result:
        if self.second_body is not None:  # issue 13.1: inside a closed fn's second body (published_calls)
            return Result(*published_calls.second_call(self, node, scope, info, self.second_body))
        if self._global_head(node):
            with P.at(node.head.pos):  # where ``_miss`` stood: an unbound head fails at the head's place
                head = Result([], P.call(P.attr(P.name("D"), "get"), self.const(node.form.first)))
        else:
            head = self.expr(node.head, scope, info)
        with self.nested(0, 2 if node.maybe_macro else 0):  # statement form: args inside the macro test's else
            args, stale = self.emit_in_order(node.args, scope, info)
        pos = self.call_pos(node.form, node.pos)
        # read by ``_macro_callee`` below, after the arguments (and the calls among them) are emitted
        self.run_once = self.runs_once(info)
        with P.at(pos):
            return self._call_expr(node, head, args, scope, pos, stale)

    def _global_head(self, node: ir.Call) -> bool:
        """Is the head a global symbol read as ``D.get(sym)``, resolved further by ``_callee_g``?

        Only at a call site that tests for macros (every global head does: ``analyze``) outside a
        body with published parameters, whose helpers take the head value as it is."""
        h = node.head
        return (node.maybe_macro and self.published is None and type(h) is ir.Global
                and h.sym is node.form.first)

    def _call_expr(self, node: ir.Call, head: Result, args: list[Result], scope: Scope, pos: Pos,
                   stale: list[bool]) -> Result:
        """A call site as one expression: the common case inline, every rare path in a runtime helper.

        Shape (architecture.md §2.5)::

            (f.code if type(f := head) is _SpellFn and f.arity == 2 else _applier(D, f, form))(D, head_form, a1, a2)

        The callee is chosen before any argument is evaluated, so the fast path and every other
        case (arity mismatch, a non-fn head: ``support.applier``) share one argument list and the
        arguments need no temporaries. When the head could name a user macro, choosing the callee
        is also the macro test: ``_callee`` answers None for a macro (issue 12: a Spell function
        is never a macro, so the common case stays one type test)::

            c(D, head_form, a1, a2) if (c := f.code if type(f := head) is _SpellFn and f.arity == 2
                                             else _callee(D, f, form)) else _macro_here(f, form, undo)

        A global head is read as ``D.get(sym)``, and ``_callee_g`` resolves a None that is no
        binding as ``_miss`` would (a builtin, else the unbound-symbol error: ``_global_head``).

        ``_macro_here`` (``support.macro_into``) expands and evaluates the macro call and appends the expansion's escaping
        defs to the scope's undo list in place; ``undo`` is a unit's ``_U``, or, in any other scope,
        the name of its undo local, whose list ``_macro_named`` makes on first use (``_macro_into``).
        """
        if head.stmts or any(a.stmts for a in args):
            return self._call_stmts(node, head, args, scope, pos, self.tmp("_f"))
        if self.published is not None:
            return self._published_call_expr(node, head, args, scope, stale)
        form_c = self.const(node.form)
        f = self.tmp("_f")
        head_form = self.const(node.form.first)
        head_type = P.callname("type", P.walrus(f, head.expr))
        if node.maybe_macro:
            c = self.tmp("_c")
            callee = P.walrus(c, self._macro_callee(node, head_type, f, len(args), form_c))
            call = P.call(P.name(c), P.name("D"), head_form, *[a.expr for a in args])
            return Result([], P.ifexp(callee, call, self._macro_into(self._head_local(node, f), form_c, scope)))
        return Result([], P.call(self._callee(head_type, f, len(args), form_c), P.name("D"), head_form,
                                 *[a.expr for a in args]))

    def _macro_callee(self, node: ir.Call, head_type: ast.expr, f: str, n: int, form_c: ast.expr) -> ast.expr:
        """The callee at a site that tests for macros, None for a macro (``_call_expr``); a global
        head's helper call stands where ``_miss`` stood, at the head (``e_Call``)."""
        if not self._global_head(node):
            return self._callee(head_type, f, n, form_c, P.callname(H.CALLEE, P.name("D"), P.name(f), form_c))
        with P.at(node.head.pos), P.at(self.fail_pos(node.form.first)):
            if self.run_once:
                # A unit's code outside loops runs once per evaluation: the whole choice, the head's
                # read included, is one helper call (``support.callee_once``), 20 nodes fewer than the
                # inline common case, as a global read there is ``_global(D, k)`` (``ValueEmitter.e_Global``;
                # issue 12). The macro branch reads the head again (``_head_local``).
                return P.callname(H.CALLEE_ONCE, P.name("D"), form_c, P.const(n))
            slow = P.callname(H.CALLEE_GLOBAL, P.name("D"), P.name(f), form_c)
        return self._callee(head_type, f, n, form_c, slow)

    def _head_local(self, node: ir.Call, f: str) -> Optional[str]:
        """The local holding the head's value for the macro branch, or None where the callee choice
        read the head itself (``_macro_callee``'s run-once case) and the branch reads it again."""
        return None if self.run_once and self._global_head(node) else f

    def _callee(self, head_type: ast.expr, f: str, n: int, form_c: ast.expr,
                slow: Optional[ast.expr] = None) -> ast.expr:
        """``f.code if <head_type> is _SpellFn and f.arity == n else _applier(D, f, form)`` (or ``slow``)."""
        if slow is None:
            slow = P.callname(H.APPLIER, P.name("D"), P.name(f), form_c)
        return P.ifexp(P.and_(P.is_(head_type, P.name(H.SPELL_FN)),
                              P.compare(P.attr(P.name(f), "arity"), P.EQ, P.const(n))),
                       P.attr(P.name(f), "code"), slow)

    def _macro_into(self, f: Optional[str], form_c: ast.expr, scope: Scope) -> ast.expr:
        """The macro branch: ``_macro_named(f, form, "_u3")`` (``support.macro_into`` with ``D`` read from the
        frame on this rare path, issue 12), which makes the scope's undo list on first use and stores it
        in the frame's local of that name itself; a unit's ``_U``, always a list, is passed as it is
        (``_macro_here``). With no local ``f``, None: the macro is the value of the form's head symbol."""
        scope.used = True  # the undo local exists (an outlined piece gets it and hands it back)
        m = P.const(None) if f is None else P.name(f)
        if scope.always_list:
            return P.callname(H.MACRO_HERE, m, form_c, P.name(scope.undo), *late.mark_args(self))
        return P.callname(H.MACRO_NAMED, m, form_c, P.const(scope.undo), *late.mark_args(self))

    def _published_call_expr(self, node: ir.Call, head: Result, args: list[Result], scope: Scope,
                             stale: list[bool]) -> Result:
        """A call site in a body whose parameters are published around calls (``published_calls``):
        arguments are evaluated into temporaries before the application, whose slow path hands the
        parameters' current values to the helper."""
        pub = self.published
        assert pub is not None
        form_c = self.const(node.form)
        f = self.tmp("_f")
        stores: list[ast.expr] = []  # ``(_a1 := x1)``: what the condition evaluates, left to right
        arg_exprs: list[ast.expr] = []
        for a, later_reload in zip(args, stale):
            # a literal, a constant or a Python local (unless a later argument may reassign it: ``emit_in_order``)
            if isinstance(a.expr, (ast.Constant, ast.Name)) and not later_reload:
                arg_exprs.append(a.expr)
            else:
                an = self.tmp("_a")
                stores.append(P.walrus(an, a.expr))
                arg_exprs.append(P.name(an))
        ty = self.tmp("_ty")
        head_type = P.name(ty) if node.maybe_macro else P.callname("type", P.name(f))
        dispatch = published_calls.dispatch_expr(self, pub, f, head_type, node.form.first, form_c,
                                                 arg_exprs)
        if node.maybe_macro:
            if published_calls.may_call_directly(pub, len(arg_exprs), node.form.first):
                not_macro = P.or_(P.is_(P.walrus(ty, P.callname("type", P.walrus(f, head.expr))),
                                        P.name(H.SPELL_FN)), P.callname(H.NOT_MACRO, P.name(f)))
                # Each store made a true test, ``(_a := x) is not _NOTHING``, several joined by ``&``: one
                # tuple display of the stores measured 10% slower on self-calls of two arguments.
                tests = [P.is_not(st, P.name(H.NOTHING)) for st in stores]
                stored: Optional[ast.expr] = P.bitand(*tests) if tests else None
            else:  # every application goes through ``_apply_pub``: no type test is worth its nodes (issue 12)
                not_macro = P.callname(H.NOT_MACRO, P.walrus(f, head.expr))
                # and the stores are one tuple display, always true: against the helper's call, the 10%
                # of a self-call is nothing, and it is 3 nodes and 2 parenthesised groups fewer a store
                stored = P.tuple_(stores) if stores else None
            cond = P.and_(not_macro, stored) if stored is not None else not_macro
            macro = published_calls.macro_expr(self, pub, f, form_c, scope)
            return Result([], P.ifexp(cond, dispatch, macro))
        if not stores:
            return Result([], P.ifexp(P.is_not(P.walrus(f, head.expr), P.name(H.NOTHING)), dispatch,
                                      P.const(None)))
        # no macro test (a constant head: a builtin or a namespace path, whose application is the helper's):
        # the head and the arguments are stored by one tuple display, always true
        return Result([], P.ifexp(P.tuple_([P.walrus(f, head.expr), *stores]), dispatch, P.const(None)))

    def _call_stmts(self, node: ir.Call, head: Result, args: list[Result], scope: Scope, pos: Pos,
                    f: str) -> Result:
        """A call site whose head or arguments need statements: the arguments go into temporaries.
        When the head could be a user macro, the callee is chosen first as in ``_call_expr``::

            if c := (f.code if type(f := head) is _SpellFn and f.arity == 1 else _callee(D, f, form)):
                _a1 = ...
                r = c(D, head_form, _a1)
            else:
                r = _macro_here(f, form, undo)
        """
        r = self.tmp("_cr")
        form_c = self.const(node.form)
        pub = self.published
        if node.maybe_macro and pub is None:
            return self._macro_call_stmts(node, head, args, scope, f, r, form_c)
        out: list[ast.stmt] = head.stmts + [P.assign(f, head.expr)]
        arg_stmts: list[ast.stmt] = []
        arg_names: list[str] = []
        for a in args:
            arg_stmts.extend(a.stmts)
            an = self.tmp("_a")
            arg_stmts.append(P.assign(an, a.expr))
            arg_names.append(an)
        n = len(args)
        call = P.assign(r, P.call(self._callee(P.callname("type", P.name(f)), f, n, form_c), P.name("D"),
                                  self.const(node.form.first), *[P.name(a) for a in arg_names]))
        dispatch = arg_stmts + ([call] if pub is None else published_calls.dispatch_stmts(
            self, pub, f, r, node.form.first, form_c, arg_names))
        if node.maybe_macro:
            assert pub is not None
            macro = published_calls.macro_stmts(self, pub, f, r, form_c, scope)
            out.append(P.if_(P.callname(H.IS_MACRO, P.name(f)), macro, dispatch))
        else:
            out.extend(dispatch)
        return Result(out, P.name(r))

    def _macro_call_stmts(self, node: ir.Call, head: Result, args: list[Result], scope: Scope, f: str, r: str,
                          form_c: ast.expr) -> Result:
        c = self.tmp("_c")
        callee = self._macro_callee(node, P.callname("type", P.walrus(f, head.expr)), f, len(args), form_c)
        body: list[ast.stmt] = []
        arg_names: list[ast.expr] = []
        for a in args:
            body.extend(a.stmts)
            an = self.tmp("_a")
            body.append(P.assign(an, a.expr))
            arg_names.append(P.name(an))
        body.append(P.assign(r, P.call(P.name(c), P.name("D"), self.const(node.form.first), *arg_names)))
        macro = [P.assign(r, self._macro_into(self._head_local(node, f), form_c, scope))]
        return Result(head.stmts + [P.if_(P.walrus(c, callee), body, macro)], P.name(r))
