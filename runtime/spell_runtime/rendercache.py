"""The source rendering of a form, remembered per form object (runtime.md §5.3; issue 14).

Every turn re-renders the whole program into the next prefix, but between two turns
almost every body form is the very same object (the incremental reader reuses them and
``apply_edits`` returns untouched sub-forms unchanged), so its text is remembered by
identity. Only forms built entirely from immutable values are remembered — lists,
vectors, maps and sets of readable atoms — since a host object inside a form (an atom,
a Python object) can render differently later while staying the same object.

The table holds its forms (an id is only meaningful while its object lives) and is
emptied when it grows past ``LIMIT`` entries; a miss only costs a render.
"""

from __future__ import annotations

from typing import Any, Final

from .data.hashmap import SpellMap, SpellSet
from .data.plist import PList
from .data.vector import LineVector, PVector, VectorView
from .printer import _READABLE_ATOMS, render_form

LIMIT: Final = 200_000

_COLLECTIONS: Final = frozenset({PList, PVector, LineVector, VectorView, SpellMap, SpellSet})
_ATOMS: Final = frozenset(_READABLE_ATOMS)

_texts: dict[int, tuple[Any, str]] = {}


def rendered(form: Any) -> str:
    """``render_form(form)``, computed once per immutable collection object."""
    if type(form) not in _COLLECTIONS:
        return render_form(form)
    hit = _texts.get(id(form))
    if hit is not None and hit[0] is form:
        return hit[1]
    text = render_form(form)
    if is_plain_data(form):
        if len(_texts) >= LIMIT:
            _texts.clear()
        _texts[id(form)] = (form, text)
    return text


def is_plain_data(form: Any) -> bool:
    """True when ``form`` holds only collections and readable atoms (so it can never change)."""
    stack = [form]
    while stack:
        x = stack.pop()
        t = type(x)
        if t in _ATOMS:
            continue
        if t not in _COLLECTIONS:
            return False
        hit = _texts.get(id(x))
        if hit is not None and hit[0] is x:
            continue  # remembered, hence already known to be plain
        if t is SpellMap:
            for k, v in x.items():
                stack.append(k)
                stack.append(v)
        else:
            stack.extend(x)
    return True


def remember(form: Any, text: str) -> None:
    """Record ``text`` as the rendering of ``form`` (the caller has checked it: a form read back from
    the text ``rendered`` gave another object, see ``spellc.loop.incremental``)."""
    if type(form) in _COLLECTIONS:
        if len(_texts) >= LIMIT:
            _texts.clear()
        _texts[id(form)] = (form, text)
