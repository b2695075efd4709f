"""Function combinators: ``comp partial juxt complement constantly every-pred some-fn fnil memoize``.

These return *host closures* (language.md §3.7, §8.7): unlike Spell functions
they capture their arguments. Each is an ``EnvFn`` so that when it is finally
called it receives the calling environment ``D`` of *that* call site and runs
any Spell function it holds there (dynamic scoping, §8.3).

Spell differs from Clojure in three places (§14.8, marked Δ): ``comp`` makes a
one-argument function (another argument count is an arity error);
``every-pred`` and ``some-fn`` give *all* arguments to each predicate at once.

The closures' names are JVM-style class names (``spell.eval$comp$fn``): the
printer shows host closures as ``#object[<name>]`` (language.md A6).
"""

from __future__ import annotations

import threading
from typing import Any

from ..data.hashmap import Key
from ..data.pvec import pvector as _pvector
from ..errors import HostError
from .calling import call_fn
from .registry import EnvFn, builtin
from .seqs import ABSENT


def _closure_name(builtin_name: str) -> str:
    return f"spell.eval${builtin_name}$fn"


@builtin("comp", host="comp")
def comp(*fns: Any) -> EnvFn:
    order = fns[::-1]

    def composed(D: Any, *args: Any) -> Any:
        if len(args) != 1:
            raise HostError(f"Wrong number of args ({len(args)}) passed to: spell.eval/comp/fn")
        v = args[0]
        for f in order:
            v = call_fn(D, f, (v,))
        return v

    return EnvFn(composed, _closure_name("comp"))


@builtin("partial", host="partial")
def partial(f: Any, *args: Any) -> EnvFn:
    def partially(D: Any, *more: Any) -> Any:
        return call_fn(D, f, args + more)

    return EnvFn(partially, _closure_name("partial"))


@builtin("juxt", host="juxt")
def juxt(*fns: Any) -> EnvFn:
    def juxtaposed(D: Any, *args: Any) -> Any:
        return _pvector([call_fn(D, f, args) for f in fns])

    return EnvFn(juxtaposed, _closure_name("juxt"))


@builtin("complement", host="complement")
def complement(f: Any) -> EnvFn:
    def negated(D: Any, *args: Any) -> bool:
        r = call_fn(D, f, args)
        return r is None or r is False

    return EnvFn(negated, _closure_name("complement"))


@builtin("constantly", host="constantly")
def constantly(x: Any) -> EnvFn:
    def constant(D: Any, *args: Any) -> Any:
        return x

    return EnvFn(constant, _closure_name("constantly"))


@builtin("every-pred", host="every-pred")
def every_pred(*preds: Any) -> EnvFn:
    def all_hold(D: Any, *args: Any) -> bool:
        for p in preds:
            r = call_fn(D, p, args)
            if r is None or r is False:
                return False
        return True

    return EnvFn(all_hold, _closure_name("every-pred"))


@builtin("some-fn", host="some-fn")
def some_fn(*preds: Any) -> EnvFn:
    def first_truthy(D: Any, *args: Any) -> Any:
        for p in preds:
            r = call_fn(D, p, args)
            if r is not None and r is not False:
                return r
        return None

    return EnvFn(first_truthy, _closure_name("some-fn"))


@builtin("fnil", host="fnil")
def fnil(f: Any, *defaults: Any) -> EnvFn:
    n = len(defaults)

    def patched(D: Any, *args: Any) -> Any:
        fixed = tuple(defaults[i] if a is None and i < n else a for i, a in enumerate(args))
        return call_fn(D, f, fixed)

    return EnvFn(patched, _closure_name("fnil"))


@builtin("memoize", host="memoize")
def memoize(f: Any) -> EnvFn:
    """Results cached by argument list under Spell equality (``[1]`` and ``'(1)`` hit the same entry)."""
    cache: dict[Key, Any] = {}
    lock = threading.Lock()

    def memoized(D: Any, *args: Any) -> Any:
        key = Key(_pvector(args))
        hit = cache.get(key, ABSENT)
        if hit is not ABSENT:
            return hit
        result = call_fn(D, f, args)
        with lock:
            cache.setdefault(key, result)
        return result

    return EnvFn(memoized, _closure_name("memoize"))
