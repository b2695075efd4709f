"""IR → Python ``ast`` (the code shape is explained in ``spell_runtime.context``).

Each IR node is emitted as a ``Result``: statements that must run first plus an
expression for its value (Hy's compiler does the same). Expressions are kept
whole wherever possible — ``IfExp`` for a pure ``if``, walrus temporaries for
call arguments — and only constructs that need statements (``let``, ``loop``,
``try``, body sequences that can fail) are lifted; when a later argument has
statements, the earlier ones are first stored in temporaries so that Spell's
left-to-right evaluation order holds.

Tail positions are delivered through a ``Tail``: ``return`` in a function body,
or "store and break" in a ``loop``; a ``recur`` in a tail position becomes
re-binding plus ``continue`` of the enclosing ``while True`` (no trampoline,
no marker allocated).

Calls of a symbol head check, before any argument is evaluated, whether the head
value is a user macro; otherwise a Spell function with the right arity is called
straight through its compiled ``code`` and anything else goes through
``support.apply_fn``; every rare path is one runtime helper call (architecture.md
§2.5). Every call form gets a unique source position recorded in the module's
position table, which is how a host failure is attributed to its call form (see
``spell_runtime.support``). Helper names come from ``spell_runtime.abi``.

Nesting (issue 16 item 1): CPython refuses more than 20 nested blocks per function
and ``spellc build`` text must stay inside the tokenizer's 100 indents and 200
brackets, so deep constructs are outlined into module-level functions
(``_outline``) and deep expressions continue from temporaries (``EXPR_BUDGET``).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional

from spell_runtime.abi import H, L, helper_names
from spell_runtime.core.registry import info_of
from spell_runtime.data import LONG_MAX, LONG_MIN, Keyword, Symbol

from ..analyze import ir
from ..analyze.privacy import int_loop_vars
from . import pyast as P

Pos = tuple[int, int, int, int]


class Result:
    """Statements that must run first, and an expression for the value (Hy's ``Result``)."""

    __slots__ = ("stmts", "expr")

    def __init__(self, stmts: list[ast.stmt], expr: ast.expr) -> None:
        self.stmts = stmts
        self.expr = expr


class Scope:
    """A construct whose ``def``s are undone when it exits (fn body, let, loop, for, unit)."""

    __slots__ = ("undo", "always_list", "used")

    def __init__(self, undo: str, always_list: bool = False) -> None:
        self.undo = undo
        self.always_list = always_list
        self.used = False


class Tail:
    """How a tail value leaves: ``return`` (function body / unit) or store-and-break (loop)."""

    __slots__ = ("kind", "result_var", "recur_vars", "recur_tuple_var", "fn_arity", "fn_form", "uses_tuple_path",
                 "loop_scope", "jumps", "fn_name", "private_patterns")

    def __init__(self, kind: str, result_var: str = "", recur_vars: Optional[list[str]] = None,
                 recur_tuple_var: str = "", fn_arity: int = -1, fn_form: Any = None,
                 loop_scope: Optional[Scope] = None, fn_name: str = "") -> None:
        self.kind = kind  # "return" | "loop"
        self.result_var = result_var
        self.recur_vars: list[str] = recur_vars if recur_vars is not None else []
        self.recur_tuple_var = recur_tuple_var
        self.fn_arity = fn_arity
        self.fn_form = fn_form
        self.uses_tuple_path = False
        self.loop_scope = loop_scope
        self.jumps = False
        self.fn_name = fn_name
        self.private_patterns: Optional[tuple[Any, ...]] = None


class FnInfo:
    """Facts about the compiled Python function being emitted."""

    __slots__ = ("is_fn", "static_refs")

    def __init__(self, is_fn: bool) -> None:
        self.is_fn = is_fn
        self.static_refs = False  # refers to builtins directly: must re-check the binding epoch


class Emitter:
    """Emits one compiled module (a unit plus the bodies of the ``fn`` forms in it)."""

    def __init__(self) -> None:
        self.consts: dict[str, Any] = {}
        self._const_ids: dict[int, str] = {}
        self.table: dict[tuple[int, int, int, int], Any] = {}
        self._used_pos: set[tuple[int, int, int, int]] = set()
        self._n = 0
        self._nfn = 0
        self.functions: list[ast.stmt] = []
        # The binding epoch compiled bodies check against; a module written to disk (spellc build)
        # starts in a fresh process, where the epoch starts at 0.
        self.epoch_base: Optional[int] = None
        # The local holding the value a symbol had before the innermost scope that saved it.
        self.saved_var: dict[Symbol, str] = {}
        # Names bound privately (Python locals) in the scopes being emitted: symbol -> local name.
        self.private: dict[Symbol, str] = {}
        # Python locals / expressions known to hold longs (see analyze.privacy.int_loop_vars).
        self.int_vars: set[str] = set()
        self.int_exprs: set[int] = set()
        # True while emitting inside a body sequence whose handler marks the failing element: the
        # outermost marking in a Python function wins (support.seq_fail), so sequences nested in it
        # need no handler and no element counter of their own.
        self.marking = False
        # Statically nested blocks (try, while, for) around the code being emitted in the current
        # Python function: CPython refuses more than 20, so past BLOCK_BUDGET a construct that
        # opens blocks is emitted as a nested function of its own (see ``_outline``).
        self.blocks = 0
        # Indentation levels (any nested statement body) and expression nesting, which bound the
        # text ``spellc build`` writes: Python's tokenizer allows 100 indents and 200 open brackets.
        self.indent = 0
        self.edepth = 0
        self.bound_cache: dict[int, tuple[Any, frozenset[Symbol]]] = {}  # analyze.privacy.bound_inside

    # ------------------------------------------------------------------ names and constants
    def tmp(self, prefix: str = "_t") -> str:
        """A fresh local name; numbered per Python function (``_fn`` names are module-wide)."""
        if prefix == "_fn":
            self._nfn += 1
            return "_fn%d" % self._nfn
        self._n += 1
        return "%s%d" % (prefix, self._n)

    def const(self, value: Any) -> ast.expr:
        """An expression for ``value``: a literal when Python's literal has the same type, else a named constant."""
        t = type(value)
        if value is None or t is bool or t is str or (t is int) or t is float:
            if t is float and (value != value or value in (float("inf"), float("-inf"))):
                pass
            else:
                return P.const(value)
        key = id(value)
        nm = self._const_ids.get(key)
        if nm is None or self.consts.get(nm) is not value:
            nm = "_k%d" % len(self.consts)
            self.consts[nm] = value
            self._const_ids[key] = nm
        return P.name(nm)

    def helper(self, nm: str) -> ast.expr:
        return P.name(nm)

    def call_pos(self, form: Any, pos: Optional[Pos]) -> Pos:
        """A position unique in this module for a call site, recorded with its form."""
        line, col, eline, ecol = pos if pos is not None else (1, 0, 1, 0)
        while (line, eline, col, ecol) in self._used_pos:
            ecol += 1
        self._used_pos.add((line, eline, col, ecol))
        self.table[(line, eline, col, ecol)] = form
        return (line, col, eline, ecol)

    # ------------------------------------------------------------------ entry points
    def emit_unit(self, node: ir.Node, fname: str = "_unit") -> ast.Module:
        """``def _unit(D, _U): ...`` returning the form's value; ``_U`` collects escaping defs' undo entries."""
        fn = self.unit_function(node, fname)
        return ast.Module(body=[*self.functions, fn], type_ignores=[])

    def unit_function(self, node: ir.Node, fname: str) -> ast.FunctionDef:
        """The unit's function; the ``fn`` bodies it needs accumulate in ``self.functions``."""
        scope = Scope(L.UNIT_UNDO, always_list=True)
        info = FnInfo(is_fn=False)
        saved_marking, self.marking = self.marking, False
        saved_n, self._n = self._n, 0
        saved_depths = self.blocks, self.indent, self.edepth
        self.blocks, self.indent, self.edepth = 1, 2, 0  # the unit's def and try
        try:
            body = self.tail_stmts(node, scope, Tail("return"), info)
        finally:
            self.marking = saved_marking
            self._n = saved_n
            self.blocks, self.indent, self.edepth = saved_depths
        handler = [P.raise_(P.callname(H.CONV, P.name(L.EXC), P.name("D"), P.name(L.TABLE)))]
        fn = P.fndef(fname, ["D", "_U"], [P.try_(body, "_e", handler)])
        return fn

    def emit_fn_module(self, fn_node: ir.Fn, fname: str = "_fnbody") -> ast.Module:
        """A module defining just the compiled body of one ``fn`` (for functions built from data)."""
        assert fn_node.body is not None
        self.fn_body(fn_node.body, fn_node.pos, fname)
        return ast.Module(body=list(self.functions), type_ignores=[])

    # ------------------------------------------------------------------ dispatch
    def expr(self, node: ir.Node, scope: Scope, info: FnInfo) -> Result:
        if self._too_deep(node):
            with P.at(node.pos):
                return self._outline(lambda: self._parts(self.expr(node, scope, info)), scope)
        if self.edepth >= EXPR_BUDGET and type(node) not in _LEAVES:
            # Deep expressions continue from a temporary (a statement): ``exprs_in_order`` and
            # every construct already keep evaluation order and short circuits around statements.
            saved, self.edepth = self.edepth, 0
            try:
                deep = self.expr(node, scope, info)
            finally:
                self.edepth = saved
            t = self.tmp("_h")
            with P.at(node.pos):
                return Result(deep.stmts + [P.assign(t, deep.expr)], P.name(t))
        method = getattr(self, "e_" + type(node).__name__)
        self.edepth += 1
        try:
            with P.at(node.pos):
                res: Result = method(node, scope, info)
        finally:
            self.edepth -= 1
        return res

    def _too_deep(self, node: ir.Node) -> bool:
        t = type(node)
        return ((self.blocks >= BLOCK_BUDGET and t in _OPENS_BLOCKS)
                or (self.indent >= INDENT_BUDGET and t in _INDENTS))

    def stmts(self, node: ir.Node, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        """Emit for effect only."""
        if self._too_deep(node):
            res = self.expr(node, scope, info)
            with P.at(node.pos):
                return res.stmts + [P.expr_stmt(res.expr)]
        saved, self.edepth = self.edepth, 0  # a statement's expression starts shallow
        try:
            with P.at(node.pos):
                return self._stmts(node, scope, info)
        finally:
            self.edepth = saved

    def _stmts(self, node: ir.Node, scope: Scope, info: FnInfo) -> list[ast.stmt]:
        if isinstance(node, ir.SubUnits):
            scope.used = True
            keys = self.const(node.keys)  # one constant, not one AST node per element (issue 14)
            return [P.assign(scope.undo, P.callname(H.SUBUNITS, P.name("D"), self.const(node.elems), keys,
                                                    P.name(scope.undo)))]
        if isinstance(node, (ir.Const, ir.Local, ir.BuiltinRef, ir.Fn)) or (
                isinstance(node, ir.NsRef) and node.has_static_root):
            return []
        if isinstance(node, ir.Seq):
            return self.seq_stmts(node, scope, info, None)
        if isinstance(node, ir.Let):
            return self.let_stmts(node, scope, info, None)
        if isinstance(node, ir.Try):
            return self.try_stmts(node, scope, info, None)
        if isinstance(node, ir.If):
            return self.if_stmts(node, scope, info, None)
        if isinstance(node, (ir.Throw, ir.Fail)):
            return self.raise_stmts(node, scope, info)
        res = self.expr(node, scope, info)
        out = list(res.stmts)
        e = res.expr
        if not isinstance(e, (ast.Name, ast.Constant)):
            out.append(P.expr_stmt(e))
        return out

    def tail_stmts(self, node: ir.Node, scope: Scope, tail: Tail, info: FnInfo) -> list[ast.stmt]:
        """Emit ``node`` in a tail position: its value leaves through ``tail``."""
        if self._too_deep(node):
            # Outlined, a tail recur arrives here as a recur request value, which ``deliver``
            # turns back into a jump (loop) or a re-application (fn).
            res = self.expr(node, scope, info)
            with P.at(node.pos):
                return res.stmts + self.deliver(res.expr, tail, True, node.pos)
        saved, self.edepth = self.edepth, 0
        try:
            with P.at(node.pos):
                return self._tail_stmts(node, scope, tail, info)
        finally:
            self.edepth = saved

    def _tail_stmts(self, node: ir.Node, scope: Scope, tail: Tail, info: FnInfo) -> list[ast.stmt]:
        if isinstance(node, ir.Seq):
            return self.seq_stmts(node, scope, info, tail)
        if isinstance(node, ir.Let):
            return self.let_stmts(node, scope, info, tail)
        if isinstance(node, ir.Try):
            return self.try_stmts(node, scope, info, tail)
        if isinstance(node, ir.If):
            return self.if_stmts(node, scope, info, tail)
        if isinstance(node, ir.Quine):
            out = self.quine_bind(node, scope, info)
            return out + self.tail_stmts(node.last, scope, tail, info)
        if isinstance(node, ir.Recur) and node.target is not None and self._recur_target_ok(node, tail):
            return self.recur_jump(node, scope, info, tail)
        if isinstance(node, (ir.Throw, ir.Fail)):
            return self.raise_stmts(node, scope, info)
        res = self.expr(node, scope, info)
        return res.stmts + self.deliver(res.expr, tail, _may_be_map(node), node.pos)

    @staticmethod
    def _recur_target_ok(node: ir.Recur, tail: Tail) -> bool:
        return (node.target == "loop" and tail.kind == "loop") or (node.target == "fn" and tail.kind == "return"
                                                                      and tail.fn_arity >= 0)

    def deliver(self, value: ast.expr, tail: Tail, may_be_map: bool, pos: Optional[Pos]) -> list[ast.stmt]:
        """Statements that hand a tail value to ``tail`` (checking for a recur request when needed)."""
        out: list[ast.stmt] = []
        if tail.kind == "return":
            if may_be_map and tail.fn_arity >= 0:
                # A recur request that arrives as a value (Q17; rare: only maps can be one) re-enters
                # the function by a call in ``_recur_value`` rather than a loop, which keeps the
                # common path free of loop bookkeeping.
                v = self.tmp("_v")
                ty = self.tmp("_ty")
                plain = P.or_(P.and_(P.is_not(P.walrus(ty, P.callname("type", P.walrus(v, value))), P.name(H.SPELL_MAP)),
                                     P.is_not(P.name(ty), P.name(H.RECUR_MARKER))),
                              P.is_(P.name(L.HEAD), P.const(None)))
                again = P.callname(H.RECUR_VALUE, P.name(tail.fn_name), P.name("D"), P.name(L.HEAD), P.name(v),
                                   P.const(tail.fn_arity), self.const(tail.fn_form))
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
        return P.or_(P.is_(P.callname("type", P.name(v)), P.name(H.RECUR_MARKER)),
                     P.is_(P.callname("type", P.name(v)), P.name(H.SPELL_MAP)))

    # ------------------------------------------------------------------ nesting (issue 16 item 1)
    @staticmethod
    def _parts(res: Result) -> tuple[list[ast.stmt], Optional[ast.expr]]:
        return res.stmts, res.expr

    def _outline(self, emit_body: Callable[[], tuple[list[ast.stmt], Optional[ast.expr]]], scope: Scope) -> Result:
        """Emit a construct as a module-level function called in place, where its blocks,
        indentation and expression depth count from zero (a nested ``def`` would keep the text's
        indentation growing).

        The body is emitted in expression context, so no ``return``, ``break`` or ``continue`` of
        the enclosing function can occur in it. It gets ``D``, the private locals it reads, and,
        when it ``def``s into the enclosing scope, that scope's undo list, which it hands back with
        its value: ``_r, _u = _nestN(D, _u, _l3)``.
        """
        self._nfn += 1
        name = "_nest%d" % self._nfn
        saved = self.blocks, self.indent, self.edepth
        self.blocks, self.indent, self.edepth = 1, 1, 0
        try:
            stmts, value = emit_body()
        finally:
            self.blocks, self.indent, self.edepth = saved
        body = stmts + ([P.ret(value if value is not None else P.const(None))])
        loaded: set[str] = set()
        stored: set[str] = set()
        for st in body:
            for n in ast.walk(st):
                if isinstance(n, ast.Name):
                    (loaded if n.ctx is P.LOAD else stored).add(n.id)
                elif isinstance(n, ast.ExceptHandler) and n.name:
                    stored.add(n.name)
        undo = [scope.undo] if scope.used else []
        read = sorted(v for v in loaded - stored - {"D", *undo} if self._is_enclosing_local(v))
        if undo:
            last = body[-1]
            assert isinstance(last, ast.Return) and last.value is not None
            body[-1] = P.ret(P.tuple_([last.value, P.name(scope.undo)]))
        self.functions.append(P.fndef(name, ["D", *undo, *read], body))
        call = P.callname(name, P.name("D"), *[P.name(v) for v in undo + read])
        if not undo:
            return Result([], call)
        r = self.tmp("_r")
        target = P.node(ast.Tuple(elts=[P.store(r), P.store(scope.undo)], ctx=P.STORE))
        return Result([P.node(ast.Assign(targets=[target], value=call))], P.name(r))

    def _is_enclosing_local(self, name: str) -> bool:
        """Whether a name an outlined body reads is a local of the function it was cut from
        (rather than a constant, a compiled function, a runtime helper or a Python builtin)."""
        return not (name in self.consts or name in _GLOBAL_NAMES or name.startswith(("_fn", "_nest")))

    def nested(self, blocks: int, indents: int = 0) -> _Nested:
        """``with self.nested(k):`` — code emitted inside sits ``k`` more blocks (and indents) deep;
        ``indents`` counts statement bodies that open no block (``if``)."""
        return _Nested(self, blocks, indents)

    # ------------------------------------------------------------------ combining sub-results
    def exprs_in_order(self, nodes: tuple[ir.Node, ...] | list[ir.Node], scope: Scope,
                       info: FnInfo) -> tuple[list[ast.stmt], list[ast.expr]]:
        """Emit several expressions that must be evaluated left to right."""
        results = [self.expr(n, scope, info) for n in nodes]
        last_with_stmts = -1
        for i, r in enumerate(results):
            if r.stmts:
                last_with_stmts = i
        stmts: list[ast.stmt] = []
        exprs: list[ast.expr] = []
        for i, r in enumerate(results):
            stmts.extend(r.stmts)
            if i < last_with_stmts and not isinstance(r.expr, (ast.Constant, ast.Name)):
                t = self.tmp()
                with P.at(nodes[i].pos):
                    stmts.append(P.assign(t, r.expr))
                exprs.append(P.name(t))
            else:
                exprs.append(r.expr)
        return stmts, exprs

    # ------------------------------------------------------------------ leaves
    def e_Const(self, node: ir.Const, scope: Scope, info: FnInfo) -> Result:
        return Result([], self.const(node.value))

    def e_Local(self, node: ir.Local, scope: Scope, info: FnInfo) -> Result:
        var = self.private.get(node.sym)
        if var is not None:
            return Result([], P.name(var))
        return Result([], P.subscript(P.name("D"), self.const(node.sym)))

    def e_Global(self, node: ir.Global, scope: Scope, info: FnInfo) -> Result:
        s = self.const(node.sym)
        return Result([], P.ifexp(P.compare(s, ast.In(), P.name("D")), P.subscript(P.name("D"), s),
                                  P.callname(H.MISS_LOOKUP, P.name("D"), s)))

    def e_BuiltinRef(self, node: ir.BuiltinRef, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
        return Result([], self.const(node.value))

    def e_NsRef(self, node: ir.NsRef, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
        keys = P.tuple_([self.const(k) for k in node.keys])
        if node.has_static_root:
            from spell_runtime.data import get

            v = node.static_root
            for k in node.keys:
                v = get(v, k)
            if v is not None:
                return Result([], self.const(v))
            return Result([], P.callname(H.NS_STATIC, self.const(node.static_root), keys, self.const(node.whole)))
        return Result([], P.callname(H.NS_PATH, P.name("D"), self.const(node.root), keys, self.const(node.whole)))

    def e_VectorLit(self, node: ir.VectorLit, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.items, scope, info)
        return Result(stmts, P.callname(H.VEC, P.list_(exprs)))

    def e_MapLit(self, node: ir.MapLit, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.vals, scope, info)
        pairs = [P.tuple_([self.const(k), v]) for k, v in zip(node.keys, exprs)]
        return Result(stmts, P.callname(H.MAP_PAIRS, P.tuple_(pairs)))

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
        v = self.tmp()
        stmts = res.stmts + [P.assign(v, res.expr)]
        stmts += self.bind_def(node.sym, P.name(v), scope, node.pos)
        return Result(stmts, P.name(v))

    def e_Reopen(self, node: ir.Reopen, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order([node.quine, *node.extras], scope, info)
        return Result(stmts, P.callname(H.REOPEN, exprs[0], P.tuple_(exprs[1:]), self.const(node.form)))

    def e_Throw(self, node: ir.Throw, scope: Scope, info: FnInfo) -> Result:
        res = self.expr(node.arg, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            return Result(res.stmts, P.callname(H.THROW_NOW, res.expr, self.const(node.form)))

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
        r = P.raise_(P.callname(H.FAIL, P.const(node.message), self.const(node.form)))
        return stmts + [r]

    # ------------------------------------------------------------------ if
    def e_If(self, node: ir.If, scope: Scope, info: FnInfo) -> Result:
        test = self.expr(node.test, scope, info)
        with self.nested(0, 1):  # the branches become statement bodies if either has statements
            then = self.expr(node.then, scope, info)
            else_ = self.expr(node.else_, scope, info)
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

    def if_stmts(self, node: ir.If, scope: Scope, info: FnInfo, tail: Optional[Tail]) -> list[ast.stmt]:
        test = self.expr(node.test, scope, info)
        cond = self.truth(test.expr, node.test_is_bool)
        with self.nested(0, 1):  # an ``else`` holding only an ``if`` is written ``elif``: no deeper
            if tail is None:
                body = self.stmts(node.then, scope, info)
                orelse = self.stmts(node.else_, scope, info)
            else:
                body = self.tail_stmts(node.then, scope, tail, info)
                orelse = self.tail_stmts(node.else_, scope, tail, info)
        st = P.if_(cond, body, orelse)
        return test.stmts + [st]

    # ------------------------------------------------------------------ sequences
    def e_Seq(self, node: ir.Seq, scope: Scope, info: FnInfo) -> Result:
        if not node.body:
            return Result([], P.const(None))
        if len(node.body) == 1 and _cannot_fail(node.body[0]):
            return self.expr(node.body[0], scope, info)
        v = self.tmp()
        stmts = self.seq_stmts(node, scope, info, None, result_var=v)
        return Result(stmts, P.name(v))

    def seq_stmts(self, node: ir.Seq, scope: Scope, info: FnInfo, tail: Optional[Tail],
                  result_var: Optional[str] = None, bare_ci: Optional[str] = None) -> list[ast.stmt]:
        """A body sequence; unless ``bare_ci`` is given, wrapped in a handler that marks the failing element."""
        if not node.body:
            if tail is not None:
                return self.deliver(P.const(None), tail, False, node.pos)
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
        index: ast.expr = P.name(ci) if n > 1 else P.const(skipped)
        handler = [P.raise_(P.callname(H.SEQ_FAIL, P.name(L.EXC), P.name("D"), P.name(L.TABLE),
                                       self.const(node.elems), index))]
        prologue: list[ast.stmt] = [P.assign(ci, P.const(0))] if n > 1 else []
        st = P.try_(body, "_e", handler)
        return prologue + [st]

    def _seq_elements(self, node: ir.Seq, scope: Scope, info: FnInfo, tail: Optional[Tail],
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
            if not last:
                body.extend(self.stmts(el, scope, info))
            elif tail is not None:
                body.extend(self.tail_stmts(el, scope, tail, info))
            elif result_var:
                res = self.expr(el, scope, info)
                body.extend(res.stmts)
                body.append(P.assign(result_var, res.expr))
            else:
                body.extend(self.stmts(el, scope, info))
        return body

    # ------------------------------------------------------------------ binding scopes
    def _saves(self, syms: tuple[Symbol, ...], pos: Optional[Pos]) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """Save the current bindings of ``syms`` and restore them (in reverse) later."""
        saves: list[ast.stmt] = []
        restores: list[ast.stmt] = []
        for s in syms:
            o = self.tmp("_o")
            self.saved_var[s] = o
            sc = self.const(s)
            saves.append(P.assign(o, P.call(P.attr(P.name("D"), "get"), sc, P.name(H.MISS))))
            restores.append(P.expr_stmt(P.callname(H.RESTORE, P.name("D"), sc, P.name(o))))
        restores.reverse()
        return saves, restores

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
        return [self.const(tuple(syms)), P.tuple_([P.name(self.private[s]) for s in syms])]

    def _scope_frame(self, scope: Scope, saves: list[ast.stmt], restores: list[ast.stmt], body: list[ast.stmt],
                     pos: Optional[Pos], handler_fn: str = H.CONV,
                     privates: Optional[list[ast.expr]] = None) -> list[ast.stmt]:
        fin: list[ast.stmt] = []
        pre: list[ast.stmt] = list(saves)
        if scope.used:
            pre.append(P.assign(scope.undo, P.const(None)))
            fin.append(P.if_(P.is_not(P.name(scope.undo), P.const(None)),
                             [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(scope.undo)))]))
        fin.extend(restores)
        if privates is not None:
            handler = [P.raise_(P.callname(H.PRIV_FAIL, P.name(L.EXC), P.name("D"), P.name(L.TABLE), *privates))]
        else:
            handler = [P.raise_(P.callname(handler_fn, P.name(L.EXC), P.name("D"), P.name(L.TABLE)))]
        st = P.try_(body, "_e", handler, fin)
        return pre + [st]

    def e_Let(self, node: ir.Let, scope: Scope, info: FnInfo) -> Result:
        v = self.tmp()
        return Result(self.let_stmts(node, scope, info, None, v), P.name(v))

    def let_stmts(self, node: ir.Let, outer: Scope, info: FnInfo, tail: Optional[Tail],
                  result_var: Optional[str] = None) -> list[ast.stmt]:
        scope = Scope(self.tmp("_u"))
        saved_private = self.private
        self.private = dict(saved_private)
        try:
            with self.nested(2):  # the scope's try/except/finally
                body = self._let_body(node, scope, info, tail, result_var)
            if node.private:
                own = {b.pattern: self.private[b.pattern] for b in node.bindings}
                pre = [P.assign(var, P.name(H.MISS)) for var in dict.fromkeys(own.values())]
                return pre + self._scope_frame(scope, [], [], body, node.pos, privates=self._private_args(own))
        finally:
            self.private = saved_private
        saves, restores = self._saves(node.syms, node.pos)
        return self._scope_frame(scope, saves, restores, body, node.pos)

    def _let_body(self, node: ir.Let, scope: Scope, info: FnInfo, tail: Optional[Tail],
                  result_var: Optional[str]) -> list[ast.stmt]:
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
        if tail is not None:
            body.extend(self.seq_stmts(node.body, scope, info, tail))
        elif result_var:
            body.extend(self.seq_stmts(node.body, scope, info, None, result_var=result_var))
        else:
            body.extend(self.seq_stmts(node.body, scope, info, None))
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
        tail = Tail("loop", result_var=result_var, recur_vars=vars_, recur_tuple_var=self.tmp("_lt"),
                    loop_scope=scope)
        if node.private:
            # The loop variables themselves hold the bindings (see analyze.privacy).
            tail.private_patterns = tuple(node.patterns)
            saved_private = self.private
            saved_ints = self.int_vars
            self.private = dict(saved_private)
            self.private.update(zip(node.patterns, vars_))
            ints = int_loop_vars(node, self.bound_cache)
            self.int_vars = saved_ints | {v for p, v in zip(node.patterns, vars_) if p in ints}
            try:
                with self.nested(3):  # the scope's try/except/finally and the while
                    body_stmts = self.seq_stmts(node.body, scope, info, tail)
                privates = self._private_args(node.patterns)
            finally:
                self.private = saved_private
                self.int_vars = saved_ints
            top: list[ast.stmt] = []
            if scope.used:
                top.append(P.if_(P.is_not(P.name(scope.undo), P.const(None)),
                                 [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(scope.undo)))]))
            loop = P.while_true(top + body_stmts)
            return pre + self._scope_frame(scope, [], [], [loop], node.pos, privates=privates)
        with self.nested(3):
            body_stmts = self.seq_stmts(node.body, scope, info, tail)
        saves, restores = self._saves(node.syms, node.pos)
        top = []
        if scope.used:
            top.append(P.if_(P.is_not(P.name(scope.undo), P.const(None)),
                             [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(scope.undo)))]))
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
        return pre + out

    def _loop_rebind_now(self, tail: Tail, vals: ast.expr) -> list[ast.stmt]:
        """Re-bind loop variables from a recur request of any length (Q16), before ``continue``."""
        if tail.private_patterns is not None:
            tgt = P.node(ast.Tuple(elts=[P.store(v) for v in tail.recur_vars], ctx=P.STORE))
            rebind = P.callname(H.PRIVATE_REBIND, P.name("D"), vals, self.const(tail.private_patterns))
            return [P.node(ast.Assign(targets=[tgt], value=rebind))]
        tail.uses_tuple_path = True
        return [P.assign(tail.recur_tuple_var, vals)]

    def recur_jump(self, node: ir.Recur, scope: Scope, info: FnInfo, tail: Tail) -> list[ast.stmt]:
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        out = list(stmts)
        if tail.kind == "loop":
            if len(exprs) == len(tail.recur_vars):
                temps = [self.tmp() for _ in exprs]
                out += [P.assign(t, e) for t, e in zip(temps, exprs)]
                out += [P.assign(vn, P.name(t)) for vn, t in zip(tail.recur_vars, temps)]
            else:
                out.extend(self._loop_rebind_now(tail, P.tuple_(exprs)))
            out.append(P.cont())
        else:
            if len(exprs) != tail.fn_arity:
                marker = P.callname(H.MAKE_RECUR, P.tuple_(exprs))
                fail = P.raise_(P.callname(H.FAIL, P.const("Wrong number of args: expected %d, got %d"
                                                            % (tail.fn_arity, len(exprs))), self.const(node.form)))
                out.append(P.if_(P.is_(P.name(L.HEAD), P.const(None)), [P.ret(marker)], [fail]))
            else:
                temps = [self.tmp() for _ in exprs]
                out += [P.assign(t, e) for t, e in zip(temps, exprs)]
                marker = P.callname(H.MAKE_RECUR, P.tuple_([P.name(t) for t in temps]))
                rebind = [P.assign(vn, P.name(t)) for vn, t in zip(tail.recur_vars, temps)] + [P.cont()]
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
        params = ["_p%d" % i for i in range(len(body.params))]
        scope = Scope(self.tmp("_u"))
        info = FnInfo(is_fn=True)
        tail = Tail("return", recur_vars=params, recur_tuple_var=self.tmp("_rt"), fn_arity=len(params),
                    fn_form=body.form, fn_name=fname)
        ci = self.tmp("_ci")
        saved_private = self.private
        self.private = dict(zip(body.params, params)) if body.private else {}
        try:
            body_stmts = self.seq_stmts(body.body, scope, info, tail, bare_ci=ci)
            privates = self._private_args(body.params) if body.private else None
        finally:
            self.private = saved_private
        saves, restores = self._saves(body.syms, pos) if not body.private else ([], [])
        top: list[ast.stmt] = []
        if scope.used and tail.jumps:  # forget the previous iteration's defs (only a recur loop has one)
            top.append(P.if_(P.is_not(P.name(scope.undo), P.const(None)),
                             [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(scope.undo)))]))
        bind: list[ast.stmt] = []
        if not body.private:
            for pat, pn in zip(body.params, params):
                bind.extend(self.bind_pattern(pat, P.name(pn), pos))
        has_jump = tail.jumps
        if tail.uses_tuple_path:
            arity_fail = P.raise_(P.callname(H.FAIL, P.callname(H.ARITY_TEXT, P.const(len(params)),
                                                                  P.callname("len", P.name(tail.recur_tuple_var))),
                                             self.const(body.form)))
            unpack: list[ast.stmt] = [P.if_(P.compare(P.callname("len", P.name(tail.recur_tuple_var)), ast.NotEq(),
                                      P.const(len(params))), [arity_fail])]
            if params:
                tgt = P.node(ast.Tuple(elts=[P.store(p) for p in params], ctx=P.STORE))
                unpack.append(P.node(ast.Assign(targets=[tgt], value=P.name(tail.recur_tuple_var))))
            unpack.append(P.assign(tail.recur_tuple_var, P.const(None)))
            top.append(P.if_(P.is_not(P.name(tail.recur_tuple_var), P.const(None)), unpack))
        top.extend(bind)
        inner = top + body_stmts
        main: list[ast.stmt] = [P.while_true(inner)] if has_jump else inner
        pre: list[ast.stmt] = list(saves)
        if tail.uses_tuple_path:
            pre.append(P.assign(tail.recur_tuple_var, P.const(None)))
        fin: list[ast.stmt] = []
        if scope.used:
            pre.append(P.assign(scope.undo, P.const(None)))
            fin.append(P.if_(P.is_not(P.name(scope.undo), P.const(None)),
                             [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(scope.undo)))]))
        fin.extend(restores)
        pre.append(P.assign(ci, P.const(0)))
        handler = [P.raise_(P.callname(H.FN_FAIL, P.name(L.EXC), P.name("D"), P.name(L.TABLE), P.name(L.HEAD),
                                       self.const(body.body.elems), P.name(ci), *(privates or [])))]
        if info.static_refs:
            from spell_runtime.support import EPOCH

            epoch = EPOCH[0] if self.epoch_base is None else self.epoch_base
            guard = P.if_(P.compare(P.subscript(P.name(H.EPOCH), P.const(0)), ast.NotEq(), P.const(epoch)),
                          [P.ret(P.callname(H.STALE, P.name(fname), self.const(body.form), P.name("D"), P.name(L.HEAD),
                                            P.tuple_([P.name(p) for p in params])))])
            pre.insert(0, guard)
        fn = P.fndef(fname, ["D", "_H", *params], pre + [P.try_(main, "_e", handler, fin)])
        self.functions.append(fn)

    # ------------------------------------------------------------------ for
    def e_For(self, node: ir.For, scope: Scope, info: FnInfo) -> Result:
        acc = self.tmp("_acc")
        inner_scope = Scope(self.tmp("_u"))
        saves, restores = self._saves(node.syms, node.pos)

        def build(i: int) -> list[ast.stmt]:
            if i == len(node.clauses):
                res = self.expr(node.body, inner_scope, info)
                out = res.stmts + [P.expr_stmt(P.call(P.attr(P.name(acc), "append"), res.expr))]
                if inner_scope.used:
                    out.append(P.if_(P.is_not(P.name(inner_scope.undo), P.const(None)),
                                     [P.expr_stmt(P.callname(H.UNWIND, P.name("D"), P.name(inner_scope.undo)))]))
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
                return res.stmts + [P.for_(item, P.callname(H.FOR_ITEMS, res.expr), body)]
            if type(c) is ir.ForWhen:
                res = self.expr(c.test, inner_scope, info)
                return res.stmts + [P.if_(self.truth(res.expr, False), build(i + 1))]
            lets: list[ast.stmt] = []
            for b in c.bindings:
                res = self.expr(b.value, inner_scope, info)
                lets += res.stmts + self.bind_pattern(b.pattern, res.expr, node.pos)
            return lets + build(i + 1)

        with self.nested(2):
            body = build(0)
        stmts = [P.assign(acc, P.list_([]))] + self._scope_frame(inner_scope, saves, restores, body, node.pos)
        return Result(stmts, P.callname(H.VEC, P.name(acc)))

    # ------------------------------------------------------------------ try / catch
    def e_Try(self, node: ir.Try, scope: Scope, info: FnInfo) -> Result:
        v = self.tmp()
        return Result(self.try_stmts(node, scope, info, None, v), P.name(v))

    def try_stmts(self, node: ir.Try, scope: Scope, info: FnInfo, tail: Optional[Tail],
                  result_var: Optional[str] = None) -> list[ast.stmt]:
        # The body keeps its own converting handler: ``catch`` sees only Spell errors, so host
        # failures must become Spell errors inside the ``try`` (see ``marking``).
        saved_marking, self.marking = self.marking, node.handler is None and self.marking
        try:
            with self.nested(1):
                if tail is not None:
                    body = self.seq_stmts(node.body, scope, info, tail)
                else:
                    body = self.seq_stmts(node.body, scope, info, None, result_var=result_var)
        finally:
            self.marking = saved_marking
        if node.handler is None:
            return body
        scope.used = True
        err = self.tmp("_err")
        hv = self.tmp("_hv")
        handler: list[ast.stmt] = [
            P.assign(scope.undo, P.callname(H.REENTER, P.name("D"), P.name(err), P.name(scope.undo))),
        ]
        sym = node.catch_sym
        handler += self.bind_def(sym, P.callname(H.CAUGHT, P.name(err)), scope, node.pos)
        with self.nested(2):  # inside an except clause that binds a name
            handler += self.seq_stmts(node.handler, scope, info, None, result_var=hv)
        handler.append(P.assign(scope.undo, P.callname(H.DROP, P.name("D"), self.const(sym), P.name(scope.undo))))
        if tail is not None:
            handler += self.deliver(P.name(hv), tail, True, node.pos)
        elif result_var:
            handler.append(P.assign(result_var, P.name(hv)))
        st = P.try_(body, err, handler, exc_type=H.SPELL_ERROR)
        return [st]

    # ------------------------------------------------------------------ calls
    def e_KeywordCall(self, node: ir.KeywordCall, scope: Scope, info: FnInfo) -> Result:
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            e = P.callname(H.GET, exprs[0], self.const(node.kw), *exprs[1:])
        return Result(stmts, e)

    def e_BuiltinCall(self, node: ir.BuiltinCall, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
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

    def e_NativeOp(self, node: ir.NativeOp, scope: Scope, info: FnInfo) -> Result:
        info.static_refs = True
        stmts, exprs = self.exprs_in_order(node.args, scope, info)
        with P.at(self.call_pos(node.form, node.pos)):
            return Result(stmts, self.native(node.op, exprs))

    def _operand(self, e: ast.expr) -> tuple[ast.expr, ast.expr, Optional[Any]]:
        """(expression that evaluates it once into a temp, expression reading it, constant value or None).

        The "constant" is ``KNOWN_INT`` for an operand that certainly holds a long."""
        if isinstance(e, ast.Constant):
            return e, e, e.value
        if isinstance(e, ast.Name):
            if e.id in self.int_vars:
                return e, e, KNOWN_INT
            if e.id.startswith("_k") or e.id.startswith("_t"):
                v = self.consts.get(e.id, None) if e.id.startswith("_k") else None
                return e, e, v
        t = self.tmp("_a")
        return P.walrus(t, e), P.name(t), (KNOWN_INT if id(e) in self.int_exprs else None)

    def native(self, op: str, args: list[ast.expr]) -> ast.expr:
        e = self._native(op, args)
        if op in ("add", "sub", "mul", "inc", "dec") and all(self._operand_is_int(a) for a in args):
            self.int_exprs.add(id(e))
        return e

    def _operand_is_int(self, e: ast.expr) -> bool:
        if isinstance(e, ast.Constant):
            return type(e.value) is int
        if isinstance(e, ast.Name):
            return e.id in self.int_vars
        return id(e) in self.int_exprs

    def _native(self, op: str, args: list[ast.expr]) -> ast.expr:
        if op in ("add", "sub", "mul", "lt", "gt", "le", "ge"):
            ops = [self._operand(args[0]), self._operand(args[1])]
            (_, a, ac), (_, b, bc) = ops
            if type(ac) is int and type(bc) is int or _known_non_int(ac) or _known_non_int(bc):
                return P.callname(H.op(op), args[0], args[1])  # no inline fast path can apply
            # Evaluate both operands, in order, while testing the ones not known to be longs.
            parts: list[ast.expr] = []
            typed = True
            for e_, _, c_ in ops:
                if _is_int(c_):
                    if isinstance(e_, ast.NamedExpr):
                        parts.append(P.is_not(e_, P.name(H.NOTHING)))
                else:
                    typed = False
                    parts.append(P.is_(P.callname("type", e_), P.name("int")))
            evaluated = P.bitand(*parts) if parts else None
            if op in ("add", "sub", "mul"):
                pyop = {"add": ast.Add(), "sub": ast.Sub(), "mul": ast.Mult()}[op]
                r = self.tmp("_r")
                rng = P.chain(_long_min(), [ast.LtE(), ast.LtE()], [P.walrus(r, P.binop(a, pyop, b)),
                                                                    P.const(LONG_MAX)])
                cond = P.and_(evaluated, rng) if evaluated is not None else rng
                return P.ifexp(cond, P.name(r), P.callname(H.op(op), a, b))
            cmp: ast.cmpop = {"lt": ast.Lt(), "gt": ast.Gt(), "le": ast.LtE(), "ge": ast.GtE()}[op]
            test = P.compare(a, cmp, b)
            if typed:
                return P.and_(evaluated, test) if evaluated is not None else test
            assert evaluated is not None
            return P.ifexp(evaluated, test, P.callname(H.op(op), a, b))
        if op in ("conj", "get", "count", "nth", "first", "assoc"):
            return self._coll_op(op, args)
        if op in ("eq", "ne"):
            e = self._eq(args[0], args[1])
            return P.not_(e) if op == "ne" else e
        if op in ("inc", "dec"):
            ae, a, ac = self._operand(args[0])
            r = self.tmp("_r")
            if type(ac) is int or _known_non_int(ac):
                return P.callname(H.op(op), args[0])
            if ac is KNOWN_INT:
                pyop1: ast.operator = ast.Add() if op == "inc" else ast.Sub()
                bound1 = (P.compare(P.walrus(r, P.binop(ae, pyop1, P.const(1))), ast.LtE(), P.const(LONG_MAX))
                          if op == "inc" else
                          P.compare(P.walrus(r, P.binop(ae, pyop1, P.const(1))), ast.GtE(), _long_min()))
                return P.ifexp(bound1, P.name(r), P.callname(H.op(op), a))
            pyop = ast.Add() if op == "inc" else ast.Sub()
            bound_check = (P.compare(P.walrus(r, P.binop(a, pyop, P.const(1))), ast.LtE(),
                                     P.const(LONG_MAX)) if op == "inc" else
                           P.compare(P.walrus(r, P.binop(a, pyop, P.const(1))), ast.GtE(),
                                     _long_min()))
            return P.ifexp(P.and_(P.is_(P.callname("type", ae), P.name("int")), bound_check), P.name(r),
                           P.callname(H.op(op), a))
        if op == "neg":
            ae, a, ac = self._operand(args[0])
            return P.callname(H.op("neg"), ae)
        if op in ("zero", "pos", "negp"):
            ae, a, ac = self._operand(args[0])
            if _known_non_int(ac):
                return P.callname(H.op(op), args[0])
            zcmp: ast.cmpop = {"zero": ast.Eq(), "pos": ast.Gt(), "negp": ast.Lt()}[op]
            return P.ifexp(P.is_(P.callname("type", ae), P.name("int")), P.compare(a, zcmp, P.const(0)),
                           P.callname(H.op(op), a))
        if op == "nil":
            return P.is_(args[0], P.const(None))
        if op == "some":
            return P.is_not(args[0], P.const(None))
        if op == "true":
            return P.is_(args[0], P.const(True))
        if op == "false":
            return P.is_(args[0], P.const(False))
        if op == "identical":
            return P.is_(args[0], args[1])
        if op == "not":
            ae, a, ac = self._operand(args[0])
            return P.or_(P.is_(ae, P.const(None)), P.is_(a, P.const(False)))
        raise AssertionError(op)

    def _coll_op(self, op: str, args: list[ast.expr]) -> ast.expr:
        """A collection builtin with its most common case inline and the library function otherwise."""
        ops = [self._operand(a) for a in args]
        c_eval, c = ops[0][0], ops[0][1]
        rest_eval = [P.is_not(e_, P.name(H.NOTHING)) for e_, _, _ in ops[1:] if isinstance(e_, ast.NamedExpr)]
        readers = [r for _, r, _ in ops]
        slow = P.callname(H.op(op), *readers)
        if isinstance(args[0], ast.Constant):
            # A literal collection operand (nil, a number, a string) never passes the inline type test,
            # and inlining it would write e.g. ``None[0]``, which CPython's compiler warns about.
            return slow
        if op == "count":
            test: ast.expr = P.is_(P.callname("type", c_eval), P.name(H.PVECTOR))
            return P.ifexp(test, P.callname("len", c), slow)
        if op == "first":
            test = P.and_(P.is_(P.callname("type", c_eval), P.name(H.PVECTOR)), P.callname("len", c))
            return P.ifexp(test, P.subscript(c, P.const(0)), slow)
        if op == "conj":
            test = P.bitand(P.is_(P.callname("type", c_eval), P.name(H.PVECTOR)), *rest_eval)
            return P.ifexp(test, P.call(P.attr(c, "append"), readers[1]), slow)
        if op == "get":
            test = P.bitand(P.is_(P.callname("type", c_eval), P.name(H.SPELL_MAP)), *rest_eval)
            return P.ifexp(test, P.call(P.attr(c, "get"), readers[1]), slow)
        if op == "assoc":
            test = P.bitand(P.is_(P.callname("type", c_eval), P.name(H.SPELL_MAP)), *rest_eval)
            return P.ifexp(test, P.call(P.attr(c, "assoc"), readers[1], readers[2]), slow)
        assert op == "nth"
        i_eval = ops[1][0]
        test = P.and_(P.bitand(P.is_(P.callname("type", c_eval), P.name(H.PVECTOR)),
                               P.is_(P.callname("type", i_eval), P.name("int"))),
                      P.chain(P.const(0), [ast.LtE(), ast.Lt()], [readers[1], P.callname("len", c)]))
        return P.ifexp(test, P.subscript(c, readers[1]), slow)

    def _eq(self, x: ast.expr, y: ast.expr) -> ast.expr:
        (xe, xa, xc), (ye, ya, yc) = self._operand(x), self._operand(y)
        for c in (yc, xc):
            if c is None and (isinstance(y, ast.Constant) if c is yc else isinstance(x, ast.Constant)):
                return P.is_(xe, ye)
            if type(c) in (Keyword, Symbol, bool):
                return P.is_(xe, ye)
        checks = [P.is_(P.callname("type", xe), P.name("int")), P.is_(P.callname("type", ye), P.name("int"))]
        return P.ifexp(P.bitand(*checks), P.compare(xa, ast.Eq(), ya), P.callname(H.SPELL_EQ, xa, ya))

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
        dispatch = P.ifexp(
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
                P.subscript(P.name(mv), P.const(0)))
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
        dispatch = arg_stmts + [P.if_(P.and_(P.is_(P.callname("type", P.name(f)), P.name(H.SPELL_FN)),
                                             P.compare(P.attr(P.name(f), "arity"), ast.Eq(), P.const(n))),
                                      [call_fast], [call_slow])]
        if node.maybe_macro:
            scope.used = True
            mv = self.tmp("_mr")
            macro = [P.assign(mv, P.callname(H.MACRO_CALL, P.name("D"), P.name(f), form_c, P.name(scope.undo))),
                     P.assign(scope.undo, P.subscript(P.name(mv), P.const(1))),
                     P.assign(r, P.subscript(P.name(mv), P.const(0)))]
            out.append(P.if_(P.callname(H.IS_MACRO, P.name(f)), macro, dispatch))
        else:
            out.extend(dispatch)
        return Result(out, P.name(r))


BLOCK_BUDGET = 12
"""Blocks a function may have open before constructs are outlined: CPython's limit is 20 (CO_MAXBLOCKS),
and an ``except`` clause or a destructuring ``for`` can add two or three past the count kept here."""

_OPENS_BLOCKS = (ir.Let, ir.Loop, ir.Try, ir.For, ir.Seq)
"""IR kinds whose code opens blocks (what ``_outline`` moves into a nested function)."""

INDENT_BUDGET = 60
"""Indentation levels before constructs are outlined (Python's tokenizer stops at 100)."""

_INDENTS = (*_OPENS_BLOCKS, ir.If, ir.Call)

EXPR_BUDGET = 24
"""IR levels of one expression before the rest continues from a temporary: each level writes a few
brackets, and Python's tokenizer allows 200 open ones (``spellc build`` output is text)."""

_LEAVES = (ir.Const, ir.Local, ir.Global, ir.BuiltinRef)

_GLOBAL_NAMES = frozenset({*helper_names(), *dir(builtins), L.TABLE})
"""Names generated code reads from the module's globals."""


class _Nested:
    """``Emitter.nested``: adds to the block count for the code emitted inside."""

    __slots__ = ("emitter", "blocks", "indents")

    def __init__(self, emitter: Emitter, blocks: int, indents: int = 0) -> None:
        self.emitter = emitter
        self.blocks = blocks
        self.indents = indents

    def __enter__(self) -> None:
        self.emitter.blocks += self.blocks
        self.emitter.indent += self.blocks + self.indents

    def __exit__(self, *exc: object) -> None:
        self.emitter.blocks -= self.blocks
        self.emitter.indent -= self.blocks + self.indents


class _KnownInt:
    """Marks an operand that certainly holds a long (no type test needed)."""


KNOWN_INT: Any = _KnownInt()


def _is_int(c: Any) -> bool:
    return type(c) is int or c is KNOWN_INT


def _known_non_int(c: Any) -> bool:
    """An operand's known constant value that is certainly not a long (a float literal, a ratio...)."""
    return c is not None and type(c) is not int and c is not KNOWN_INT


def _long_min() -> ast.expr:
    """-2**63 written as unparse/parse round-trips it (a negated literal), keeping both compile paths alike."""
    return P.neg(P.const(-LONG_MIN))


def _cannot_fail(node: ir.Node) -> bool:
    # (Not Local: a short recur request can leave a loop name unbound, Q16.)
    t = type(node)
    return t is ir.Const or t is ir.BuiltinRef or t is ir.Fn


def _may_be_map(node: ir.Node) -> bool:
    return ir.may_be_map(node)


__all__ = ["Emitter", "Result", "Decimal", "Fraction"]
