"""A Python or Hy module as a Spell namespace: ``{helpers {:python "pkg.mod"}}`` in an agent profile.

A module built by ``spellc build`` (it has ``__spell_names__``) contributes its Spell definitions
themselves, under their Spell names: its fns stay Spell fns, dynamically scoped like library fns.
Any other module contributes its public callables (names not starting with ``_``), each under its
Hy-unmangled name (``word_count`` → ``word-count``, ``hyx_validXquestion_markX`` → ``valid?``), so
a Hy module reads in Spell the way it reads in Hy. Values are passed through unconverted.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..data import Keyword, SpellMap, Symbol
from .mangle import unmangle


def python_namespace(module_name: str) -> SpellMap:
    """The namespace map of module ``module_name`` (``ImportError`` when it cannot be imported)."""
    module = importlib.import_module(module_name)
    pairs: list[tuple[Any, Any]] = []
    spell_names = getattr(module, "__spell_names__", None)
    env = getattr(module, "__spell_env__", None)
    if isinstance(spell_names, dict) and isinstance(env, dict):
        for name in spell_names:
            pairs.append((Keyword(name), env[Symbol(name)]))
        kind = "Spell module"
    else:
        for attr in sorted(vars(module)):
            value = getattr(module, attr)
            if not attr.startswith("_") and callable(value) and not isinstance(value, type):
                pairs.append((Keyword(unmangle(attr)), value))
        kind = "Python module"
    pairs.append((Keyword("short-docs"), "%s %s (pure functions: usable in the body and the trailing expression)."
                  % (kind, module_name)))
    return SpellMap.from_pairs(pairs)
