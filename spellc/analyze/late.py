"""Static references that may run after a run-time binding in their own activation (issue 13 item 5).

**The rule it completes.** ``analyze.bound`` compiles a reference to a core name (``-``, ``count``,
``strings/...``) statically — a direct reference, a native operator — when no compiled code has
ever bound that name, and every compiled fn body checks the binding epoch on entry. That argument
covers every binding the compiler *saw*: ``def``s, ``let``s, parameters... of code compiled before
the body ran. It leaves one kind of binding: one made **while the body runs, in its own frame,
by code compiled after it started**. This module's analysis (run by the analyzer, as it reads a
body in evaluation order) finds where that can happen; the emitter (``spellc.emit.late``) guards
what follows.

**Where it can happen (why this is the only hole).** While an activation (a fn body's run, or a
unit's) runs, the env ``D`` it sees can change only through code that runs in it:

* forms written in its own body: analyzed with it, so their bindings are in ``bound.BOUND``
  before it runs (``analyze_form``'s re-analysis covers a name a form both binds and uses);
* a **user macro's expansion**: the head of a call with a non-local or local symbol head (not a
  special form or built-in macro: §6.3 step 2 looks user macros up *when the call runs*, in the
  dynamic env) may turn out to be a macro; its expansion is compiled then and evaluated in this
  frame, and its escaping defs stay there (§6.4 "macros: as their expansion");
* a **caught failure**: a ``catch`` handler, and everything after the ``try``, runs in the env at
  the point of failure (§7.13, Q13), which may be a callee's — and a callee compiled at run time
  (a fn built as data, one made by ``spell-eval``) may have bound any name there;
* **sub-units**: the leading elements of a long body sequence are compiled only when they run
  (``ir.SubUnits``, the turn loop), so this analysis never sees their defs.

Nothing else can. A callee's own ``def``s and ``let``s are undone when it returns (§6.4: defs in a
Spell function body never escape; ``let`` restores), so they can only *move the epoch* — which the
next entry of any body checks. Builtins that evaluate code (``eval``, ``spell-eval``, ``apply``,
``map``...) discard env changes; futures run on a snapshot of ``D``; ``quine``/``reopen``/
``persist``/destructuring bind only names written in the body (analyzed); a fn literal's body is
another activation (with its own entry check) even though it runs in the caller's env; an env
passed in through the API is noted before anything is compiled against it.

**What the analysis does.** It reads each body in evaluation order, keeping ``tainted``: *one of
the events above may have run earlier in this activation*. An event taints what follows it:
after a possibly-macro call (its own arguments run only when the head is no macro, so they are
not after it), in a ``catch`` handler and after its ``try``, after sub-units. Scopes that undo
their bindings restore the earlier state when they end: a ``let`` (its undo list is unwound and
its names restored at its exit), a ``loop`` body (unwound at the top of every iteration and at its
exit; its initial values belong to the enclosing scope), a ``for``, a fn body (a ``recur`` to the
fn unwinds the previous iteration's defs first). An ``if`` is tainted after it when either branch
may have tainted it. A ``for``'s clauses and body run again after themselves: when they taint, they
are analyzed again tainted throughout. A static reference reached while tainted becomes an
``ir.Late`` node around the static node it would have been; inside it, analysis restarts
untainted (its static code runs only while the run-time flag says nothing happened yet).

**Why no program can observe it** (the run-time half, ``spellc.emit.late``,
``spell_runtime.support.late``). Each event marks the activation's flag before it can bind
anything visible to what follows — a macro branch when its expansion's escaping defs (the undo
entries appended to the scope: every binding it left in the frame, including those its own nested
macros and catches made) include a core name; a ``catch`` handler and sub-units always. While the
flag is unmarked, no core name has been bound in the frame since the activation began, so the
static code is what the dynamic code would do (``analyze.bound``'s argument, unchanged). Once it is
marked, a ``Late`` node evaluates its *form* instead, compiled at that moment — under a
``BOUND`` that now holds the new name, since compiling the binding code noted it — in ``D`` with
the body's published parameters visible, escaping defs appended to the scope and parameters
reloaded: exactly how a macro expansion standing at that place is evaluated, and what the code
compiled with optimisations off does there. Nothing is evaluated twice: the guard is tested before
any of the node's operands. Positions, traces and error envs come from the same forms (their
source spans) and the same handlers. The flag is monotone within an activation (a marked flag
after the binding's scope ended only sends code to the dynamic path, which is always exact).

Privacy (``analyze.privacy``) counts a ``Late`` node as an observer (its dynamic path may call a
user function that reads the env), so ``let``/``loop`` names around one live in ``D``. The second
body of a closed self-recursive fn (``analyze.selfcalls``) is analyzed again untainted: closed code
has no macro, ``catch`` or sub-units, and it is entered only from a verified self-call.
"""

from __future__ import annotations

from spell_runtime.data import Symbol

from . import bound
from .ir import Late, Node


def wrap(node: Node) -> Late:
    """``node`` (a static reference made while tainted) as a ``Late`` node."""
    return Late(node.form, node.pos, node.ctx, node)


def static_root(head: Symbol, locals_: frozenset[Symbol]) -> bool:
    """Could ``head`` be a namespace path whose root is a static builtin (the analyzer then makes a
    static ``NsRef``)? A wider answer than the analyzer's own test only wraps a node needlessly."""
    if head.ns is None or not head.name or not head.ns:
        return False
    root = Symbol(str(head).split("/")[0])
    return root.name != "" and root not in locals_ and bound.is_static_builtin(root)


__all__ = ["wrap", "static_root"]
