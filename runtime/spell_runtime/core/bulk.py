"""Whole-collection fast paths for ``reduce``, ``map`` and ``filter`` with known pure builtins
(issue 13 items 3–4, runtime side).

``(reduce + v)`` calls ``+`` once per element through a Python function; with a
vector of longs the same answer is ``sum`` at C speed, *provided* no partial sum
leaves the long range (Clojure's ``+`` fails at the first partial sum that
overflows, even when later elements would bring the total back). Likewise
``(map inc v)`` and ``(filter even? v)`` can test each element's type inline
instead of calling the builtin.

Legality (why no Spell program can tell): each fast path is keyed on the
*identity* of the builtin value — a program that rebinds ``+`` passes another
object and gets the generic path — and the builtins involved are pure (no
effect, no dynamic binding read, no env), so computing their results another
way, or computing part of them and throwing that away, is unobservable. Each
fast path either returns exactly what the generic per-element loop returns or
gives up by returning ``NO_FAST`` — when its precondition fails (an element is
not a long, a partial sum might overflow) *or when anything raises* — and the
caller then runs the generic loop from the start, which produces the exact
value or the exact error, message and env. A fast path never gives up after
calling a function that is not pure, so nothing is run twice observably.

Entry points (the builtins below use them now; the emitter can call them for
inlined pipelines later, with the same contract):

* ``reduce_fast(f, acc, items)`` → ``f`` folded over ``items`` from ``acc``, or ``NO_FAST``;
  ``reduce1_fast(f, items)`` the same without an initial value;
* ``map_vector(f, items)`` → the vector of ``(f x)``, or ``NO_FAST``;
* ``filter_vector(pred, items, keep)`` → the vector of the ``x`` whose ``(pred x)`` truthiness
  equals ``keep`` (``filter``: True, ``remove``: False), or ``NO_FAST``.

``items`` is a Python list or a C vector (copied with ``tolist()``, its cheapest copy,
only once a fast path exists for ``f``: a miss costs one dict lookup). A vector the compiler
known to hold only longs within bounds (``longvecs.long_bounds``: a compiled loop's list, a
``range``, or a ``map``/``filter`` result below) skips the element type scan, and often the
overflow bound too (see ``_sum_longs``); ``map_vector``/``filter_vector`` record what they know of
their results the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Optional

from ..data.atoms import LONG_MAX, LONG_MIN, Symbol
from ..data.pvec import pvector
from ..data.vector import PVector
from ..library import GENERATION, load, loaded_any
from ..optimise import ENABLED
from .longvecs import Bounds, long_bounds, record
from .registry import BUILTINS


class _NoFast:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<no fast path>"


NO_FAST: Final[Any] = _NoFast()


def vector_items(v: Any) -> list[Any]:
    """The elements of a C vector as a fresh list (its cheapest copy)."""
    return v.tolist()  # type: ignore[no-any-return]


def all_longs(items: list[Any]) -> bool:
    """True when every element is a Spell long (exactly ``int``: not ``bool``, not ``BigInt``)."""
    return list(map(type, items)).count(int) == len(items)


def _sum_longs(acc: Any, items: list[Any], known: Optional[Bounds] = None) -> Any:
    """``acc + items...`` when every partial sum provably stays a long, else NO_FAST.

    ``known`` is what ``longvecs.long_bounds`` knows of the vector (None: nothing; ``(lo, hi)``:
    every element a long in ``[lo, hi]``); without it the element types are tested here.

    The overflow argument: when every element has one sign the partial sums run monotonically
    from ``acc`` to the total, so both ends being longs (``acc`` is one) puts every partial sum
    in range. Known bounds may show one sign at once; else one sign is tested at C speed
    (``_one_sign``). With mixed signs every partial sum lies within ``|acc| + Σ|x|`` (at
    most ``|acc| + n·max(|lo|, |hi|)``) of zero, so when that bound is a long no step can
    overflow; when it is not, the generic loop decides (it may still succeed)."""
    if type(acc) is not int or known is None and not all_longs(items):
        return NO_FAST
    total = acc + sum(items)
    if not LONG_MIN <= total <= LONG_MAX:
        return NO_FAST  # the generic loop raises the overflow at the exact step
    if known is not None:
        lo, hi = known
        if lo >= 0 or hi <= 0 or abs(acc) + len(items) * max(-lo, hi) <= LONG_MAX:
            return total
    if _one_sign(items):
        return total
    if abs(acc) + sum(map(abs, items)) > LONG_MAX:
        return NO_FAST
    return total


def _one_sign(items: list[Any]) -> bool:
    """True when the longs ``items`` are all ``>= 0`` or all ``<= 0`` (one or two C passes).

    ``min``/``max`` rather than ``array('Q', items)``, which did the same in one pass but made the
    first sum of a program import the ``array`` extension (~0.3 ms of a cold compile+run, issue 12)."""
    return not items or min(items) >= 0 or max(items) <= 0


Fold = Callable[[Any, list[Any], Optional[Bounds]], Any]
"""A whole-list reducer: (acc, items, what ``long_bounds`` knows of the vector) → value or NO_FAST."""


def _extreme_longs(pick: Callable[[list[Any]], Any]) -> Fold:
    def fold(acc: Any, items: list[Any], known: Optional[Bounds] = None) -> Any:
        if type(acc) is not int or known is None and not all_longs(items):
            return NO_FAST
        return pick([acc, pick(items)])
    return fold


def _conj_vector(acc: Any, items: list[Any], known: Optional[Bounds] = None) -> Any:
    if type(acc) is not PVector:
        return NO_FAST
    vector: Any = acc
    return vector.extend(items)


_MAX = LONG_MAX
_MIN = LONG_MIN

Mapper = Callable[[list[Any], Optional[Bounds]], tuple[list[Any], Optional[Bounds]]]
"""(items, their known bounds) → (the mapped list, its known bounds or None)."""
Selector = Callable[[list[Any], bool, Optional[Bounds]], list[Any]]
"""(items, keep, their known bounds) → the selected list (a subset: the same bounds hold)."""

_REDUCERS: dict[int, Fold] = {}
_MAPPERS: dict[int, Mapper] = {}
_PREDICATES: dict[int, Selector] = {}


def _map_inc(items: list[Any], known: Optional[Bounds] = None) -> tuple[list[Any], Optional[Bounds]]:
    if known is not None and known[1] < _MAX:  # longs below the top: no test per element
        return [x + 1 for x in items], (known[0] + 1, known[1] + 1)
    from .numbers import inc

    return [x + 1 if type(x) is int and x != _MAX else inc(x) for x in items], None


def _map_dec(items: list[Any], known: Optional[Bounds] = None) -> tuple[list[Any], Optional[Bounds]]:
    if known is not None and known[0] > _MIN:
        return [x - 1 for x in items], (known[0] - 1, known[1] - 1)
    from .numbers import dec

    return [x - 1 if type(x) is int and x != _MIN else dec(x) for x in items], None


def _filter_even(items: list[Any], keep: bool, known: Optional[Bounds] = None) -> list[Any]:
    if known is not None:  # all longs: no type test per element
        return [x for x in items if not x & 1] if keep else [x for x in items if x & 1]
    from .numbers import even_p

    if keep:
        return [x for x in items if ((x & 1) == 0 if type(x) is int else even_p(x))]
    return [x for x in items if not ((x & 1) == 0 if type(x) is int else even_p(x))]


def _filter_odd(items: list[Any], keep: bool, known: Optional[Bounds] = None) -> list[Any]:
    if known is not None:
        return [x for x in items if x & 1] if keep else [x for x in items if not x & 1]
    from .numbers import odd_p

    if keep:
        return [x for x in items if ((x & 1) == 1 if type(x) is int else odd_p(x))]
    return [x for x in items if not ((x & 1) == 1 if type(x) is int else odd_p(x))]


def _filter_pos(items: list[Any], keep: bool, known: Optional[Bounds] = None) -> list[Any]:
    from .numbers import is_pos

    if keep:
        return [x for x in items if (x > 0 if type(x) is int else is_pos(x))]
    return [x for x in items if not (x > 0 if type(x) is int else is_pos(x))]


def _filter_neg(items: list[Any], keep: bool, known: Optional[Bounds] = None) -> list[Any]:
    from .numbers import is_neg

    if keep:
        return [x for x in items if (x < 0 if type(x) is int else is_neg(x))]
    return [x for x in items if not (x < 0 if type(x) is int else is_neg(x))]


def _filter_nil(items: list[Any], keep: bool, known: Optional[Bounds] = None) -> list[Any]:
    return [x for x in items if (x is None) is keep]


def _filter_some(items: list[Any], keep: bool, known: Optional[Bounds] = None) -> list[Any]:
    return [x for x in items if (x is not None) is keep]


_FILLED = [-1]
"""The library's ``GENERATION`` the identity tables were filled at (a built module loads only its share
of the library: when more of it loads, the tables fill again with the builtins that came with it)."""


def _tables() -> None:
    """Fill the identity tables from the registry (on first use: the registry fills as the
    defining modules are imported, and those import this one), with the builtins registered now."""
    if not loaded_any():
        load()
    _FILLED[0] = GENERATION[0]
    tables: list[tuple[dict[int, Any], str, Any]] = [
        (_REDUCERS, "+", _sum_longs), (_REDUCERS, "+'", _sum_longs), (_REDUCERS, "max", _extreme_longs(max)),
        (_REDUCERS, "min", _extreme_longs(min)), (_REDUCERS, "conj", _conj_vector),
        (_MAPPERS, "inc", _map_inc), (_MAPPERS, "dec", _map_dec),
        (_PREDICATES, "even?", _filter_even), (_PREDICATES, "odd?", _filter_odd), (_PREDICATES, "pos?", _filter_pos),
        (_PREDICATES, "neg?", _filter_neg), (_PREDICATES, "nil?", _filter_nil), (_PREDICATES, "some?", _filter_some),
    ]
    for table, name, fast in tables:
        value = BUILTINS.get(Symbol(name))
        if value is not None:
            table[id(value)] = fast


def _ready() -> bool:
    """Tables filled; False when optimisations are switched off (``spell_runtime.optimise``)."""
    if not ENABLED[0]:
        return False
    if _FILLED[0] != GENERATION[0]:
        _tables()
    return True


def _as_list(items: Any) -> list[Any]:
    return items if type(items) is list else vector_items(items)


def reduce_fast(f: Any, acc: Any, items: Any) -> Any:
    """``(reduce f acc items)`` for a known pure ``f``, or NO_FAST (see the module docstring)."""
    fold = _REDUCERS.get(id(f)) if _ready() else None
    if fold is None or not len(items):
        return NO_FAST
    try:
        return fold(acc, _as_list(items), long_bounds(items))
    except Exception:  # the generic loop re-runs and raises the exact error
        return NO_FAST


def reduce1_fast(f: Any, items: Any) -> Any:
    """``(reduce f items)`` (no initial value) for a known pure ``f`` over two or more items, or
    NO_FAST."""
    fold = _REDUCERS.get(id(f)) if _ready() else None
    if fold is None or len(items) < 2:
        return NO_FAST
    xs = _as_list(items)
    known = long_bounds(items)
    try:
        if fold is _sum_longs and (known is not None or type(xs[0]) is int):
            # (reduce + xs) is (reduce + 0 xs) when xs[0] is a long: the extra partial sums, 0 and
            # xs[0], are longs, and the rest are the same; this spares copying xs[1:].
            return fold(0, xs, known)
        return fold(xs[0], xs[1:], known)
    except Exception:
        return NO_FAST


def map_vector(f: Any, items: Any) -> Any:
    """``(map f items)`` for a known pure ``f``, as the vector ``map`` returns, recording what is
    known of its elements; or NO_FAST."""
    apply_all = _MAPPERS.get(id(f)) if _ready() else None
    if apply_all is None:
        return NO_FAST
    try:
        out, bounds = apply_all(_as_list(items), long_bounds(items))
    except Exception:
        return NO_FAST
    v = pvector(out)
    return v if bounds is None else record(v, *bounds)


def filter_vector(pred: Any, items: Any, keep: bool) -> Any:
    """The ``x`` of ``items`` whose ``(pred x)`` truthiness equals ``keep`` (``filter``: True,
    ``remove``: False) for a known pure ``pred``, as the vector ``filter``/``remove`` return,
    keeping what is known of the elements (a subset of a vector known to hold longs in
    ``[lo, hi]`` does too); or NO_FAST."""
    select = _PREDICATES.get(id(pred)) if _ready() else None
    if select is None:
        return NO_FAST
    known = long_bounds(items)
    try:
        v = pvector(select(_as_list(items), keep, known))
    except Exception:
        return NO_FAST
    return v if known is None else record(v, *known)


__all__ = ["NO_FAST", "all_longs", "filter_vector", "map_vector", "reduce1_fast", "reduce_fast",
           "vector_items"]
