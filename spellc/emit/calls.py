"""Call sites: calls of a symbol head, of a builtin, of a keyword.

Calls of a symbol head check, before any argument is evaluated, whether the head
value is a user macro; otherwise a Spell function with the right arity is called
straight through its compiled ``code`` and anything else goes through
``support.apply_fn``; every rare path is one runtime helper call (architecture.md
§2.5). Every call form gets a unique source position recorded in the module's
position table, which is how a host failure is attributed to its call form (see
``spell_runtime.support``).

In a function body whose parameters are published only around calls (``FnBody.published``,
issue 13.1) the application and the macro branch come from ``published_calls`` instead: a
direct call of the body's own compiled function when the head is that function, otherwise a
helper that publishes the parameters around the generic path.
"""

from __future__ import annotations

import ast

from spell_runtime.abi import H
from spell_runtime.core.registry import info_of

from ..analyze import ir
from . import published_calls
from . import pyast as P
from .base import FnInfo, Pos, Result, Scope
from .fastpaths import FastPathEmitter


class CallEmitter(FastPathEmitter):
    """Emits ``Call``, ``BuiltinCall`` and ``KeywordCall`` nodes."""

    # ------------------------------------------------------------------ calls
    def e_KeywordCall(self, node: ir.KeywordCall, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
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
        else:
            e = P.call(self.const(node.value), *exprs)
        return e

    def e_Call(self, node: ir.Call, scope: Scope, info: FnInfo) -> Result:
        head = self.expr(node.head, scope, info)
        with self.nested(0, 2 if node.maybe_macro else 0):  # statement form: args inside the macro test's else
            args = [self.expr(a, scope, info) for a in node.args]
        pos = self.call_pos(node.form, node.pos)
        with P.at(pos):
            return self._call_expr(node, head, args, scope, pos)

    def _call_expr(self, node: ir.Call, head: Result, args: list[Result], scope: Scope, pos: Pos) -> Result:
        """A call site as one expression: the common case inline, every rare path in a runtime helper.

        Shape (architecture.md §2.5)::

            f.code(D, head_form, a1, a2) if type(f) is _SpellFn and f.arity == 2 else _apply(D, f, form, (a1, a2))

        preceded, when the head could name a user macro, by the macro test that must run before
        any argument is evaluated (a Spell function is never a macro: that type test comes first)
        and whose rare branch, ``_macro_call``, also merges the expansion's escaping defs into the
        scope's undo list. Arguments that are literals or Python locals are used in place; others
        are evaluated once, in order, into temporaries.
        """
        n = len(args)
        form_c = self.const(node.form)
        f = self.tmp("_f")
        if head.stmts or any(a.stmts for a in args):
            return self._call_stmts(node, head, args, scope, pos, f)
        evals: list[ast.expr] = []
        arg_exprs: list[ast.expr] = []
        for a in args:
            if isinstance(a.expr, (ast.Constant, ast.Name)):  # a literal, a constant or a Python local
                arg_exprs.append(a.expr)
            else:
                an = self.tmp("_a")
                evals.append(P.is_not(P.walrus(an, a.expr), P.name(H.NOTHING)))
                arg_exprs.append(P.name(an))
        ty = self.tmp("_ty")
        head_type = P.name(ty) if node.maybe_macro else P.callname("type", P.name(f))
        pub = self.published
        dispatch = published_calls.dispatch_expr(self, pub, f, head_type, self.const(node.form.first), form_c,
                                                 arg_exprs) if pub is not None else P.ifexp(
            P.and_(P.is_(head_type, P.name(H.SPELL_FN)),
                   P.compare(P.attr(P.name(f), "arity"), ast.Eq(), P.const(n))),
            P.call(P.attr(P.name(f), "code"), P.name("D"), self.const(node.form.first), *arg_exprs),
            P.callname(H.APPLY, P.name("D"), P.name(f), form_c, P.tuple_(arg_exprs)))
        if node.maybe_macro:
            not_macro = P.or_(P.is_(P.walrus(ty, P.callname("type", P.walrus(f, head.expr))), P.name(H.SPELL_FN)),
                              P.not_(P.callname(H.IS_MACRO, P.name(f))))
            cond = P.and_(not_macro, P.bitand(*evals)) if evals else not_macro
            mv = self.tmp("_mr")
            scope.used = True
            macro = P.or_(P.is_(P.walrus(scope.undo, P.subscript(P.walrus(mv, P.callname(
                H.MACRO_CALL, P.name("D"), P.name(f), form_c, P.name(scope.undo))), P.const(1))), P.name(H.NOTHING)),
                P.subscript(P.name(mv), P.const(0))) if pub is None else published_calls.macro_expr(
                    self, pub, f, form_c, scope)
            return Result([], P.ifexp(cond, dispatch, macro))
        if not evals:
            return Result([], P.ifexp(P.is_not(P.walrus(f, head.expr), P.name(H.NOTHING)), dispatch,
                                      P.const(None)))
        cond = P.bitand(P.is_not(P.walrus(f, head.expr), P.name(H.NOTHING)), *evals)
        return Result([], P.ifexp(cond, dispatch, P.const(None)))

    def _call_stmts(self, node: ir.Call, head: Result, args: list[Result], scope: Scope, pos: Pos,
                    f: str) -> Result:
        r = self.tmp("_cr")
        form_c = self.const(node.form)
        out: list[ast.stmt] = head.stmts + [P.assign(f, head.expr)]
        arg_stmts: list[ast.stmt] = []
        arg_names: list[str] = []
        for a in args:
            arg_stmts.extend(a.stmts)
            an = self.tmp("_a")
            arg_stmts.append(P.assign(an, a.expr))
            arg_names.append(an)
        n = len(args)
        call_fast = P.assign(r, P.call(P.attr(P.name(f), "code"), P.name("D"), self.const(node.form.first),
                                       *[P.name(a) for a in arg_names]))
        call_slow = P.assign(r, P.callname(H.APPLY, P.name("D"), P.name(f), form_c,
                                           P.tuple_([P.name(a) for a in arg_names])))
        pub = self.published
        dispatch = arg_stmts + ([P.if_(P.and_(P.is_(P.callname("type", P.name(f)), P.name(H.SPELL_FN)),
                                              P.compare(P.attr(P.name(f), "arity"), ast.Eq(), P.const(n))),
                                       [call_fast], [call_slow])] if pub is None else published_calls.dispatch_stmts(
            self, pub, f, r, self.const(node.form.first), form_c, arg_names))
        if node.maybe_macro:
            scope.used = True
            mv = self.tmp("_mr")
            macro = [P.assign(mv, P.callname(H.MACRO_CALL, P.name("D"), P.name(f), form_c, P.name(scope.undo))),
                     P.assign(scope.undo, P.subscript(P.name(mv), P.const(1))),
                     P.assign(r, P.subscript(P.name(mv), P.const(0)))] if pub is None else published_calls.macro_stmts(
                self, pub, f, r, form_c, scope)
            out.append(P.if_(P.callname(H.IS_MACRO, P.name(f)), macro, dispatch))
        else:
            out.extend(dispatch)
        return Result(out, P.name(r))
