"""Every IR node kind is produced by the analyzer and is well formed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from spell_runtime import library
from spell_runtime.data import Symbol

import spellc
from spellc import state
from spellc.analyze import ir
from spellc.analyze.analyzer import analyze_form

CORPUS = [
    "42", "x", "inc", "strings/trim", "my/thing", "[1 x]", "{:a x}", "(if x 1 2)", "(do 1 x)",
    "(def y 1)", "(let [a 1 [b] [2]] (+ a b))", "(fn [n] (* n n))", "(quine q (count q))",
    "(reopen '(quine c (eval (do 1))) (def z 2) (reopen-eval (+ 1 2)))",
    "(loop [i 0] (if (< i 3) (recur (inc i)) i))", "(recur 1)",
    "(for [a [1 2] :when (odd? a) :let [b a]] b)", "(try (throw 1) (catch e e))",
    "(f 1 2)", "(conj [] 1)", "(+ 1 x)", "(:k {:k 1})", "(throw \"x\")", "(def)", "\\a",
    "((fn [x] x) 1)", "(map inc [1])", "(do 1 2 3 4 5 6 7 8 9)", "(do (f 1) (inc x))",
]


def walk(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, ir.Record):
        for f in node._fields:
            value = getattr(node, f)
            items = value if isinstance(value, tuple) else (value,)
            for item in items:
                if isinstance(item, ir.Record):
                    yield from walk(item)


def nodes_of(src: str) -> list[Any]:
    library.load()  # builtins are referenced statically only once registered (else the test depends on order)
    node, _ = analyze_form(spellc.read_string(src), subunits=True)
    return [n for n in walk(node) if isinstance(n, ir.Node)]


@pytest.fixture
def core_names_static() -> Iterator[None]:
    """Core names static as in a fresh process (where only ``eval`` starts bound): earlier tests in
    this process may have bound ``inc`` or ``+``, which would leave no ``BuiltinRef`` or ``Late``
    node in the corpus. Compiled units go with the bindings they were analyzed under."""
    was = set(state.BOUND)
    state.reset_caches()
    state.BOUND.clear()
    state.BOUND.add(Symbol("eval"))
    yield
    state.reset_caches()
    state.BOUND.clear()
    state.BOUND.update(was)


@pytest.mark.usefixtures("core_names_static")
def test_every_node_kind_appears_and_is_well_formed() -> None:
    seen: set[type] = set()
    for src in CORPUS:
        for n in nodes_of(src):
            seen.add(type(n))
            assert type(n) in ir.NODE_KINDS
            assert isinstance(n.ctx, ir.Ctx)
            assert n.pos is None or (len(n.pos) == 4 and all(isinstance(p, int) for p in n.pos))
            assert set(n._fields) >= {"form", "pos", "ctx"}
            assert all(hasattr(n, f) for f in n._fields)
            if isinstance(n, (ir.Local, ir.Global, ir.BuiltinRef)):
                assert type(n.sym) is Symbol
            if isinstance(n, ir.Seq):
                if n.body and isinstance(n.body[0], ir.SubUnits) and n.body[0].value:
                    assert len(n.body) == 1 and n.body[0].elems == n.elems  # every element, the value too
                elif n.body and isinstance(n.body[0], ir.SubUnits):
                    assert len(n.body) == 2 and n.body[0].elems == n.elems[:-1]
                else:
                    assert len(n.body) == len(n.elems)
            if isinstance(n, ir.If):
                assert all(isinstance(x, ir.Node) for x in (n.test, n.then, n.else_))
            if isinstance(n, ir.Recur):
                assert n.target in (None, "loop", "fn")
                # a jump is exactly a recur in tail context (the emitter reads nothing else)
                assert (n.target is not None) <= (n.ctx in ir.TAIL_CTXS)
                assert (n.target == "loop") == (n.ctx is ir.Ctx.LOOP)
            if isinstance(n, ir.NativeOp):
                assert n.args and all(isinstance(a, ir.Node) for a in n.args)
            if isinstance(n, ir.Late):  # a static reference after a possible run-time binding (analyze.late)
                assert isinstance(n.node, (ir.BuiltinRef, ir.BuiltinCall, ir.NativeOp, ir.Throw, ir.NsRef, ir.Call))
                assert n.node.form is n.form and n.node.ctx is n.ctx
    assert seen == set(ir.NODE_KINDS)


def test_nodes_are_frozen() -> None:
    node, _ = analyze_form(spellc.read_string("(+ 1 2)"))
    try:
        node.ctx = ir.Ctx.STMT  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        return
    raise AssertionError("IR nodes must be immutable")


def test_contexts_follow_position() -> None:
    node, _ = analyze_form(spellc.read_string("(do (f 1) (g 2))"))
    assert isinstance(node, ir.Seq)
    assert node.ctx is ir.Ctx.RETURN
    assert node.body[0].ctx is ir.Ctx.STMT
    assert node.body[1].ctx is ir.Ctx.RETURN
    call = node.body[1]
    assert isinstance(call, ir.Call) and call.args[0].ctx is ir.Ctx.EXPR


def test_recur_targets() -> None:
    loop = [n for n in nodes_of("(loop [i 0] (if i (recur 1) 2))") if isinstance(n, ir.Recur)]
    assert [r.target for r in loop] == ["loop"]
    not_tail = [n for n in nodes_of("(loop [i 0] (do (recur 1) 2))") if isinstance(n, ir.Recur)]
    assert [r.target for r in not_tail] == [None]
    in_fn = [n for n in nodes_of("(fn [a] (recur a))") if isinstance(n, ir.Recur)]
    assert [r.target for r in in_fn] == ["fn"]


def test_loop_body_tail_is_loop_context_whatever_the_loop_context() -> None:
    # The loop is an argument (EXPR); its body's last element still leaves through the loop.
    call = nodes_of("(f (loop [i 0] (if i (g i) 2)))")[0]
    assert isinstance(call, ir.Call)
    loop = call.args[0]
    assert isinstance(loop, ir.Loop) and loop.ctx is ir.Ctx.EXPR
    branch = loop.body.body[-1]
    assert isinstance(branch, ir.If) and branch.ctx is ir.Ctx.LOOP
    assert branch.test.ctx is ir.Ctx.EXPR and branch.then.ctx is ir.Ctx.LOOP and branch.else_.ctx is ir.Ctx.LOOP


def test_recur_in_unit_tail_is_a_value_and_in_fn_tail_a_jump() -> None:
    unit = [n for n in nodes_of("(let [a 1] (recur a))") if isinstance(n, ir.Recur)]
    assert [(r.ctx, r.target) for r in unit] == [(ir.Ctx.RETURN, None)]
    fn_in_loop = [n for n in nodes_of("(loop [i 0] (fn [a] (recur a)))") if isinstance(n, ir.Recur)]
    assert [(r.ctx, r.target) for r in fn_in_loop] == [(ir.Ctx.RETURN, "fn")]
    loop_in_fn = [n for n in nodes_of("(fn [a] (loop [i a] (recur i)))") if isinstance(n, ir.Recur)]
    assert [(r.ctx, r.target) for r in loop_in_fn] == [(ir.Ctx.LOOP, "loop")]


def test_special_forms_table_covers_the_language() -> None:
    from spellc.analyze.analyzer import SPECIAL_FORMS

    names = {s.name for s in SPECIAL_FORMS}
    assert names == {"quote", "def", "persist", "do", "if", "let", "fn", "fn*", "quine", "reopen", "loop",
                     "recur", "for", "try"}


def test_declared_children_are_exactly_the_fields_holding_records() -> None:
    for src in CORPUS:
        for n in walk(analyze_form(spellc.read_string(src), subunits=True)[0]):
            holding = [f for f in n._fields
                       if isinstance(getattr(n, f), ir.Record)
                       or (isinstance(getattr(n, f), tuple) and any(isinstance(x, ir.Record) for x in getattr(n, f)))]
            assert set(holding) <= set(ir.CHILDREN[type(n)]), (type(n), holding)
            assert list(ir.children(n)) == [c for f in ir.CHILDREN[type(n)] for c in (
                getattr(n, f) if isinstance(getattr(n, f), tuple) else [getattr(n, f)]) if c is not None]


RECORD_KINDS = sorted({*ir.NODE_KINDS, *ir.CHILDREN}, key=lambda k: k.__name__)


@pytest.mark.parametrize("kind", RECORD_KINDS, ids=lambda k: k.__name__)
def test_records_take_their_fields_in_order_whichever_initialiser_they_have(kind: type) -> None:
    # Kinds of 3 to 7 fields without defaults have an unrolled initialiser, the others the general one.
    values = [object() for _ in kind._fields]  # type: ignore[attr-defined]
    record = kind(*values)
    assert [getattr(record, f) for f in kind._fields] == values  # type: ignore[attr-defined]
    assert list(record.__dict__) == list(kind._fields)  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        kind(*values, object())
    if not kind._defaults:  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            kind(*values[:-1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.form = None


def test_defaults_fill_the_fields_left_out() -> None:
    body = ir.FnBody((), (), None, None)
    assert (body.private, body.published, body.closed_self, body.self_longs, body.second) == (False, False, None, False, None)
    let = ir.Let(None, None, ir.Ctx.EXPR, (), None, ())
    assert let.private is False and let.__init__.__func__ is ir.Record.__init__  # type: ignore[attr-defined]
    assert ir.Const.__init__ is not ir.Record.__init__  # unrolled (4 fields)
