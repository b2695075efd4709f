"""Where a form's parts stand: the part of a compile cache key that keeps compiled positions right.

A compiled unit or body carries Spell positions (``co_positions``, the call-form table, error
places): they come from the spans the reader recorded on the form and its sub-forms
(``spell_runtime.data.positions``). A cache keyed by the form's *text* may therefore only hand out
a compiled unit for a form whose parts stand exactly where the first one's stood.

* A form read from source whose key is its exact source text: its own span decides the rest (the
  reader is deterministic, so the same text read from the same start gives every sub-form the same
  span). ``span_of(form)`` is the key's place.
* Any other form — a macro expansion (a new list with no span of its own around the caller's
  positioned argument forms), a form given to ``eval``, a ``late`` fallback or a stale
  recompile keyed by printed text, a function built as data: printed text says nothing about
  where its parts stand. Two calls of the same macro at two places expand to the same text, and
  the second reused the first's unit, so its failure was reported at the first call's line and
  column (the bug behind an intermittent ``test_late_bindings`` failure). ``places_of(form)``,
  every recorded span in the tree, is the key's place.

``places_of`` walks the form once, like the ``pr_str`` that makes the text part of such a key.

Quoted data is left out of the walk, span and all: ``(quote X)`` compiles to the constant ``X``, no
position of it is compiled into code, and the turn loop's ``'(!extend)`` at a new place every turn
keeps finding its unit by text (keying it by place compiled it, and the ``(!extend)`` that ``eval``
then runs, anew every turn: bench_turns' mean turn ×2). What that leaves as before: such a unit
returns the datum read at the *first* place, so code that later evaluates that datum
(``eval``, a fn built from it) sees the first place's spans.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from spell_runtime.data import LineVector, PList, PVector, SpellMap, SpellSet, Symbol, VectorView
from spell_runtime.data.positions import child_spans_of, span_of

_SEQUENCES = (PList, PVector, VectorView, LineVector, SpellSet)
S_QUOTE = Symbol("quote")


def places_of(form: Any) -> tuple[Any, ...]:
    """Every span recorded in ``form``'s tree, each with its collection's number in a preorder walk
    of the tree's collections (with the form's text beside it in a key, the numbers say which
    collection each span belongs to). A tree with no recorded span gives ``()``."""
    out: list[Any] = []
    stack: list[Any] = [form]
    number = 0
    while stack:
        node = stack.pop()
        if isinstance(node, SpellMap):
            kids: list[Any] = []
            for k, v in node.items():
                kids.append(k)
                kids.append(v)
        elif isinstance(node, _SEQUENCES):
            if type(node) is PList and node.first is S_QUOTE and node.count == 2:
                number += 1  # quoted data: not part of the key (module docstring)
                continue
            kids = list(cast(Iterable[Any], node))  # PVector (a C type) is typed as object
        else:
            continue
        span = span_of(node)
        child_spans = child_spans_of(node)
        if span is not None or child_spans is not None:
            out.append((number, span, child_spans))
        number += 1
        stack.extend(reversed(kids))
    return tuple(out)


def place_key(form: Any, exact_text: bool) -> Any:
    """The place part of a cache key for ``form`` (module docstring): its span when the key's text
    is its exact source text and it has a span, else every span in its tree."""
    if exact_text:
        span = span_of(form)
        if span is not None:
            return span
    return places_of(form)


__all__ = ["places_of", "place_key"]
