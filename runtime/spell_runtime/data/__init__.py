"""Spell values in Python: see the module docstrings for the representation choices.

Importing this package installs Spell ``=``/``hash`` on the collections (``equality``) and makes
keywords and symbols callable (``lookup``): the types themselves import nothing above them.
"""

from .atoms import (
    LONG_MAX,
    LONG_MIN,
    BigInt,
    Char,
    Float32,
    HostObject,
    Keyword,
    Pattern,
    Symbol,
    keyword,
    symbol,
    symbol_from_text,
)
from .equality import is_sequential, spell_eq, spell_hash
from .fn import RecurMarker, SpellFn, as_spell_fn, is_macro, is_spell_fn, is_truthy, recur_vals
from .hashmap import EMPTY_MAP, EMPTY_SET, Key, SpellMap, SpellSet, normkey, spell_map
from .lookup import get
from .plist import EMPTY, PList, Span, plist, plist_of
from .vector import EMPTY_VECTOR, LineVector, PVector, VectorView, as_pvector, is_vector, vec

__all__ = [
    "BigInt", "Char", "Float32", "HostObject", "Keyword", "LONG_MAX", "LONG_MIN", "Pattern", "Symbol",
    "keyword", "symbol", "symbol_from_text", "is_sequential", "spell_eq", "spell_hash", "RecurMarker",
    "SpellFn", "as_spell_fn", "is_macro", "is_spell_fn", "is_truthy", "recur_vals", "EMPTY_MAP",
    "EMPTY_SET", "Key", "SpellMap", "SpellSet", "normkey", "spell_map", "get", "EMPTY", "PList", "Span",
    "plist", "plist_of", "EMPTY_VECTOR", "LineVector", "PVector", "as_pvector", "is_vector", "vec",
    "VectorView",
]
