"""Loop vectors built in place (issue 13 item 3): which private loop variables can be a Python list.

``(loop [i 0 v []] (if (< i n) (recur (inc i) (conj v i)) v))`` allocates a new persistent
vector per iteration. When the variable is *private* (``privacy``), certainly a vector
(``types``) and used *linearly* — its old value is never read again once ``conj`` has made the
new one — the loop can keep one Python ``list`` and ``append`` to it; the persistent vector is
made once, where the value leaves the loop.

Linear use, exactly: every reference to the variable inside the loop body (``fn`` literals
excepted: they are separate functions, and a private loop calls none) is one of

* the collection argument of a ``(conj v x)`` that is itself the ``recur`` argument in the
  variable's own position, of a ``recur`` that jumps to this loop (tail position), where ``x``
  does not mention the variable;
* a tail value of the loop body (the loop's result).

Legality (why no Spell program can tell): no code but the loop body can see the variable, and
in the body the old vector is read only by the ``conj`` that replaces it, so mutating it in place
is invisible. The emitter evaluates every ``recur`` argument first (``x`` included) and appends
only after all of them succeeded — an append cannot fail — so at every point where something
can fail, the list holds exactly the elements of the variable's current value: a failure's
error env gets that value frozen into a vector (``_vec``), the same value the persistent shape
shows. The loop's result is frozen the same way. A ``recur`` request arriving as a value
(only possible in outlined code) rebinds the variable to a vector, which is copied back into a
list before the next iteration.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from spell_runtime.data import Symbol

from . import ir
from .types import VECTOR

_S_CONJ_OP = "conj"


def transient_vectors(loop: ir.Loop, types: dict[Symbol, str]) -> set[Symbol]:
    """The variables of the private ``loop`` (typed by ``types.loop_types``) that can be lists."""
    candidates = {p for p, t in types.items() if t == VECTOR}
    if not candidates or not loop.private:
        return set()
    position = {p: i for i, p in enumerate(loop.patterns)}
    tails = _tail_values(loop.body)
    allowed: set[int] = set()  # ids of Local nodes that are linear uses
    for n in tails:
        if type(n) is ir.Local and n.sym in candidates:
            allowed.add(id(n))
    recurs = [(n, shadowed) for n, shadowed in _scoped_nodes(loop.body)  # this loop's tail recurs
              if type(n) is ir.Recur and n.target == "loop"]
    for r, shadowed in recurs:
        if len(r.args) != len(loop.patterns):
            return set()
        for p in list(candidates):
            arg = r.args[position[p]]
            if (p not in shadowed and type(arg) is ir.NativeOp and arg.op == _S_CONJ_OP
                    and type(arg.args[0]) is ir.Local and arg.args[0].sym == p):
                allowed.add(id(arg.args[0]))
            elif not (type(arg) is ir.Local and arg.sym == p and p not in shadowed):
                candidates.discard(p)  # (recur ... v ...) would need the list as a value: not linear
    if not candidates:
        return set()
    # every reference must be an allowed one (and none under a shadowing let: those are other names)
    for n, shadowed in _scoped_nodes(loop.body):
        if not candidates:
            break
        if type(n) is ir.Local and n.sym in candidates and n.sym not in shadowed and id(n) not in allowed:
            if not _is_plain_recur_arg(n, recurs, position):
                candidates.discard(n.sym)
    if any(p in shadowed for p in candidates for _, shadowed in recurs):
        return set()
    return candidates


def _scoped_nodes(root: Any) -> Iterator[tuple[Any, frozenset[Symbol]]]:
    """Every node under ``root`` outside ``fn`` literals, with the names a ``loop`` or ``let`` on the
    way shadows where it stands (a shadowed name there is another variable)."""
    stack: list[tuple[Any, frozenset[Symbol]]] = [(root, frozenset())]
    while stack:
        n, shadowed = stack.pop()
        t = type(n)
        if t is ir.Fn:
            continue
        yield n, shadowed
        if t is ir.Loop:
            stack.extend((i, shadowed) for i in n.inits)
            stack.append((n.body, shadowed | frozenset(n.syms)))
        elif t is ir.Let:
            inner = shadowed
            for b in n.bindings:
                stack.append((b.value, inner))
                inner = inner | frozenset(b.syms)
            stack.append((n.body, inner))
        else:
            stack.extend((k, shadowed) for k in ir.children(n))


def _is_plain_recur_arg(n: Any, recurs: list[Any], position: dict[Symbol, int]) -> bool:
    """``(recur ... v ...)`` passing the variable unchanged in its own position: the list stays."""
    return any(r.args[position[n.sym]] is n for r, _ in recurs)


def _tail_values(n: Any) -> list[Any]:
    """The nodes whose value is the loop body's value (through ``do``/``if``/``let``/``quine``)."""
    out: list[Any] = []
    stack = [n]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is ir.Seq:
            if x.body:
                stack.append(x.body[-1])
        elif t is ir.If:
            stack.extend((x.then, x.else_))
        elif t is ir.Let:
            stack.append(x.body)
        elif t is ir.Quine:
            stack.append(x.last)
        else:
            out.append(x)
    return out


__all__ = ["transient_vectors"]
