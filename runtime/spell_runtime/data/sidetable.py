"""Facts kept about objects that cannot carry attributes, by identity.

The C vector type (pyrsistent's ``PVector``) has no attribute slots and cannot be
subclassed, so what spellc knows about one vector — where the reader found it
(``positions``), that its elements are longs in a range (``core.longvecs``) — lives in
a side table keyed by ``id``. Each entry holds a weak reference to its object: the
entry is dropped by the reference's callback when the object dies, and a lookup
compares the referent, so an ``id`` reused by a later object never matches.
"""

from __future__ import annotations

import weakref
from typing import Any, Generic, Optional, TypeVar

V = TypeVar("V")


class IdentitySideTable(Generic[V]):
    """``obj`` → value, for as long as ``obj`` lives (compared by identity, never by ``==``)."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Any, V]] = {}

    def put(self, obj: Any, value: V) -> None:
        """Remember ``value`` for ``obj``; ``TypeError`` if ``obj`` cannot be weakly referenced."""
        key = id(obj)
        entries = self._entries

        def forget(_ref: Any) -> None:
            entries.pop(key, None)

        entries[key] = (weakref.ref(obj, forget), value)

    def __len__(self) -> int:
        """How many objects have an entry (an entry goes when its object dies)."""
        return len(self._entries)

    def get(self, obj: Any) -> Optional[V]:
        """The value remembered for ``obj`` itself, or None."""
        entry = self._entries.get(id(obj))
        if entry is None or entry[0]() is not obj:
            return None
        return entry[1]


__all__ = ["IdentitySideTable"]
