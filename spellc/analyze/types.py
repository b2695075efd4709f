"""What Python type a private binding certainly holds (issue 13 item 2): long, double, vector, map, string.

The emitter's inline fast paths test operand types at run time (``type(a) is int``, ``type(v)
is PVector``...) and a loop's tail value is tested for being a recur request (Q17), which only
a map can be. When the compiler can prove what type a binding holds, those tests are dead and
are left out. This pass proves it for the variables of *private* loops (``analyze.privacy``):

* a variable's type is its initial value's type, if every ``recur`` targeting the loop passes
  a value of that same type in its position (a fixpoint: a variable whose recur value's type
  depends on a variable found untyped becomes untyped too);
* expression types come from literals, typed variables, and operations whose result type
  follows from their operands' types: ``+ - * inc dec -`` of longs is a long (or an overflow
  *error*, never another value), with a double among longs/doubles a double; ``conj`` onto a
  vector is a vector; ``assoc`` on a map is a map; ``str`` is a string; ``if``/``let``/``do``
  take their branches' common type.

Legality (why no Spell program can tell): a type is claimed only when every value that can be
bound is of that Python type — initial values and recur values are the only ways a private
loop variable gets a value (nothing else can see it: see ``privacy``), and a recur *request*
arriving as a tail value (Q16/Q17) could bind anything, so a loop whose tail could be a map
gets no types at all. Leaving out a type test that would always pass changes no value, error
or env. Types are facts about values only: the error env a private loop adds to a failure is
built from the same variables.

What each type means, exactly: ``LONG`` ``type(v) is int``; ``DOUBLE`` ``type(v) is float``;
``VECTOR`` ``type(v) is PVector`` (the C vector, never a ``VectorView``: only literals, ``for``
and ``conj`` onto a VECTOR are typed, never ``pop``/``drop``/``subvec``, whose results can be
views); ``MAP`` ``type(v) is SpellMap`` (which *can* be a function value or a recur request: a
map-typed tail is still checked); ``STRING`` ``type(v) is str``.
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.data import PVector, SpellMap, Symbol

from . import ir

LONG = "long"
DOUBLE = "double"
VECTOR = "vector"
MAP = "map"
STRING = "string"

Type = Optional[str]
"""One of the names above, or None: unknown."""

NOT_MAPS = frozenset({LONG, DOUBLE, VECTOR, STRING})
"""Types whose values can never be a recur request (only maps can be, Q17)."""

_ARITH = frozenset({"add", "sub", "mul"})
_STEP = frozenset({"inc", "dec", "neg"})
_S_STR = Symbol("str")


def const_type(value: Any) -> Type:
    t = type(value)
    if t is int:
        return LONG
    if t is float:
        return DOUBLE
    if t is PVector:
        return VECTOR
    if t is SpellMap:
        return MAP
    if t is str:
        return STRING
    return None


def expr_type(node: Any, env: dict[Symbol, str], calls: Type = None) -> Type:
    """The type ``node``'s value certainly has when the variables in ``env`` have theirs (or None).

    ``calls``: the type every ``Call`` node's value is assumed to have (``analyze.selfcalls``
    proves a self-recursive body's result type by induction under that assumption); None
    otherwise — a call's value is unknown."""
    t = type(node)
    if t is ir.Call:
        return calls
    if t is ir.Const:
        return const_type(node.value)
    if t is ir.Local:
        return env.get(node.sym)
    if t is ir.VectorLit or t is ir.For:
        return VECTOR
    if t is ir.MapLit:
        return MAP
    if t is ir.NativeOp:
        op = node.op
        if op in _ARITH or op in _STEP:
            kinds = {expr_type(a, env, calls) for a in node.args}
            if kinds == {LONG}:
                return LONG
            if kinds <= {LONG, DOUBLE}:
                return DOUBLE
            return None
        if op == "conj" and expr_type(node.args[0], env, calls) == VECTOR:
            return VECTOR
        if op == "assoc" and expr_type(node.args[0], env, calls) == MAP:
            return MAP
        return None
    if t is ir.BuiltinCall and node.sym is _S_STR and not node.env:
        return STRING
    if t is ir.If:
        a = expr_type(node.then, env, calls)
        return a if a is not None and a == expr_type(node.else_, env, calls) else None
    if t is ir.Seq:
        return expr_type(node.body[-1], env, calls) if node.body else None
    if t is ir.Let:
        inner = dict(env)
        for b in node.bindings:
            bt = expr_type(b.value, inner, calls) if type(b.pattern) is Symbol else None
            for s in b.syms:
                inner.pop(s, None)
            if bt is not None:
                inner[b.pattern] = bt
        return expr_type(node.body, inner, calls)
    return None


def _tail_may_request(n: Any, env: dict[Symbol, str]) -> bool:
    """Could the loop body's value be a recur *request* map (which may re-bind to anything)?"""
    t = type(n)
    if t is ir.Seq:
        return _tail_may_request(n.body[-1], env) if n.body else False
    if t is ir.If:
        return _tail_may_request(n.then, env) or _tail_may_request(n.else_, env)
    if t is ir.Let:
        inner = dict(env)
        for b in n.bindings:
            for s in b.syms:
                inner.pop(s, None)
        return _tail_may_request(n.body, inner)
    if t is ir.Quine:
        return _tail_may_request(n.last, env)
    if t is ir.Recur or t is ir.Fail or t is ir.Throw:
        return False
    if expr_type(n, env) in NOT_MAPS:
        return False
    return ir.may_be_map(n)


def loop_types(loop: ir.Loop, outer: Optional[dict[Symbol, str]] = None) -> dict[Symbol, str]:
    """Types of a private loop's variables: symbol → type, only for those proven (see the module doc).

    ``outer`` gives the types of enclosing private bindings the initial values may read."""
    if not loop.private:
        return {}
    outer = outer or {}
    types: dict[Symbol, str] = {}
    for p, init in zip(loop.patterns, loop.inits):
        it = expr_type(init, outer)
        if it is not None:
            types[p] = it
    if not types:
        return types
    inside = {s: v for s, v in outer.items() if s not in loop.syms}
    changed = True
    while changed and types:
        changed = False
        for r, scope in _own_recurs(loop.body, {**inside, **types}):
            if len(r.args) != len(loop.patterns):
                return {}
            for p, arg in zip(loop.patterns, r.args):
                if p in types and expr_type(arg, scope) != types[p]:
                    del types[p]
                    changed = True
            if changed:
                break
    if types and _tail_may_request(loop.body, {**inside, **types}):
        return {}
    return types


def _own_recurs(body: Any, env: dict[Symbol, str]) -> list[tuple[Any, dict[Symbol, str]]]:
    """The ``recur``s targeting the loop whose body is ``body``, each with the typed names visible
    there: ``env`` less what a ``let`` on the way shadows (plus its own typed bindings). Iterative;
    an env is copied only where a ``let`` or nested loop changes it."""
    out: list[tuple[Any, dict[Symbol, str]]] = []
    stack: list[tuple[Any, dict[Symbol, str]]] = [(body, env)]
    while stack:
        n, scope = stack.pop()
        t = type(n)
        if t is ir.Fn:
            continue
        if t is ir.Recur and n.target == "loop":
            out.append((n, scope))
            stack.extend((a, scope) for a in n.args)
            continue
        if t is ir.Let:
            inner = dict(scope)
            for b in n.bindings:
                stack.append((b.value, inner))
                bt = expr_type(b.value, inner) if type(b.pattern) is Symbol else None
                inner = {k: v for k, v in inner.items() if k not in b.syms}
                if bt is not None:
                    inner[b.pattern] = bt
            stack.append((n.body, inner))
            continue
        if t is ir.Loop:  # its body's recurs target it; its initial values are ours
            stack.extend((i, scope) for i in n.inits)
            continue
        stack.extend((k, scope) for k in ir.children(n))
    return out


__all__ = ["LONG", "DOUBLE", "VECTOR", "MAP", "STRING", "NOT_MAPS", "Type", "const_type", "expr_type",
           "loop_types"]
