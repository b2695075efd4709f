"""``(assoc m :a x :b y ...)`` — several literal keyword keys — in one step (issue 13 item 3).

The builtin ``assoc`` (``core.colls.assoc``) writes its pairs one at a time: for a small map each
pair copies the map's dict and allocates a new ``SpellMap``. When every key is a literal keyword
(the compiler checks: ``spellc.emit.calls``) and the map is a ``SpellMap`` (exact type) holding a
small dict, or nil, ``assoc_keywords`` copies the dict once, writes every pair into the copy and
makes one map. Everything else — vectors, records and sorted maps, maps in the HAMT tier or built
whole, other values, an odd number of arguments — is the builtin ``assoc`` itself.

Legality (why no Spell program can tell, ``spell_runtime.optimise``):

* *Same map.* Each step of the builtin on a small map is ``SpellMap.assoc``: a new key goes at the
  end as ``(key, value)``, a present key keeps its place and its stored spelling with the new
  value. Writing the same steps into one copy gives the same dict, in the same order; a keyword
  is its own dict key (``hashmap.normkey``), as in ``SpellMap.assoc``. The result is made by
  ``SpellMap.adopt``: small when it has at most ``SMALL`` entries, as the one-at-a-time result
  is; larger, it is a map built whole where the builtin's would be in the HAMT tier, which no
  program can tell apart (``data.hashmap``'s docstring).
* *Same identity.* ``SpellMap.assoc`` returns the map itself when the value is already there
  (``identical?`` can see it); so when every pair leaves its value in place the result is ``m``
  itself, as the chain of single steps would be. nil starts from the empty map, as
  ``core.colls.assoc1`` does, and always yields a new map.
* *Same failures.* The fast case cannot fail (dict writes of keyword keys call no Spell code);
  every other case calls the builtin with the same arguments, so its errors, messages and the
  call form's position (the helper is called where the builtin was) are the builtin's.
"""

from __future__ import annotations

from typing import Any

from .core.colls import assoc
from .data.hashmap import EMPTY_MAP, SMALL, SpellMap


def assoc_keywords(m: Any, *kvs: Any) -> Any:
    """``(assoc m k1 v1 k2 v2 ...)`` whose keys are all keywords (the caller guarantees it)."""
    base = EMPTY_MAP if m is None else m
    if type(base) is SpellMap and kvs and len(kvs) % 2 == 0:
        d = base._d
        if d is not None and len(d) <= SMALL:
            nd = d.copy()
            same = True
            for i in range(0, len(kvs), 2):
                k = kvs[i]
                v = kvs[i + 1]
                old = nd.get(k)
                if old is None:
                    nd[k] = (k, v)
                    same = False
                elif old[1] is not v:
                    nd[k] = (old[0], v)
                    same = False
            return base if same else SpellMap.adopt(nd)
    return assoc(m, *kvs)


__all__ = ["assoc_keywords"]
