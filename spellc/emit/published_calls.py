"""Call sites in a function body whose parameters are published only around calls (issue 13 item 1).

The analysis is ``spellc.analyze.privacy.publishable``, the run-time half and the legality
argument ``spell_runtime.published``. In such a body (``FnBody.published``) parameters are
Python locals, as in a private body, and each call site is::

    _fn1(D, head, a1) if type(f) is _SpellFn and f.code is _fn1 else _apply_pub(D, syms, (p0,), f, form, (a1,))

— a direct call of the function's own compiled body when the head is that body (recursion:
the callee rebinds every parameter name, so nothing needs publishing), otherwise the runtime
helper that publishes the parameters around the generic application. A call with another
argument count than the body's own arity always takes the helper. When the head could be a
user macro, the macro branch goes through ``_macro_call_pub``, which also hands back the
parameters' values after the expansion (it may ``def`` one), reloaded into the locals.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from spell_runtime.abi import H

from . import pyast as P

if TYPE_CHECKING:
    from .base import EmitterBase as Emitter
    from .base import Scope


class Published:
    """The function body being emitted keeps its parameters ``syms`` in ``locals_`` (``fname``'s own)."""

    __slots__ = ("syms", "locals_", "fname")

    def __init__(self, syms: tuple[Any, ...], locals_: list[str], fname: str) -> None:
        self.syms = syms
        self.locals_ = locals_
        self.fname = fname


def _published_args(em: Emitter, pub: Published) -> list[ast.expr]:
    return [em.const(pub.syms), P.tuple_([P.name(v) for v in pub.locals_])]


def dispatch_expr(em: Emitter, pub: Published, f: str, head_type: ast.expr, head_sym: ast.expr, form_c: ast.expr,
                  arg_exprs: list[ast.expr]) -> ast.expr:
    """The application of head value ``f`` (its type in ``head_type``) to the arguments."""
    slow = P.callname(H.APPLY_PUB, P.name("D"), *_published_args(em, pub), P.name(f), form_c,
                      P.tuple_(arg_exprs))
    if len(arg_exprs) != len(pub.locals_):
        return slow
    same = P.and_(P.is_(head_type, P.name(H.SPELL_FN)), P.is_(P.attr(P.name(f), "code"), P.name(pub.fname)))
    return P.ifexp(same, P.callname(pub.fname, P.name("D"), head_sym, *arg_exprs), slow)


def macro_expr(em: Emitter, pub: Published, f: str, form_c: ast.expr, scope: Scope) -> ast.expr:
    """The macro branch: value of the expansion, with the scope's undo list and the parameter
    locals updated from the helper's answer (walrus assignments chained by ``is _NOTHING or``)."""
    mv = em.tmp("_mr")
    scope.used = True
    call = P.callname(H.MACRO_CALL_PUB, P.name("D"), *_published_args(em, pub), P.name(f), form_c,
                      P.name(scope.undo))
    parts: list[ast.expr] = [P.is_(P.walrus(scope.undo, P.subscript(P.walrus(mv, call), P.const(1))),
                                   P.name(H.NOTHING))]
    for i, local in enumerate(pub.locals_):
        parts.append(P.is_(P.walrus(local, P.subscript(P.subscript(P.name(mv), P.const(2)), P.const(i))),
                           P.name(H.NOTHING)))
    return P.or_(*parts, P.subscript(P.name(mv), P.const(0)))


def dispatch_stmts(em: Emitter, pub: Published, f: str, r: str, head_sym: ast.expr, form_c: ast.expr,
                   arg_names: list[str]) -> list[ast.stmt]:
    """Statement form of ``dispatch_expr``: the value lands in ``r``."""
    e = dispatch_expr(em, pub, f, P.callname("type", P.name(f)), head_sym, form_c, [P.name(a) for a in arg_names])
    return [P.assign(r, e)]


def macro_stmts(em: Emitter, pub: Published, f: str, r: str, form_c: ast.expr, scope: Scope) -> list[ast.stmt]:
    return [P.assign(r, macro_expr(em, pub, f, form_c, scope))]


__all__ = ["Published", "dispatch_expr", "macro_expr", "dispatch_stmts", "macro_stmts"]
