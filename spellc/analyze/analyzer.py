"""Forms → IR (language.md §6–§7, §10).

Dispatch follows §6.3 exactly: built-in macros first (expanded here, statically),
then special forms, then a ``nil`` head, then application. Whether a symbol head
names a *user* macro depends on its value at run time, so such calls become
``Call(maybe_macro=True)`` and the emitted code checks the head value before
evaluating any argument.

Static references that may run after a run-time binding in their own activation (a user
macro's expansion, a caught failure's env, sub-units) become ``Late`` nodes; ``late`` has the rules
and the legality argument.

Errors that Spell reports as results — a malformed special form, a macro that
rejects its arguments — become ``Fail`` nodes: they fail only if evaluated.

The analyzer also decides which references may be static (see ``bound``): it
collects every name this form binds and every builtin it referenced statically;
``analyze_unit`` re-runs the analysis if the first pass referenced statically a
builtin that the same form binds.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional

from spell_runtime import optimise
from spell_runtime.core.registry import BUILTINS, EnvFn, info_of
from spell_runtime.data import (
    BigInt,
    Char,
    Float32,
    HostObject,
    Keyword,
    LineVector,
    Pattern,
    PList,
    PVector,
    SpellMap,
    SpellSet,
    Symbol,
    VectorView,
    as_pvector,
    is_spell_fn,
    plist,
    vec,
)
from spell_runtime.data.plist import VIEW_MIN
from spell_runtime.data.positions import child_spans_of, span_of
from spell_runtime.destructure import pattern_symbols
from spell_runtime.errors import SpellError
from spell_runtime.invoke import host_class_name

from ..expand.builtin_macros import MACROS, MacroArgError
from . import bound, late, native_ops
from .ir import (
    TAIL_CTXS,
    Binding,
    BuiltinCall,
    BuiltinRef,
    Call,
    Const,
    Ctx,
    Def,
    Fail,
    Fn,
    FnBody,
    For,
    ForIter,
    ForLet,
    ForWhen,
    Global,
    If,
    KeywordCall,
    Let,
    Local,
    Loop,
    MapLit,
    NativeOp,
    Node,
    NsRef,
    Quine,
    Recur,
    Reopen,
    Seq,
    SubUnits,
    Throw,
    Try,
    VectorLit,
)
from .privacy import SummaryCache, clashes, merge, observable, plain_symbols, publishable, scope_summary
from .selfcalls import closed_self

S_CATCH = Symbol("catch")
S_REOPEN_EVAL = Symbol("reopen-eval")
S_THROW = Symbol("throw")
K_WHEN = Keyword("when")
K_LET = Keyword("let")

SUBUNIT_MIN = 6
"""Body sequences longer than this compile their leading elements as cached sub-units."""


class SourceIndex:
    """The source text of a compilation, for cutting out the exact text of a form by its span."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        pos = text.find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = text.find("\n", pos + 1)
        self._starts = starts

    def text_of(self, span: Any) -> Optional[str]:
        if span is None:
            return None
        line, col, end_line, end_col = span
        if not (1 <= line <= len(self._starts) and 1 <= end_line <= len(self._starts)):
            return None
        return self.text[self._starts[line - 1] + col:self._starts[end_line - 1] + end_col]


class SourceKeys:
    """The sub-unit cache keys of a body sequence's elements (``ir.SubUnits.keys``): element ``i``'s
    source text, cut only when that element's unit is not found by identity (issue 14: cutting
    every element's text each turn made a turn cost grow with the program)."""

    __slots__ = ("source", "spans", "offset")

    def __init__(self, source: Optional[SourceIndex], spans: Any, offset: int) -> None:
        self.source = source
        self.spans = spans
        self.offset = offset

    def __getitem__(self, i: int) -> Optional[str]:
        if self.source is None or not self.spans:
            return None
        j = i + self.offset
        return self.source.text_of(self.spans[j]) if j < len(self.spans) else None

    def span(self, i: int) -> Any:
        """Element ``i``'s place in the body (its span as the sequence recorded it), or None."""
        j = i + self.offset
        return self.spans[j] if self.spans and j < len(self.spans) else None


_SELF_EVALUATING = (type(None), bool, int, BigInt, float, Float32, Fraction, Decimal, str, Keyword, Pattern)


class Frame:
    """Lexical facts for one compiled Python function (a unit or a fn body)."""

    __slots__ = ("locals",)

    def __init__(self, locals_: frozenset[Symbol] = frozenset()) -> None:
        self.locals = locals_


class Analyzer:
    """One analysis of one top-level form."""

    def __init__(self, extra_bound: frozenset[Symbol] = frozenset(), source: Optional[SourceIndex] = None,
                 subunits: bool = False) -> None:
        self.binds: set[Symbol] = set()
        self.static_used: set[Symbol] = set()
        self.extra_bound = extra_bound
        self.source = source
        self.subunits = subunits
        self.depth = 0  # forms being analyzed, outermost to innermost (see MAX_NESTING)
        self.privacy: SummaryCache = {}  # summaries of the private scopes built so far
        self.in_fn = False  # analyzing a ``fn`` body (RETURN ctx there is the fn's tail), not the unit
        # (name, value form) of the ``def`` whose value is being analyzed: a ``fn`` that is that very
        # form is the one the name is defined as (``selfcalls``: only its calls of the name are self-calls)
        self.defining: Optional[tuple[Symbol, Any]] = None
        # Off (``spell_runtime.optimise``): no static builtin reference and no private scope, so
        # the emitter writes the plain dynamic shape for everything.
        self.optimise = optimise.ENABLED[0]
        # ``analyze.late``: code analyzed while ``tainted`` may run after something bound a core name
        # in this activation's frame at run time (a user macro's expansion, a caught failure's env,
        # sub-units), so a static reference there is a ``Late`` node. ``tainted_refs`` counts them;
        # ``untainted`` analyzes as if nothing could (the second body of a closed fn).
        self.tainted = False
        self.tainted_refs = 0
        self.untainted = False

    # ------------------------------------------------------------------ helpers
    def _static(self, sym: Symbol) -> bool:
        if sym in self.extra_bound or not self.optimise:
            return False
        if bound.is_static_builtin(sym):
            self.static_used.add(sym)
            return True
        return False

    def _late(self, build: Callable[..., Node], *args: Any) -> Node:
        """The static node ``build(*args)`` makes, as a ``Late`` node when the activation is tainted
        here. Inside, analysis starts untainted again: its static code runs only while the
        activation's flag says nothing has bound a name yet (``late``). (``build`` takes its
        arguments rather than being a closure: a closure made cells of its variables in every call
        of the function that makes it, taken or not, and most calls are not tainted.)"""
        if not self.tainted or self.untainted:
            return build(*args)
        self.tainted = False
        try:
            node = build(*args)
        finally:
            self.tainted = True
        self.tainted_refs += 1
        return late.wrap(node)

    def _taint(self) -> None:
        """What runs from here on in this activation may see a core name bound at run time (``late``)."""
        self.tainted = True

    def _scoped(self, analyze: Callable[[], Node]) -> Node:
        """Analyze a scope whose exit undoes every binding made in it (``let``, a ``loop`` body, whose
        scope is also undone at each ``recur``: ``late``): what runs after it is as tainted as
        what ran before it."""
        was = self.tainted
        try:
            return analyze()
        finally:
            self.tainted = was

    def _bind_names(self, syms: Any) -> None:
        for s in syms:
            if type(s) is Symbol:
                self.binds.add(s)

    @staticmethod
    def _pos(form: Any, parent: Optional[tuple[int, int, int, int]]) -> Optional[tuple[int, int, int, int]]:
        return span_of(form) or parent

    # ------------------------------------------------------------------ entry
    def analyze(self, form: Any, ctx: Ctx, frame: Frame, pos: Optional[tuple[int, int, int, int]] = None) -> Node:
        """The IR of ``form``; deeper than ``MAX_NESTING`` forms is a Spell error at the innermost one.

        One function for the depth guard and the dispatch on the form's type: it runs once per form,
        and a second Python call per form was a measurable share of analysis (issue 12)."""
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise SpellError(nesting_message(), form)
            t = type(form)
            if t is Symbol:
                return self._symbol(form, ctx, frame, pos)
            if t is PList:
                if form.count == 0:
                    return Const(form, pos, ctx, None)
                # A list's own span is its ``span`` slot (``positions.span_of`` of a list is that slot).
                return self._list(form, ctx, frame, form.span or pos)
            if t in _SELF_EVALUATING:
                return Const(form, pos, ctx, form)
            return self._collection(form, t, ctx, frame, pos)
        finally:
            self.depth -= 1

    def _collection(self, form: Any, t: type, ctx: Ctx, frame: Frame, pos: Any) -> Node:
        """Vectors, maps and sets (and what cannot be evaluated)."""
        if t is PVector or t is LineVector or t is VectorView:
            p = self._pos(form, pos)
            spans = child_spans_of(form)
            items = tuple(self.analyze(x, Ctx.EXPR, frame, spans[i] if spans and i < len(spans) else p)
                          for i, x in enumerate(as_pvector(form)))
            if all(type(n) is Const for n in items):
                value = form if t is PVector else as_pvector(form)
                if any(n.value is not x for n, x in zip(items, as_pvector(form))):  # type: ignore[attr-defined]
                    value = vec(n.value for n in items)  # type: ignore[attr-defined]
                return Const(form, p, ctx, value)
            return VectorLit(form, p, ctx, items)
        if isinstance(form, SpellMap):
            p = self._pos(form, pos)
            if is_spell_fn(form):
                return Const(form, p, ctx, form)
            keys = tuple(form.keys())
            vals = tuple(self.analyze(v, Ctx.EXPR, frame, p) for v in form.values())
            if all(isinstance(n, Const) and n.value is v for n, v in zip(vals, form.values())):
                return Const(form, p, ctx, form)
            return MapLit(form, p, ctx, keys, vals)
        if t is SpellSet:
            return Const(form, pos, ctx, form)
        if t is Char:
            return Fail(form, pos, ctx, "Unknown expression type: class java.lang.Character", ())
        if t is HostObject:
            return Fail(form, pos, ctx, "Unknown expression type: class %s" % form.class_name, ())
        return Fail(form, pos, ctx, "Unknown expression type: class %s" % host_class_name(form), ())

    def _symbol(self, sym: Symbol, ctx: Ctx, frame: Frame, pos: Any) -> Node:
        if sym.ns is not None and sym.name and sym.ns:
            parts = str(sym).split("/")
            while parts and parts[-1] == "":
                parts.pop()
            if len(parts) >= 2 and parts[0] and parts[1]:
                root = Symbol(parts[0])
                keys = tuple(Keyword(p) for p in parts[1:])
                if root not in frame.locals and self._static(root):
                    return self._late(NsRef, sym, pos, ctx, sym, root, keys, BUILTINS[root], True)
                return NsRef(sym, pos, ctx, sym, root, keys, None, False)
        if sym in frame.locals:
            return Local(sym, pos, ctx, sym)
        if self._static(sym):
            return self._late(BuiltinRef, sym, pos, ctx, sym, BUILTINS[sym])
        return Global(sym, pos, ctx, sym)

    # ------------------------------------------------------------------ lists
    def _list(self, form: PList, ctx: Ctx, frame: Frame, pos: Any) -> Node:
        """A non-empty list: a built-in macro, a special form, a ``nil`` head, else an application.
        (A list's ``child_spans`` slot is what ``positions.child_spans_of`` reads for it.)"""
        head = form.first
        if head is None:
            return Const(form, pos, ctx, None)
        args = _rest_items(form)
        if type(head) is Symbol:
            expander = MACROS.get(head)
            if expander is not None:
                try:
                    expansion = expander(str(head), args)
                except MacroArgError as e:
                    return Fail(form, pos, ctx, str(e), ())
                return self.analyze(expansion, ctx, frame, pos)
            special = SPECIAL_FORMS.get(head)
            if special is not None:
                return special(self, form, args, ctx, frame, pos, form.child_spans)
        return self._call(form, head, args, ctx, frame, pos)

    def _call(self, form: PList, head: Any, args_forms: list[Any], ctx: Ctx, frame: Frame, pos: Any) -> Node:
        """An application (§6.3 step 4) of ``head``, the list's first element, to ``args_forms``."""
        spans = form.child_spans
        if type(head) is Keyword:
            if 1 <= len(args_forms) <= 2:
                return KeywordCall(form, pos, ctx, head, self._args(args_forms, spans, frame, pos), self.optimise)
            return Call(form, pos, ctx, Const(head, pos, Ctx.EXPR, head), self._args(args_forms, spans, frame, pos),
                        False)
        if type(head) is Symbol:
            head_pos = spans[0] if spans and spans[0] is not None else pos
            if head.ns is None and head not in frame.locals and self._static(head):
                return self._late(self._builtin_call, form, pos, ctx, head, head_pos, args_forms, spans, frame)
            if self.tainted and not self.untainted and self.optimise and late.static_root(head, frame.locals):
                return self._late(self._call, form, head, args_forms, ctx, frame, pos)
            head_node = self._symbol(head, Ctx.EXPR, frame, head_pos)
            if type(head_node) is NsRef and head_node.has_static_root:
                return Call(form, pos, ctx, head_node, self._args(args_forms, spans, frame, pos), False)
            call = Call(form, pos, ctx, head_node, self._args(args_forms, spans, frame, pos), True)
            self._taint()  # the head may be a user macro: its expansion runs in this frame (late)
            return call
        head_node = self.analyze(head, Ctx.EXPR, frame, spans[0] if spans else pos)
        return Call(form, pos, ctx, head_node, self._args(args_forms, spans, frame, pos), False)

    def _args(self, forms: list[Any], spans: Any, frame: Frame, pos: Any) -> tuple[Node, ...]:
        """The nodes of a call's arguments ``forms`` (elements 1... of the call form, whose spans are
        ``spans``), each placed at its own span, else at the call's ``pos``."""
        nodes: list[Node] = []
        i = 1
        for a in forms:
            nodes.append(self.analyze(a, Ctx.EXPR, frame, spans[i] if spans and i < len(spans) and spans[i] is not None
                                      else pos))
            i += 1
        return tuple(nodes)

    def _builtin_call(self, form: Any, pos: Any, ctx: Ctx, head: Symbol, head_pos: Any,
                      args_forms: list[Any], spans: Any, frame: Frame) -> Node:
        """A call of the static builtin ``head`` with arguments ``args_forms``."""
        value = BUILTINS[head]
        n = len(args_forms)
        if head is S_THROW and n == 1:
            return Throw(form, pos, ctx, self._args(args_forms, spans, frame, pos)[0])
        op = native_ops.BY_CALL.get((head.name, n))
        if op is not None:
            return NativeOp(form, pos, ctx, op.name, self._args(args_forms, spans, frame, pos))
        info = info_of(value)
        if info is not None and callable(value) or type(value) is EnvFn:
            return BuiltinCall(form, pos, ctx, head, value, self._args(args_forms, spans, frame, pos),
                               type(value) is EnvFn)
        return Call(form, pos, ctx, BuiltinRef(head, head_pos, Ctx.EXPR, head, value),
                    self._args(args_forms, spans, frame, pos), False)

    # ------------------------------------------------------------------ special forms
    # Each special form is one handler, found through ``SPECIAL_FORMS`` (below the class):
    # handler(form, args, ctx, frame, pos, spans), where ``args`` are the form's elements after the
    # head and ``spans`` their source spans (index 0 is the head's).
    def _seq(self, forms: list[Any], ctx: Ctx, frame: Frame, pos: Any,
             whole: Any, spans: Any = None, offset: int = 0) -> Seq:
        """A body sequence: every element but the last is a statement; the last takes ``ctx``."""
        nodes: list[Node] = []
        n = len(forms)
        start = 0
        if self.subunits and n > SUBUNIT_MIN:
            keys = SourceKeys(self.source, spans, offset)
            if ctx not in TAIL_CTXS:
                # Not a tail (no recur can target it): the last element is a sub-unit too and gives
                # the value, so the enclosing code is the same whatever the elements are
                # (ir.SubUnits.value; the turn loop's (eval (do ...)), see compiler.templates).
                elems = tuple(forms)
                self._taint()
                return Seq(whole, pos, ctx, (SubUnits(whole, pos, ctx, elems, keys, True),), elems)
            # All but the last element become separately cached units (see ir.SubUnits), compiled
            # when they run: their defs are in this frame, unseen by this analysis (``late``).
            nodes.append(SubUnits(whole, pos, Ctx.STMT, tuple(forms[:-1]), keys))
            self._taint()
            start = n - 1
        for i in range(start, n):
            f = forms[i]
            last = i == n - 1
            p = spans[i + offset] if spans and i + offset < len(spans) and spans[i + offset] is not None else pos
            nodes.append(self.analyze(f, ctx if last else Ctx.STMT, frame, p))
        return Seq(whole, pos, ctx, tuple(nodes), tuple(forms))

    def _quote(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        return Const(form, pos, ctx, args[0] if args else None)

    def _do(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        return self._seq(args, ctx, frame, pos, form, spans, 1)

    def _if(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        if not args:
            return Const(form, pos, ctx, None)
        test = self.analyze(args[0], Ctx.EXPR, frame, _span(spans, 1, pos))
        after_test = self.tainted
        then = self.analyze(args[1], ctx, frame, _span(spans, 2, pos)) if len(args) > 1 else Const(None, pos, ctx, None)
        after_then, self.tainted = self.tainted, after_test  # the else branch runs after the test, not the then
        else_ = (self.analyze(args[2], ctx, frame, _span(spans, 3, pos)) if len(args) > 2
                 else Const(None, pos, ctx, None))
        self.tainted = self.tainted or after_then
        return If(form, pos, ctx, test, then, else_, _is_bool(test))

    def _def(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        """``def`` and ``persist`` (whose value may be omitted: it then re-binds the current value)."""
        name = form.first.name
        if not args or (name == "def" and len(args) < 2):
            return Fail(form, pos, ctx, "Too few arguments to %s" % name, ())
        sym = args[0]
        if len(args) < 2:
            value = self.analyze(sym, Ctx.EXPR, frame, _span(spans, 1, pos))
        else:
            saved, self.defining = self.defining, (sym, args[1]) if type(sym) is Symbol else None
            try:
                value = self.analyze(args[1], Ctx.EXPR, frame, _span(spans, 2, pos))
            finally:
                self.defining = saved
        if type(sym) is Symbol:
            self.binds.add(sym)
        return Def(form, pos, ctx, sym, value)

    def _quine(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        if not args:
            return Global(form, pos, ctx, Symbol("quine"))
        sym = args[0]
        if type(sym) is Symbol:
            self.binds.add(sym)
        inner = Frame(frame.locals | {sym}) if type(sym) is Symbol else frame
        last = self.analyze(args[-1], ctx, inner, _span(spans, len(args), pos))
        return Quine(form, pos, ctx, sym, last)

    def _reopen(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        if not args:
            return Fail(form, pos, ctx, "reopen expects a quine form", ())
        q = self.analyze(args[0], Ctx.EXPR, frame, _span(spans, 1, pos))
        extras: list[Node] = []
        for i, x in enumerate(args[1:]):
            if type(x) is PList and x.count >= 1 and x.first is S_REOPEN_EVAL:
                extras.append(self.analyze(x[1] if x.count > 1 else None, Ctx.EXPR, frame, _span(spans, i + 2, pos)))
            else:
                extras.append(Const(x, _span(spans, i + 2, pos), Ctx.EXPR, x))
        return Reopen(form, pos, ctx, q, tuple(extras))

    def _recur(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        """A jump when in the tail of a ``loop`` body (ctx LOOP) or of a ``fn`` body (ctx RETURN inside a
        fn); anywhere else the recur request value."""
        rargs = tuple(self.analyze(a, Ctx.EXPR, frame, _span(spans, i + 1, pos)) for i, a in enumerate(args))
        target = "loop" if ctx is Ctx.LOOP else "fn" if ctx is Ctx.RETURN and self.in_fn else None
        return Recur(form, pos, ctx, rargs, target)

    def _pairs(self, bindings: Any) -> list[Any]:
        return list(as_pvector(bindings)) if type(bindings) in (PVector, LineVector, VectorView) else list(bindings)

    def _let(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        return self._scoped(lambda: self._let_node(form, args, ctx, frame, pos, spans))

    def _let_node(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        if not args or type(args[0]) not in (PVector, LineVector, VectorView, PList):
            what: Any = args[0] if args else None  # typed: mypyc rejects a local inferred as None
            if what is None:
                return Const(form, pos, ctx, None) if not args else Fail(
                    form, pos, ctx, "Don't know how to create ISeq from: %s" % host_class_name(what), ())
            return Fail(form, pos, ctx, "Don't know how to create ISeq from: %s" % host_class_name(what), ())
        items = self._pairs(args[0])
        bspans = child_spans_of(args[0])
        bindings: list[Binding] = []
        locals_ = set(frame.locals)
        all_syms: list[Symbol] = []
        for i in range(0, len(items) - 1, 2):
            pattern, expr = items[i], items[i + 1]
            vpos = bspans[i + 1] if bspans and i + 1 < len(bspans) and bspans[i + 1] is not None else pos
            value = self.analyze(expr, Ctx.EXPR, Frame(frozenset(locals_)), vpos)
            syms = tuple(pattern_symbols(pattern))
            self._bind_names(syms)
            bindings.append(Binding(pattern, syms, value))
            locals_.update(syms)
            for s in syms:
                if s not in all_syms:
                    all_syms.append(s)
        body = self._seq(args[1:], ctx, Frame(frozenset(locals_)), pos, form, spans, 2)
        summary = scope_summary([body, *(b.value for b in bindings)], self.privacy)
        private = (self.optimise and bool(all_syms) and plain_symbols(b.pattern for b in bindings)
                   and not clashes(summary, frozenset(all_syms)))
        node = Let(form, pos, ctx, tuple(bindings), body, tuple(all_syms), private)
        if private:
            self.privacy[id(node)] = (node, summary)
        return node

    def _fn(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        # A fn body is another activation: it starts untainted (``late``: its entry checks the epoch).
        saved = self.in_fn, self.tainted, self.tainted_refs
        self.in_fn, self.tainted, self.tainted_refs = True, False, 0
        try:
            return self._fn_node(form, args, ctx, pos)
        finally:
            self.in_fn, self.tainted, self.tainted_refs = saved

    def _fn_seq(self, body_forms: list[Any], syms: list[Symbol], pos: Any, form: Any) -> Seq:
        """A fn body's sequence (a ``recur`` to the fn starts it again untainted: its scope is undone
        first, as a loop's, ``late``)."""
        self.tainted = False
        return self._seq(body_forms, Ctx.RETURN, Frame(frozenset(syms)), pos, form, child_spans_of(form), 2)

    def _fn_node(self, form: Any, args: list[Any], ctx: Ctx, pos: Any) -> Node:
        name = self.defining[0] if self.defining is not None and self.defining[1] is form else None
        self.defining = None  # fns inside are not the defined one (restored by ``_def``)
        params = args[0] if args else None
        body_forms = args[1:]
        fn_body: Optional[FnBody] = None
        if type(params) in (PVector, LineVector, VectorView, PList):
            plist_params = tuple(as_pvector(params)) if type(params) is not PList else tuple(params)
            syms: list[Symbol] = []
            for p in plist_params:
                for s in pattern_symbols(p):
                    if s not in syms:
                        syms.append(s)
            self._bind_names(syms)
            seq = self._fn_seq(body_forms, syms, pos, form)
            # Parameters may become Python locals only when they are distinct plain symbols; then they
            # are private if nothing in the body can observe them, else perhaps published.
            plain = (self.optimise and bool(syms) and plain_symbols(plist_params)
                     and len(set(plist_params)) == len(plist_params))
            names = frozenset(syms)
            private = plain and not observable([seq], names, self.privacy)
            published = plain and not private and publishable([seq], names)
            # (closed_self, self_longs and second are ``_closed``'s; self_name: ``published_calls``)
            fn_body = FnBody(plist_params, tuple(syms), seq, form, private, published, None, False, None,
                             name if published else None)
            if published and name is not None:
                fn_body = self._closed(fn_body, body_forms, syms, pos, name)
        elif params is None:
            seq = self._seq(body_forms, Ctx.RETURN, Frame(), pos, form, child_spans_of(form), 2)
            fn_body = FnBody((), (), seq, form)
        return Fn(form, pos, ctx, params, plist(body_forms, is_seq=True), fn_body)

    def _closed(self, fn_body: FnBody, body_forms: list[Any], syms: list[Symbol], pos: Any, name: Symbol) -> FnBody:
        """``fn_body`` with its second body when it is closed (``selfcalls``). A body with ``Late``
        nodes is analyzed again untainted for that second body: nothing in closed code can bind a
        name, so what taints the ordinary body (its self-calls, which could find a macro there)
        never runs in the second one, which is entered only from a verified self-call (``late``)."""
        found = closed_self(fn_body, name)  # (``Late`` nodes pass: only their long types are unknown)
        if found is None:
            return fn_body
        second: Optional[Seq] = None
        if self.tainted_refs:
            saved = self.untainted, self.tainted
            self.untainted = True
            try:
                second = self._fn_seq(body_forms, syms, pos, fn_body.form)
            finally:
                self.untainted, self.tainted = saved
            found = closed_self(FnBody(fn_body.params, fn_body.syms, second, fn_body.form, fn_body.private,
                                       fn_body.published, None, False, None, fn_body.self_name), name)
            if found is None:
                return fn_body
        return FnBody(fn_body.params, fn_body.syms, fn_body.body, fn_body.form, fn_body.private, fn_body.published,
                      name, found, second, fn_body.self_name)

    def _loop(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        if not args or type(args[0]) not in (PVector, LineVector, VectorView, PList):
            what = args[0] if args else None
            return Fail(form, pos, ctx, "Don't know how to create ISeq from: %s" % host_class_name(what), ())
        items = self._pairs(args[0])
        bspans = child_spans_of(args[0])
        inits: list[Node] = []
        patterns: list[Any] = []
        syms: list[Symbol] = []
        for i in range(0, len(items) - 1, 2):
            vpos = bspans[i + 1] if bspans and i + 1 < len(bspans) and bspans[i + 1] is not None else pos
            inits.append(self.analyze(items[i + 1], Ctx.EXPR, frame, vpos))
            patterns.append(items[i])
            for s in pattern_symbols(items[i]):
                if s not in syms:
                    syms.append(s)
        self._bind_names(syms)
        body = self._scoped(lambda: self._seq(args[1:], Ctx.LOOP, Frame(frame.locals | frozenset(syms)), pos,
                                              form, spans, 2))
        assert isinstance(body, Seq)
        summary = scope_summary([body], self.privacy)
        private = (self.optimise and bool(syms) and plain_symbols(patterns) and len(set(patterns)) == len(patterns)
                   and not clashes(summary, frozenset(syms)))
        node = Loop(form, pos, ctx, tuple(inits), tuple(patterns), tuple(syms), body, private)
        if private:  # what an enclosing scope sees: the body and the initial values
            self.privacy[id(node)] = (node, merge(summary, scope_summary(inits, self.privacy)))
        return node

    def _for(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        # Its clauses and body run again after themselves: analyzed again tainted throughout when
        # they taint; its scope is undone at its exit (``_scoped``).
        was = self.tainted
        node = self._for_node(form, args, ctx, frame, pos)
        grew, self.tainted = self.tainted and not was, was
        if grew and not self.untainted:
            self.tainted = True
            node = self._for_node(form, args, ctx, frame, pos)
            self.tainted = was
        return node

    def _for_node(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any) -> Node:
        if len(args) < 1:
            return Fail(form, pos, ctx, "Too few arguments to for", ())
        if type(args[0]) not in (PVector, LineVector, VectorView, PList):
            return Fail(form, pos, ctx, "Don't know how to create ISeq from: %s" % host_class_name(args[0]), ())
        items = self._pairs(args[0])
        clauses: list[Any] = []
        locals_ = set(frame.locals)
        all_syms: list[Symbol] = []

        def note(syms: tuple[Symbol, ...]) -> None:
            self._bind_names(syms)
            locals_.update(syms)
            for s in syms:
                if s not in all_syms:
                    all_syms.append(s)

        for i in range(0, len(items) - 1, 2):
            key, expr = items[i], items[i + 1]
            if key is K_WHEN:
                clauses.append(ForWhen(self.analyze(expr, Ctx.EXPR, Frame(frozenset(locals_)), pos)))
            elif key is K_LET:
                bitems = self._pairs(expr) if type(expr) in (PVector, LineVector, VectorView, PList) else []
                bs: list[Binding] = []
                for j in range(0, len(bitems) - 1, 2):
                    value = self.analyze(bitems[j + 1], Ctx.EXPR, Frame(frozenset(locals_)), pos)
                    syms = tuple(pattern_symbols(bitems[j]))
                    bs.append(Binding(bitems[j], syms, value))
                    note(syms)
                clauses.append(ForLet(tuple(bs)))
            else:
                coll = self.analyze(expr, Ctx.EXPR, Frame(frozenset(locals_)), pos)
                syms = tuple(pattern_symbols(key))
                clauses.append(ForIter(key, syms, coll))
                note(syms)
        body = self.analyze(args[1] if len(args) > 1 else None, Ctx.EXPR, Frame(frozenset(locals_)), pos)
        return For(form, pos, ctx, tuple(clauses), body, tuple(all_syms))

    def _try(self, form: Any, args: list[Any], ctx: Ctx, frame: Frame, pos: Any, spans: Any) -> Node:
        catch_sym: Any = None
        handler: Optional[Seq] = None
        body_forms = args
        clause: Optional[list[Any]] = None
        if args and type(args[-1]) is PList and args[-1].count >= 1 and args[-1].first is S_CATCH:
            clause = list(args[-1])
            body_forms = args[:-1]
            catch_sym = clause[1] if len(clause) > 1 else None
            if type(catch_sym) is Symbol:
                self.binds.add(catch_sym)
        body = self._seq(body_forms, ctx, frame, pos, form, spans, 1)
        if clause is not None:
            inner = Frame(frame.locals | {catch_sym}) if type(catch_sym) is Symbol else frame
            # The handler runs in the failure's env, perhaps a callee's whose code was compiled at
            # run time, and the rest of this activation goes on in it (§7.13, ``late``).
            self._taint()
            handler = self._seq(clause[2:], ctx, inner, span_of(args[-1]) or pos, args[-1],
                                child_spans_of(args[-1]), 2)
        return Try(form, pos, ctx, body, catch_sym, handler)


SpecialForm = Callable[[Analyzer, Any, list[Any], Ctx, Frame, Any, Any], Node]

SPECIAL_FORMS: dict[Symbol, SpecialForm] = {Symbol(name): handler for name, handler in (
    ("quote", Analyzer._quote),
    ("do", Analyzer._do),
    ("if", Analyzer._if),
    ("def", Analyzer._def),
    ("persist", Analyzer._def),
    ("let", Analyzer._let),
    ("fn", Analyzer._fn),
    ("fn*", Analyzer._fn),
    ("quine", Analyzer._quine),
    ("reopen", Analyzer._reopen),
    ("loop", Analyzer._loop),
    ("recur", Analyzer._recur),
    ("for", Analyzer._for),
    ("try", Analyzer._try),
)}
"""Special forms (language.md §6.3) → their handler: ``handler(analyzer, form, args, ctx, frame, pos, spans)``."""


def _rest_items(form: PList) -> list[Any]:
    """The elements of the non-empty list ``form`` after its head (what ``list(form)[1:]`` gives).

    Read off the cells directly: iterating a list runs ``PList``'s generator, whose every step
    reads three attributes through the class's ``__getattr__`` hook, and that cost about twice this
    loop (~13,000 against ~6,000 machine instructions for a five-element list; every list form is
    taken apart here once). A long list, or one that is a view of another sequence (the reader's
    lists of ``VIEW_MIN`` elements or more), is iterated the ordinary way: its elements are then
    read from the source at C speed instead of by materialising cells."""
    n = form.count - 1
    if n > VIEW_MIN or form._src is not None:
        return list(form)[1:]
    items: list[Any] = []
    cell = form.rest
    while n:  # ``form`` is not empty (``analyze`` takes the empty list as a constant): n >= 0
        items.append(cell.first)
        cell = cell.rest
        n -= 1
    return items


def _span(spans: Any, i: int, pos: Any) -> Any:
    """The span of a list form's ``i``-th element, else ``pos``."""
    return spans[i] if spans and i < len(spans) and spans[i] is not None else pos


MAX_NESTING = 2000
"""How deeply evaluated forms may nest (issue 16 item 1). Analysis, emission, CPython's ``compile()``
and evaluation all recurse with the nesting, partly on the C stack, which the raised recursion limit
(``support.set_recursion_limit``) no longer guards: past a few thousand levels the process could crash
instead of failing. 2,000 levels keep every stage well inside an 8 MB stack (measured by
``tests/security/test_nesting.py``, main thread and a default-size thread) and far beyond written
code; quoted data is not analyzed and may nest deeper."""


def nesting_message() -> str:
    # PRODUCT STRING (issue 16 item 1)
    return "Form nested too deeply (more than %d levels)" % MAX_NESTING


def _is_bool(node: Node) -> bool:
    if type(node) is NativeOp:
        return native_ops.BY_NAME[node.op].returns_bool
    if type(node) is BuiltinCall:
        return node.sym.name.endswith("?")
    if type(node) is Const:
        return type(node.value) is bool or node.value is None
    return False


def analyze_form(form: Any, frame_locals: frozenset[Symbol] = frozenset(),
                 pos: Optional[tuple[int, int, int, int]] = None, source: Optional[SourceIndex] = None,
                 subunits: bool = False) -> tuple[Node, Analyzer]:
    """Analyze a top-level form, re-running once if it binds a builtin it also used statically."""
    an = Analyzer(source=source, subunits=subunits)
    node = an.analyze(form, Ctx.RETURN, Frame(frame_locals), pos)
    clash = an.binds & an.static_used
    bound.note_bound(an.binds)
    if clash:
        an = Analyzer(frozenset(clash), source=source, subunits=subunits)
        node = an.analyze(form, Ctx.RETURN, Frame(frame_locals), pos)
        bound.note_bound(an.binds)
    return node, an


__all__ = ["analyze_form", "Analyzer", "Frame", "SPECIAL_FORMS"]
