"""Eager sequence transformations that return vectors (language.md §14.7).

``map``, ``filter`` and their relatives are the hottest builtins Spell programs
call, and each calls one function per element: the function is resolved once
into a plain Python callable (``calling.caller``) and the loop is a C-level
``map`` or a comprehension over the collection, so a host function like ``inc``
is applied at Python's own speed. Truthiness is tested inline (``r is not None
and r is not False``) rather than through a helper call per element. Over a
vector, ``map``/``filter``/``remove`` with a known pure builtin (``inc``,
``even?``...) first try the inlined loops of ``core/bulk.py``.

``sort`` orders with ``compare`` (stable, like Java's sort); lists of longs or of
BMP-only strings — where Python's order is Java's — skip the comparator.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cmp_to_key
from typing import Any

from ..data.equality import spell_eq
from ..data.hashmap import normkey
from ..data.pvec import pvector as _pvector
from ..data.text import is_bmp
from ..data.vector import EMPTY_VECTOR, PVector, VectorView
from ..limits import check_count
from .bulk import NO_FAST, filter_vector, map_vector
from .calling import call_fn, caller
from .compare import compare
from .registry import builtin
from .seqs import ABSENT, as_indexable, is_sequential, seq_items, to_iter


@builtin("map", env=True, host="map")
def map_(D: Any, f: Any, coll: Any) -> Any:
    if type(coll) is VectorView:  # the bulk fast path wants the C vector: copy once (C speed)
        coll = coll.pvector()
    if type(coll) is PVector:
        fast = map_vector(f, coll)
        if fast is not NO_FAST:
            return fast
    return _pvector(map(caller(D, f, 1), seq_items(coll)))


@builtin("map-indexed", env=True, host="map-indexed")
def map_indexed(D: Any, f: Any, coll: Any) -> Any:
    g = caller(D, f, 2)
    return _pvector([g(i, x) for i, x in enumerate(seq_items(coll))])


@builtin("filter", env=True, host="filter")
def filter_(D: Any, pred: Any, coll: Any) -> Any:
    if type(coll) is VectorView:  # the bulk fast path wants the C vector: copy once (C speed)
        coll = coll.pvector()
    if type(coll) is PVector:
        fast = filter_vector(pred, coll, True)
        if fast is not NO_FAST:
            return fast
    g = caller(D, pred, 1)
    return _pvector([x for x in seq_items(coll) if (r := g(x)) is not None and r is not False])


@builtin("remove", env=True, host="remove")
def remove(D: Any, pred: Any, coll: Any) -> Any:
    if type(coll) is VectorView:  # the bulk fast path wants the C vector: copy once (C speed)
        coll = coll.pvector()
    if type(coll) is PVector:
        fast = filter_vector(pred, coll, False)
        if fast is not NO_FAST:
            return fast
    g = caller(D, pred, 1)
    return _pvector([x for x in seq_items(coll) if (r := g(x)) is None or r is False])


@builtin("keep", env=True, host="keep")
def keep(D: Any, f: Any, coll: Any) -> Any:
    g = caller(D, f, 1)
    return _pvector([r for x in seq_items(coll) if (r := g(x)) is not None])


@builtin("keep-indexed", env=True, host="keep-indexed")
def keep_indexed(D: Any, f: Any, coll: Any) -> Any:
    g = caller(D, f, 2)
    return _pvector([r for i, x in enumerate(seq_items(coll)) if (r := g(i, x)) is not None])


@builtin("mapcat", env=True, host="mapcat")
def mapcat(D: Any, f: Any, coll: Any) -> Any:
    g = caller(D, f, 1)
    out: list[Any] = []
    for x in seq_items(coll):
        out.extend(seq_items(g(x)))
    return _pvector(out)


@builtin("some", env=True, host="some")
def some(D: Any, pred: Any, coll: Any) -> Any:
    g = caller(D, pred, 1)
    for x in to_iter(coll):
        r = g(x)
        if r is not None and r is not False:
            return r
    return None


@builtin("every?", env=True, host="every?")
def every(D: Any, pred: Any, coll: Any) -> bool:
    g = caller(D, pred, 1)
    for x in to_iter(coll):
        r = g(x)
        if r is None or r is False:
            return False
    return True


@builtin("not-any?", env=True, host="not-any?")
def not_any(D: Any, pred: Any, coll: Any) -> bool:
    return some(D, pred, coll) is None


@builtin("not-every?", env=True, host="not-every?")
def not_every(D: Any, pred: Any, coll: Any) -> bool:
    return not every(D, pred, coll)


@builtin("find-first", env=True, host="find-first")
def find_first(D: Any, pred: Any, coll: Any) -> Any:
    g = caller(D, pred, 1)
    for x in to_iter(coll):
        r = g(x)
        if r is not None and r is not False:
            return x
    return None


@builtin("apply", env=True, host="apply")
def apply_(D: Any, f: Any, *args: Any) -> Any:
    if not args:
        return call_fn(D, f, ())
    spread = list(args[:-1])
    spread.extend(seq_items(args[-1]))
    check_count(len(spread))
    return call_fn(D, f, tuple(spread))


@builtin("tree-seq", env=True, host="tree-seq")
def tree_seq(D: Any, branch: Any, children: Any, root: Any) -> Any:
    is_branch = caller(D, branch, 1)
    kids = caller(D, children, 1)
    out: list[Any] = []
    stack: list[Iterator[Any]] = [iter((root,))]
    while stack:
        node = next(stack[-1], ABSENT)
        if node is ABSENT:
            stack.pop()
            continue
        out.append(node)
        r = is_branch(node)
        if r is not None and r is not False:
            stack.append(to_iter(kids(node)))
    return _pvector(out)


def _natively_ordered(xs: list[Any]) -> bool:
    """True when Python's ``<`` on ``xs`` is exactly ``compare``'s order."""
    if not xs:
        return True
    t = type(xs[0])
    if t is int:
        return all(type(x) is int for x in xs)
    if t is str:
        return all(type(x) is str and is_bmp(x) for x in xs)
    return False


@builtin("sort", host="sort")
def sort(coll: Any) -> Any:
    items = list(seq_items(coll))
    if _natively_ordered(items):
        return _pvector(sorted(items))
    return _pvector(sorted(items, key=cmp_to_key(compare)))


@builtin("sort-by", env=True, host="sort-by")
def sort_by(D: Any, keyfn: Any, coll: Any) -> Any:
    items = list(seq_items(coll))
    keys = list(map(caller(D, keyfn, 1), items))
    if not _natively_ordered(keys):
        wrap = cmp_to_key(compare)
        keys = [wrap(k) for k in keys]
    order = sorted(range(len(items)), key=keys.__getitem__)
    return _pvector([items[i] for i in order])


@builtin("distinct", host="distinct")
def distinct(coll: Any) -> Any:
    seen: set[Any] = set()
    out: list[Any] = []
    for x in seq_items(coll):
        k = normkey(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return _pvector(out)


@builtin("dedupe", host="dedupe")
def dedupe(coll: Any) -> Any:
    out: list[Any] = []
    prev: Any = ABSENT
    for x in seq_items(coll):
        if prev is ABSENT or not (x is prev or spell_eq(x, prev)):
            out.append(x)
        prev = x
    return _pvector(out)


@builtin("flatten", host="flatten")
def flatten(x: Any) -> Any:
    if not is_sequential(x):
        return EMPTY_VECTOR
    out: list[Any] = []
    stack: list[Iterator[Any]] = [iter(seq_items(x))]
    while stack:
        for y in stack[-1]:
            if is_sequential(y):
                stack.append(iter(seq_items(y)))
                break
            out.append(y)
        else:
            stack.pop()
    return _pvector(out)


@builtin("interleave", host="interleave")
def interleave(*colls: Any) -> Any:
    if not colls:
        return EMPTY_VECTOR
    seqs = [as_indexable(c) for c in colls]
    n = min(len(s) for s in seqs)
    return _pvector([s[i] for i in range(n) for s in seqs])


@builtin("interpose", host="interpose")
def interpose(sep: Any, coll: Any) -> Any:
    out: list[Any] = []
    for x in seq_items(coll):
        if out:
            out.append(sep)
        out.append(x)
    return _pvector(out)
