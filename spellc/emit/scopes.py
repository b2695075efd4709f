"""Statements, exits and binding scopes: body sequences, ``if``, ``let``, ``loop``/``recur``,
``fn`` bodies, ``for``, ``try``, ``def`` and raising.

The analyzer gives every IR node its context (``ir.Ctx``); ``stmts`` reads it. A value in
tail context leaves through the current exit (``self.exit``, set by the unit, ``fn`` body
or ``loop`` that owns the tail): ``return`` in a function body, or "store and break" in a
``loop``; a ``recur`` in a tail position becomes re-binding plus ``continue`` of the
enclosing ``while True`` (no trampoline, no marker allocated).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from sys import intern
from typing import Any, ClassVar, Optional, TypeVar, cast

from spell_runtime.abi import H, L
from spell_runtime.data import Symbol
from spell_runtime.epoch import EPOCH

from ..analyze import ir
from ..analyze.types import LONG
from . import late
from . import pyast as P
from .base import BLOCK_BUDGET, Exit, FnExit, FnInfo, LoopExit, Pos, Result, ReturnExit, Scope
from .bounds import branch_ranges
from .published_calls import Published
from .typed import TypedEmitter

_B = TypeVar("_B")

_TAIL_CTXS = tuple(ir.TAIL_CTXS)
"""``ir.TAIL_CTXS`` as a tuple: ``in`` finds a member by identity, where the frozenset hashed the enum
member through ``Enum.__hash__``, a Python call (``tail_of`` asks once per statement)."""


class ScopeEmitter(TypedEmitter):
    """Emits statements, tail exits and the constructs that open a binding scope."""

    _STATEMENTS: ClassVar[dict[type, _Statements]]
    """IR kinds with a statement form of their own, in any context (filled below the class)."""

    # ------------------------------------------------------------------ statements and tail exits
    def tail_of(self, node: ir.Node) -> Optional[Exit]:
        """The exit ``node``'s value leaves through: the current one when the analyzer put the node in
        tail context (RETURN, LOOP), else None (its value is used, or discarded)."""
        return self.exit if node.ctx in _TAIL_CTXS else None

    def stmts(self, node: ir.Node, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        """Emit ``node`` as statements: in tail context its value leaves through ``self.exit``, else it
        is evaluated for effect only."""
        tail = self.tail_of(node)
        if self._too_deep(node):
            res = self.expr(node, scope, info)
            with P.at(node.pos):
                if tail is not None:
                    # Outlined, a tail recur arrives here as a recur request value, which ``deliver``
                    # turns back into a jump (loop) or a re-application (fn).
                    return res.stmts + self.deliver(res.expr, True)
                return res.stmts + [P.expr_stmt(res.expr)]
        saved, self.edepth = self.edepth, 0  # a statement's expression starts shallow
        try:
            with P.at(node.pos):
                if tail is not None:
                    return self._tail_stmts(node, scope, tail, info)
                return self._stmts(node, scope, info)
        finally:
            self.edepth = saved

    def _stmts(self, node: ir.Node, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        if isinstance(node, ir.SubUnits):
            scope.used = True
            keys = self.const(node.keys)  # one constant, not one AST node per element (issue 14)
            return [*late.flag_statement(self), P.assign(scope.undo, P.callname(H.SUBUNITS, P.name("D"), self.const(node.elems), keys,
                                                    P.name(scope.undo)))]
        if isinstance(node, (ir.Const, ir.Local, ir.BuiltinRef, ir.Fn)) or (
                isinstance(node, ir.NsRef) and node.has_static_root):
            return []
        statements = self._STATEMENTS.get(type(node))
        if statements is not None:
            return statements(self, node, scope, info)
        res = self.expr(node, scope, info)
        out = list(res.stmts)
        e = res.expr
        if not isinstance(e, (ast.Name, ast.Constant)):
            out.append(P.expr_stmt(e))
        return out

    def _tail_stmts(self, node: ir.Node, scope: Scope, tail: Exit, info: FnInfo) -> list[ast.stmt]:
        statements = self._STATEMENTS.get(type(node))
        if statements is not None:
            return statements(self, node, scope, info)
        if isinstance(node, ir.Quine):
            out = self.quine_bind(node, scope, info)
            return out + self.stmts(node.last, scope, info)
        if isinstance(node, ir.Recur) and self._recur_jumps(node, tail):
            return self.recur_jump(node, scope, info, tail)
        res = self.expr(node, scope, info)
        return res.stmts + self.deliver(res.expr, self.may_be_map_typed(node))

    @staticmethod
    def _recur_jumps(node: ir.Recur, tail: Exit) -> bool:
        return ((node.target == "loop" and isinstance(tail, LoopExit))
                or (node.target == "fn" and isinstance(tail, FnExit)))

    def deliver(self, value: ast.expr, may_be_map: bool) -> list[ast.stmt]:
        """Statements that hand a tail value to ``self.exit`` (checking for a recur request when needed)."""
        tail = self.exit
        assert tail is not None
        out: list[ast.stmt] = []
        if isinstance(tail, ReturnExit):
            if may_be_map and isinstance(tail, FnExit) and not tail.longs:
                # A recur request that arrives as a value (Q17; rare: only maps can be one) re-enters
                # the function by a call in ``_recur_here`` rather than a loop, which keeps the
                # common path free of loop bookkeeping. (A body applied by a builtin, ``_H`` None,
                # hands the request back as its value: that test is the helper's.) The helper takes
                # the body and ``D`` from this frame (``spell_runtime.frame_paths``).
                v = self.tmp("_v")
                plain = P.compare(P.callname("type", P.walrus(v, value)), P.NOT_IN, P.name(H.MAYBE_RECUR))
                again = P.callname(H.RECUR_HERE, P.name(v), P.name(L.HEAD), self.const(tail.form))
                out.append(P.ret(P.ifexp(plain, P.name(v), again)))
            else:
                out.append(P.ret(value))
        else:
            if may_be_map:
                v = self.tmp("_v")
                rv = self.tmp("_rv")
                out.append(P.assign(v, value))
                out.append(P.if_(P.and_(self._maybe_marker(v),
                                        P.is_not(P.walrus(rv, P.callname(H.RECUR_OF, P.name(v))), P.const(None))),
                                 [*self._loop_rebind_now(tail, P.name(rv)), P.cont()]))
                out.append(P.assign(tail.result_var, P.name(v)))
            else:
                out.append(P.assign(tail.result_var, value))
            out.append(P.brk())
        return out

    @staticmethod
    def _maybe_marker(v: str) -> ast.expr:
        """Cheap pre-test before asking whether a value is a recur request: only maps can be."""
        return P.compare(P.callname("type", P.name(v)), P.IN, P.name(H.MAYBE_RECUR))

    # ------------------------------------------------------------------ fn values, def, raising
    def e_Fn(self, node: ir.Fn, scope: Scope, info: FnInfo) -> Result:
        if node.body is None:
            return Result([], P.callname(H.SPELL_FN, self.const(node.params), self.const(node.body_forms)))
        fname = self.tmp("_fn")
        self.fn_body(node.body, node.pos, fname)
        return Result([], P.callname(H.SPELL_FN, self.const(node.params), self.const(node.body_forms),
                                     P.name(fname)))

    def e_Quine(self, node: ir.Quine, scope: Scope, info: FnInfo) -> Result:
        stmts = self.quine_bind(node, scope, info)
        res = self.expr(node.last, scope, info)
        return Result(stmts + res.stmts, res.expr)

    def quine_bind(self, node: ir.Quine, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        return self.bind_def(node.sym, self.const(node.form), scope, node.pos)

    def bind_def(self, sym: Any, value: ast.expr, scope: Scope, pos: Optional[Pos]) -> list[ast.stmt]:
        scope.used = True
        s = self.const(sym)
        out: list[ast.stmt] = [
            P.assign(scope.undo, P.callname(H.REC, P.name(scope.undo), P.name("D"), s)),
            P.assign_item(P.name("D"), s, value),
        ]
        return out

    def e_Def(self, node: ir.Def, scope: Scope, info: FnInfo) -> Result:
        res = self.expr(node.value, scope, info)
        if scope.always_list:  # a unit's def: one helper call records, binds and gives the value
            scope.used = True
            return Result(res.stmts, P.callname(H.DEFINE, P.name("D"), P.name(scope.undo), self.const(node.sym),
                                                res.expr))
        v = self.tmp()
        stmts = res.stmts + [P.assign(v, res.expr)]
        stmts += self.bind_def(node.sym, P.name(v), scope, node.pos)
        return Result(stmts, P.name(v))

    def e_Throw(self, node: ir.Throw, scope: Scope, info: FnInfo) -> Result:
        res = self.expr(node.arg, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            return Result(res.stmts, P.callname(H.THROW_NOW, res.expr, self.const(node.form)))

    def e_Late(self, node: ir.Late, scope: Scope, info: FnInfo) -> Result:
        """A static reference after a possible run-time binding (``emit.late``): its static code while
        the activation's flag is empty, else the dynamic evaluation of its form."""
        if not self.late_flag:  # a second body (``analyze.selfcalls``): no flag, nothing binds there
            return self.expr(node.node, scope, info)
        with self.nested(1):
            static = self.expr(node.node, scope, info)
        back = late.fallback(self, node, scope)
        if self.late_checks_return(node):
            tail = self.exit
            assert isinstance(tail, FnExit)
            back = P.callname(H.RECUR_HERE, back, P.name(L.HEAD), self.const(tail.form))
        return Result(*late.guarded(static.stmts, static.expr, back, self.tmp()))

    def e_Fail(self, node: ir.Fail, scope: Scope, info: FnInfo) -> Result:
        stmts, _ = self.exprs_in_order(node.pre, scope, info)
        return Result(stmts, P.callname(H.FAIL_NOW, P.const(node.message), self.const(node.form)))

    def raise_stmts(self, node: ir.Node, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        if type(node) is ir.Throw:
            res = self.expr(node.arg, scope, info)
            with P.at(self.call_pos(node.form, node.pos)):
                r = P.raise_(P.callname(H.THROW, res.expr, self.const(node.form)))
            return res.stmts + [r]
        assert type(node) is ir.Fail
        stmts, _ = self.exprs_in_order(node.pre, scope, info)
        with P.at(self.fail_pos()):
            r = P.raise_(P.callname(H.FAIL, P.const(node.message), self.const(node.form)))
        return stmts + [r]

    # ------------------------------------------------------------------ if
    def e_If(self, node: ir.If, scope: Scope, info: FnInfo) -> Result:
        taken = _constant_branch(node)
        if taken is not None:
            return self.expr(taken, scope, info)
        test = self.expr(node.test, scope, info)
        with self.nested(0, 1):  # the branches become statement bodies if either has statements
            then, else_ = self._branches(node, lambda n: self.expr(n, scope, info))
        cond = self.truth(test.expr, node.test_is_bool)
        if not then.stmts and not else_.stmts:
            return Result(test.stmts, P.ifexp(cond, then.expr, else_.expr))
        v = self.tmp()
        body = then.stmts + [P.assign(v, then.expr)]
        orelse = else_.stmts + [P.assign(v, else_.expr)]
        st = P.if_(cond, body, orelse)
        return Result(test.stmts + [st], P.name(v))

    def truth(self, e: ast.expr, known_bool: bool) -> ast.expr:
        if known_bool:
            return e
        t = self.tmp()
        return P.and_(P.is_not(P.walrus(t, e), P.const(None)), P.is_not(P.name(t), P.const(False)))

    def if_stmts(self, node: ir.If, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        """``(if t a b)`` as an ``if`` statement whose branches are statements in the ``if``'s context."""
        taken = _constant_branch(node)
        if taken is not None:
            return self.stmts(taken, scope, info)
        test = self.expr(node.test, scope, info)
        cond = self.truth(test.expr, node.test_is_bool)
        with self.nested(0, 1):  # an ``else`` holding only an ``if`` is written ``elif``: no deeper
            body, orelse = self._branches(node, lambda n: self.stmts(n, scope, info))
        st = P.if_(cond, body, orelse)
        return test.stmts + [st]

    def _branches(self, node: ir.If, emit: Callable[[ir.Node], _B]) -> tuple[_B, _B]:
        """Both branches of an ``if``, each with what its test proves about a fixed long local's
        range (``bounds``) while it is emitted."""
        if not self.range_ints:
            return emit(node.then), emit(node.else_)
        facts = branch_ranges(node.test, self.private, self.range_ints, self.int_ranges)
        if facts is None:
            return emit(node.then), emit(node.else_)
        var, then_range, else_range = facts
        saved = self.int_ranges
        try:
            self.int_ranges = {**saved, var: then_range}
            then = emit(node.then)
            self.int_ranges = {**saved, var: else_range}
            return then, emit(node.else_)
        finally:
            self.int_ranges = saved

    # ------------------------------------------------------------------ sequences
    def e_Seq(self, node: ir.Seq, scope: Scope, info: FnInfo) -> Result:
        if not node.body:
            return Result([], P.const(None))
        if len(node.body) == 1 and _cannot_fail(node.body[0]):
            return self.expr(node.body[0], scope, info)
        v = self.tmp()
        stmts = self.seq_stmts(node, scope, info, result_var=v)
        return Result(stmts, P.name(v))

    def e_SubUnits(self, node: ir.SubUnits, scope: Scope, info: FnInfo) -> Result:
        """Every element of a body sequence as cached sub-units; the value is the last one's (``value``)."""
        assert node.value, "only a SubUnits node standing for every element has a value"
        scope.used = True
        r = self.tmp()
        flag = late.flag_statement(self)
        call = P.callname(H.SUBUNITS_VALUE, P.name("D"), self.const(node.elems), self.const(node.keys),
                          P.name(scope.undo))
        return Result([*flag, P.assign(r, call), P.assign(scope.undo, P.subscript(P.name(r), P.const(0)))],
                      P.subscript(P.name(r), P.const(1)))

    def seq_stmts(self, node: ir.Seq, scope: Scope, info: FnInfo, result_var: Optional[str] = None,
                  bare_ci: Optional[str] = None) -> list[ast.stmt]:
        """A body sequence; unless ``bare_ci`` is given, wrapped in a handler that marks the failing element.

        Its value leaves through the exit in tail context, else goes to ``result_var`` if given."""
        tail = self.tail_of(node)
        if not node.body:
            if tail is not None:
                return self.deliver(P.const(None), False)
            if result_var:
                return [P.assign(result_var, P.const(None))]
            return []
        n = len(node.body)
        nested = bare_ci is None and self.marking
        ci = bare_ci or self.tmp("_ci")
        saved_marking = self.marking
        self.marking = True
        try:
            with self.nested(0 if nested or bare_ci is not None else 1):  # its handler's try
                body = self._seq_elements(node, scope, info, tail, result_var, ci, counted=not nested)
        finally:
            self.marking = saved_marking
        if nested or bare_ci is not None:
            return body
        if all(_cannot_fail(el) for el in node.body):
            return body
        skipped = len(node.elems) - n
        # A sequence that is one SubUnits node marks its own failing element (-1 = already marked).
        index: ast.expr = P.name(ci) if n > 1 else P.const(-1 if type(node.body[0]) is ir.SubUnits else skipped)
        handler = [P.raise_(P.callname(H.SEQ_FAILED_HERE, self.const(node.elems), index))]
        # No ``ci = 0`` before the ``try``: with more than one element, the try's first statement
        # sets ``ci`` (``_seq_elements``), before anything that can fail.
        return [P.try_(body, None, handler)]

    def _seq_elements(self, node: ir.Seq, scope: Scope, info: FnInfo, tail: Optional[Exit],
                      result_var: Optional[str], ci: str, counted: bool) -> list[ast.stmt]:
        """The statements of a body sequence's elements (``counted``: keep ``ci`` = the running element)."""
        n = len(node.body)
        body: list[ast.stmt] = []
        skipped = len(node.elems) - n  # elements folded into a leading SubUnits node
        for i, el in enumerate(node.body):
            if n > 1 and counted:
                # -1 while sub-units run: they mark their own failing element
                body.append(P.assign(ci, P.const(-1 if isinstance(el, ir.SubUnits) else i + skipped)))
            last = i == n - 1
            if not last or tail is not None:
                body.extend(self.stmts(el, scope, info))
            elif result_var:
                res = self.expr(el, scope, info)
                body.extend(res.stmts)
                body.append(P.assign(result_var, res.expr))
            else:
                body.extend(self.stmts(el, scope, info))
        return body

    # ------------------------------------------------------------------ binding scopes
    def _saves(self, syms: tuple[Symbol, ...], pos: Optional[Pos]) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """Save the current bindings of ``syms`` and restore them (in reverse) later: from
        ``RESTORED_TOGETHER`` names on, by one ``_restore_all(D, syms, (o1, o2, …))`` call (9 ``ast``
        nodes for three names instead of 18, and measured no slower; the saves stay inline
        ``D.get`` calls, faster than any helper)."""
        saves: list[ast.stmt] = []
        restores: list[ast.stmt] = []
        olds: list[str] = []
        for s in syms:
            o = self.tmp("_o")
            self.saved_var[s] = o
            olds.append(o)
            sc = self.const(s)
            saves.append(P.assign(o, P.call(P.attr(P.name("D"), "get"), sc, P.name(H.MISS))))
            restores.append(P.expr_stmt(P.callname(H.RESTORE, P.name("D"), sc, P.name(o))))
        restores.reverse()
        if len(syms) >= RESTORED_TOGETHER:
            restores = [P.expr_stmt(P.callname(H.RESTORE_ALL, P.name("D"), self.const(tuple(syms)),
                                               P.tuple_([P.name(o) for o in olds])))]
        return saves, restores

    @staticmethod
    def unwind_if_any(undo: str) -> ast.stmt:
        """``undo and _unwind(D, undo)``: restore a scope's escaping defs if it made any. (Two nodes
        fewer than ``if undo is not None:``, and as fast; an empty list has nothing to restore.)"""
        return P.expr_stmt(P.and_(P.name(undo), P.callname(H.UNWIND, P.name("D"), P.name(undo))))

    def param_saves(self) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """Keep a published body's parameter locals at a let, loop or for's entry, and put them back
        as it exits (``_s1 = _p0`` ... ``_p0 = _s1``).

        Why: a macro expansion (or late fallback) may ``def`` a parameter's name; the call site
        reloads the local (``published_calls.macro_expr``), and the helper drops that def's undo
        entry, since the name is not in ``D`` (``spell_runtime.published``). At the fn body's own
        level that is exact: the def lasts until the body ends or a ``recur`` rebinds the
        parameters. Inside a let, a loop body or a for it is not: the def is undone when the scope
        exits (language.md §6.4: their result env is the env at their entry), so the local must
        go back to its value at entry. Only normal exits put it back (statements after the scope's
        ``try``, a loop's iteration top, a for's next element): a failure keeps the value at the
        failure point, which is the error's env and the env a ``catch`` runs in (§6.5, Q13); a
        ``return`` or a fn ``recur`` leaves the body or rebinds every parameter. A ``break`` out of
        a let in a loop's tail skips the let's restore, so a loop puts the parameters back when any
        reload sits anywhere inside it (``param_reloads``), not only in its own scope."""
        if self.published is None or not self.published.locals_:
            return [], []
        kept = self.tmp("_s")
        locals_ = self.published.locals_
        if len(locals_) == 1:  # else one tuple, kept and unpacked (fewer nodes; a rare shape)
            return [P.assign(kept, P.name(locals_[0]))], [P.assign(locals_[0], P.name(kept))]
        tgt = P.node(ast.Tuple(elts=[P.store(v) for v in locals_], ctx=P.STORE))
        return ([P.assign(kept, P.tuple_([P.name(v) for v in locals_]))],
                [P.node(ast.Assign(targets=[tgt], value=P.name(kept)))])

    def _publish(self, body: ir.FnBody, params: list[str], jumps: bool,
                 undo: Optional[str]) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """Saves and restores of a fn body whose parameters live in the env. With plain symbol
        parameters and no recur loop (which rebinds them at the top of every iteration), one
        ``_publish`` call saves and binds them all before the ``try``, and its answer is the undo
        list that ``_unwind`` restores from in the ``finally``: two statements in all instead of
        three per parameter (issue 12, code shape). When the body has an undo list (``undo``), the
        saved entries start it: ``_unwind`` restores the body's escaping defs, newest first, then
        the parameters, the order of the separate ``finally`` statements it replaces."""
        if jumps or not _plain_params(body):
            return self._saves(body.syms, None)
        saved = undo if undo is not None else self.tmp("_o")
        publish = P.callname(H.PUBLISH, P.name("D"), self.const(tuple(body.params)), P.tuple_([P.name(p) for p in params]))
        return [P.assign(saved, publish)], [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(saved)))]

    def bind_pattern(self, pattern: Any, value: ast.expr, pos: Optional[Pos]) -> list[ast.stmt]:
        """Bind a destructuring pattern (plain symbols directly, others through ``destructure``)."""
        if type(pattern) is Symbol:
            st = P.assign_item(P.name("D"), self.const(pattern), value)
            return [st]
        k, v = self.tmp("_bk"), self.tmp("_bv")
        loop = P.node(ast.For(target=P.node(ast.Tuple(elts=[P.store(k), P.store(v)], ctx=P.STORE)),
                       iter=P.callname(H.DESTRUCTURE, self.const(pattern), value),
                              body=[P.assign_item(P.name("D"), P.name(k), P.name(v))], orelse=[]))
        return [loop]

    def _private_args(self, syms: Any) -> list[ast.expr]:
        return [self.const(tuple(syms)), P.tuple_([self.private_value(self.private[s]) for s in syms])]

    def _scope_frame(self, scope: Scope, saves: list[ast.stmt], restores: list[ast.stmt], body: list[ast.stmt],
                     pos: Optional[Pos], privates: Optional[list[ast.expr]] = None) -> list[ast.stmt]:
        fin: list[ast.stmt] = []
        pre: list[ast.stmt] = list(saves)
        if scope.used:
            pre.append(P.assign(scope.undo, P.const(None)))
            fin.append(self.unwind_if_any(scope.undo))
        fin.extend(restores)
        # The handlers take the exception, ``D`` and ``_T`` from this frame (``spell_runtime.frame_paths``).
        if privates is not None:
            handler = [P.raise_(P.callname(H.PRIV_FAILED_HERE, *privates))]
        else:
            handler = [P.raise_(P.callname(H.CONV_HERE))]
        st = P.try_(body, None, handler, fin)
        return pre + [st]

    def e_Let(self, node: ir.Let, scope: Scope, info: FnInfo) -> Result:
        v = self.tmp()
        return Result(self.let_stmts(node, scope, info, v), P.name(v))

    def let_stmts(self, node: ir.Let, outer: Scope, info: FnInfo, result_var: Optional[str] = None) -> list[ast.stmt]:
        """A ``let`` scope: saves, bindings and body in ``try``/``finally`` (Python locals when private)."""
        scope = Scope(self.tmp("_u"))
        saved_private = self.private
        self.private = dict(saved_private)
        try:
            with self.nested(2):  # the scope's try/except/finally
                body = self._let_body(node, scope, info, result_var)
            # In tail context every way out returns, jumps or breaks (then a loop puts them back):
            # nothing after the ``try`` runs, so nothing is kept.
            kept, put_back = self.param_saves() if scope.reloads and node.ctx not in _TAIL_CTXS else ([], [])
            if node.private:
                own = {b.pattern: self.private[b.pattern] for b in node.bindings}
                pre = [P.assign(var, P.name(H.MISS)) for var in dict.fromkeys(own.values())]
                return kept + pre + self._scope_frame(scope, [], [], body, node.pos,
                                                      privates=self._private_args(own)) + put_back
        finally:
            self.private = saved_private
        saves, restores = self._saves(node.syms, node.pos)
        return kept + self._scope_frame(scope, saves, restores, body, node.pos) + put_back

    def _let_body(self, node: ir.Let, scope: Scope, info: FnInfo, result_var: Optional[str]) -> list[ast.stmt]:
        """The bindings (into ``self.private`` when the let is private) and the body of a ``let``."""
        body: list[ast.stmt] = []
        own: dict[Symbol, str] = {}
        for b in node.bindings:
            res = self.expr(b.value, scope, info)
            body.extend(res.stmts)
            if node.private:
                var = own.get(b.pattern)
                if var is None:
                    var = own[b.pattern] = self.tmp("_l")
                body.append(P.assign(var, res.expr))
                self.private[b.pattern] = var
            else:
                body.extend(self.bind_pattern(b.pattern, res.expr, b.value.pos or node.pos))
        body.extend(self.seq_stmts(node.body, scope, info, result_var=result_var))
        return body

    # ------------------------------------------------------------------ loop / recur
    def e_Loop(self, node: ir.Loop, scope: Scope, info: FnInfo) -> Result:
        v = self.tmp("_lr")
        return Result(self.loop_stmts(node, scope, info, v), P.name(v))

    def loop_stmts(self, node: ir.Loop, outer: Scope, info: FnInfo, result_var: str) -> list[ast.stmt]:
        # Initial values: evaluated in the enclosing scope, before any loop binding (Q12, Q15).
        init_stmts, init_exprs = self.exprs_in_order(node.inits, outer, info)
        vars_ = [self.tmp("_lv") for _ in node.patterns]
        pre = init_stmts + [P.assign(vn, e) for vn, e in zip(vars_, init_exprs)]
        scope = Scope(self.tmp("_u"))
        # Private: the loop variables themselves hold the bindings (see analyze.privacy).
        tail = LoopExit(result_var, vars_, self.tmp("_lt"), tuple(node.patterns) if node.private else None)
        saved_exit, self.exit = self.exit, tail
        self.loops += 1
        try:
            return self._loop_scope(node, scope, info, tail, vars_, pre)
        finally:
            self.exit = saved_exit
            self.loops -= 1

    def _loop_scope(self, node: ir.Loop, scope: Scope, info: FnInfo, tail: LoopExit, vars_: list[str],
                    pre: list[ast.stmt]) -> list[ast.stmt]:
        """``pre`` (the initial values), then the loop's scope frame around ``while True:`` (its body
        in LOOP context)."""
        if node.private:
            saved_private = self.private
            self.private = dict(saved_private)
            self.private.update(zip(node.patterns, vars_))
            saved_typed = self.enter_typed_loop(node, vars_)  # types, lists (emit/typed.py)
            if self.transients:  # a loop vector starts as a list copy of its initial value
                n = len(pre) - len(vars_)
                pre = pre[:n] + [P.assign(vn, self.loop_init(vn, cast(ast.Assign, a).value))
                                 for vn, a in zip(vars_, pre[n:])]
            reloads = self.param_reloads
            try:
                with self.nested(3):  # the scope's try/except/finally and the while
                    body_stmts = self.seq_stmts(node.body, scope, info)
                privates = self._private_args(node.patterns)
            finally:
                self.private = saved_private
                self.leave_typed_loop(saved_typed)
            kept, put_back = self.param_saves() if self.param_reloads != reloads else ([], [])
            top: list[ast.stmt] = []
            if scope.used:
                top.append(self.unwind_if_any(scope.undo))
            loop = P.while_true(top + put_back + body_stmts)
            after = put_back if node.ctx not in _TAIL_CTXS else []  # as for a let (let_stmts)
            return pre + kept + self._scope_frame(scope, [], [], [loop], node.pos, privates=privates) + after
        reloads = self.param_reloads
        with self.nested(3):
            body_stmts = self.seq_stmts(node.body, scope, info)
        kept, put_back = self.param_saves() if self.param_reloads != reloads else ([], [])
        saves, restores = self._saves(node.syms, node.pos)
        top = list(put_back)  # every iteration starts from the env at the loop's entry (see param_saves)
        if scope.used:
            top.append(self.unwind_if_any(scope.undo))
        direct: list[ast.stmt] = []
        for pat, vn in zip(node.patterns, vars_):
            direct.extend(self.bind_pattern(pat, P.name(vn), node.pos))
        if tail.uses_tuple_path:
            base = P.tuple_([P.name(self.saved_var[sym]) for sym in node.syms])
            general = [P.expr_stmt(P.callname(H.LOOP_REBIND, P.name("D"), self.const(node.patterns),
                                              P.name(tail.recur_tuple_var), self.const(tuple(node.syms)), base)),
                       P.assign(tail.recur_tuple_var, P.const(None))]
            top.append(P.if_(P.is_not(P.name(tail.recur_tuple_var), P.const(None)), general, direct or None))
            pre.append(P.assign(tail.recur_tuple_var, P.const(None)))
        else:
            top.extend(direct)
        loop = P.while_true(top + body_stmts)
        # the saved outer values are what a pattern without a recur value falls back to
        out = self._scope_frame(scope, saves, restores, [loop], node.pos)
        return pre + kept + out + (put_back if node.ctx not in _TAIL_CTXS else [])

    def _loop_rebind_now(self, tail: LoopExit, vals: ast.expr) -> list[ast.stmt]:
        """Re-bind loop variables from a recur request of any length (Q16), before ``continue``."""
        if tail.private_patterns is not None:
            tgt = P.node(ast.Tuple(elts=[P.store(v) for v in tail.recur_vars], ctx=P.STORE))
            # A variable left without a value and with no binding outside the loop fails here
            # (``Unbound symbol``): a built module records the place (``place_pos``), or it said 1:1.
            with P.at(self.place_pos() if self.text_places else None):
                rebind = P.callname(H.PRIVATE_REBIND, P.name("D"), vals, self.const(tail.private_patterns))
            return [P.node(ast.Assign(targets=[tgt], value=rebind)), *self.relist(tail)]
        tail.uses_tuple_path = True
        return [P.assign(tail.recur_tuple_var, vals)]

    def recur_jump(self, node: ir.Recur, scope: Scope, info: FnInfo, tail: Exit) -> list[ast.stmt]:
        """A tail ``recur``: re-bind the loop variables (fn parameters) and ``continue``."""
        if isinstance(tail, LoopExit) and len(node.args) == len(tail.recur_vars) and self.has_lists(tail):
            return self.recur_jump_lists(node, scope, info, tail)
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        out = list(stmts)
        if isinstance(tail, LoopExit):
            if len(exprs) == 1 and len(tail.recur_vars) == 1:
                out.append(P.assign(tail.recur_vars[0], exprs[0]))
            elif len(exprs) == len(tail.recur_vars):
                # One tuple assignment: every value is computed before any variable changes (a failing
                # argument leaves them all as they were), with no temporaries to store and reload.
                tgt = P.node(ast.Tuple(elts=[P.store(v) for v in tail.recur_vars], ctx=P.STORE))
                out.append(P.node(ast.Assign(targets=[tgt], value=P.tuple_(exprs))))
            else:
                out.extend(self._loop_rebind_now(tail, P.tuple_(exprs)))
            out.append(P.cont())
        else:
            assert isinstance(tail, FnExit)
            if len(exprs) != tail.arity:
                # The arguments are evaluated before the count is checked (§8.1 step 5: the marker
                # exists first), so ``(recur (throw x) 1)`` fails with the throw (switch-off tests).
                temps = [self.tmp() for _ in exprs]
                out += [P.assign(t, e) for t, e in zip(temps, exprs)]
                marker = P.callname(H.MAKE_RECUR, P.tuple_([P.name(t) for t in temps]))
                with P.at(self.fail_pos()):
                    fail = P.raise_(P.callname(H.FAIL, P.const("Wrong number of args: expected %d, got %d"
                                                                % (tail.arity, len(exprs))), self.const(node.form)))
                out.append(P.if_(P.is_(P.name(L.HEAD), P.const(None)), [P.ret(marker)], [fail]))
            else:
                temps = [self.tmp() for _ in exprs]
                out += [P.assign(t, e) for t, e in zip(temps, exprs)]
                marker = P.callname(H.MAKE_RECUR, P.tuple_([P.name(t) for t in temps]))
                rebind = [P.assign(vn, P.name(t)) for vn, t in zip(tail.params, temps)] + [P.cont()]
                tail.jumps = True
                out.append(P.if_(P.is_(P.name(L.HEAD), P.const(None)), [P.ret(marker)], rebind))
        return out

    def e_Recur(self, node: ir.Recur, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        return Result(stmts, P.callname(H.MAKE_RECUR, P.tuple_(exprs)))

    # ------------------------------------------------------------------ fn bodies
    def fn_body(self, body: ir.FnBody, pos: Optional[Pos], fname: str) -> None:
        saved_n, self._n = self._n, 0  # the body is a Python function of its own: its locals restart
        saved_depths = self.blocks, self.indent, self.edepth
        self.blocks, self.indent, self.edepth = 3, 4, 0  # its def, try/finally and a recur loop
        try:
            self._fn_body(body, pos, fname)
        finally:
            self._n = saved_n
            self.blocks, self.indent, self.edepth = saved_depths

    def _fn_body(self, body: ir.FnBody, pos: Optional[Pos], fname: str) -> None:
        params = [intern("_p%d" % i) for i in range(len(body.params))]
        scope = Scope(self.tmp("_u"))
        info = FnInfo(is_fn=True)
        tail = FnExit(fname, body.form, params, self.tmp("_rt"))
        ci = L.INDEX  # a fixed name: the handler (``_fn_failed_here``) reads it from the frame
        saved_private, saved_published, saved_second = self.private, self.published, self.second_body
        saved_typed = self.int_vars, self.var_types, self.transients, self.range_ints, self.int_ranges
        private = body.private or body.published  # published: locals too, shown around calls only
        epoch = EPOCH[0] if self.epoch_base is None else self.epoch_base
        second = None
        if body.published and body.closed_self is not None:
            second = fname + ("_long" if body.self_longs else "_closed")
        self.private = dict(zip(body.params, params)) if private else {}
        self.published = (Published(tuple(body.params), params, fname, second, body.self_longs, epoch, body.self_name)
                          if body.published else None)
        self.second_body = None
        self.int_vars, self.var_types, self.transients = set(), {}, frozenset()
        self.range_ints, self.int_ranges = set(), {}  # a separate Python function: its locals restart
        saved_exit, self.exit = self.exit, tail
        saved_flag, self.late_flag = self.late_flag, late.has_late(body.body)
        flagged = self.late_flag
        try:
            body_stmts = self.seq_stmts(body.body, scope, info, bare_ci=ci)
        finally:
            self.private, self.published, self.second_body = saved_private, saved_published, saved_second
            self.leave_typed_loop(saved_typed)
            self.exit = saved_exit
            self.late_flag = saved_flag
        saves, restores = self._publish(body, params, tail.jumps, scope.undo if scope.used else None) if not private else ([], [])
        published_at_entry = not private and not tail.jumps and _plain_params(body)
        top: list[ast.stmt] = []
        if scope.used and tail.jumps:  # forget the previous iteration's defs (only a recur loop has one)
            top.append(self.unwind_if_any(scope.undo))
        bind: list[ast.stmt] = []
        if not private and not published_at_entry:
            for pat, pn in zip(body.params, params):
                bind.extend(self.bind_pattern(pat, P.name(pn), pos))
        has_jump = tail.jumps
        if tail.uses_tuple_path:
            arity_fail = P.raise_(P.callname(H.FAIL, P.callname(H.ARITY_TEXT, P.const(len(params)),
                                                                  P.callname("len", P.name(tail.recur_tuple_var))),
                                             self.const(body.form)))
            unpack: list[ast.stmt] = [P.if_(P.compare(P.callname("len", P.name(tail.recur_tuple_var)), P.NOT_EQ,
                                      P.const(len(params))), [arity_fail])]
            if params:
                tgt = P.node(ast.Tuple(elts=[P.store(p) for p in params], ctx=P.STORE))
                unpack.append(P.node(ast.Assign(targets=[tgt], value=P.name(tail.recur_tuple_var))))
            unpack.append(P.assign(tail.recur_tuple_var, P.const(None)))
            top.append(P.if_(P.is_not(P.name(tail.recur_tuple_var), P.const(None)), unpack))
        top.extend(bind)
        if not has_jump and len(body.body.body) > 1 and _sets_to_zero(body_stmts[0], ci):
            del body_stmts[0]  # the first element's ``ci = 0``: ``pre`` below says it, once, before the try
        inner = top + body_stmts
        main: list[ast.stmt] = [P.while_true(inner)] if has_jump else inner
        pre: list[ast.stmt] = list(saves)
        if flagged:  # the activation flag (``emit.late``); a recur to the fn keeps it: still exact
            pre.append(P.assign(late.FLAG, P.list_([])))
        if tail.uses_tuple_path:
            pre.append(P.assign(tail.recur_tuple_var, P.const(None)))
        fin: list[ast.stmt] = []
        if scope.used and not published_at_entry:  # else the undo list is ``_publish``'s answer
            pre.append(P.assign(scope.undo, P.const(None)))
            fin.append(self.unwind_if_any(scope.undo))
        fin.extend(restores)
        if len(body.body.body) > 1:  # a one-element body has no element counter (the handler reads 0)
            pre.append(P.assign(ci, P.const(0)))  # before the parameter bindings, which can fail
        handler = [self._fn_handler(body, bool(private))]
        if info.static_refs:
            # Refers to builtins directly: whoever runs the module registers the body with its fn form,
            # and it goes stale when the epoch moves, with no test in the body (``spell_runtime.stale_bodies``).
            form_c = self.const(body.form)
            assert isinstance(form_c, ast.Name)  # a list form is always a named constant
            self.guarded.append((fname, form_c, epoch))
        fn = P.fndef(fname, ["D", "_H", *params], pre + [P.try_(main, None, handler, fin)])
        self.functions.append(fn)
        if second is not None:
            self._n = 0
            self._second_body(body, second, body.self_longs)

    def _fn_handler(self, body: ir.FnBody, private: bool) -> ast.stmt:
        """``raise _fn_failed_here(site)``: the body's elements, ``fn`` form and private parameter
        symbols (``private``: the parameters are Python locals) are one constant ``site`` per body;
        the exception, ``D``, ``_H``, ``_T``, the running element (``_ci``) and the parameters'
        values at the failure are read from the body's frame (``spell_runtime.frame_paths``)."""
        syms: tuple[Any, ...] = tuple(body.params) if private else ()
        return P.raise_(P.callname(H.FN_FAILED_HERE, self.const((body.body.elems, body.form, syms))))

    def _second_body(self, body: ir.FnBody, fname: str, longs: bool) -> None:
        """The second body of a closed self-recursive fn (``analyze.selfcalls``, whose docstring
        argues what is left out): every call is a direct call of this body
        (``published_calls.second_call``), no epoch check, no undo list; over longs (``longs``)
        parameters are Python ints, with no operand type or recur-request tests. The handler is the
        ordinary body's, so errors are the same."""
        params = [intern("_p%d" % i) for i in range(len(body.params))]
        scope = Scope(self.tmp("_u"))
        info = FnInfo(is_fn=True)
        tail = FnExit(fname, body.form, params, self.tmp("_rt"))
        tail.longs = longs
        ci = L.INDEX
        saved = self.private, self.published, self.second_body, self.second_longs, self.exit
        saved_typed = self.int_vars, self.var_types, self.transients, self.range_ints, self.int_ranges
        self.private = dict(zip(body.params, params))
        self.published, self.second_body, self.second_longs, self.exit = None, fname, longs, tail
        saved_flag, self.late_flag = self.late_flag, False
        ints = set(params) if longs else set()
        self.int_vars, self.var_types, self.transients = ints, {p: LONG for p in ints}, frozenset()
        self.range_ints, self.int_ranges = set(ints), {}  # never reassigned here: no recur, def, macro (``bounds``)
        try:  # ``body.second``: the same forms analyzed with no reference made dynamic (``analyze.late``)
            body_stmts = self.seq_stmts(body.second or body.body, scope, info, bare_ci=ci)
        finally:
            self.private, self.published, self.second_body, self.second_longs, self.exit = saved
            self.leave_typed_loop(saved_typed)
            self.late_flag = saved_flag
        # Closed code has no def, macro or recur (``selfcalls.self_head``): nothing to undo or jump to.
        assert not scope.used and not tail.jumps and not tail.uses_tuple_path
        pre: list[ast.stmt] = []
        if len(body.body.body) > 1:
            pre.append(P.assign(ci, P.const(0)))
        handler = [self._fn_handler(body, True)]
        self.functions.append(P.fndef(fname, ["D", "_H", *params], pre + [P.try_(body_stmts, None, handler)]))

    # ------------------------------------------------------------------ for
    def e_For(self, node: ir.For, scope: Scope, info: FnInfo) -> Result:
        acc = self.tmp("_acc")
        inner_scope = Scope(self.tmp("_u"))
        saves, restores = self._saves(node.syms, node.pos)
        kept: list[ast.stmt] = []
        put_back: list[ast.stmt] = []

        def build(i: int) -> list[ast.stmt]:
            if i == len(node.clauses):
                res = self.expr(node.body, inner_scope, info)
                out = res.stmts + [P.expr_stmt(P.call(P.attr(P.name(acc), "append"), res.expr))]
                if inner_scope.used:
                    out.append(self.unwind_if_any(inner_scope.undo))
                if inner_scope.reloads:  # each element's body starts from the env at the for's entry
                    kept[:], put_back[:] = self.param_saves()
                    out.extend(put_back)
                return out
            c = node.clauses[i]
            if type(c) is ir.ForIter:
                if self.blocks >= BLOCK_BUDGET:  # the remaining clauses in a nested function
                    nest = self._outline(lambda: (build(i), None), inner_scope)
                    return nest.stmts + [P.expr_stmt(nest.expr)]
                res = self.expr(c.coll, inner_scope, info)
                item = self.tmp("_it")
                with self.nested(1):
                    body = self.bind_pattern(c.pattern, P.name(item), node.pos) + build(i + 1)
                with P.at(self.place_pos()):  # a collection that is not seqable fails here
                    items = P.callname(H.FOR_ITEMS, res.expr)
                return res.stmts + [P.for_(item, items, body)]
            if type(c) is ir.ForWhen:
                res = self.expr(c.test, inner_scope, info)
                return res.stmts + [P.if_(self.truth(res.expr, False), build(i + 1))]
            lets: list[ast.stmt] = []
            for b in c.bindings:
                res = self.expr(b.value, inner_scope, info)
                lets += res.stmts + self.bind_pattern(b.pattern, res.expr, node.pos)
            return lets + build(i + 1)

        self.loops += 1
        try:
            with self.nested(2):
                body = build(0)
        finally:
            self.loops -= 1
        stmts = [P.assign(acc, P.list_([])), *kept] + self._scope_frame(inner_scope, saves, restores, body, node.pos)
        return Result(stmts + put_back, P.callname(H.VEC, P.name(acc)))

    # ------------------------------------------------------------------ try / catch
    def e_Try(self, node: ir.Try, scope: Scope, info: FnInfo) -> Result:
        v = self.tmp()
        return Result(self.try_stmts(node, scope, info, v), P.name(v))

    def try_stmts(self, node: ir.Try, scope: Scope, info: FnInfo, result_var: Optional[str] = None) -> list[ast.stmt]:
        """``try``: the body in the ``try``'s context; a ``catch`` handler's value is delivered after its
        defs are undone, so the handler itself is emitted with no exit."""
        tail = self.tail_of(node)
        # The body keeps its own converting handler: ``catch`` sees only Spell errors, so host
        # failures must become Spell errors inside the ``try`` (see ``marking``).
        saved_marking, self.marking = self.marking, node.handler is None and self.marking
        try:
            with self.nested(1):
                body = self.seq_stmts(node.body, scope, info, result_var=result_var)
        finally:
            self.marking = saved_marking
        if node.handler is None:
            return body
        scope.used = True
        err = self.tmp("_err")
        hv = self.tmp("_hv")
        handler: list[ast.stmt] = [
            *late.flag_statement(self),  # the handler and what follows run in the failure's env
            P.assign(scope.undo, P.callname(H.REENTER, P.name("D"), P.name(err), P.name(scope.undo))),
        ]
        sym = node.catch_sym
        handler += self.bind_def(sym, P.callname(H.CAUGHT, P.name(err)), scope, node.pos)
        saved_exit, self.exit = self.exit, None
        try:
            with self.nested(2):  # inside an except clause that binds a name
                handler += self.seq_stmts(node.handler, scope, info, result_var=hv)
        finally:
            self.exit = saved_exit
        handler.append(P.assign(scope.undo, P.callname(H.DROP, P.name("D"), self.const(sym), P.name(scope.undo))))
        if tail is not None:
            handler += self.deliver(P.name(hv), True)
        elif result_var:
            handler.append(P.assign(result_var, P.name(hv)))
        st = P.try_(body, err, handler, exc_type=H.SPELL_ERROR)
        return [st]


RESTORED_TOGETHER = 3
"""The fewest saved names a scope restores by one ``_restore_all`` call (with two, two ``_restore``
calls measured as fast or faster)."""


_Statements = Callable[[Any, Any, Scope, FnInfo], list[ast.stmt]]

ScopeEmitter._STATEMENTS = {
    ir.Seq: ScopeEmitter.seq_stmts,
    ir.Let: ScopeEmitter.let_stmts,
    ir.Try: ScopeEmitter.try_stmts,
    ir.If: ScopeEmitter.if_stmts,
    ir.Throw: ScopeEmitter.raise_stmts,
    ir.Fail: ScopeEmitter.raise_stmts,
}


def _constant_branch(node: ir.If) -> Optional[ir.Node]:
    """The branch an ``if`` whose test is a constant always takes, else None: ``cond``'s ``:else``
    clause is ``(if :else x nil)`` (8 of compile-300's tests). A constant cannot fail, so the other
    branch and the truth test are dead code, left out."""
    if type(node.test) is not ir.Const:
        return None
    value = node.test.value
    return node.else_ if value is None or value is False else node.then


def _cannot_fail(node: ir.Node) -> bool:
    # (Not Local: a short recur request can leave a loop name unbound, Q16.)
    t = type(node)
    return t is ir.Const or t is ir.BuiltinRef or t is ir.Fn


def _may_be_map(node: ir.Node) -> bool:
    return ir.may_be_map(node)


def _plain_params(body: ir.FnBody) -> bool:
    """Every parameter a plain symbol (no destructuring, no ``&``): what ``_publish`` binds."""
    return bool(body.params) and tuple(body.syms) == tuple(body.params) and all(type(p) is Symbol for p in body.params)


def _sets_to_zero(st: ast.stmt, var: str) -> bool:
    """Is ``st`` the statement ``var = 0``?"""
    return (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
            and st.targets[0].id == var and isinstance(st.value, ast.Constant) and st.value.value == 0
            and type(st.value.value) is int)
