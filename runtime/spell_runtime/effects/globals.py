"""``globals/``: one run-scoped map shared by every agent of a run (runtime.md §2.4).

The store is a single immutable Spell map swapped under a lock, like the
reference's Clojure atom: readers never block writers and always see a
consistent whole map. ``update`` follows ``swap!``: the function runs *outside*
the lock on a snapshot and the result is committed only if nobody changed the
map meanwhile, otherwise it runs again. A Spell function that itself calls
``globals/`` therefore cannot deadlock, at the price that it may run more than
once under contention (so it should be pure, as swap! functions are).

``wait-until`` is event-driven: each commit bumps a version and notifies a
condition variable, and a waiter re-tests its predicate only when the map has
actually changed — no polling.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Optional

from ..data.atoms import Keyword
from ..data.fn import is_truthy
from ..data.hashmap import SpellMap
from ..data.plist import EMPTY, PList, plist
from ..data.vector import EMPTY_VECTOR, as_pvector, is_vector, vec
from ..limits import bounded_wait
from .args import items_of, reject
from .render import pr

K_ROLES = Keyword("roles")
K_TASKS = Keyword("tasks")


def initial_state() -> SpellMap:
    """``{:roles {} :tasks []}``: what every run starts from."""
    return SpellMap.from_pairs([(K_ROLES, SpellMap()), (K_TASKS, EMPTY_VECTOR)])


class GlobalsStore:
    """The thread-safe globals map of one run."""

    def __init__(self, state: Optional[SpellMap] = None) -> None:
        self._state = initial_state() if state is None else state
        self._version = 0
        self._cond = threading.Condition(threading.Lock())

    def snapshot(self) -> tuple[SpellMap, int]:
        """The current map and its version (for compare-and-set)."""
        with self._cond:
            return self._state, self._version

    def all(self) -> SpellMap:
        return self._state

    def get(self, key: Any) -> Any:
        return self._state.get(key)

    def keys(self) -> Any:
        return vec(self._state.keys())

    def _commit(self, new: SpellMap, expected: Optional[int] = None) -> bool:
        with self._cond:
            if expected is not None and expected != self._version:
                return False
            self._state = new
            self._version += 1
            self._cond.notify_all()
            return True

    def set(self, key: Any, value: Any) -> Any:
        with self._cond:
            self._state = self._state.assoc(key, value)
            self._version += 1
            self._cond.notify_all()
        return value

    def swap(self, f: Callable[[SpellMap], SpellMap]) -> tuple[SpellMap, SpellMap]:
        """Apply ``f`` to the whole map atomically (retrying on contention); (old, new)."""
        while True:
            old, version = self.snapshot()
            new = f(old)
            if self._commit(new, version):
                return old, new

    def update(self, key: Any, f: Callable[[Any], Any]) -> Any:
        """Apply ``f`` to the value at ``key``; the new value."""
        _, new = self.swap(lambda m: m.assoc(key, f(m.get(key))))
        return new.get(key)

    def pop(self, key: Any) -> Any:
        """Remove and return the first element of the sequence at ``key`` (nil when empty or absent)."""
        popped: list[Any] = [None]

        def take(m: SpellMap) -> SpellMap:
            if not m.contains(key):
                popped[0] = None
                return m
            head, rest = first_and_rest(m.get(key))
            popped[0] = head
            return m.assoc(key, rest)

        self.swap(take)
        return popped[0]

    def wait_until(self, pred: Callable[[SpellMap], Any], timeout: Optional[float] = None) -> bool:
        """Block until ``pred(map)`` is truthy; True (False only when ``timeout`` seconds pass first)."""
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        state, version = self.snapshot()
        while not is_truthy(pred(state)):
            with self._cond:
                while self._version == version:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        return False
                    # Cut to the evaluation's deadline: a thread blocked in a lock wait cannot
                    # receive the watchdog's exception (spell_runtime.limits).
                    self._cond.wait(bounded_wait(remaining))
                state, version = self._state, self._version
        return True


def first_and_rest(value: Any) -> tuple[Any, Any]:
    """Clojure ``first`` and ``rest`` of a sequential value (``rest`` is a seq, as the reference's ``update rest``)."""
    if value is None:
        return None, EMPTY
    if type(value) is PList:
        if len(value) == 0:
            return None, EMPTY
        return value.first, _as_seq(value.rest)
    if is_vector(value):
        items = as_pvector(value)
        if len(items) == 0:
            return None, EMPTY
        return items[0], plist(list(items[1:]), is_seq=True)
    if type(value) is str:
        from ..data.atoms import Char
        from ..data.text import to_units

        units = to_units(value)
        if not units:
            return None, EMPTY
        return Char(units[0]), plist([Char(u) for u in units[1:]], is_seq=True)
    items = items_of(value)
    if items is None:
        reject(f"globals/pop: value at key is not sequential: {pr(value)}")
    if not items:
        return None, EMPTY
    return items[0], plist(items[1:], is_seq=True)


def _as_seq(rest: PList) -> PList:
    return rest if len(rest) == 0 else plist(list(rest), is_seq=True)
