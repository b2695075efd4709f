"""When a binding may live in a Python local instead of the shared binding table ``D``.

Dynamic scoping means any Spell function called while a binding is live can read
it, so bindings go into ``D`` (see ``spell_runtime.context``). But a ``let``,
``loop`` or function body whose code calls no Spell function, user macro or
env-taking builtin cannot be observed by anyone: its bindings are *private* and
compile to Python locals — at Python speed, with no save/restore.

The test is conservative and looks only at the IR of the same compiled function
(``fn`` literals inside are separate functions; they cannot run while the scope
is live unless something in the scope calls them, which the rules exclude):

* no ``Call`` (unknown head: a Spell function or a macro might read the env),
  no env-taking ``BuiltinCall`` (``map``, ``reduce``... call Spell functions);
* no ``try`` (its catch re-enters the failure env) and no ``for``;
* nested ``let``/``loop`` only if private themselves;
* no ``def``/``quine`` of one of the scope's names, no namespace path rooted in one;
* every binding pattern is a plain symbol.

A private scope adds its names to the env of any error passing through it, so
error results still show them.
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.data import Symbol

from . import ir
from .types import LONG, loop_types

_children = ir.children


Summary = Optional[tuple[frozenset[Symbol], frozenset[Symbol]]]
"""What a private scope's code does that an enclosing scope's test needs: ``None`` when something in
it could observe the env, else (symbols it ``def``s, roots of the namespace paths it reads)."""

SummaryCache = dict[int, tuple[Any, Summary]]
"""id(private ``let``/``loop`` node) → (node, its summary), filled by the analyzer as it builds them
inside out, so each enclosing scope's test stops at the nested scope instead of walking it again
(without it, ``n`` nested ``let``s cost n² node visits)."""


# The node kinds the two walks below stop at, or look into, as sets: one membership test lets the
# many nodes that are none of them (constants, locals, native ops...) through, where a chain of
# ``t is ir.X`` tests took a dozen comparisons per node (issue 12).
_OBSERVERS = frozenset({ir.Call, ir.Try, ir.For, ir.Reopen, ir.SubUnits, ir.Late})
"""Kinds that make a scope observable (a ``Late`` node may evaluate its form dynamically: ``analyze.late``)."""
_SUMMARIZED = frozenset({ir.BuiltinCall, ir.Let, ir.Loop, ir.Def, ir.Quine, ir.NsRef, ir.Fn})
"""Kinds ``scope_summary`` looks at more closely."""
_UNPUBLISHABLE = frozenset({ir.Try, ir.For, ir.Reopen, ir.SubUnits})
"""Kinds that keep a function body's parameters out of Python locals (``publishable``)."""
_PUBLISH_CHECKED = frozenset({ir.BuiltinCall, ir.Def, ir.Quine, ir.NsRef, ir.Let, ir.Loop, ir.Fn})
"""Kinds ``publishable`` looks at more closely."""


def scope_summary(nodes: Any, cache: Optional[SummaryCache] = None) -> Summary:
    """The summary of the code in ``nodes`` (one compiled function; ``fn`` literals are skipped)."""
    defs: set[Symbol] = set()
    roots: set[Symbol] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        t = type(n)
        if t not in _SUMMARIZED:
            if t in _OBSERVERS:
                return None
            stack.extend(_children(n))
            continue
        if t is ir.BuiltinCall and n.env:
            return None
        if t is ir.Let or t is ir.Loop:
            if not n.private:
                return None
            known = cache.get(id(n)) if cache is not None else None
            if known is not None and known[0] is n:
                if known[1] is None:
                    return None
                defs |= known[1][0]
                roots |= known[1][1]
                continue
        if t is ir.Def or t is ir.Quine:
            defs.add(n.sym)
        if t is ir.NsRef and not n.has_static_root:
            roots.add(n.root)
        if t is ir.Fn:
            continue  # a separate compiled function
        stack.extend(_children(n))
    return frozenset(defs), frozenset(roots)


def publishable(nodes: Any, names: frozenset[Symbol]) -> bool:
    """Can a function body whose code observes the env (so not private) keep its parameters
    ``names`` in Python locals, publishing them to ``D`` only around its call sites?

    Legality (``spell_runtime.published`` has the run-time half): the only code that can read a
    binding by name is code that runs while it is live: a called Spell function, a user macro's
    expander and expansion, ``eval``, a builtin given the env. A ``Call`` node is all of those
    (its head is unknown until run time), and each call site publishes the parameters first, so
    what they see is what the all-in-``D`` shape shows. Everything else that could observe or
    change a parameter's binding is refused here, and the body keeps the plain shape:

    * env-taking builtins (``map``, ``reduce``...: they call Spell functions without a call site
      of their own), ``try`` (its handler re-enters the failure env), ``for``, ``reopen``,
      sub-units;
    * a ``def``/``quine`` of a parameter's name, a namespace path rooted in one;
    * a ``let``/``loop`` that binds a parameter's name (its uses would read the local).

    ``let``/``loop`` scopes that bind other names keep their own shape (their calls publish the
    parameters too). A user macro's expansion may ``def`` a parameter's name: the call site
    reloads the parameter locals after it (``macro_call_published``).
    """
    stack = list(nodes)
    while stack:
        n = stack.pop()
        t = type(n)
        if t not in _PUBLISH_CHECKED:
            if t in _UNPUBLISHABLE:
                return False
            stack.extend(_children(n))
            continue
        if t is ir.BuiltinCall and n.env:
            return False
        if (t is ir.Def or t is ir.Quine) and n.sym in names:
            return False
        if t is ir.NsRef and not n.has_static_root and n.root in names:
            return False
        if (t is ir.Let or t is ir.Loop) and not names.isdisjoint(n.syms):
            return False
        if t is ir.Fn:
            continue  # a separate compiled function
        stack.extend(_children(n))
    return True


def merge(a: Summary, b: Summary) -> Summary:
    if a is None or b is None:
        return None
    return a[0] | b[0], a[1] | b[1]


def clashes(summary: Summary, names: frozenset[Symbol]) -> bool:
    """True if code with ``summary`` could observe or clash with ``names`` in the env."""
    return summary is None or not summary[0].isdisjoint(names) or not summary[1].isdisjoint(names)


def observable(nodes: Any, names: frozenset[Symbol], cache: Optional[SummaryCache] = None) -> bool:
    """True if code in ``nodes`` (one compiled function) could observe or clash with ``names`` in the env."""
    return clashes(scope_summary(nodes, cache), names)


def plain_symbols(patterns: Any) -> bool:
    return all(type(p) is Symbol for p in patterns)


def _loop_recurs(node: Any, out: list[Any]) -> None:
    """Static ``recur``s that target the loop whose body is ``node`` (not nested loops' or fns')."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ir.Recur and n.target == "loop":
            out.append(n)
        if t is ir.Fn:
            continue
        if t is ir.Loop:
            stack.extend(n.inits)  # its body's recurs target it, not us
            continue
        stack.extend(_children(n))


def int_loop_vars(loop: ir.Loop, cache: Optional[dict[int, tuple[Any, frozenset[Symbol]]]] = None) -> set[Symbol]:
    """Private loop variables that provably always hold longs (``analyze.types``, which also types
    doubles, vectors, maps and strings); their type tests can be left out. (``cache`` is unused:
    kept for the emitter's call.)"""
    return {p for p, t in loop_types(loop).items() if t == LONG}
