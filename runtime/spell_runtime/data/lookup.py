"""``get``: the one lookup that keywords, symbols, maps, destructuring and the core share.

It also makes keywords and symbols callable (``(:k m)``): ``atoms.py`` sits below the
collections and cannot import this module, so the call is installed from here when it loads
(``data/__init__`` imports it).
"""

from __future__ import annotations

from typing import Any

from .atoms import Char, _Named
from .hashmap import _RAW_KEY_TYPES, Key, SpellMap, SpellSet
from .text import is_bmp, to_units
from .vector import LineVector, PVector, VectorView


def get(m: Any, k: Any, default: Any = None) -> Any:
    """Clojure ``get``: maps by key (default only when absent), vectors and strings by
    integer index, sets by membership; anything else yields ``default``."""
    t = type(m)
    if t is SpellMap:
        # Inlined map_get: the hottest lookup in Spell programs ((get m :k), (:k m)).
        nk = k if type(k) in _RAW_KEY_TYPES else Key(k)
        d = m._d
        if d is not None:
            e = d.get(nk)
            return default if e is None else e[1]
        pos = m._h.get(nk)
        return default if pos is None else m._ord[pos][1]
    if isinstance(m, SpellMap):
        return m.get(k, default)
    if t is PVector or t is LineVector or t is VectorView:
        if type(k) is int and 0 <= k < len(m):
            return m[k]
        return default
    if t is str:
        if type(k) is int and k >= 0:
            units = m if is_bmp(m) else to_units(m)
            if k < len(units):
                return Char(units[k])
        return default
    if t is SpellSet:
        return m.get(k, default)
    return default


def _lookup_self(self: Any, m: Any, default: Any = None) -> Any:
    """``(:k m default)``: a keyword or symbol looks itself up in ``m``."""
    return get(m, self, default)


_Named.__call__ = _lookup_self  # type: ignore[method-assign]
