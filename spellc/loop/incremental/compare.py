"""Whether two reads are the same read: types, values, order and spans all the way down.

Values compare with ``==`` except regex patterns, whose Spell equality is identity:
two reads of one ``#"..."`` are the same read when their sources are equal.

The debug check of the incremental reader (``read``) compares with it, and the
prefix renderer (``prefix``) uses it to keep the model's own form objects when
reading their rendered text back gives nothing different — so those objects, not
copies, are what later turns see (and what the identity caches key on).
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.data.atoms import Pattern
from spell_runtime.data.hashmap import SpellMap, SpellSet
from spell_runtime.data.plist import PList
from spell_runtime.data.positions import child_spans_of, span_of
from spell_runtime.data.vector import LineVector, PVector, VectorView


def first_difference(a: Any, b: Any) -> Optional[str]:
    """None when ``a`` and ``b`` are the same read (types, values, order, spans); else where they differ."""
    stack: list[tuple[Any, Any, str]] = [(a, b, "form")]
    while stack:
        x, y, path = stack.pop()
        if type(x) is not type(y):
            return "%s: %s vs %s" % (path, type(x).__name__, type(y).__name__)
        t = type(x)
        if t is PList or t is PVector or t is LineVector or t is VectorView or t is SpellMap or t is SpellSet:
            if len(x) != len(y):
                return "%s: %d vs %d elements" % (path, len(x), len(y))
            if span_of(x) != span_of(y) or child_spans_of(x) != child_spans_of(y):
                return "%s: spans %r vs %r" % (path, (span_of(x), child_spans_of(x)), (span_of(y), child_spans_of(y)))
            xs = [e for kv in x.items() for e in kv] if t is SpellMap else list(x)
            ys = [e for kv in y.items() for e in kv] if t is SpellMap else list(y)
            stack.extend((xi, yi, "%s[%d]" % (path, i)) for i, (xi, yi) in enumerate(zip(xs, ys, strict=True)))
        elif t is Pattern:
            if x.source != y.source:
                return "%s: %r vs %r" % (path, x, y)
        elif not (x is y or x == y or (x != x and y != y)):
            return "%s: %r vs %r" % (path, x, y)
    return None
