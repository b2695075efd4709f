"""Late static references: static code guarded by the activation's flag (``spellc.analyze.late``).

A ``Late`` node is a static reference (builtin call, native operator, ``throw``, builtin or
namespace reference) that the analysis found *after* a place where something may have bound a
name in this activation's frame at run time. A Python function holding such nodes starts with
``_mx = []``, its activation's flag; each such place marks it (``.append``) before what follows
can see the binding: a call site's user-macro branch hands it to ``_macro_named``/``_macro_pub_named``,
which mark it when the expansion's escaping defs bind a core name (``support.mark_core``); a
``catch`` handler and sub-units mark it always. The node becomes::

    _late_named(form, "_u3") if _mx else <its static code>

``_late_named`` (``spell_runtime.frame_paths``: ``support.late`` with ``D`` and the scope's undo
list read from the frame — the list made and stored in the local ``_u3`` on first use —, a rare
path; ``_late_here`` with a unit's ``_U``, always a list) evaluates the node's form afresh in ``D`` — compiled when it runs, so under the
bindings of that moment — with its escaping defs appended to the scope's undo list, exactly as a
macro expansion at that place is evaluated. In a body whose parameters are published around calls
(``emit.published_calls``), ``_late_pub_named`` publishes them around that evaluation and writes
their values afterwards back into the frame's parameter locals (an expansion it runs may ``def``
one), as the macro branch does. In a fn body's tail, a
node whose static code never yields a map has only its dynamic value checked for a recur request
(``ScopeEmitter.e_Late``).

The flag is a list, so an outlined piece of the function (``EmitterBase._outline``) reads and
marks the same one, and it is never emptied: once marked, the rest of the activation takes the
dynamic path, which is always exact. Code without ``Late`` nodes makes, marks and tests nothing.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from spell_runtime.abi import H
from spell_runtime.frame_paths import PARAM_LOCAL

from ..analyze import ir
from . import pyast as P

if TYPE_CHECKING:
    from .base import EmitterBase as Emitter
    from .base import Scope

FLAG = "_mx"
"""The Python local that says something may have bound a name in this activation's frame."""


def has_late(node: ir.Record) -> bool:
    """Does the code of one compiled function (``fn`` literals inside are others) hold a ``Late`` node?"""
    stack: list[ir.Record] = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ir.Late:
            return True
        if t is ir.Fn:
            continue
        stack.extend(ir.children(n))
    return False


def flag_init(em: Emitter) -> list[ast.stmt]:
    """``_mx = []`` at the start of a function with ``Late`` nodes (an empty list: nothing bound yet)."""
    return [P.assign(FLAG, P.list_([]))] if em.late_flag else []


def mark_args(em: Emitter) -> list[ast.expr]:
    """The flag, as the last argument of a macro helper, which marks it when the expansion bound a
    core name in the frame (``support.macro_into``); none when the function has no flag."""
    return [P.name(FLAG)] if em.late_flag else []


def flag_statement(em: Emitter) -> list[ast.stmt]:
    """``_mx.append(1)`` when the function has a flag (a ``catch`` handler, sub-units: whatever they
    re-enter or evaluate may have bound any name)."""
    return [P.expr_stmt(P.call(P.attr(P.name(FLAG), "append"), P.const(1)))] if em.late_flag else []


def fallback(em: Emitter, node: ir.Late, scope: Scope) -> ast.expr:
    """The dynamic evaluation of ``node``'s form (module docstring)."""
    scope.used = True  # the undo local exists (an outlined piece gets it and hands it back)
    form_c = em.const(node.form)
    if not em.private:
        if scope.always_list:  # a unit's ``_U``, always a list
            return P.callname(H.LATE_HERE, form_c, P.name(scope.undo))
        # the helper makes the scope's undo list on first use and stores it in the frame's local of
        # that name itself (``frame_paths.late_named``): the site passes the name
        return P.callname(H.LATE_NAMED, form_c, P.const(scope.undo))
    # Only a published body's parameters can be Python locals here: a private scope holds no
    # ``Late`` node (``analyze.privacy`` counts one as an observer).
    syms = tuple(em.private)
    locals_ = [em.private[s] for s in syms]
    assert em.published is not None and locals_ == list(em.published.locals_), "Late node in a private scope"
    em.note_reload(scope)
    # ``_late_pub_named`` reads ``D`` and the parameter locals from the frame and writes their values
    # afterwards back into it (issue 12): a published body's parameters are always the locals
    # ``_p0``, ``_p1``, ... (``ScopeEmitter._fn_body``).
    assert locals_ == [PARAM_LOCAL % i for i in range(len(locals_))], locals_
    assert not scope.always_list, "a published body's scope is its own"
    return P.callname(H.LATE_PUB_NAMED, em.const(syms), form_c, P.const(scope.undo))


def guarded(static_stmts: list[ast.stmt], static_expr: ast.expr, late: ast.expr,
            tmp: str) -> tuple[list[ast.stmt], ast.expr]:
    """``static`` while the flag is empty, else ``late`` (as statements, into ``tmp``, when the static
    code needs statements)."""
    test = P.name(FLAG)
    if not static_stmts:
        return [], P.ifexp(test, late, static_expr)
    return [P.if_(test, [P.assign(tmp, late)], [*static_stmts, P.assign(tmp, static_expr)])], P.name(tmp)


__all__ = ["FLAG", "has_late", "flag_init", "mark_args", "flag_statement", "fallback", "guarded"]
