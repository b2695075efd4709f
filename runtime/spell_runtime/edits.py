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
import operator
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from itertools import islice
from typing import Any, Final, Optional

from .data.atoms import BigInt, Float32, Symbol
from .data.hashmap import SpellMap
from .data.plist import VIEW_MIN, PList, plist
from .data.vector import LineVector, PVector, VectorView, vec
from .rendercache import is_plain_data, rendered
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
        if not form.count or not may_change(form):
            return form
        head = form.first
        if head is S_PERSIST and form.count in (2, 3) and type(form[1]) is Symbol:
            name = form[1]
            if name in env:
                return _materialized(form, name, env[name])
            return form
        if head is S_QUOTE or head is S_FN or head is S_FN_STAR:
            return form
        return _OPEN
    if t is PVector or t is LineVector or t is VectorView or isinstance(form, SpellMap):
        return _OPEN if len(form) and may_change(form) else form
    return form


_persisted: dict[int, tuple[Any, Any, Any]] = {}
"""id(persist form) → (form, value, edited form), for values that are plain (immutable) data."""


def _materialized(form: PList, name: Symbol, value: Any) -> Any:
    """``(persist name <value form>)``; ``form`` itself when it already says exactly that.

    Keeping the object when nothing changes lets the turn loop's identity caches keep
    hitting (issue 14); a persisted value that is the same immutable object as last
    turn (``replay`` hands it back) is not rendered again.
    """
    hit = _persisted.get(id(form))
    if hit is not None and hit[0] is form and hit[1] is value:
        return hit[2]
    edited = plist([S_PERSIST, name, value_form(value)])
    if form.count == 3 and rendered(form[2]) == rendered(edited[2]):
        edited = form
    if is_plain_data(value):
        if len(_persisted) >= _CAN_CHANGE_LIMIT:
            _persisted.clear()
        _persisted[id(form)] = (form, value, edited)
    return edited


_MARKER_HEADS: Final = frozenset({S_PERSIST, S_PRUNE, S_RETHINK})
_INERT_HEADS: Final = frozenset({S_QUOTE, S_FN, S_FN_STAR})
_CAN_CHANGE_LIMIT: Final = 500_000

_can_change: dict[int, tuple[Any, bool]] = {}
"""id(collection) → (collection, may ``apply_edits`` change it): forms are immutable, so once per object."""


def may_change(form: Any) -> bool:
    """False when no ``persist``/``prune``/``rethink`` list can take effect anywhere inside ``form``.

    The turn loop edits the whole program every turn while almost all of it is the same
    objects as the turn before (issue 14), so the answer is remembered per collection
    object; a conservative True only costs the walk ``apply_edits`` would do anyway.
    """
    hit = _can_change.get(id(form))
    if hit is not None and hit[0] is form:
        return hit[1]
    # Iterative post-order: a collection's answer needs its children's answers first. An entry
    # (x, pending) revisits x once the collection children it was waiting for are answered.
    todo: list[tuple[Any, Optional[list[Any]]]] = [(form, None)]
    while todo:
        x, waited = todo.pop()
        if waited is not None:
            answer: Optional[bool] = any(_remembered(k) is not False for k in waited)
        else:
            t = type(x)
            if t is PList:
                if not x.count or x.first in _INERT_HEADS:
                    answer = False
                elif x.first in _MARKER_HEADS:
                    answer = True
                else:
                    answer = None
                kids: Any = x
            elif t is PVector or t is LineVector or t is VectorView:
                answer = None if len(x) else False
                kids = x
            elif isinstance(x, SpellMap):
                answer = None if len(x) else False
                kids = [e for kv in x.items() for e in kv]
            else:
                continue
            if answer is None:
                answer, pending = _children_answer(kids if t is not PList or x.count < VIEW_MIN else _unanswered(x))
                if pending:
                    todo.append((x, pending))
                    todo.extend((k, None) for k in pending)
                    continue
        if len(_can_change) >= _CAN_CHANGE_LIMIT:
            _can_change.clear()
        _can_change[id(x)] = (x, bool(answer))
        if not answer and type(x) is PList and x.count >= VIEW_MIN:
            _unchanging_lists.insert(0, tuple(x))
            del _unchanging_lists[_UNCHANGING_KEEP:]
    found = _remembered(form)
    return True if found is None else found


_UNCHANGING_KEEP: Final = 4
_unchanging_lists: list[tuple[Any, ...]] = []
"""The elements of the last long lists found unable to change, newest first. A turn's program body
is a new list object each turn, but it starts with the very elements of last turn's body: those
are known unable to change without asking each of them (issue 14)."""


def _unanswered(x: PList) -> Any:
    """The elements of long list ``x`` past the longest run it shares, from its start, with a list
    remembered as unchanging (compared by identity, at C speed). Every element of an unchanging
    list is unchanging, so the run needs no answer of its own."""
    items = tuple(x)
    for known in _unchanging_lists:
        n = len(known)
        if n <= len(items) and all(map(operator.is_, known, items)):
            return items[n:]
        # Last turn's trailing form is read back from the rendered prefix as a new object when its
        # text changes there ('x → (quote x)): the run then ends one short of the whole list.
        if n - 1 <= len(items) and all(map(operator.is_, islice(known, n - 1), items)):
            return items[n - 1:]
    return items


def _remembered(x: Any) -> Optional[bool]:
    hit = _can_change.get(id(x))
    return hit[1] if hit is not None and hit[0] is x else None


def _children_answer(kids: Any) -> tuple[bool, list[Any]]:
    """(may some child change, the collection children not yet answered). One tight loop: the
    turn loop asks this of the whole program body every turn."""
    get = _can_change.get
    pending: list[Any] = []
    for k in kids:
        t = type(k)
        if t is PList or t is PVector or t is LineVector or t is VectorView or t is SpellMap or isinstance(k, SpellMap):
            hit = get(id(k))
            if hit is None or hit[0] is not k:
                pending.append(k)
            elif hit[1]:
                return True, []
    return False, pending



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
