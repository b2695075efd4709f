"""Closed self-recursive bodies: a second compiled body with no per-call checks (issue 13 item 1).

What it is for. In ``(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))`` every call
of the published shape (``emit.published_calls``) looks ``fib`` up in ``D``, tests that the value
is the body's own compiled function (and not a macro), and the body tests ``n``'s type at every
operator, each call's result type at ``+``, checks the binding epoch on entry, keeps an undo list
for macro expansions and tests the returned value for a recur request. When this module proves
the body of ``(def S (fn ...))`` *closed* (below), the emitter writes a second Python function for
it (``FnBody.closed_self``; ``emit.scopes`` ``_second_body``): every call is a direct call of that
same second function, with no lookup, macro test, epoch check or undo list. When the body is also
*long-typed* (``FnBody.self_longs``), parameters there are Python ints and the operand type tests
and recur-request tests are gone too (and ``emit.bounds`` drops overflow tests an ``if`` proves
dead). The ordinary body enters the second one at a call site that found the head to be its own
compiled function, when the epoch has not moved and, over longs, every argument is a long
(``emit.published_calls``).

**Closed** (``self_head``): every ``Call`` in the body (outside nested ``fn`` literals, which are
refused anyway) has the *same* global symbol ``S`` as its head and the body's own arity, and
nothing else in the body can run Spell code or change a binding: no env-taking builtin, ``def``,
``quine``, ``try``, ``for``, ``reopen``, sub-units, ``fn`` literal, ``recur``, and every
``let``/``loop`` is private (``analyze.privacy``: its code calls nothing). Native operators and
builtins not given the env cannot reach ``D`` (the argument ``analyze.privacy`` makes for private
scopes; a lazy sequence realized by ``first`` or ``count`` runs its fn, whose own defs are undone
when it returns).

*Legality of skipping the head lookup.* The second body is entered only right after a call site
looked ``S`` up in ``D`` and found the body's own compiled function. From then on, the only code
that runs until that entry returns is the second body itself (recursively): native operators,
non-env builtins and its own calls. None of them binds anything in ``D`` (no ``def``, no macro —
the head is a function, not a macro —, no ``eval``, no Spell callee other than itself), so every
lookup of ``S`` it would have made returns that same function: the test it would run always
passes, and the lookup has no other effect (a lookup of a bound name cannot fail). By induction on
the call depth the same holds in every nested call. What a *self-call's own body* could do to the
name — ``(def fib ...)`` inside it — is excluded by "closed": such a body keeps the ordinary shape.
A Spell value of ``S`` changed by *another thread* sharing ``D`` is a race the ordinary shape does
not order either (no lock is taken between a lookup and the call). A ``let`` that rebinds ``S``
makes it a local, so the heads inside are not ``Global`` and the body is not closed; there is no
``binding`` form in Spell (a ``def`` of ``S`` is refused above); a macro defined *later* under the
name ``S`` is a different value of ``S``: the entry's lookup sees it, and the ordinary macro path runs.

*Legality of skipping the epoch check.* The epoch moves only when code binds a core builtin name
(``spell_runtime.epoch``): that takes a ``def``/``eval``/compile, which closed code cannot do. The
entry tests the epoch itself. (A lazy sequence's fn realized inside could move it, as it could
inside any compiled body already running: that fn's own bindings are undone when it returns, so
only later entries, which check the epoch, can see them. A binding made in a running body's own
frame — a macro expanded at one of its call sites, a caught failure's env — is ``analyze.late``'s
case: the ordinary body guards its static references after such places, and this second body,
which has none of them, is analyzed without that guard.)

*Recur requests.* Not over longs, a tail value that could be a map is still tested for a recur
request (Q17); a request re-runs the second body with its values, which is what the ordinary
body would run: nothing has happened between the return and the re-run.

*Legality of the undo list and the macro test.* Closed code has no ``def`` and its heads are
functions, so no expansion's defs can escape into its scope: the undo list stays empty.

**Long-typed** (``closed_self``'s answer): with every parameter a long and every call's value assumed a long,
every argument of every call is a long and the body's value is a long (``analyze.types.expr_type``,
whose long results may instead be an overflow *error*, never another value). By induction on the
call depth (a call that makes no call returns a long, or fails; one whose calls return longs
returns a long, or fails) the assumption holds: no call in the second body returns anything but a
long. So the operand type tests of native operators on parameters and call results are dead, and
so is the recur-request test on returned values (only a map can be one, Q17). The entry tests that
every argument is a long (``type(a) is int``, the same test the operators would make).

Errors are unchanged: the second body has the same handler (same head symbol, same body elements,
same private bindings added to the error env), one Python frame per Spell call as before (so the
depth limit falls at the same depth), and the same call positions.
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.data import Symbol

from . import ir
from .types import LONG, expr_type

_AMP = Symbol("&")

_REFUSED = (ir.Try, ir.For, ir.Reopen, ir.SubUnits, ir.Def, ir.Quine, ir.Fn, ir.Recur)


def self_head(nodes: Any, arity: int) -> Optional[Symbol]:
    """The symbol ``S`` if the code in ``nodes`` is closed (module docstring) and calls ``S``; else None."""
    head: Optional[Symbol] = None
    stack = list(nodes)
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ir.Call:
            h = n.head
            if type(h) is not ir.Global or len(n.args) != arity:
                return None
            if head is None:
                head = h.sym
            elif h.sym != head:
                return None
            stack.extend(n.args)
            continue
        if t in _REFUSED:
            return None
        if t is ir.BuiltinCall and n.env:
            return None
        if (t is ir.Let or t is ir.Loop) and not n.private:
            return None
        stack.extend(ir.children(n))
    return head


def _call_args_long(nodes: Any, env: dict[Symbol, str]) -> bool:
    """Every call's arguments are longs when the parameters and every call's value are.

    Calls sit outside any ``let``/``loop`` (only private ones are allowed, and those call
    nothing), so the parameters' types are the whole environment at each call."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if type(n) is ir.Call:
            if any(expr_type(a, env, LONG) != LONG for a in n.args):
                return False
        stack.extend(ir.children(n))
    return True


def closed_self(body: ir.FnBody, name: Symbol) -> Optional[bool]:
    """When ``body`` (a published fn body, the value of ``(def name (fn ...))``) is closed and calls
    only ``name``: whether it is long-typed too (module doc); None when it is not closed.

    The name is not needed for legality (the entry checks at run time that the head's value is
    this very body) but keeps the second body to fns that can actually enter it: a body whose
    only calls are of some other function would carry a second body never run."""
    params = body.params
    if not body.published or not params or any(type(p) is not Symbol or p == _AMP for p in params):
        return None
    head = self_head([body.body], len(params))
    if head is None or head != name or head in params:
        return None
    env = {p: LONG for p in params}
    return expr_type(body.body, env, LONG) == LONG and _call_args_long([body.body], env)


__all__ = ["self_head", "closed_self"]
