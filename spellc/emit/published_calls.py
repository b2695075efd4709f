"""Call sites in a function body whose parameters are published only around calls (issue 13 item 1).

The analysis is ``spellc.analyze.privacy.publishable``, the run-time half and the legality
argument ``spell_runtime.published``. In such a body (``FnBody.published``) parameters are
Python locals, as in a private body, and each call site is::

    _fn1(D, head, a1) if type(f) is _SpellFn and f.code is _fn1 else _apply_pub(D, syms, (p0,), f, form, (a1,))

— a direct call of the function's own compiled body when the head is that body (recursion:
the callee rebinds every parameter name, so nothing needs publishing), otherwise the runtime
helper that publishes the parameters around the generic application. Only a call whose head is the
body's own name (``FnBody.self_name``) with the body's own argument count gets that test: any other
call always takes the helper (and, when the head could be a user macro, tests it with
``_not_macro(f := head)`` alone, no type test first). Another name's value is this body only through
an alias or a higher-order argument, where the helper is as correct; on ``compile-300.spl`` the test
at such calls never passed, and its thirteen sites were ~500 nodes and two checks a call. When the
head could be a user macro, the macro branch goes through ``_macro_pub_named`` (``_macro_pub`` reading ``D`` and the
parameters, and the scope's undo list, from the frame), which also writes the parameters' values after the expansion (it may
``def`` one) back into the frame's locals (``spell_runtime.frame_paths.write_params``).

A body that ``analyze.selfcalls`` proves closed (``FnBody.closed_self``) has a second compiled
body without per-call checks (``Published.second_fname``). The direct call above then enters it
when the binding epoch has not moved and, for the body over longs (``FnBody.self_longs``), every
argument is a long::

    (_fn1_long(D, head, a1) if type(a1) is int and not _MOVED else _fn1(D, head, a1)) if …

(``not _MOVED``: the body was compiled at epoch 0, ``spell_runtime.epoch``; ``_EPOCH[0] == N`` at N.)

and inside that second body every call is ``second_call``'s plain ``_fn1_long(D, head, a1)``
(``_fn1_closed`` for a body not over longs): the head lookup, the macro test, the epoch check and,
over longs, the operand type tests are all proven dead there (the legality argument is
``analyze.selfcalls``'s docstring).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Optional

from spell_runtime.abi import H
from spell_runtime.data import Symbol
from spell_runtime.frame_paths import PARAM_LOCAL

from . import late
from . import pyast as P

if TYPE_CHECKING:
    from ..analyze import ir
    from .base import EmitterBase as Emitter
    from .base import FnInfo, Scope


class Published:
    """The function body being emitted keeps its parameters ``syms`` in ``locals_`` (``fname``'s own);
    ``second_fname``: its second body (``analyze.selfcalls``; over longs if ``second_longs``), valid
    at binding epoch ``epoch``; ``self_name``: the name it is defined under (``FnBody.self_name``)."""

    __slots__ = ("syms", "locals_", "fname", "second_fname", "second_longs", "epoch", "self_name")

    def __init__(self, syms: tuple[Any, ...], locals_: list[str], fname: str, second_fname: Optional[str] = None,
                 second_longs: bool = False, epoch: int = 0, self_name: Optional[Symbol] = None) -> None:
        self.syms = syms
        self.locals_ = locals_
        self.fname = fname
        self.second_fname = second_fname
        self.second_longs = second_longs
        self.epoch = epoch
        self.self_name = self_name


def _published_args(em: Emitter, pub: Published) -> list[ast.expr]:
    return [em.const(pub.syms), P.tuple_([P.name(v) for v in pub.locals_])]


def may_call_directly(pub: Published, n: int, head: Any) -> bool:
    """Is a call of ``head`` with ``n`` arguments worth testing for a direct call of the body's own
    compiled function (a self-call by name)? Else ``dispatch_expr`` is the helper alone, and the call
    site needs no type test of its head."""
    return n == len(pub.locals_) and type(head) is Symbol and head == pub.self_name


def dispatch_expr(em: Emitter, pub: Published, f: str, head_type: ast.expr, head: Any, form_c: ast.expr,
                  arg_exprs: list[ast.expr]) -> ast.expr:
    """The application of head value ``f`` (its type in ``head_type``; ``head``: the head form) to the arguments."""
    slow = P.callname(H.APPLY_PUB, P.name("D"), *_published_args(em, pub), P.name(f), form_c,
                      P.tuple_(arg_exprs))
    if not may_call_directly(pub, len(arg_exprs), head):
        return slow
    same = P.and_(P.is_(head_type, P.name(H.SPELL_FN)), P.is_(P.attr(P.name(f), "code"), P.name(pub.fname)))
    head_sym = em.const(head)
    direct: ast.expr = P.callname(pub.fname, P.name("D"), head_sym, *arg_exprs)
    if pub.second_fname is not None:
        gate = [P.is_(P.callname("type", a), P.name("int")) for a in arg_exprs
                if pub.second_longs and not (isinstance(a, ast.Constant) and type(a.value) is int)]
        # the body is compiled at ``pub.epoch`` (it goes stale when that moves: ``stale_bodies``): ``not _MOVED`` at epoch 0
        gate.append(P.not_(P.name(H.MOVED)) if pub.epoch == 0
                    else P.compare(P.subscript(P.name(H.EPOCH), P.const(0)), P.EQ, P.const(pub.epoch)))
        direct = P.ifexp(P.and_(*gate), P.callname(pub.second_fname, P.name("D"), head_sym, *arg_exprs), direct)
    return P.ifexp(same, direct, slow)


def second_call(em: Emitter, node: ir.Call, scope: Scope, info: FnInfo,
                second_fname: str) -> tuple[list[ast.stmt], ast.expr]:
    """A call inside a closed fn's second body: always a direct call of that body (``analyze.selfcalls``:
    every call there is a verified self-call); over longs, its value is a long."""
    stmts, exprs = em.exprs_in_order(node.args, scope, info)
    with P.at(em.call_pos(node.form, node.pos)):
        e = P.callname(second_fname, P.name("D"), em.const(node.form.first), *exprs)
    if em.second_longs:
        em.int_exprs[id(e)] = e
    return stmts, e


def macro_expr(em: Emitter, pub: Published, f: str, form_c: ast.expr, scope: Scope) -> ast.expr:
    """The macro branch: value of the expansion. The helper reads ``D``, the parameters and the scope's
    undo list (made and stored on first use) from the frame and writes the parameters' new values back
    into it (``frame_paths.macro_pub_named``, issue 12): the call is the whole site. A published body's
    parameters are always the locals ``_p0``, ``_p1``, ... (``ScopeEmitter._fn_body``), also in a piece
    outlined from it, which receives them under the same names (``EmitterBase._outline``)."""
    scope.used = True  # the undo local exists (an outlined piece gets it and hands it back)
    em.note_reload(scope)  # an expansion may ``def`` a parameter: undone with ``scope`` (``Scope.reloads``)
    assert pub.locals_ == [PARAM_LOCAL % i for i in range(len(pub.locals_))], pub.locals_
    assert not scope.always_list, "a published body's scope is its own"
    return P.callname(H.MACRO_PUB_NAMED, em.const(pub.syms), P.name(f), form_c, P.const(scope.undo),
                      *late.mark_args(em))


def dispatch_stmts(em: Emitter, pub: Published, f: str, r: str, head: Any, form_c: ast.expr,
                   arg_names: list[str]) -> list[ast.stmt]:
    """Statement form of ``dispatch_expr``: the value lands in ``r``."""
    e = dispatch_expr(em, pub, f, P.callname("type", P.name(f)), head, form_c, [P.name(a) for a in arg_names])
    return [P.assign(r, e)]


def macro_stmts(em: Emitter, pub: Published, f: str, r: str, form_c: ast.expr, scope: Scope) -> list[ast.stmt]:
    return [P.assign(r, macro_expr(em, pub, f, form_c, scope))]


__all__ = ["Published", "may_call_directly", "dispatch_expr", "second_call", "macro_expr",
           "dispatch_stmts", "macro_stmts"]
