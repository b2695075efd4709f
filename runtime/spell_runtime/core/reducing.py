"""``reduce``, ``reductions``, ``reduce-kv`` and ``reduced`` (language.md §14.7).

A reduced value is a host object (``(type (reduced 1))`` is
``"class clojure.lang.Reduced"``), so it is a plain ``HostObject`` whose class
name is ``clojure.lang.Reduced``: the printer and ``type`` already show those,
and the loops recognise one with a type test that ordinary values fail at once.

The reference wraps the function as ``#(invoke-fn f [%1 %2])`` before handing it
to ``clojure.core/reduce``; that wrapper only takes two arguments, so reducing an
empty collection without an init fails with an arity error whatever ``f`` is
(``(reduce + [])`` is an error, not 0) — the shared conformance suite pins this.
The error names the builtin (language.md A15).

The loops check for a reduced accumulator after every step; measured, that
costs nothing next to the function call itself. ``reduce`` over a vector with a
known pure builtin (``+`` over longs, ``max``, ``conj``...) first tries the
whole-vector fast path of ``core/bulk.py``, which returns exactly the loop's
value or gives up before anything observable happens.
"""

from __future__ import annotations

from typing import Any

from ..data.atoms import HostObject
from ..data.hashmap import SpellMap
from ..data.pvec import pvector
from ..data.vector import LineVector, PVector, VectorView
from ..errors import HostError
from .bulk import NO_FAST, reduce1_fast, reduce_fast
from .calling import caller
from .hostnames import class_name
from .registry import builtin
from .seqs import ABSENT, to_iter

REDUCED_CLASS = "clojure.lang.Reduced"


def make_reduced(x: Any) -> HostObject:
    """``(reduced x)``: a value that tells ``reduce`` and friends to stop with ``x``."""
    return HostObject(REDUCED_CLASS, x)


def is_reduced(x: Any) -> bool:
    return type(x) is HostObject and x.class_name == REDUCED_CLASS


def _empty_without_init(name: str) -> HostError:
    return HostError(f"Wrong number of args (0) passed to: {name}")


@builtin("reduced")
def reduced(x: Any) -> HostObject:
    return make_reduced(x)


@builtin("reduce", env=True, host="reduce")
def reduce_(D: Any, f: Any, init_or_coll: Any, coll: Any = ABSENT) -> Any:
    src = init_or_coll if coll is ABSENT else coll
    if type(src) is VectorView:  # the fast path below wants the C vector: copy once (C speed)
        src = src.pvector()
        if coll is ABSENT:
            init_or_coll = src
        else:
            coll = src
    if type(src) is PVector:  # a known pure f over a vector: core/bulk.py
        fast = reduce1_fast(f, src) if coll is ABSENT else reduce_fast(f, init_or_coll, src)
        if fast is not NO_FAST:
            return fast
    g = caller(D, f, 2)
    if coll is ABSENT:
        it = to_iter(init_or_coll)
        acc = next(it, ABSENT)
        if acc is ABSENT:
            raise _empty_without_init("reduce")
    else:
        it = to_iter(coll)
        acc = init_or_coll
    for x in it:
        acc = g(acc, x)
        if type(acc) is HostObject and acc.class_name == REDUCED_CLASS:
            return acc.payload
    return acc


@builtin("reductions", env=True, host="reductions")
def reductions(D: Any, f: Any, init_or_coll: Any, coll: Any = ABSENT) -> Any:
    g = caller(D, f, 2)
    if coll is ABSENT:
        it = to_iter(init_or_coll)
        acc = next(it, ABSENT)
        if acc is ABSENT:
            raise _empty_without_init("reductions")
    else:
        acc = init_or_coll
        it = to_iter(coll)
    if type(acc) is HostObject and acc.class_name == REDUCED_CLASS:
        return pvector((acc.payload,))
    out = [acc]
    for x in it:
        acc = g(acc, x)
        if type(acc) is HostObject and acc.class_name == REDUCED_CLASS:
            out.append(acc.payload)
            break
        out.append(acc)
    return pvector(out)


def kv_pairs(coll: Any) -> Any:
    """What ``reduce-kv`` walks: a map's (key, value) pairs, a vector's (index, element) pairs,
    nothing for nil; the IKVReduce host error otherwise. Shared with the inline ``reduce-kv`` of
    compiled code (``spellc.emit.pipelines``), so both walk the same pairs."""
    if coll is None:
        return ()
    if isinstance(coll, SpellMap):
        return coll.items()
    if (t := type(coll)) is PVector or t is LineVector or t is VectorView:
        return enumerate(coll)
    raise HostError("No implementation of method: :kv-reduce of protocol: "
                    "#'clojure.core.protocols/IKVReduce found for class: " + class_name(coll))


@builtin("reduce-kv", env=True, host="reduce-kv")
def reduce_kv(D: Any, f: Any, init: Any, coll: Any) -> Any:
    pairs = kv_pairs(coll)
    if coll is None:
        return init
    g = caller(D, f, 3)
    acc = init
    for k, v in pairs:
        acc = g(acc, k, v)
        if type(acc) is HostObject and acc.class_name == REDUCED_CLASS:
            return acc.payload
    return acc
