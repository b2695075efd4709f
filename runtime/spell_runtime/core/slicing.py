"""Taking sequences apart by position or predicate, and generating them (language.md §14.7).

Counts follow Clojure's arithmetic rather than Python's: ``take``/``drop`` loop
"while n is positive, decrement", so a fractional count rounds *up* (``(take 2.5
c)`` takes three) and a non-number is the ``(pos? n)`` cast error. Where the
reference loops forever (``range`` with a zero step, ``take-nth`` or
``partition`` that never advance) these raise a host error instead
(language.md A20); everywhere else they agree with the reference exactly,
including the cases that return empty without looking at the collection.

``range`` over longs is Python's ``range``; any other numbers step by repeated
addition with the numeric tower's ``add`` (so ``(range 0 1 0.1)`` accumulates
rounding error exactly as Clojure's ``Range`` does).
"""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from math import ceil, isnan
from typing import Any

from ..data.atoms import BigInt, Float32
from ..data.equality import spell_eq
from ..data.hashmap import SpellSet
from ..data.plist import PList
from ..data.pvec import pvector as _pvector
from ..data.vector import EMPTY_VECTOR, LineVector, PVector, VectorView, subvector
from ..errors import HostError
from ..limits import check_count, max_collection_size
from .calling import caller
from .hostnames import cast_error, long_cast
from .longvecs import range_vector
from .registry import builtin
from .seqs import ABSENT, as_indexable, count, nth, seq_items, to_iter

_REAL_TYPES = (int, BigInt, float, Float32, Fraction, Decimal)


def steps(n: Any) -> int:
    """How many times Clojure's "while (pos? n): n = n - 1" loop runs for count ``n``."""
    t = type(n)
    if t is int:
        return n if n > 0 else 0
    if t in _REAL_TYPES:
        if t in (float, Float32) and isnan(n):
            return 0
        return ceil(n) if n > 0 else 0
    if n is None:
        raise HostError('Cannot invoke "Object.getClass()" because "x" is null')
    raise cast_error(n, "java.lang.Number")


@builtin("take", host="take")
def take(n: Any, coll: Any) -> Any:
    k = steps(n)
    if not k:
        return EMPTY_VECTOR
    t = type(coll)
    if t is PVector or t is VectorView:
        return coll[:k]
    items = []
    for x in to_iter(coll):
        items.append(x)
        if len(items) == k:
            break
    return _pvector(items)


@builtin("drop", host="drop")
def drop(n: Any, coll: Any) -> Any:
    items = as_indexable(coll)
    k = steps(n)
    t = type(items)
    if t is PVector or t is VectorView:  # shares the vector: O(1) in a loop (issue 16 item 7)
        size = len(items)
        return subvector(items, min(k, size), size)
    return _pvector(items[k:]) if t is list else items[k:]


@builtin("take-last", host="take-last")
def take_last(n: Any, coll: Any) -> Any:
    if type(coll) is PList and coll._src is not None:  # a view: read its last k, O(k)
        k = steps(n)
        if not k:
            return EMPTY_VECTOR
        off = coll._off
        end = off + coll.count
        return _pvector(coll._src[max(off, end - k):end])
    items = as_indexable(coll)
    k = steps(n)
    if not k:
        return EMPTY_VECTOR
    tail = items[-k:]
    return _pvector(tail) if type(tail) is list else tail


@builtin("drop-last", host="drop-last")
def drop_last(n_or_coll: Any, coll: Any = ABSENT) -> Any:
    if coll is ABSENT:
        n, coll = 1, n_or_coll
    else:
        n = n_or_coll
    items = as_indexable(coll)
    k = steps(n)
    t = type(items)
    if t is PVector or t is VectorView:  # shares the vector: O(1) in a loop (issue 16 item 7)
        return subvector(items, 0, max(len(items) - k, 0))
    kept = items[:len(items) - k] if k < len(items) else items[:0]
    return _pvector(kept) if type(kept) is list else kept


def _while_index(D: Any, pred: Any, items: Any) -> int:
    """The index of the first item whose ``(pred item)`` is falsy (or the length)."""
    g = caller(D, pred, 1)
    i = 0
    for x in items:
        r = g(x)
        if r is None or r is False:
            return i
        i += 1
    return i


@builtin("take-while", env=True, host="take-while")
def take_while(D: Any, pred: Any, coll: Any) -> Any:
    items = as_indexable(coll)
    head = items[:_while_index(D, pred, items)]
    return _pvector(head) if type(head) is list else head


@builtin("drop-while", env=True, host="drop-while")
def drop_while(D: Any, pred: Any, coll: Any) -> Any:
    items = as_indexable(coll)
    i = _while_index(D, pred, items)
    t = type(items)
    if t is PVector or t is VectorView:  # shares the vector, as drop does
        return subvector(items, i, len(items))
    tail = items[i:]
    return _pvector(tail) if type(tail) is list else tail


@builtin("split-at", host="split-at")
def split_at(n: Any, coll: Any) -> Any:
    return _pvector((take(n, coll), drop(n, coll)))


@builtin("split-with", env=True, host="split-with")
def split_with(D: Any, pred: Any, coll: Any) -> Any:
    items = as_indexable(coll)
    i = _while_index(D, pred, items)
    t = type(items)
    rest = subvector(items, i, len(items)) if t is PVector or t is VectorView else _pvector(items[i:])
    return _pvector((_pvector(items[:i]), rest))


@builtin("take-nth", host="take-nth")
def take_nth(n: Any, coll: Any) -> Any:
    items = as_indexable(coll)
    if not len(items):
        return EMPTY_VECTOR
    k = steps(n)
    if not k:
        raise HostError("take-nth step must be positive")
    return _pvector(items[::k])


def _partitions(n: Any, step: Any, coll: Any, keep_tail: bool, name: str) -> Any:
    items = as_indexable(coll)
    size = steps(n)
    advance = steps(step)
    out = []
    i = 0
    total = len(items)
    while i < total:
        chunk = items[i:i + size]
        if not keep_tail and not spell_eq(n, len(chunk)):
            break
        out.append(_pvector(chunk) if type(chunk) is list else chunk)
        if not advance:
            raise HostError(f"{name} step must be positive")
        i += advance
    return _pvector(out)


@builtin("partition", host="partition")
def partition(n: Any, step_or_coll: Any, coll: Any = ABSENT) -> Any:
    if coll is ABSENT:
        return _partitions(n, n, step_or_coll, False, "partition")
    return _partitions(n, step_or_coll, coll, False, "partition")


@builtin("partition-all", host="partition-all")
def partition_all(n: Any, step_or_coll: Any, coll: Any = ABSENT) -> Any:
    if coll is ABSENT:
        return _partitions(n, n, step_or_coll, True, "partition-all")
    return _partitions(n, step_or_coll, coll, True, "partition-all")


@builtin("partition-by", env=True, host="partition-by")
def partition_by(D: Any, f: Any, coll: Any) -> Any:
    g = caller(D, f, 1)
    out: list[Any] = []
    run: list[Any] = []
    prev: Any = ABSENT
    for x in seq_items(coll):
        k = g(x)
        if run and not (k is prev or spell_eq(k, prev)):
            out.append(_pvector(run))
            run = []
        run.append(x)
        prev = k
    if run:
        out.append(_pvector(run))
    return _pvector(out)


# -- generators -----------------------------------------------------------------------


def _general_range(start: Any, end: Any, step: Any) -> Any:
    from .numbers import add, gt, lt, num_equiv

    positive = lt(0, step)
    negative = lt(step, 0)
    if (positive and gt(start, end)) or (negative and gt(end, start)) or num_equiv(start, end):
        return EMPTY_VECTOR
    if not positive and not negative:
        raise HostError("range step must be non-zero")
    check_count(_estimated_steps(start, end, step))
    limit = max_collection_size()
    out = []
    v = start
    # The count is checked again while stepping: floats can stop advancing ((+ 1e300 1) is 1e300).
    if positive:
        while lt(v, end):
            out.append(v)
            v = add(v, step)
            if len(out) > limit:
                check_count(len(out))
    else:
        while gt(v, end):
            out.append(v)
            v = add(v, step)
            if len(out) > limit:
                check_count(len(out))
    return _pvector(out)


def _estimated_steps(start: Any, end: Any, step: Any) -> float:
    """Roughly how many elements a non-long ``range`` has (to refuse a huge one before building it)."""
    try:
        return abs((float(end) - float(start)) / float(step))
    except (OverflowError, ZeroDivisionError):
        return float("inf")


@builtin("range", host="range")
def range_(start_or_end: Any, end: Any = ABSENT, step: Any = ABSENT) -> Any:
    if end is ABSENT:
        start, end, step = 0, start_or_end, 1
    else:
        start = start_or_end
        if step is ABSENT:
            step = 1
    if type(start) is int and type(end) is int and type(step) is int:
        if step == 0:
            if start == end:
                return EMPTY_VECTOR
            raise HostError("range step must be non-zero")
        r = range(start, end, step)
        try:
            size = len(r)
        except OverflowError:  # more elements than a Python index can count
            size = max_collection_size() + 1
        check_count(size)
        return range_vector(r)  # recorded as longs in [min, max] for reduce/map/filter (core/bulk.py)
    return _general_range(start, end, step)


@builtin("repeat", host="repeat")
def repeat(n: Any, x: Any) -> Any:
    k = long_cast(n) if n is not None else 0
    check_count(k)
    return _pvector([x] * k) if k > 0 else EMPTY_VECTOR


@builtin("repeatedly", env=True, host="repeatedly")
def repeatedly(D: Any, n: Any, f: Any) -> Any:
    k = steps(n)
    check_count(k)
    g = caller(D, f, 0)
    return _pvector([g() for _ in range(k)])


# -- randomness -----------------------------------------------------------------------


@builtin("shuffle", host="shuffle")
def shuffle(coll: Any) -> Any:
    t = type(coll)
    if t is PVector or t is PList or t is LineVector or t is VectorView or isinstance(coll, SpellSet):
        items = list(coll)
        random.shuffle(items)
        return _pvector(items)
    if coll is None:
        raise HostError('Cannot invoke "java.util.Collection.toArray()" because "c" is null')
    raise cast_error(coll, "java.util.Collection")


@builtin("rand-nth")
def rand_nth(coll: Any) -> Any:
    n = count(coll)
    return nth(coll, random.randrange(n) if n > 0 else 0)


@builtin("random-sample", host="random-sample")
def random_sample(prob: Any, coll: Any) -> Any:
    if type(prob) not in _REAL_TYPES:
        if prob is None:
            raise HostError('Cannot invoke "Object.getClass()" because "x" is null')
        raise cast_error(prob, "java.lang.Number")
    p = float(prob)
    return _pvector([x for x in seq_items(coll) if random.random() < p])
