"""Edit markers applied to program source (language.md §11.2, runtime.md §5.6).

A Spell program builds the prefix of its next turn from its own source, and the
markers ``prune``, ``rethink`` and ``persist`` written in that source say how:
drop earlier siblings, replace them by a ``think`` note, or write a binding's
current value into the text. ``apply_edits`` is that rewrite; ``edit-reopen``
exposes it to programs and the turn loop calls it directly.

The walk is iterative (program text can nest deeply) and returns the very same
object for any sub-form it did not change, so untouched source keeps its
identity and recorded positions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final, Optional

from .data.atoms import BigInt, Float32, Symbol
from .data.hashmap import SpellMap
from .data.plist import PList, plist
from .data.vector import LineVector, PVector, vec
from .valueform import value_form

S_PERSIST: Final = Symbol("persist")
S_QUOTE: Final = Symbol("quote")
S_FN: Final = Symbol("fn")
S_FN_STAR: Final = Symbol("fn*")
S_PRUNE: Final = Symbol("prune")
S_RETHINK: Final = Symbol("rethink")
S_THINK: Final = Symbol("think")

_NUMBER_TYPES: Final = frozenset({int, BigInt, float, Float32, Fraction, Decimal})


def _is_number(x: Any) -> bool:
    return type(x) in _NUMBER_TYPES


def _count_of(k: Any) -> int:
    """A marker's count truncated to an integer the way ``(int k)`` does (NaN counts as 0)."""
    if type(k) is float or type(k) is Float32:
        if k != k:
            return 0
        if math.isinf(k):
            return 1 << 62 if k > 0 else 0
    return int(k)


def prune_count(form: Any) -> Optional[int]:
    """How many preceding siblings a ``(prune)`` / ``(prune k)`` marker removes, or None if ``form`` is none."""
    if type(form) is not PList or not form.count or form.first is not S_PRUNE:
        return None
    if form.count == 1:
        return 1
    if form.count == 2 and _is_number(form[1]):
        return _count_of(form[1])
    return None


def is_rethink(form: Any) -> bool:
    """True for any list headed by ``rethink``."""
    return type(form) is PList and form.count > 0 and form.first is S_RETHINK


def rethink_parts(form: PList) -> tuple[int, PList]:
    """(siblings to remove, the ``(think ...)`` that replaces the marker)."""
    args = form.rest
    if args.count and _is_number(args.first):
        return _count_of(args.first), args.rest.cons(S_THINK, False)
    return 1, args.cons(S_THINK, False)


def process_siblings(forms: list[Any]) -> list[Any]:
    """Apply the ``prune``/``rethink`` markers among ``forms`` (one list's elements after its head)."""
    out: list[Any] = []
    for form in forms:
        k = prune_count(form)
        if k is not None:
            if k > 0:
                del out[max(0, len(out) - k) :]
            continue
        if is_rethink(form):
            n, think = rethink_parts(form)
            if n > 0:
                del out[max(0, len(out) - n) :]
            out.append(think)
            continue
        out.append(form)
    return out


class _Frame:
    """A collection being rebuilt: its original, its children, and the edited children so far."""

    __slots__ = ("form", "children", "index", "edited")

    def __init__(self, form: Any, children: list[Any]) -> None:
        self.form = form
        self.children = children
        self.index = 0
        self.edited: list[Any] = []


_OPEN: Final = object()  # marks a child that needs its own frame


def _step(form: Any, env: Mapping[Any, Any]) -> Any:
    """Edit ``form`` at once, or return ``_OPEN`` when it is a collection to walk."""
    t = type(form)
    if t is PList:
        if not form.count:
            return form
        head = form.first
        if head is S_PERSIST and form.count in (2, 3) and type(form[1]) is Symbol:
            name = form[1]
            if name in env:
                return plist([S_PERSIST, name, value_form(env[name])])
            return form
        if head is S_QUOTE or head is S_FN or head is S_FN_STAR:
            return form
        return _OPEN
    if t is PVector or t is LineVector:
        return _OPEN if len(form) else form
    if isinstance(form, SpellMap):
        return _OPEN if len(form) else form
    return form


def _children(form: Any) -> list[Any]:
    if isinstance(form, SpellMap):
        out: list[Any] = []
        for k, v in form.items():
            out.append(k)
            out.append(v)
        return out
    return list(form)


def _finish(frame: _Frame) -> Any:
    form = frame.form
    edited = frame.edited
    if type(form) is PList:
        edited = [edited[0], *process_siblings(edited[1:])]
        if len(edited) == form.count and all(a is b for a, b in zip(edited, frame.children, strict=False)):
            return form
        return plist(edited)
    if all(a is b for a, b in zip(edited, frame.children, strict=False)):
        return form
    if isinstance(form, SpellMap):
        return SpellMap.from_pairs(zip(edited[::2], edited[1::2], strict=False))
    return vec(edited)


def apply_edits(form: Any, env: Mapping[Any, Any]) -> Any:
    """The edit-marker rewrite of ``form`` with ``persist`` values taken from ``env`` (Symbol → value)."""
    first = _step(form, env)
    if first is not _OPEN:
        return first
    stack = [_Frame(form, _children(form))]
    while True:
        top = stack[-1]
        if top.index < len(top.children):
            child = top.children[top.index]
            top.index += 1
            result = _step(child, env)
            if result is _OPEN:
                stack.append(_Frame(child, _children(child)))
            else:
                top.edited.append(result)
            continue
        done = _finish(top)
        stack.pop()
        if not stack:
            return done
        stack[-1].edited.append(done)
