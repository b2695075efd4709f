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
  column (the bug behind an intermittent ``test_late_bindings`` failure). ``places_of(form)`` is
  the key's place: the spans of the positioned collections met first on each path down the tree.

What is not exact. Below a positioned collection the walk trusts its span with the printed text,
as the unit cache always did for a positioned form keyed by printed text: the same printed text
between the same start and end but laid out otherwise inside (``(f  (g) )`` and ``(f (g)  )``)
would still share a unit.

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
from spell_runtime.data.positions import span_of, spans_of

S_QUOTE = Symbol("quote")

_SEQUENCE, _MAP, _ATOM = 1, 2, 0
_kinds: dict[type, int] = {PList: _SEQUENCE, PVector: _SEQUENCE, VectorView: _SEQUENCE, LineVector: _SEQUENCE,
                           SpellSet: _SEQUENCE, SpellMap: _MAP}
"""What the walk does with a value of each type; other types are sorted on first sight (map
subclasses such as sorted maps are maps, the rest atoms). Most of a form's parts are atoms: looking
the type up here keeps them off the walk's stack."""


def _kind(t: type) -> int:
    kind = _kinds.get(t)
    if kind is None:
        sequences = tuple(k for k, v in list(_kinds.items()) if v == _SEQUENCE)
        kind = _MAP if issubclass(t, SpellMap) else _SEQUENCE if issubclass(t, sequences) else _ATOM
        _kinds[t] = kind
    return kind


def places_of(form: Any) -> tuple[Any, ...]:
    """Where the positioned parts of ``form``'s tree stand: walking its collections in preorder,
    the span of every collection that has one — the walk goes no deeper there, since its span with
    its text, which is part of any key beside this, decides the places inside it as ``place_key``
    relies on for a whole form — and for any other collection its child spans (or None), before
    its children. Atoms and quoted data add nothing. The text fixes the tree, so each entry
    belongs to one collection: two equal results of equal texts name the same places.

    Stopping at positioned collections keeps the walk to the few new lists a macro builds around
    its arguments: on the hit path of an expansion evaluated in a loop a full walk cost about as
    much as the ``pr_str`` of the key (+25% per expansion, measured); this one a few µs."""
    out: list[Any] = []
    _walk(form, out)
    return tuple(out)


def _walk(node: Any, out: list[Any]) -> None:
    """Recursive like ``pr_str``, which has printed the same tree for the key just before."""
    t = type(node)
    if t is PList:
        if node.count == 2 and node.first is S_QUOTE:
            return  # quoted data: not part of the key (module docstring)
        span = node.span
        if span is not None:
            out.append(span)
            return
        out.append(node.child_spans)
        kids: Iterable[Any] = node
    else:
        kind = _kinds.get(t)
        if kind is None:
            kind = _kind(t)
        if kind == _ATOM:
            return
        span, child_spans = spans_of(node)
        if span is not None:
            out.append(span)
            return
        out.append(child_spans)
        if kind == _MAP:
            pairs: list[Any] = []
            for k, v in node.items():
                pairs.append(k)
                pairs.append(v)
            kids = pairs
        else:
            kids = cast(Iterable[Any], node)  # PVector (a C type) is typed as object
    kinds = _kinds
    for x in kids:
        if kinds.get(type(x)) != _ATOM:
            _walk(x, out)


def place_key(form: Any, exact_text: bool) -> Any:
    """The place part of a cache key for ``form`` (module docstring): its span when the key's text
    is its exact source text and it has a span, else every span in its tree."""
    if exact_text:
        span = span_of(form)
        if span is not None:
            return span
    return places_of(form)


__all__ = ["places_of", "place_key"]
