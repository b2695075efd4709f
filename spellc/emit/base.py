"""The emitter's shared core: its state, fresh names and constants, expression dispatch, nesting.

Every concern module (``scopes``, ``values``, ``natives``, ``calls``) is a mixin over
``EmitterBase``; ``emitter.Emitter`` composes them. Dispatch is by IR class name: ``expr`` calls
``e_<Kind>``, whichever mixin defines it.

Each IR node is emitted as a ``Result``: statements that must run first plus an
expression for its value (Hy's compiler does the same). Expressions are kept
whole wherever possible — ``IfExp`` for a pure ``if``, walrus temporaries for
call arguments — and only constructs that need statements (``let``, ``loop``,
``try``, body sequences that can fail) are lifted; when a later argument has
statements, the earlier ones are first stored in temporaries so that Spell's
left-to-right evaluation order holds.

Nesting (issue 16 item 1): CPython refuses more than 20 nested blocks per function
and ``spellc build`` text must stay inside the tokenizer's 100 indents and 200
brackets, so deep constructs are outlined into module-level functions
(``_outline``) and deep expressions continue from temporaries (``EXPR_BUDGET``).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from sys import intern
from typing import Any, ClassVar, Optional, Union

from spell_runtime.abi import H, L, helper_names
from spell_runtime.data import Symbol

from ..analyze import ir
from . import pyast as P
from .published_calls import Published

Pos = tuple[int, int, int, int]


class Result:
    """Statements that must run first, and an expression for the value (Hy's ``Result``)."""

    __slots__ = ("stmts", "expr")

    def __init__(self, stmts: list[ast.stmt], expr: ast.expr) -> None:
        self.stmts = stmts
        self.expr = expr


class Scope:
    """A construct whose ``def``s are undone when it exits (fn body, let, loop, for, unit).

    ``reloads``: a macro branch or late fallback whose escaping defs land in this scope reloads a
    published body's parameter locals (``published_calls.macro_expr``, ``late.fallback``); a let,
    loop or for then puts them back when it exits (``ScopeEmitter.param_saves``)."""

    __slots__ = ("undo", "always_list", "used", "reloads")

    def __init__(self, undo: str, always_list: bool = False) -> None:
        self.undo = undo
        self.always_list = always_list
        self.used = False
        self.reloads = False


class ReturnExit:
    """Where the unit's tail value goes: ``return`` (no recur jumps back into a unit)."""

    __slots__ = ()


class FnExit(ReturnExit):
    """The tail of a ``fn`` body: ``return``; a tail recur re-binds the parameters and jumps back."""

    __slots__ = ("name", "arity", "form", "params", "recur_tuple_var", "uses_tuple_path", "jumps", "longs")

    def __init__(self, name: str, form: Any, params: list[str], recur_tuple_var: str) -> None:
        self.name = name  # the compiled body's Python name
        self.arity = len(params)
        self.form = form
        self.params = params  # the Python parameters a recur re-binds
        self.recur_tuple_var = recur_tuple_var  # holds a recur request's values (any length, Q16)
        self.uses_tuple_path = False
        self.jumps = False  # some recur jumps: the body runs in a ``while True``
        self.longs = False  # every tail value is a long (``analyze.selfcalls``): never a recur request


class LoopExit:
    """The tail of a ``loop`` body: store the value and ``break``; a recur re-binds and ``continue``s."""

    __slots__ = ("result_var", "recur_vars", "recur_tuple_var", "private_patterns", "uses_tuple_path")

    def __init__(self, result_var: str, recur_vars: list[str], recur_tuple_var: str,
                 private_patterns: Optional[tuple[Any, ...]]) -> None:
        self.result_var = result_var
        self.recur_vars = recur_vars
        self.recur_tuple_var = recur_tuple_var
        self.private_patterns = private_patterns  # the loop's names when they live in ``recur_vars``
        self.uses_tuple_path = False


Exit = Union[ReturnExit, LoopExit]
"""How a value in tail context (``ir.TAIL_CTXS``) leaves: set by the construct that owns the tail."""


class FnInfo:
    """Facts about the compiled Python function being emitted."""

    __slots__ = ("is_fn", "static_refs")

    def __init__(self, is_fn: bool) -> None:
        self.is_fn = is_fn
        self.static_refs = False  # refers to builtins directly: must re-check the binding epoch


class EmitterBase:
    """State shared by the concern mixins while one compiled module is emitted."""

    _EXPRESSIONS: ClassVar[dict[type, Callable[..., Result]]] = {}
    """IR kind → the method emitting it as an expression (``e_<Kind>``), per class (see ``expr``)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._EXPRESSIONS = {kind: getattr(cls, "e_" + kind.__name__) for kind in ir.NODE_KINDS
                            if hasattr(cls, "e_" + kind.__name__)}

    def __init__(self) -> None:
        P.reset_names()
        self.consts: dict[str, Any] = {}
        self._const_ids: dict[int, str] = {}
        self.table: dict[tuple[int, int, int, int], Any] = {}
        # Places that can fail outside any call form (``place_pos``): keys like the table's, no form.
        self.places: set[tuple[int, int, int, int]] = set()
        # The module is compiled from its ``ast.unparse`` text (``spellc build``, ``via_source``), whose
        # positions are the text's own: places that fail in every program get one too (``fail_pos``).
        self.text_places = False
        # The symbol read at each such place of a global read (``fail_pos``), for its table entry.
        self.place_symbols: dict[tuple[int, int, int, int], Symbol] = {}
        self._used_pos: set[tuple[int, int, int, int]] = set()
        self._pos_of: dict[tuple[int, Optional[Pos]], Pos] = {}  # (id(call form), its pos) → call_pos's answer
        self._n = 0
        self._nfn = 0
        self.functions: list[ast.stmt] = []
        # The bodies in ``functions`` that refer to builtins directly: (function name, its fn form's
        # constant, binding epoch), registered by whoever runs the module (``spell_runtime.stale_bodies``).
        self.guarded: list[tuple[str, ast.Name, int]] = []
        # The binding epoch compiled bodies check against; a module written to disk (spellc build)
        # starts in a fresh process, where the epoch starts at 0.
        self.epoch_base: Optional[int] = None
        # The local holding the value a symbol had before the innermost scope that saved it.
        self.saved_var: dict[Symbol, str] = {}
        # Names bound privately (Python locals) in the scopes being emitted: symbol -> local name.
        self.private: dict[Symbol, str] = {}
        # Python locals / expressions known to hold longs (see analyze.privacy.int_loop_vars).
        self.int_vars: set[str] = set()
        # Expressions known to hold longs, by id; the node is kept with its id, so no node made after
        # one that was dropped (a fusion given up, ``pipelines``) can reuse the id and pass for a long.
        self.int_exprs: dict[int, ast.expr] = {}
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
        # Where values in tail context leave (the innermost fn body, loop or unit being emitted);
        # None where they are wanted as values instead: in an outlined body and a catch handler.
        self.exit: Optional[Exit] = None
        # How many Python loops enclose the code being emitted (``loop``, ``for``, inlined sequence
        # functions): a global read there keeps its inline shape (``ValueEmitter.e_Global``).
        self.loops = 0
        # ``runs_once`` at the call site being emitted: set by ``CallEmitter.e_Call`` for its callee choice.
        self.run_once = False
        # Issue 13: the function body being emitted publishes its parameters only around calls
        # (``published_calls``); private locals of a proven type and loop vectors kept as lists (``typed``).
        self.published: Optional[Published] = None
        # How many parameter reloads (``Scope.reloads``) the function body being emitted has so far:
        # a loop that holds one anywhere inside puts the parameters back (``ScopeEmitter.param_saves``).
        self.param_reloads = 0
        # The second body of a closed self-recursive fn being emitted (``analyze.selfcalls``): its Python
        # name, which every call in it calls directly (``published_calls.second_call``), and whether it is
        # the body over longs; None elsewhere.
        self.second_body: Optional[str] = None
        self.second_longs = False
        # The Python function being emitted holds ``Late`` nodes: its activation flag is kept and
        # tested (``emit.late``).
        self.late_flag = False
        # Long locals never reassigned in the function being emitted, and the ranges ``if`` tests
        # prove for them in the branch being emitted (``bounds``): overflow tests they make dead go.
        self.range_ints: set[str] = set()
        self.int_ranges: dict[str, tuple[int, int]] = {}
        self.var_types: dict[str, str] = {}
        self.transients: frozenset[str] = frozenset()
        self.list_longs: dict[str, bool] = {}  # loop lists of longs → all >= 0 (analyze.elements)

    def note_reload(self, scope: Scope) -> None:
        """A published parameter reload whose escaping defs land in ``scope`` was just emitted."""
        scope.reloads = True
        self.param_reloads += 1

    # ------------------------------------------------------------------ names and constants
    def private_value(self, var: str) -> ast.expr:
        """The Spell value a private local holds (a loop vector kept as a list is frozen: ``typed``)."""
        if var not in self.transients:
            return P.name(var)
        if var in self.list_longs:
            return P.callname(H.VEC_LONGS, P.name(var), P.const(self.list_longs[var]))
        return P.callname(H.VEC, P.name(var))

    def tmp(self, prefix: str = "_t") -> str:
        """A fresh local name; numbered per Python function (``_fn`` names are module-wide).

        Names are interned, as the names CPython's own parser makes are: ``compile()`` looks every
        name up in its symbol tables and interns the names of each code object it makes, and an
        interned name is found by identity there (~5% of ``compile()`` of compile-300, issue 12)."""
        if prefix == "_fn":
            self._nfn += 1
            return intern("_fn%d" % self._nfn)
        self._n += 1
        return intern(f"{prefix}{self._n}")  # an f-string: ~1,000 names per module, and ``%`` cost twice as much

    def runs_once(self, info: FnInfo) -> bool:
        """Whether the code being emitted runs once per evaluation: a unit's code outside loops. There
        global reads, global call sites' callee choices, native operators and keyword reads are one
        helper call each rather than the inline fast paths of code that may run often (issue 12:
        cold compile is paid per node)."""
        return not info.is_fn and not self.loops

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
            nm = intern("_k%d" % len(self.consts))  # interned as ``tmp`` names are
            self.consts[nm] = value
            self._const_ids[key] = nm
        return P.name(nm)

    def call_pos(self, form: Any, pos: Optional[Pos]) -> Pos:
        """A position unique in this module for a call site, recorded with its form.

        In a second body (``second_body``) a call form emitted a second time gets the
        position its first emission got: the same form, so the same attribution, and errors and
        call paths (which fold recursion by position) come out as from the ordinary body."""
        key = (id(form), pos)
        if self.second_body is not None:
            known = self._pos_of.get(key)
            if known is not None and self.table.get((known[0], known[2], known[1], known[3])) is form:
                return known
        line, col, eline, ecol = pos if pos is not None else (1, 0, 1, 0)
        while (line, eline, col, ecol) in self._used_pos:
            ecol += 1
        self._used_pos.add((line, eline, col, ecol))
        self.table[(line, eline, col, ecol)] = form
        self._pos_of[key] = (line, col, eline, ecol)
        return (line, col, eline, ecol)

    def place_pos(self) -> Pos:
        """A position unique in this module for the current node's place (``P.STACK``), where it can fail
        outside any call form: a ``for`` clause's collection, ``reopen``'s checks, a namespace path.

        Code compiled from the emitter's tree needs no record of it (its failures are placed by the
        failing instruction's own position, ``callpath._site``), but a built module's text positions
        mean nothing by themselves: its position table (``compiler.call_spans``) gets one entry with no
        form for each such place, and only for them, so a failure there is placed as in the source
        (issue 12.1) and a program without these constructs pays nothing."""
        line, col, eline, ecol = P.STACK[-1]
        while (line, eline, col, ecol) in self._used_pos:
            ecol += 1
        self._used_pos.add((line, eline, col, ecol))
        self.places.add((line, eline, col, ecol))
        return (line, col, eline, ecol)

    def fail_pos(self, sym: Optional[Symbol] = None) -> Pos:
        """The position of a place that fails outside any call form in every program that reaches it:
        a global read's miss (``_miss``, ``_callee_g``: ``Unbound symbol``), a failure the analysis
        found (``ir.Fail``), a ``recur`` with the wrong number of values. Code compiled from the
        emitter's tree carries the place (``P.STACK``) as it is; a module compiled from its text
        (``text_places``) records it (``place_pos``), or its failure would be placed at the enclosing
        call form, or at 1:1 outside any (issue 12.1): about a dozen characters of a built module each.
        A global read's entry names its symbol ``sym`` (a constant of the module anyway), by which a built
        module gives the symbol its place in the call form around it back (``built_spans.restore``)."""
        if not self.text_places:
            top: Pos = P.STACK[-1]
            return top
        pos = self.place_pos()
        if sym is not None:
            self.const(sym)
            self.place_symbols[(pos[0], pos[2], pos[1], pos[3])] = sym
        return pos

    # ------------------------------------------------------------------ dispatch
    def expr(self, node: ir.Node, scope: Scope, info: FnInfo) -> Result:
        # (the budgets are tested first: this runs once per IR node, and almost never that deep)
        if (self.blocks >= BLOCK_BUDGET or self.indent >= INDENT_BUDGET) and self._too_deep(node):
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
        method = self._EXPRESSIONS[type(node)]
        self.edepth += 1
        # ``with P.at(node.pos)``, inlined: this runs once per IR node. ``pos`` is ``Any`` for the reason
        # ``pyast._STACK`` is.
        stack = P.STACK
        pos: Any = node.pos
        stack.append(pos if pos is not None else stack[-1])
        try:
            res: Result = method(self, node, scope, info)
        finally:
            stack.pop()
            self.edepth -= 1
        return res

    def _too_deep(self, node: ir.Node) -> bool:
        t = type(node)
        return ((self.blocks >= BLOCK_BUDGET and t in _OPENS_BLOCKS)
                or (self.indent >= INDENT_BUDGET and t in _INDENTS))

    # ------------------------------------------------------------------ nesting (issue 16 item 1)
    @staticmethod
    def _parts(res: Result) -> tuple[list[ast.stmt], Optional[ast.expr]]:
        return res.stmts, res.expr

    def _outline(self, emit_body: Callable[[], tuple[list[ast.stmt], Optional[ast.expr]]], scope: Scope) -> Result:
        """Emit a construct as a module-level function called in place, where its blocks,
        indentation and expression depth count from zero (a nested ``def`` would keep the text's
        indentation growing).

        The body is emitted with no exit (``self.exit``), as a value, so no ``return``, ``break``
        or ``continue`` of the enclosing function can occur in it. It gets ``D``, the private locals it reads, and,
        when it ``def``s into the enclosing scope, that scope's undo list, which it hands back with
        its value: ``_r, _u = _nestN(D, _u, _l3)``; so too the published parameters it may reassign.
        """
        self._nfn += 1
        name = "_nest%d" % self._nfn
        saved = self.blocks, self.indent, self.edepth, self.exit
        self.blocks, self.indent, self.edepth, self.exit = 1, 1, 0, None
        try:
            stmts, value = emit_body()
        finally:
            self.blocks, self.indent, self.edepth, self.exit = saved
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
        # Published parameters a macro call inside reloads (issue 13.1, ``published_calls``) come in
        # and go back out like the undo list; all of them when the piece calls a helper that writes
        # them in its frame itself (``frame_paths.write_params``: nothing is stored in the piece).
        reloaded: list[str] = []
        if self.published is not None:
            writes = not loaded.isdisjoint(_FRAME_WRITERS)
            reloaded = [v for v in self.published.locals_ if writes or v in stored]
        back = undo + reloaded
        read = sorted(v for v in ((loaded - stored) | set(reloaded)) - {"D", *undo} if self._is_enclosing_local(v))
        if back:
            last = body[-1]
            assert isinstance(last, ast.Return) and last.value is not None
            body[-1] = P.ret(P.tuple_([last.value, *[P.name(v) for v in back]]))
        self.functions.append(P.fndef(name, ["D", *undo, *read], body))
        call = P.callname(name, P.name("D"), *[P.name(v) for v in undo + read])
        if not back:
            return Result([], call)
        r = self.tmp("_r")
        target = P.node(ast.Tuple(elts=[P.store(r), *[P.store(v) for v in back]], ctx=P.STORE))
        return Result([P.node(ast.Assign(targets=[target], value=call))], P.name(r))

    def _is_enclosing_local(self, name: str) -> bool:
        """Whether a name an outlined body reads is a local of the function it was cut from
        (rather than a constant, a compiled function, a runtime helper or a Python builtin)."""
        return not (name in self.consts or name in _GLOBAL_NAMES or name.startswith(("_fn", "_nest")))

    def nested(self, blocks: int, indents: int = 0) -> _Unnest:
        """``with self.nested(k):`` — code emitted inside sits ``k`` more blocks (and indents) deep;
        ``indents`` counts statement bodies that open no block (``if``).

        Like ``pyast.at``, the call adds and one shared object takes it off again when the block
        is left (``_NESTING``): an object per use cost more than the counting (~300 uses per
        module). Only ever use it as ``with self.nested(k):``."""
        self.blocks += blocks
        self.indent += blocks + indents
        _NESTING.append((self, blocks, blocks + indents))
        return _UNNEST

    # ------------------------------------------------------------------ combining sub-results
    def emit_in_order(self, nodes: tuple[ir.Node, ...] | list[ir.Node], scope: Scope,
                      info: FnInfo) -> tuple[list[Result], list[bool]]:
        """Emit several expressions, left to right; and for each, whether it is a published
        parameter's local that a later one may reassign (a macro branch or late fallback reloads
        it: ``note_reload``). Such a ``Name`` must be read into a temporary before the later ones
        run, like any expression with an effect, or it reads the value the later one left."""
        if self.published is None:  # no published parameter locals: nothing can be stale
            return [self.expr(n, scope, info) for n in nodes], [False] * len(nodes)
        results: list[Result] = []
        after: list[int] = []
        for n in nodes:
            results.append(self.expr(n, scope, info))
            after.append(self.param_reloads)
        last = self.param_reloads
        locals_ = self.published.locals_
        stale = [after[i] != last and isinstance(r.expr, ast.Name) and r.expr.id in locals_
                 for i, r in enumerate(results)]
        return results, stale

    def exprs_in_order(self, nodes: tuple[ir.Node, ...] | list[ir.Node], scope: Scope,
                       info: FnInfo) -> tuple[list[ast.stmt], list[ast.expr]]:
        """Emit several expressions that must be evaluated left to right."""
        results, stale = self.emit_in_order(nodes, scope, info)
        last_with_stmts = -1
        for i, r in enumerate(results):
            if r.stmts:
                last_with_stmts = i
        stmts: list[ast.stmt] = []
        exprs: list[ast.expr] = []
        for i, r in enumerate(results):
            stmts.extend(r.stmts)
            if i < last_with_stmts and (stale[i] or not isinstance(r.expr, (ast.Constant, ast.Name))):
                t = self.tmp()
                with P.at(nodes[i].pos):
                    stmts.append(P.assign(t, r.expr))
                exprs.append(P.name(t))
            else:
                exprs.append(r.expr)
        return stmts, exprs


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

_FRAME_WRITERS = frozenset({H.MACRO_PUB_NAMED, H.LATE_PUB_NAMED})
"""Helpers that write a published body's parameter locals in their caller's frame (``_outline``)."""


_NESTING: list[tuple[EmitterBase, int, int]] = []
"""What each open ``nested`` block added: (emitter, blocks, indents). Module-level like ``pyast``'s
position stack: the compiler driver holds a lock while emitting."""


class _Unnest:
    """What ``nested`` returns: leaving the ``with`` block takes off what the call added."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        emitter, blocks, indents = _NESTING.pop()
        emitter.blocks -= blocks
        emitter.indent -= indents


_UNNEST = _Unnest()
