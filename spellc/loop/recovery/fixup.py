"""Deterministic namespace fixup (runtime.md §6.3, language.md §12.5, §9.6-3).

Models often write ``(trim s)`` for ``(strings/trim s)`` or pick the wrong
namespace. When exactly one configured namespace has the member, the repair is
certain enough to make without asking the model again, which saves a turn. It
re-runs the whole program, though, so it is refused when the failed evaluation
already performed effects: replaying them would break the "no replay" rule
(§6.13), and quine recovery is used instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol, symbol_from_text

from .messages import symbol_error
from .substitute import substitute_symbol
from .vocab import K_ERR


def matching_namespaces(member: str, namespaces: Mapping[str, Any]) -> list[str]:
    """Names of the namespace maps that contain the keyword ``:member`` (documentation keys count)."""
    sym = symbol_from_text(member)
    key = Keyword(sym.name, sym.ns)
    return [name for name, ns_map in namespaces.items() if isinstance(ns_map, SpellMap) and ns_map.contains(key)]


def namespace_fixup(program: Any, err_result: SpellMap, namespaces: Mapping[str, SpellMap], *,
                    effects_ran: bool = False) -> Optional[Any]:
    """The repaired program to re-evaluate, or None when fixup does not apply.

    None when: effects ran during the failed evaluation; the error is not an
    unbound/misqualified symbol; zero or several namespaces have the member; or
    the symbol does not occur in the program (re-running it unchanged cannot help).
    """
    if effects_ran:
        return None
    err = err_result.get(K_ERR)
    if type(err) is not str:
        return None
    found = symbol_error(err)
    if found is None:
        return None
    matches = matching_namespaces(found.member, namespaces)
    if len(matches) != 1:
        return None
    replacement = Symbol(found.member, matches[0])
    if found.qualified:
        text = found.text
        fixed = substitute_symbol(program, lambda s: str(s) == text, replacement)
    else:
        bad = symbol_from_text(found.text)
        fixed = substitute_symbol(program, lambda s: s is bad, replacement)
    return None if fixed is program else fixed
