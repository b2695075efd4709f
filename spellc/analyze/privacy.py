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

_children = ir.children


Summary = Optional[tuple[frozenset[Symbol], frozenset[Symbol]]]
"""What a private scope's code does that an enclosing scope's test needs: ``None`` when something in
it could observe the env, else (symbols it ``def``s, roots of the namespace paths it reads)."""

SummaryCache = dict[int, tuple[Any, Summary]]
"""id(private ``let``/``loop`` node) → (node, its summary), filled by the analyzer as it builds them
inside out, so each enclosing scope's test stops at the nested scope instead of walking it again
(without it, ``n`` nested ``let``s cost n² node visits)."""


def scope_summary(nodes: Any, cache: Optional[SummaryCache] = None) -> Summary:
    """The summary of the code in ``nodes`` (one compiled function; ``fn`` literals are skipped)."""
    defs: set[Symbol] = set()
    roots: set[Symbol] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ir.Call or t is ir.Try or t is ir.For or t is ir.Reopen or t is ir.SubUnits:
            return None
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


def _rebinds(node: Any, names: set[Symbol], cache: Optional[dict[int, tuple[Any, frozenset[Symbol]]]]) -> bool:
    return not names.isdisjoint(bound_inside(node, cache if cache is not None else {}))


def bound_inside(root: Any, cache: dict[int, tuple[Any, frozenset[Symbol]]]) -> frozenset[Symbol]:
    """Symbols some ``let``/``loop`` in ``root``'s code binds (``fn`` literals excluded), memoized in
    ``cache`` per node so that nested loops cost linear time; iterative, for deep nesting."""
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        n, children_done = stack.pop()
        known = cache.get(id(n))
        if known is not None and known[0] is n:
            continue
        kids = [] if type(n) is ir.Fn else list(_children(n))
        if not children_done:
            stack.append((n, True))
            stack.extend((k, False) for k in kids)
            continue
        out: set[Symbol] = set(n.syms) if type(n) is ir.Let or type(n) is ir.Loop else set()
        for k in kids:
            out |= cache[id(k)][1]
        cache[id(n)] = (n, frozenset(out))
    return cache[id(root)][1]


def _int_expr(n: Any, ints: set[Symbol]) -> bool:
    t = type(n)
    if t is ir.Const:
        return type(n.value) is int
    if t is ir.Local:
        return n.sym in ints
    if t is ir.NativeOp and n.op in ("add", "sub", "mul", "inc", "dec", "neg"):
        return all(_int_expr(a, ints) for a in n.args)
    return False


def _tail_requests(n: Any, ints: set[Symbol]) -> bool:
    """Could the loop body's value be a recur *request* map (which may re-bind to anything)?"""
    t = type(n)
    if t is ir.Seq:
        return _tail_requests(n.body[-1], ints) if n.body else False
    if t is ir.If:
        return _tail_requests(n.then, ints) or _tail_requests(n.else_, ints)
    if t is ir.Let:
        return _tail_requests(n.body, ints)
    if t is ir.Quine:
        return _tail_requests(n.last, ints)
    if t is ir.Recur or t is ir.Fail or t is ir.Throw:
        return False
    if t is ir.Local and n.sym in ints:
        return False
    return ir.may_be_map(n)


def int_loop_vars(loop: ir.Loop, cache: Optional[dict[int, tuple[Any, frozenset[Symbol]]]] = None) -> set[Symbol]:
    """Private loop variables that provably always hold longs: an int literal initial value and
    every ``recur`` value built from such variables and int literals with ``+ - * inc dec``
    (whose results are longs or an overflow error). Their type tests can be left out."""
    ints = {p for p, init in zip(loop.patterns, loop.inits) if type(init) is ir.Const and type(init.value) is int}
    if not ints:
        return ints
    recurs: list[Any] = []
    _loop_recurs(loop.body, recurs)
    if any(len(r.args) != len(loop.patterns) for r in recurs) or (recurs and _rebinds(loop.body, ints, cache)):
        return set()
    changed = True
    while changed and ints:
        changed = False
        for r in recurs:
            for p, arg in zip(loop.patterns, r.args):
                if p in ints and not _int_expr(arg, ints):
                    ints.discard(p)
                    changed = True
    if ints and _tail_requests(loop.body, ints):
        return set()
    return ints
