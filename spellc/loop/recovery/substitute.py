"""Replacing one symbol everywhere in a program, the way namespace fixup needs it.

The walk is iterative because a model can write arbitrarily deep forms and a
fixup must never turn a document error into a Python ``RecursionError``. It
shares every untouched subtree with the input, so a program whose symbol does
not occur comes back as the very same object (callers use that to detect
"nothing to repair"), and it keeps source spans on rebuilt collections so the
re-evaluated program still maps errors to the model's text (runtime.md §8.3).

Like the reference, it descends into lists, vectors and maps (keys and
values), quoted data included, and leaves strings, sets and other values alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from spell_runtime.data import LineVector, PList, PVector, SpellMap, Symbol, VectorView, plist, vec
from spell_runtime.data.positions import child_spans_of, set_span, span_of


def _children(node: Any) -> Optional[list[Any]]:
    t = type(node)
    if t is PList or t is PVector or t is VectorView:
        return list(node)
    if t is LineVector:
        return list(node.items)
    if t is SpellMap:
        flat: list[Any] = []
        for k, v in node.items():
            flat.append(k)
            flat.append(v)
        return flat
    return None


def _rebuild(node: Any, items: list[Any]) -> Any:
    t = type(node)
    if t is PList:
        return plist(items, is_seq=node.is_seq).with_span(node.span, node.child_spans)
    if t is LineVector:
        return LineVector(vec(items), node.segments)
    if t is PVector or t is VectorView:
        out = vec(items)
        span = span_of(node)
        if span is not None:
            set_span(out, span, child_spans_of(node))
        return out
    rebuilt = SpellMap.from_pairs(zip(items[::2], items[1::2]))
    if len(rebuilt) == len(node):  # two keys that became equal would misalign the child spans
        rebuilt.span = node.span
        rebuilt.child_spans = node.child_spans
    return rebuilt


def substitute_symbol(form: Any, matches: Callable[[Symbol], bool], replacement: Symbol) -> Any:
    """``form`` with every symbol for which ``matches`` holds replaced by ``replacement``."""

    def leaf(x: Any) -> Any:
        return replacement if type(x) is Symbol and matches(x) else x

    top = _children(form)
    if top is None:
        return leaf(form)
    # Each frame: [node, children, next index, new children, changed?]
    stack: list[list[Any]] = [[form, top, 0, [], False]]
    result: Any = form
    while stack:
        frame = stack[-1]
        node, kids, i, out, _ = frame
        if i == len(kids):
            stack.pop()
            done = _rebuild(node, out) if frame[4] else node
            if not stack:
                result = done
                break
            parent = stack[-1]
            parent[3].append(done)
            parent[4] = parent[4] or done is not node
            continue
        frame[2] = i + 1
        child = kids[i]
        grand = _children(child)
        if grand is None:
            new = leaf(child)
            out.append(new)
            frame[4] = frame[4] or new is not child
        else:
            stack.append([child, grand, 0, [], False])
    return result
