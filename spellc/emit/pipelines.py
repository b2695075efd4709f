"""``(reduce f init (map g (filter p coll)))`` and friends fused into one loop in the caller (issue 13 item 4).

``map``, ``filter`` and the other sequence functions are eager in Spell (language.md §14.7):
each stage builds a whole vector, and each element goes through the generic call path of its
function. When the intermediate vectors are never bound (they are arguments of the next stage,
so nothing but that stage can see them) and every function is *pure* — a literal ``fn`` whose
body is private (``analyze.privacy``, as for ``emit.fastpaths``) and calls nothing but
deterministic, effect-free core builtins (``purity.PURE_FUNCTIONS``, ``pure_names``), or such a builtin itself —
the whole pipeline can run as one Python ``for`` over the innermost collection, each function
inline::

    f_val, init, g_val, p_val, coll = ...                 # evaluated once, in source order
    try:
        acc = init
        for x in _pipe_items(coll):                        # what the innermost stage iterates
            if not truthy(<p inline on x>): continue       # filter (remove: the opposite)
            y = <g inline on x>                            # map
            acc = <f inline on acc, y>                     # reduce
        r = acc
    except Exception:
        r = reduce(D, f_val, init, map(D, g_val, filter(D, p_val, coll)))   # the eager path

The stages (``_STAGES``), each a call of two arguments: ``map``, ``filter``, ``remove``;
``keep`` (a nil result drops the element, ``false`` stays); ``map-indexed`` and ``keep-indexed``
(a counter per stage gives its function the index of each element *entering* that stage);
``mapcat`` (a nested ``for`` over ``_pipe_items`` of each result — what the eager ``mapcat``
concatenates — holding the stages after it; a literal whose whole body is a vector literal,
``(fn [x] [a b])``, walks its elements as a tuple and builds no vector).

The consumers: ``(reduce f [init] chain)`` with a literal ``f`` as ``fastpaths`` inlines it (a
builtin fold such as ``+`` is left to ``reduce``: the chain fuses as its argument, and
``reduce``'s whole-vector path ``core.bulk`` is as fast); ``(into to chain)`` (the loop collects
the values and ``into`` gets them as the vector the outermost stage would have built);
``(some pred chain)``, ``(every? pred chain)`` and ``(group-by f chain)``, with a pure function,
over a chain or — when the function is a literal — over a collection alone (``group-by``: the loop
collects (key, element) pairs and ``core.colls.grouped``, the eager ``group-by``'s own second
half, groups them); ``(reduce-kv f init coll)`` with a literal
``f`` of three parameters (no stages: the loop walks ``core.reducing.kv_pairs``, the pairs
``reduce-kv`` itself walks); or nothing (the chain's own vector is the value: the loop collects
it). At least one function of the whole pipeline must be a literal ``fn``: with only pure
builtins the runtime's whole-vector paths (``spell_runtime.core.bulk``) are already as fast.
Other consumers (``first``, ``count``, ``vec``, ``frequencies``...) get the fused
chain as their argument. ``map`` of several collections is an arity error in Spell (§14.7 Δ),
so no such stage exists to fuse.

Legality (why no Spell program can tell):

* *Same values, same order.* Each element meets the same functions in the same order as in the
  eager pipeline (stage by stage, element by element: the functions are pure, so running them
  interleaved rather than stage after stage cannot be seen); ``_pipe_items`` is the innermost
  stage's own iteration (``seq_items``), and each later stage iterates the vector the previous
  one built, which holds exactly the values passed on here (``mapcat``: the elements of each
  result, in ``seq_items`` order, as its ``extend`` does; an indexed stage: its input's
  positions, counted where its input arrives). The function values and the collection are
  evaluated once, before the loop, in the order the calls evaluate them.
* *Same failures.* Any exception abandons the loop and runs the eager pipeline from the start
  on the already-evaluated values, which raises the exact error, message, env and position
  (each stage's call keeps its own call form). Running pure functions a second time is
  unobservable: the bodies call only deterministic core builtins without effects (not
  ``gensym``, whose counter would show the second run, nor ``rand-int``), and ``def``, ``try``,
  ``recur``, ``throw``, nested ``fn``s, unknown calls and env-taking builtins are refused.
  Deadline interrupts are ``BaseException`` subclasses and pass straight through.
* *Stopping where the eager path stops.* Nothing is lazy in Spell, so the only early stops are
  ``reduced`` and ``some``/``every?``. ``reduce``'s literal function has an arithmetic,
  ``assoc`` or ``conj`` value, which never is ``reduced`` (``reducing_literal``); so has
  ``reduce-kv``'s. ``group-by`` never stops. ``some``/``every?`` over a collection stop at their answer (``break``) as the
  eager ones do; over a chain they stop *testing* at the answer, but the loop runs on, because
  the eager stages run over every element — a later element's failure is still raised — before
  ``some``/``every?`` see the first.
* *Nothing bound is skipped.* The intermediate vectors (and a ``mapcat`` function's vectors)
  exist only as arguments; the fused loop builds none, and a program has no way to ask for
  them. The last one, where it is the value or ``into``'s argument, is built from the same
  elements in the same order (``_vec``).
"""

from __future__ import annotations

import ast
from typing import Any, Optional, cast

from spell_runtime.abi import H
from spell_runtime.core.registry import info_of
from spell_runtime.data import Symbol

from ..analyze import ir
from ..analyze.linear import _tail_values
from ..analyze.native_ops import BY_CALL
from . import pyast as P
from .base import BLOCK_BUDGET, INDENT_BUDGET, FnInfo, Pos, Result, Scope
from .natives import NativeEmitter

_S_REDUCE = Symbol("reduce")
_S_REDUCE_KV = Symbol("reduce-kv")
_S_INTO = Symbol("into")
_STAGES: dict[Symbol, tuple[str, bool]] = {
    Symbol("map"): ("map", False), Symbol("filter"): ("filter", False), Symbol("remove"): ("remove", False),
    Symbol("keep"): ("keep", False), Symbol("mapcat"): ("mapcat", False),
    Symbol("map-indexed"): ("map", True), Symbol("keep-indexed"): ("keep", True),
}
"""Each stage builtin: what it does with its function's value (``map`` passes it on, ``keep`` passes
it on unless nil, ``mapcat`` passes on each of its elements, ``filter``/``remove`` pass the element
on or not by its truthiness), and whether the function also gets the element's index in the
stage's input."""
_PER_ELEMENT = {Symbol("some"): "some", Symbol("every?"): "every", Symbol("group-by"): "group"}
"""Consumers that apply a function of one argument to each element: the first truthy value / all
truthy / the elements grouped by the function's value."""
_VALUE_OPS = frozenset({"add", "sub", "mul", "inc", "dec", "neg", "assoc", "conj"})
"""Native operations whose result is never a ``reduced`` value."""
_REFUSED = (ir.Def, ir.Quine, ir.Try, ir.Recur, ir.Throw, ir.Fail, ir.Fn, ir.Reopen, ir.SubUnits, ir.Call, ir.Late)


def _pure_literal(fn: Any, arity: int) -> bool:
    """A literal ``fn`` of ``arity`` plain parameters whose private body calls nothing but
    deterministic, effect-free core builtins (``PURE_FUNCTIONS``): not ``gensym`` or ``rand-int``,
    whose second run (the eager path after a failure) a program could tell from the first."""
    if type(fn) is not ir.Fn or fn.body is None or not fn.body.private or len(fn.body.params) != arity:
        return False
    from spell_runtime.pure_names import PURE_NAMES  # imported by the first literal candidate: start-up (issue 12.4)

    stack: list[Any] = [fn.body.body]
    while stack:
        n = stack.pop()
        if isinstance(n, _REFUSED) or type(n) is ir.BuiltinCall and (n.env or not _pure_name(n.sym, PURE_NAMES)):
            return False
        stack.extend(ir.children(n))
    return True


def reducing_literal(fn: Any, arity: int = 2) -> bool:
    """A literal ``fn`` of ``arity`` (two; ``reduce-kv``: three) plain parameters whose private body
    is pure and never ``reduced`` (its value is an arithmetic, ``assoc`` or ``conj`` result):
    ``reduce`` may run it inline."""
    if not _pure_literal(fn, arity):
        return False
    tails = _tail_values(fn.body.body)
    return bool(tails) and all(type(n) is ir.NativeOp and n.op in _VALUE_OPS for n in tails)


def _pure_builtin(f: Any, arity: int) -> bool:
    """A static reference to a core builtin that is pure and takes no env."""
    if type(f) is not ir.BuiltinRef:
        return False
    if (f.sym.name, arity) in BY_CALL:
        return True
    from spell_runtime.pure_names import PURE_NAMES  # imported by the first stage candidate: start-up

    info = info_of(f.value)
    return _pure_name(f.sym, PURE_NAMES) and info is not None and not info.env


def _pure_name(sym: Symbol, pure_names: frozenset[str]) -> bool:
    """``sym in purity.PURE_FUNCTIONS``, asked of the names (``spell_runtime.pure_names``)."""
    return sym.ns is None and sym.name in pure_names


Pipeline = tuple[str, list[ir.BuiltinCall], ir.Node]
"""(what consumes the stages: "reduce", "reduce-kv", "into", "some", "every", "group" or
"vector"; the stages, innermost first; the innermost collection)."""


def _stages(coll: ir.Node) -> Optional[tuple[list[ir.BuiltinCall], ir.Node]]:
    """The stage chain ``coll`` heads (``_STAGES``), innermost first, and its source; None when a
    stage's function is neither a pure literal nor a pure builtin."""
    stages: list[ir.BuiltinCall] = []
    while type(coll) is ir.BuiltinCall and coll.sym in _STAGES and len(coll.args) == 2:
        g = coll.args[0]
        arity = 2 if _STAGES[coll.sym][1] else 1
        if not (_pure_literal(g, arity) or _pure_builtin(g, arity)):
            return None
        stages.append(coll)
        coll = coll.args[1]
    stages.reverse()
    return stages, coll


def pipeline_of(node: ir.BuiltinCall) -> Optional[Pipeline]:
    """How ``node`` fuses (see the module docstring), or None: a ``reduce``, ``into``, ``some``,
    ``every?`` or ``group-by`` of a stage chain, the outermost stage of a chain whose vector is the
    value, or a ``reduce-kv`` with a literal function."""
    literal_head = False  # the consumer's own function is a literal run inline
    if node.sym is _S_REDUCE and len(node.args) in (2, 3):
        f = node.args[0]
        literal_head = reducing_literal(f)
        if not literal_head:
            return None  # a builtin fold: the chain fuses as the value, reduce's whole-vector path folds it
        kind, found = "reduce", _stages(node.args[-1])
    elif node.sym is _S_REDUCE_KV and len(node.args) == 3:
        if not reducing_literal(node.args[0], 3):
            return None
        return "reduce-kv", [], node.args[2]  # pairs, not elements: no stage fuses under it
    elif node.sym in _PER_ELEMENT and len(node.args) == 2:
        pred = node.args[0]
        literal_head = _pure_literal(pred, 1)
        if not (literal_head or _pure_builtin(pred, 1)):
            return None
        kind, found = _PER_ELEMENT[node.sym], _stages(node.args[1])
    elif node.sym is _S_INTO and len(node.args) == 2:
        kind, found = "into", _stages(node.args[1])
    elif node.sym in _STAGES:
        kind, found = "vector", _stages(node)
    else:
        return None
    if found is None:
        return None
    stages, coll = found
    if not stages and not (literal_head and kind in ("some", "every", "group")):
        return None  # reduce with a literal alone is fastpaths' (its transient maps)
    if not (literal_head or any(type(s.args[0]) is ir.Fn for s in stages)):
        return None  # only pure builtins: core.bulk's whole-vector paths are as fast
    return kind, stages, coll


def _truthy(v: ast.expr) -> ast.expr:
    """``v`` (a walrus naming it) is neither nil nor false."""
    assert isinstance(v, ast.NamedExpr)
    return P.and_(P.is_not(v, P.const(None)), P.is_not(P.name(v.target.id), P.const(False)))


class PipelineEmitter(NativeEmitter):
    """Fused pipelines (see the module docstring)."""

    def fused_pipeline(self, node: ir.BuiltinCall, scope: Scope, info: FnInfo) -> Optional[Result]:
        found = pipeline_of(node)
        if found is None:
            return None
        kind, stages, coll = found
        loops = 2 + sum(_STAGES[s.sym][0] == "mapcat" for s in stages)  # try and for; a for per mapcat
        ifs = len(stages) + 2  # an if per filter or keep; the consumer's (some/every?): two
        if self.blocks + loops + 1 > BLOCK_BUDGET or self.indent + loops + 1 + ifs > INDENT_BUDGET:
            return None  # deep in nested blocks already: the plain calls open none (base.BLOCK_BUDGET)
        head: list[ir.Node] = list(node.args[:-1]) if kind != "vector" else []  # reduce: f, init; into: to
        # Evaluated once, in the order the nested calls evaluate them: the consumer's own leading
        # arguments, then each stage's function from the outermost in, then the innermost collection.
        order: list[ir.Node] = [*head, *(s.args[0] for s in reversed(stages)), coll]
        stmts, values = self.exprs_in_order(order, scope, info)
        temps = [self.tmp("_pv") for _ in values]
        stmts = stmts + [P.assign(t, v) for t, v in zip(temps, values)]
        head_vals = temps[:len(head)]
        stage_vals = list(reversed(temps[len(head):-1]))  # innermost first, as ``stages``
        coll_val = temps[-1]
        has_init = kind not in ("reduce", "into") or len(node.args) == 3

        acc, r, x = self.tmp("_acc"), self.tmp("_r"), self.tmp("_x")
        kv = [self.tmp("_k"), self.tmp("_v")] if kind == "reduce-kv" else []  # for k, v in the pairs
        counters: list[str] = []  # one per indexed stage: the index of its next input
        saved = self.private, self.int_vars, self.var_types, self.transients
        saved_exit, self.exit = self.exit, None  # inline bodies' values are wanted as values
        self.int_vars, self.var_types = set(self.int_vars), dict(self.var_types)
        inner = Scope(self.tmp("_u"))
        self.loops += 1
        try:
            with self.nested(loops + 1, ifs):  # + a body sequence's handler
                body, frames, cur = self._stage_steps(stages, x, counters, inner, info)
                body += self._consume(node, kind, bool(stages), acc, kv or [cur], has_init, inner, info)
        finally:
            self.private, self.int_vars, self.var_types, self.transients = saved
            self.exit = saved_exit
            self.loops -= 1
        if inner.used:
            return None
        for outer, y, items in reversed(frames):  # each mapcat's loop holds what comes after it
            outer.append(P.for_(y, items, body))
            body = outer
        # one position per call form (call_pos numbers a second request for the same form apart)
        places = [self.call_pos(s.form, s.pos) for s in stages]
        if kind != "vector":
            places.append(self.call_pos(node.form, node.pos))

        def eager() -> ast.expr:
            return self._eager(node, kind, stages, places, head_vals, stage_vals, coll_val)

        pre = [P.assign(c, P.const(0)) for c in counters]
        result: ast.expr = P.name(acc)
        if kind in ("reduce", "reduce-kv"):
            pre.append(P.assign(acc, P.name(head_vals[1]) if has_init else P.name(H.NOTHING)))
            if not has_init:  # nothing came through: the eager reduce raises its arity error
                result = P.ifexp(P.is_not(P.name(acc), P.name(H.NOTHING)), P.name(acc), eager())
        elif kind in ("some", "every"):
            pre.append(P.assign(acc, P.const(None if kind == "some" else True)))
        elif kind == "group":  # (key, element) pairs, grouped as group-by groups them
            pre.append(P.assign(acc, P.list_([])))
            result = P.callname(H.GROUPED, P.name(acc))
        else:
            pre.append(P.assign(acc, P.list_([])))
            result = P.callname(H.VEC, P.name(acc))  # the vector the outermost stage would build
            if kind == "into":  # into the same elements, as a vector like the eager stage's
                with P.at(places[-1]):
                    result = P.call(self.const(node.value), P.name(head_vals[0]), result)
        if kv:  # for k, v in the pairs reduce-kv walks
            target = P.node(ast.Tuple(elts=[P.store(n) for n in kv], ctx=P.STORE))
            loop: ast.stmt = P.node(ast.For(target=target, iter=P.callname(H.KV_PAIRS, P.name(coll_val)),
                                            body=body, orelse=[]))
        else:
            loop = P.for_(x, P.callname(H.PIPE_ITEMS, P.name(coll_val)), body)
        handler = ast.ExceptHandler(type=P.name("Exception"), name=None, body=[P.assign(r, eager())])
        guarded = P.node(ast.Try(body=[*pre, loop, P.assign(r, result)], handlers=[P.node(handler)], orelse=[],
                                 finalbody=[]))
        info.static_refs = True
        return Result(stmts + [guarded], P.name(r))

    def _stage_steps(self, stages: list[ir.BuiltinCall], x: str, counters: list[str], inner: Scope,
                     info: FnInfo) -> tuple[list[ast.stmt], list[tuple[list[ast.stmt], str, ast.expr]], str]:
        """Each stage inline on the element ``x``: the loop body so far (the innermost ``mapcat``
        loop's), the ``mapcat`` loops still to close (the body holding each, its variable and what
        it walks), and the name of the value that came through."""
        body: list[ast.stmt] = []
        frames: list[tuple[list[ast.stmt], str, ast.expr]] = []
        cur = x
        for stage in stages:
            what, indexed = _STAGES[stage.sym]
            args = [cur]
            if indexed:
                counters.append(self.tmp("_ix"))
                args = [counters[-1], cur]
            spread = self._spread(stage.args[0], cur, inner, info) if what == "mapcat" else None
            if spread is not None:  # each element of the literal vector goes on: no vector is built
                y = self.tmp("_x")
                body += spread[0]
                frames.append((body, y, spread[1]))
                body, cur = [], y
                continue
            step, value = self._apply(stage.args[0], args, inner, info)
            body += step
            if what in ("filter", "remove"):
                t = self.tmp()
                truthy = _truthy(P.walrus(t, value))
                body.append(P.if_(P.not_(truthy) if what == "filter" else truthy, [P.cont()]))
                continue
            cur = self.tmp("_x")
            body.append(P.assign(cur, value))
            if indexed:
                body.append(P.assign(args[0], P.binop(P.name(args[0]), P.ADD, P.const(1))))
            if what == "keep":  # nil results drop (false stays)
                body.append(P.if_(P.is_(P.name(cur), P.const(None)), [P.cont()]))
            elif what == "mapcat":  # each element of the result goes on, as the eager stage's seq_items
                y = self.tmp("_x")
                frames.append((body, y, P.callname(H.PIPE_ITEMS, P.name(cur))))
                body, cur = [], y
        return body, frames, cur

    def _spread(self, fn: ir.Node, arg: str, inner: Scope, info: FnInfo) -> Optional[tuple[list[ast.stmt], ast.expr]]:
        """A ``mapcat`` literal whose whole body is a vector literal ``(fn [x] [a b])``: its elements
        inline, as a tuple to walk (the vector itself is never seen: it only feeds the stage)."""
        if type(fn) is not ir.Fn or fn.body is None:
            return None
        seq = fn.body.body
        if type(seq) is not ir.Seq or len(seq.body) != 1 or type(seq.body[0]) is not ir.VectorLit:
            return None
        outer, self.private = self.private, {**self.private, fn.body.params[0]: arg}
        try:
            stmts, items = self.exprs_in_order(seq.body[0].items, inner, info)
        finally:
            self.private = outer
        return stmts, P.tuple_(items)

    def _consume(self, node: ir.BuiltinCall, kind: str, staged: bool, acc: str, came: list[str], has_init: bool,
                 inner: Scope, info: FnInfo) -> list[ast.stmt]:
        """What the consumer does with each value that came through (``came``: its name; for
        ``reduce-kv``, the key's and the value's), accumulating in ``acc``."""
        cur = came[-1]
        if kind in ("vector", "into"):  # collect
            return [P.expr_stmt(P.call(P.attr(P.name(acc), "append"), P.name(cur)))]
        if kind == "group":
            step, value = self._apply(node.args[0], [cur], inner, info)
            return step + [P.expr_stmt(P.call(P.attr(P.name(acc), "append"), P.tuple_([value, P.name(cur)])))]
        if kind in ("some", "every"):
            # Without stages the test stops at its answer, as the eager some/every? does; after
            # stages it stops testing but the loop goes on, since the eager stages run over every
            # element (a later one may fail) before some/every? sees the first.
            step, value = self._apply(node.args[0], [cur], inner, info)
            t = self.tmp()
            truthy = _truthy(P.walrus(t, value))
            stop = [] if staged else [P.brk()]
            if kind == "some":
                return [P.if_(P.is_(P.name(acc), P.const(None)), step + [P.if_(truthy, [P.assign(acc, P.name(t)), *stop])])]
            return [P.if_(P.name(acc), step + [P.if_(P.not_(truthy), [P.assign(acc, P.const(False)), *stop])])]
        step, value = self._apply(node.args[0], [acc, *came], inner, info)
        if has_init:
            return step + [P.assign(acc, value)]
        # (reduce f coll): the first element is the initial value
        return [P.if_(P.is_(P.name(acc), P.name(H.NOTHING)), [P.assign(acc, P.name(cur))], step + [P.assign(acc, value)])]

    def _apply(self, fn: ir.Node, args: list[str], inner: Scope, info: FnInfo) -> tuple[list[ast.stmt], ast.expr]:
        """``(fn args...)`` inline: a literal's body with its parameters bound to ``args``, or a pure
        builtin's native operation (or direct call)."""
        if type(fn) is ir.BuiltinRef:
            spec = BY_CALL.get((fn.sym.name, len(args)))
            if spec is not None:
                return [], cast(Any, self).native(spec.name, [P.name(a) for a in args])
            return [], P.call(self.const(fn.value), *(P.name(a) for a in args))
        assert type(fn) is ir.Fn and fn.body is not None
        outer, self.private = self.private, {**self.private, **dict(zip(fn.body.params, args))}
        v = self.tmp()
        try:
            stmts = cast(Any, self).seq_stmts(fn.body.body, inner, info, result_var=v)
        finally:
            self.private = outer  # a later stage's body must not see this one's parameters
        return stmts, P.name(v)

    def _eager(self, node: ir.BuiltinCall, kind: str, stages: list[ir.BuiltinCall], places: list[Pos],
               head_vals: list[str], stage_vals: list[str], coll_val: str) -> ast.expr:
        """The unfused pipeline on the evaluated values, each call at its own call form's place."""
        e: ast.expr = P.name(coll_val)
        for stage, g, place in zip(stages, stage_vals, places):
            with P.at(place):
                e = P.call(self.const(stage.value.fn), P.name("D"), P.name(g), e)
        if kind == "vector":
            return e
        with P.at(places[-1]):
            if kind == "into":
                return P.call(self.const(node.value), P.name(head_vals[0]), e)
            return P.call(self.const(node.value.fn), P.name("D"), *(P.name(v) for v in head_vals), e)


__all__ = ["PipelineEmitter", "pipeline_of", "reducing_literal"]
