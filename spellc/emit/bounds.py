"""Ranges of long parameters inside the branches of an ``if`` that compares them with a literal
(issue 13.1: "cheaper arithmetic checks where the operands' signs are known").

In the second body of ``(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))`` over longs
(``analyze.selfcalls``) the ``else`` branch runs only when ``n >= 2``, so ``(- n 1)`` and
``(- n 2)`` cannot fall below the long range: their overflow tests are dead
(``NativeEmitter._range_test`` asks ``bounds_of``).

The same holds for private loop variables proven long (``analyze.types``): in
``(loop [i 0 acc 0] (if (< i 1000000) (recur (inc i) (+ acc i)) acc))`` the ``(inc i)`` cannot
pass the top of the long range.

Legality. A range is claimed for a Python local only where the ``if``'s test compared it with a
literal long and took that branch: the test ``(< n 2)`` on a long ``n`` is the Python comparison
``n < 2`` (it cannot fail), so the ``then`` branch runs exactly when it held and the ``else``
branch exactly when it did not. Ranges are only recorded for locals that no code in the branch
can assign before it has finished reading them (``EmitterBase.range_ints``), so the fact holds
wherever the branch's code reads the local:

* the parameters of a second body over longs (``analyze.selfcalls``): never assigned at all (no
  ``recur``, ``def`` or macro call there);
* the long variables of a private loop: only a ``recur`` of that loop assigns them, after it has
  evaluated every argument, and then jumps back to the loop's top, where the tests run again (a
  private loop has no call, ``def`` or macro that could bind them; a ``let`` or inner loop that
  rebinds the name gets a Python local of its own; a ``fn`` literal inside is emitted with no
  ranges at all, ``_fn_body`` resets them).

Leaving out a test that cannot fail changes no value, error or env.
"""

from __future__ import annotations

from typing import Optional

from spell_runtime.data import LONG_MAX, LONG_MIN, Symbol

from ..analyze import ir

Range = tuple[int, int]
"""(least, greatest) value a long local can hold."""

FULL: Range = (LONG_MIN, LONG_MAX)

_FLIP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
_NEGATE = {"lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}


def _holds(op: str, c: int, r: Range) -> Range:
    """``r`` narrowed by the fact ``x op c``."""
    lo, hi = r
    if op == "lt":
        return lo, min(hi, c - 1)
    if op == "le":
        return lo, min(hi, c)
    if op == "gt":
        return max(lo, c + 1), hi
    return max(lo, c), hi  # ge


def branch_ranges(test: ir.Node, private: dict[Symbol, str], fixed: set[str],
                  ranges: dict[str, Range]) -> Optional[tuple[str, Range, Range]]:
    """(local, its range in the ``then`` branch, in the ``else`` branch) when ``test`` compares a
    fixed long local with a literal long; else None."""
    if type(test) is not ir.NativeOp or test.op not in _FLIP or len(test.args) != 2:
        return None
    a, b = test.args
    op = test.op
    if type(a) is ir.Const and type(b) is ir.Local:
        a, b, op = b, a, _FLIP[op]
    if type(a) is not ir.Local or type(b) is not ir.Const or type(b.value) is not int:
        return None
    var = private.get(a.sym)
    if var is None or var not in fixed:
        return None
    c = b.value
    now = ranges.get(var, FULL)
    return var, _holds(op, c, now), _holds(_NEGATE[op], c, now)


__all__ = ["Range", "FULL", "branch_ranges"]
