"""What a loop vector certainly holds (issue 13 item 3): only longs, and perhaps only longs ``>= 0``.

``(reduce + (loop [i 0 v []] (if (< i n) (recur (inc i) (conj v i)) v)))`` hands ``reduce`` a
vector that the runtime must otherwise scan twice before it may add it at C speed: once to see
that every element is a long (not a double, ``BigInt``, boolean, nil...), once to bound the
partial sums (Spell's ``+`` fails at the first partial sum outside the long range). For a loop
vector kept as a Python list (``linear``) both facts often follow from the loop itself:

* every element is a long when the initial vector holds only long literals and every ``conj``
  onto it (in the loop's own ``recur``s) adds a value of type long (``types.expr_type``);
* every element is also ``>= 0`` when the initial elements are and every added value is
  *non-negative*: a long literal ``>= 0``, a loop variable proven non-negative, or ``inc``,
  ``+`` or ``*`` of non-negative longs. A long loop variable is non-negative when its initial
  value is and every ``recur`` passes a non-negative value in its place (a fixpoint, as in
  ``types``; a name a ``let`` or inner ``loop`` shadows is another variable there).

Legality: these are facts about values only — ``inc``/``+``/``*`` of non-negative longs is a
non-negative long *or an overflow error*, never another value — and they are claimed only where
every value the vector can receive is covered (``linear`` already requires that the variable
changes only through those ``conj``s). The emitter freezes such a list with
``spell_runtime.core.longvecs.vec_of_longs``, which records the fact for ``reduce``'s fast path;
the vector itself is the same.
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.data import PVector, Symbol

from . import ir
from .types import LONG, expr_type

_NONNEG_OPS = frozenset({"inc", "add", "mul"})
"""Native operators whose result, on non-negative longs, is a non-negative long (or an overflow error)."""

RecurSite = tuple[ir.Recur, dict[Symbol, str], frozenset[Symbol]]
"""A ``recur`` targeting the loop, the typed names visible there, and the loop names shadowed there."""


def list_elements(loop: ir.Loop, types: dict[Symbol, str], lists: set[Symbol]) -> dict[Symbol, bool]:
    """For each loop vector in ``lists`` (``linear.transient_vectors``) that certainly holds only
    longs: symbol → whether they are certainly all ``>= 0`` too. ``types`` is ``types.loop_types``."""
    if not lists:
        return {}
    position = {p: i for i, p in enumerate(loop.patterns)}
    recurs = _own_recurs(loop.body, types, frozenset(loop.syms))
    if any(len(r.args) != len(loop.patterns) for r, _, _ in recurs):
        return {}
    nonneg = _nonneg_vars(loop, types, recurs, position)
    out: dict[Symbol, bool] = {}
    for v in lists:
        facts = _literal_longs(loop.inits[position[v]])
        if facts is None:
            continue
        all_nonneg = facts
        for r, env, shadowed in recurs:
            arg = r.args[position[v]]
            if type(arg) is ir.Local and arg.sym == v:
                continue  # (recur ... v ...): nothing added
            if not (type(arg) is ir.NativeOp and arg.op == "conj" and len(arg.args) == 2):
                break  # linear allows nothing else; be safe if it ever does
            x = arg.args[1]
            if expr_type(x, env) != LONG:
                break
            all_nonneg = all_nonneg and _is_nonneg(x, nonneg - shadowed)
        else:
            out[v] = all_nonneg
    return out


def _literal_longs(init: Any) -> Optional[bool]:
    """For an initial vector of long literals: whether all are ``>= 0``; None for anything else."""
    t = type(init)
    items: list[Any]
    if t is ir.Const and type(init.value) is PVector:
        value: Any = init.value
        items = list(value)
    elif t is ir.VectorLit and all(type(i) is ir.Const for i in init.items):
        items = [i.value for i in init.items]
    else:
        return None
    if not all(type(x) is int for x in items):
        return None
    return all(x >= 0 for x in items)


def _is_nonneg(node: Any, names: frozenset[Symbol] | set[Symbol]) -> bool:
    """Is ``node`` certainly a long ``>= 0`` (or an overflow error) when the loop variables
    ``names`` hold non-negative longs?"""
    t = type(node)
    if t is ir.Const:
        return type(node.value) is int and node.value >= 0
    if t is ir.Local:
        return node.sym in names
    if t is ir.NativeOp and node.op in _NONNEG_OPS:
        return all(_is_nonneg(a, names) for a in node.args)
    return False


def _nonneg_vars(loop: ir.Loop, types: dict[Symbol, str], recurs: list[RecurSite],
                 position: dict[Symbol, int]) -> set[Symbol]:
    """The long loop variables that only ever hold values ``>= 0`` (a fixpoint, see the module doc)."""
    names = {p for p in types if types[p] == LONG and _is_nonneg(loop.inits[position[p]], frozenset())}
    changed = True
    while changed and names:
        changed = False
        for r, _, shadowed in recurs:
            for p in list(names):
                if not _is_nonneg(r.args[position[p]], names - shadowed):
                    names.discard(p)
                    changed = True
    return names


def _own_recurs(body: Any, types: dict[Symbol, str], own: frozenset[Symbol]) -> list[RecurSite]:
    """The ``recur``s targeting the loop whose body is ``body`` (variables ``own``, typed by ``types``),
    each with the typed names visible there and which of ``own`` a ``let`` on the way shadows."""
    out: list[RecurSite] = []
    stack: list[tuple[Any, dict[Symbol, str], frozenset[Symbol]]] = [(body, dict(types), frozenset())]
    while stack:
        n, env, shadowed = stack.pop()
        t = type(n)
        if t is ir.Fn:
            continue
        if t is ir.Recur and n.target == "loop":
            out.append((n, env, shadowed))
            stack.extend((a, env, shadowed) for a in n.args)
            continue
        if t is ir.Let:
            inner, hidden = dict(env), shadowed
            for b in n.bindings:
                stack.append((b.value, inner, hidden))
                bt = expr_type(b.value, inner) if type(b.pattern) is Symbol else None
                inner = {k: v for k, v in inner.items() if k not in b.syms}
                hidden = hidden | (own & frozenset(b.syms))
                if bt is not None:
                    inner[b.pattern] = bt
            stack.append((n.body, inner, hidden))
            continue
        if t is ir.Loop:  # its body's recurs target it; its initial values are ours
            stack.extend((i, env, shadowed) for i in n.inits)
            continue
        stack.extend((k, env, shadowed) for k in ir.children(n))
    return out


__all__ = ["list_elements"]
