"""Spell function values and the other map-shaped values the evaluator recognizes.

A Spell function *is* the map ``{:spell/fn true, :params P, :body B}`` (language.md
§3.6): it prints, compares and destructures as that map. ``SpellFn`` is that map
with three extra slots the evaluator uses so that calls do not go through map
lookups: ``arity`` (the count of the params form, or -1 when it has none), and
``code``, the compiled body (a Python function ``code(D, head, *args)``; see
``spellc.emit`` for its calling convention). ``code`` is filled in by the
compiler the first time the value is called, or directly when a ``fn`` form is
compiled, so a function built once and called many times is compiled once.

A map written by hand with a truthy ``:spell/fn`` is a function too;
``as_spell_fn`` gives a ``SpellFn`` view of it for calling.

``RecurMarker`` is the value of ``(recur ...)`` — ``{:spell/recur true :vals [...]}``
— with the values kept in a slot for the loops that consume it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from .atoms import K_BODY, K_EXPANDER, K_PARAMS, K_SPELL_FN, K_SPELL_MACRO, K_SPELL_RECUR, K_VALS
from .hashmap import SpellMap
from .plist import EMPTY, PList
from .vector import LineVector, PVector, VectorView


def _count_of(params: Any) -> int:
    if params is None:
        return 0
    t = type(params)
    if t is PVector or t is PList or t is LineVector or t is VectorView or isinstance(params, (str, SpellMap)):
        return len(params)
    from .hashmap import SpellSet

    if t is SpellSet:
        return len(params)
    return -1


class SpellFn(SpellMap):
    """``{:spell/fn true, :params P, :body B}`` plus its compiled body."""

    __slots__ = ("params", "body", "arity", "code")

    params: Any
    body: Any
    arity: int
    code: Optional[Callable[..., Any]]

    def __init__(self, params: Any, body: Any, code: Optional[Callable[..., Any]] = None) -> None:
        super().__init__({K_SPELL_FN: (K_SPELL_FN, True), K_PARAMS: (K_PARAMS, params), K_BODY: (K_BODY, body)})
        self.params = params
        self.body = body
        self.arity = _count_of(params)
        self.code = code


class RecurMarker(SpellMap):
    """``{:spell/recur true, :vals [v...]}``; ``vals`` holds the values as a tuple."""

    __slots__ = ("vals",)

    vals: tuple[Any, ...]

    def __init__(self, vals: tuple[Any, ...]) -> None:
        from .vector import vec

        super().__init__({K_SPELL_RECUR: (K_SPELL_RECUR, True), K_VALS: (K_VALS, vec(vals))})
        self.vals = vals


def is_truthy(x: Any) -> bool:
    """Spell truthiness: only nil and false are falsy."""
    return x is not None and x is not False


def is_spell_fn(x: Any) -> bool:
    """True for any map with a truthy ``:spell/fn``."""
    t = type(x)
    if t is SpellFn:
        return True
    return isinstance(x, SpellMap) and is_truthy(x.get(K_SPELL_FN))


def as_spell_fn(x: Any) -> SpellFn:
    """A callable ``SpellFn`` for a function-shaped map."""
    if type(x) is SpellFn:
        return x
    body = x.get(K_BODY)
    fn = SpellFn(x.get(K_PARAMS), body if body is not None else EMPTY)
    return fn


def is_macro(x: Any) -> bool:
    """True for a Spell macro value (a map with a truthy ``:spell/macro``)."""
    return isinstance(x, SpellMap) and type(x) is not SpellFn and is_truthy(x.get(K_SPELL_MACRO))


def macro_expander(x: SpellMap) -> Any:
    """The expander function of a macro value."""
    return x.get(K_EXPANDER)


def recur_vals(x: Any) -> Optional[tuple[Any, ...]]:
    """The values of a recur request, or None when ``x`` is not one (Q17: any map with truthy :spell/recur)."""
    if type(x) is RecurMarker:
        return x.vals
    if isinstance(x, SpellMap) and is_truthy(x.get(K_SPELL_RECUR)):
        vals = x.get(K_VALS)
        if vals is None:
            return ()
        return tuple(vals)
    return None
