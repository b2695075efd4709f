"""``(reduce (fn [acc x] body) init coll)`` compiled as a loop in the caller (issue 13 items 3–4).

The builtin ``reduce`` calls the function once per element through the generic call path;
when the function is a literal whose body is *private* (``FnBody.private``: it calls nothing,
so nothing can observe its parameters, ``analyze.privacy``) the same fold can run as a Python
``for`` loop in the caller, the body inline and its parameters as locals::

    _acc = init; _c = coll
    try:
        _pa = _acc
        for _pb in _reduce_items(_c):
            ...body...
            _pa = <body value>
        _r = _pa
    except Exception:
        _r = <reduce>(D, _SpellFn(params, body, _fnN), _acc, _c)   # from the start

A body ``(assoc acc k v)`` that uses ``acc`` only there collects the (k, v) pairs and builds the
map once in a transient (``spell_runtime.inline.assoc_pairs``).

Legality (why no Spell program can tell):

* *Same values.* The inline loop performs the calls ``reduce`` would make, in the same order,
  on the same elements (``reduce_items`` is ``reduce``'s own iteration), with the body compiled
  from the same IR. What the body could observe of the env is unchanged: it reads no parameter
  of the caller's (its own shadow them), and the call site stays an env-taking builtin call in
  the IR, so every enclosing binding is still in ``D`` as the generic call would find it.
* *Same failures.* Any exception — a failing element, an overflow, an unseqable collection —
  abandons the inline loop and runs the real ``reduce`` from the start, which raises the exact
  error with its message, env and trace. Running the body twice is unobservable because a
  private body is pure: it calls nothing, and ``def``s, ``try``, ``recur`` and ``throw`` are
  refused here. (Deadline interrupts are ``BaseException``s and pass straight through.)
* *No early stop.* ``reduce`` stops at a ``reduced`` value; the body's value is required to be
  an arithmetic, ``assoc`` or ``conj`` result, which never is one.
* *The transient map* replays the same ``assoc`` steps (``TransientMap`` keeps Spell's key
  order and a re-assigned key's first spelling) and is frozen before anything sees it; the
  initial map is copied, never changed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional, cast

from spell_runtime.abi import H
from spell_runtime.data import Keyword, Symbol

from ..analyze import ir
from . import pyast as P
from .base import FnInfo, Result, Scope
from .pipelines import PipelineEmitter
from .pipelines import reducing_literal as _inlinable

_S_REDUCE = Symbol("reduce")
_S_ASSOC = Symbol("assoc")


def keyword_assoc(node: ir.BuiltinCall) -> bool:
    """Whether ``(assoc m k1 v1 k2 v2 ...)`` — at least two pairs, every key a literal keyword — is
    written as ``_assoc_keywords(m, k1, v1, ...)`` (``spell_runtime.keyword_assoc``, where its
    legality is argued; one pair is the native ``assoc`` operator instead, ``emit.natives``)."""
    args = node.args
    return (node.sym is _S_ASSOC and len(args) >= 5 and len(args) % 2 == 1
            and all(type(k) is ir.Const and type(k.value) is Keyword for k in args[1::2]))


def _assoc_body(fn: ir.Fn) -> Optional[ir.NativeOp]:
    """The body's ``(assoc acc k v)`` when that is all it is and ``acc`` is used nowhere else."""
    assert fn.body is not None
    seq = fn.body.body
    if len(seq.body) != 1 or type(seq.body[0]) is not ir.NativeOp or seq.body[0].op != "assoc":
        return None
    op = seq.body[0]
    acc = fn.body.params[0]
    if type(op.args[0]) is not ir.Local or op.args[0].sym != acc:
        return None

    stack: list[Any] = list(op.args[1:])
    while stack:
        n = stack.pop()
        if type(n) is ir.Local and n.sym == acc:
            return None
        stack.extend(ir.children(n))
    return op


class FastPathEmitter(PipelineEmitter):
    """``reduce`` with a literal function, inline (see the module docstring); a ``reduce`` over a
    ``map``/``filter`` pipeline is fused first when it can be (``pipelines``)."""

    def inline_reduce(self, node: ir.BuiltinCall, scope: Scope, info: FnInfo) -> Optional[Result]:
        fused = self.fused_pipeline(node, scope, info)
        if fused is not None:
            return fused
        if node.sym is not _S_REDUCE or len(node.args) != 3 or not _inlinable(node.args[0]):
            return None
        em = cast(Any, self)  # the composed Emitter (scopes, values): seq_stmts, e_Fn
        fn = cast(ir.Fn, node.args[0])
        assert fn.body is not None
        fn_value = em.e_Fn(fn, scope, info)  # the function for the generic path (compiled body)
        stmts, (init, coll) = self.exprs_in_order(node.args[1:], scope, info)
        acc, c, r = self.tmp("_acc"), self.tmp("_c"), self.tmp("_r")
        stmts = stmts + [P.assign(acc, init), P.assign(c, coll)]
        a_sym, x_sym = fn.body.params
        pa, pb = self.tmp("_l"), self.tmp("_l")
        saved = self.private, self.int_vars, self.var_types, self.transients
        saved_exit, self.exit = self.exit, None  # the body's tail value is wanted here as a value
        self.private = {**self.private, a_sym: pa, x_sym: pb}
        self.int_vars, self.var_types, self.transients = set(self.int_vars), dict(self.var_types), self.transients
        inner = Scope(self.tmp("_u"))
        assoc = _assoc_body(fn)
        self.loops += 1
        try:
            with self.nested(3):  # try, for, and the body sequence's handler
                if assoc is not None:
                    kv, kv_exprs = self.exprs_in_order(assoc.args[1:], inner, info)
                    pairs = self.tmp("_kv")
                    loop_body = kv + [P.expr_stmt(P.call(P.attr(P.name(pairs), "append"), P.tuple_(kv_exprs)))]
                    pre = [P.assign(pairs, P.list_([]))]
                    done = [P.assign(r, P.callname(H.ASSOC_PAIRS, P.name(acc), P.name(pairs)))]
                else:
                    v = self.tmp()
                    loop_body = em.seq_stmts(fn.body.body, inner, info, result_var=v) + [P.assign(pa, P.name(v))]
                    pre = [P.assign(pa, P.name(acc))]
                    done = [P.assign(r, P.name(pa))]
        finally:
            self.private, self.int_vars, self.var_types, self.transients = saved
            self.exit = saved_exit
            self.loops -= 1
        if inner.used:  # defs are refused by _inlinable; a scope that needs undoing is not inlined
            return None
        if assoc is not None:
            pre.insert(0, P.assign(pa, P.name(acc)))
        loop = P.for_(pb, P.callname(H.REDUCE_ITEMS, P.name(c)), loop_body)
        with P.at(self.call_pos(node.form, node.pos)):  # host failures name the reduce call form
            generic = P.call(self.const(node.value.fn), P.name("D"), fn_value.expr, P.name(acc), P.name(c))
            fallback: list[ast.stmt] = [P.assign(r, generic)]
        handler = ast.ExceptHandler(type=P.name("Exception"), name=None, body=fallback)
        guarded = P.node(ast.Try(body=[*pre, loop, *done], handlers=[P.node(handler)], orelse=[], finalbody=[]))
        return Result(fn_value.stmts + stmts + [guarded], P.name(r))


__all__ = ["FastPathEmitter", "keyword_assoc"]
