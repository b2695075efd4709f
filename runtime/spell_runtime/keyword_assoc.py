"""``(assoc m :a x :b y ...)`` — several literal keyword keys — in one step (issue 13 item 3).

Writing several pairs into a small map in one dict copy is ``SpellMap.assoc_pairs`` (where the
steps it reproduces are argued), which the builtin ``assoc`` (``core.colls.assoc``) uses too. When
every key is a literal keyword (the compiler checks: ``spellc.emit.calls``) the call is written as
``assoc_keywords(m, ...)``, which goes straight to it for a ``SpellMap`` (exact type) or nil and
spares the builtin's argument repacking; everything else — vectors, records and sorted maps,
other values, an odd number of arguments — is the builtin ``assoc`` itself.

Legality (why no Spell program can tell, ``spell_runtime.optimise``): the map and its identity
are ``assoc_pairs``', which is what the builtin computes for the same arguments; the fast case
cannot fail (dict writes of keyword keys call no Spell code); every other case calls the builtin
with the same arguments, so its errors, messages and the call form's position (the helper is
called where the builtin was) are the builtin's.
"""

from __future__ import annotations

from typing import Any

from .core.colls import assoc
from .data.hashmap import EMPTY_MAP, SpellMap


def assoc_keywords(m: Any, *kvs: Any) -> Any:
    """``(assoc m k1 v1 k2 v2 ...)`` whose keys are all keywords (the caller guarantees it)."""
    base = EMPTY_MAP if m is None else m
    if type(base) is SpellMap and kvs and not len(kvs) % 2:
        return base.assoc_pairs(kvs)
    return assoc(m, *kvs)


__all__ = ["assoc_keywords"]
