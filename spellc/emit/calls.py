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
from typing import cast

from spell_runtime.abi import H
from spell_runtime.core.registry import info_of

from ..analyze import ir
from . import late, published_calls
from . import pyast as P
from .base import FnInfo, Pos, Result, Scope
from .fastpaths import FastPathEmitter, keyword_assoc
from .natives import NativeEmitter


class CallEmitter(FastPathEmitter):
    """Emits ``Call``, ``BuiltinCall`` and ``KeywordCall`` nodes."""

    # ------------------------------------------------------------------ calls
    def e_KeywordCall(self, node: ir.KeywordCall, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            if node.inline:  # issue 13.3: the map read inline (natives.keyword_lookup)
                natives = cast(NativeEmitter, self)  # the composed Emitter has both
                return Result(stmts, natives.keyword_lookup(exprs[0], self.const(node.kw), exprs[1:]))
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
        head = self.expr(node.head, scope, info)
        with self.nested(0, 2 if node.maybe_macro else 0):  # statement form: args inside the macro test's else
            args = [self.expr(a, scope, info) for a in node.args]
        pos = self.call_pos(node.form, node.pos)
        with P.at(pos):
            return self._call_expr(node, head, args, scope, pos)

    def _call_expr(self, node: ir.Call, head: Result, args: list[Result], scope: Scope, pos: Pos) -> Result:
        """A call site as one expression: the common case inline, every rare path in a runtime helper.

        Shape (architecture.md §2.5)::

            (f.code if type(f := head) is _SpellFn and f.arity == 2 else _applier(D, f, form))(D, head_form, a1, a2)

        The callee is chosen before any argument is evaluated, so the fast path and every other
        case (arity mismatch, a non-fn head: ``support.applier``) share one argument list and the
        arguments need no temporaries. When the head could name a user macro, the macro test
        comes first (a Spell function is never a macro: that type test is made once and kept)::

            (f.code if ty is _SpellFn and f.arity == 2 else _applier(D, f, form))(D, head_form, a1, a2)
              if (ty := type(f := head)) is _SpellFn or _not_macro(f) else _macro_into(D, f, form, undo)

        ``_macro_into`` expands and evaluates the macro call and appends the expansion's escaping
        defs to the scope's undo list in place (a function body's list is made on first use:
        ``(_u := _u or [])``).
        """
        if head.stmts or any(a.stmts for a in args):
            return self._call_stmts(node, head, args, scope, pos, self.tmp("_f"))
        if self.published is not None:
            return self._published_call_expr(node, head, args, scope)
        form_c = self.const(node.form)
        f = self.tmp("_f")
        head_form = self.const(node.form.first)
        if node.maybe_macro:
            ty = self.tmp("_ty")
            test = P.or_(P.is_(P.walrus(ty, P.callname("type", P.walrus(f, head.expr))), P.name(H.SPELL_FN)),
                         P.callname(H.NOT_MACRO, P.name(f)))
            call = P.call(self._callee(P.name(ty), f, len(args), form_c), P.name("D"), head_form,
                          *[a.expr for a in args])
            return Result([], P.ifexp(test, call, self._macro_into(f, form_c, scope)))
        head_type = P.callname("type", P.walrus(f, head.expr))
        return Result([], P.call(self._callee(head_type, f, len(args), form_c), P.name("D"), head_form,
                                 *[a.expr for a in args]))

    def _callee(self, head_type: ast.expr, f: str, n: int, form_c: ast.expr) -> ast.expr:
        """``f.code if <head_type> is _SpellFn and f.arity == n else _applier(D, f, form)``."""
        return P.ifexp(P.and_(P.is_(head_type, P.name(H.SPELL_FN)),
                              P.compare(P.attr(P.name(f), "arity"), ast.Eq(), P.const(n))),
                       P.attr(P.name(f), "code"), P.callname(H.APPLIER, P.name("D"), P.name(f), form_c))

    def _macro_into(self, f: str, form_c: ast.expr, scope: Scope) -> ast.expr:
        """The macro branch: ``_macro_into(D, f, form, undo)``, the scope's undo list made on first use."""
        scope.used = True
        undo: ast.expr = P.name(scope.undo) if scope.always_list else P.walrus(
            scope.undo, P.or_(P.name(scope.undo), P.list_([])))
        return P.callname(H.MACRO_INTO, P.name("D"), P.name(f), form_c, undo, *late.mark_args(self))

    def _published_call_expr(self, node: ir.Call, head: Result, args: list[Result], scope: Scope) -> Result:
        """A call site in a body whose parameters are published around calls (``published_calls``):
        arguments are evaluated into temporaries before the application, whose slow path hands the
        parameters' current values to the helper."""
        pub = self.published
        assert pub is not None
        form_c = self.const(node.form)
        f = self.tmp("_f")
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
        dispatch = published_calls.dispatch_expr(self, pub, f, head_type, self.const(node.form.first), form_c,
                                                 arg_exprs)
        if node.maybe_macro:
            not_macro = P.or_(P.is_(P.walrus(ty, P.callname("type", P.walrus(f, head.expr))), P.name(H.SPELL_FN)),
                              P.callname(H.NOT_MACRO, P.name(f)))
            cond = P.and_(not_macro, P.bitand(*evals)) if evals else not_macro
            macro = published_calls.macro_expr(self, pub, f, form_c, scope)
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
        call = P.assign(r, P.call(self._callee(P.callname("type", P.name(f)), f, n, form_c), P.name("D"),
                                  self.const(node.form.first), *[P.name(a) for a in arg_names]))
        pub = self.published
        dispatch = arg_stmts + ([call] if pub is None else published_calls.dispatch_stmts(
            self, pub, f, r, self.const(node.form.first), form_c, arg_names))
        if node.maybe_macro:
            macro = [P.assign(r, self._macro_into(f, form_c, scope))] if pub is None else published_calls.macro_stmts(
                self, pub, f, r, form_c, scope)
            out.append(P.if_(P.callname(H.IS_MACRO, P.name(f)), macro, dispatch))
        else:
            out.extend(dispatch)
        return Result(out, P.name(r))
