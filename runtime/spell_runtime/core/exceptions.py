"""``ex-info``, ``ex-message``, ``ex-data``, ``ex-cause`` (language.md §14.14).

Spell exceptions are plain data: ``ex-info`` builds the map
``{:spell/exception true, :message m, :data d}`` (plus ``:cause`` when one is
given) and throws nothing — ``(throw (ex-info ...))`` does. The accessors
recognise exactly that shape (``:spell/exception`` must be ``true`` itself) and
answer nil for anything else, including the ``{:message ... :expr ...}`` map
that ``catch`` binds for evaluation errors.
"""

from __future__ import annotations

from typing import Any

from ..data.atoms import K_SPELL_EXCEPTION, Keyword
from ..data.hashmap import SpellMap
from .registry import builtin

K_MESSAGE = Keyword("message")
K_DATA = Keyword("data")
K_CAUSE = Keyword("cause")


def is_spell_exception(v: Any) -> bool:
    """True for a map whose ``:spell/exception`` is exactly ``true``."""
    return isinstance(v, SpellMap) and v.get(K_SPELL_EXCEPTION) is True


@builtin("ex-info", host="ex-info")
def ex_info(message: Any, data: Any, cause: Any = None) -> SpellMap:
    pairs: list[tuple[Any, Any]] = [(K_SPELL_EXCEPTION, True), (K_MESSAGE, message), (K_DATA, data)]
    if cause is not None:
        pairs.append((K_CAUSE, cause))
    return SpellMap.from_pairs(pairs)


@builtin("ex-message", host="ex-message")
def ex_message(v: Any) -> Any:
    return v.get(K_MESSAGE) if is_spell_exception(v) else None


@builtin("ex-data", host="ex-data")
def ex_data(v: Any) -> Any:
    return v.get(K_DATA) if is_spell_exception(v) else None


@builtin("ex-cause", host="ex-cause")
def ex_cause(v: Any) -> Any:
    return v.get(K_CAUSE) if is_spell_exception(v) else None
