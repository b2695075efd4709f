"""The run-time half of ``reduce`` with a literal function, inlined by the emitter (issue 13 items 3–4).

``spellc.emit.fastpaths`` compiles ``(reduce (fn [acc x] body) init coll)`` as a Python loop in
the caller (the function's body inline, its parameters as locals) and, on *any* exception,
runs the real ``reduce`` from the start instead; these helpers are what that loop calls.

``assoc_pairs`` builds the map of a body ``(assoc acc k v)`` in one transient (``data.transient``):
the same ``assoc`` steps in the same order, frozen once — a map passed in is never changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .core.colls import assoc1
from .core.seqs import to_iter
from .data.hashmap import SpellMap
from .data.transient import TransientMap


def reduce_items(coll: Any) -> Iterator[Any]:
    """The elements ``reduce`` walks (``to_iter``: nil, vectors, maps, strings, sets...)."""
    return to_iter(coll)


def assoc_pairs(init: Any, pairs: list[tuple[Any, Any]]) -> Any:
    """``init`` with every (key, value) of ``pairs`` assoc'ed in order."""
    if type(init) is SpellMap:
        return TransientMap(init).assoc_all(pairs).freeze()
    acc = init
    for k, v in pairs:
        acc = assoc1(acc, k, v)
    return acc


__all__ = ["reduce_items", "assoc_pairs"]
