"""An agent profile's ``:namespaces`` resolved to the maps its programs see inside ``eval`` (runtime.md §7.6).

A reference names a standard namespace (``stdlib/io``, ``stdlib/io-read``,
``stdlib/web``...), one item of it (``stdlib/io/sh``: a namespace holding just
that member), or a vector of references merged into one namespace. Core
namespace names are always available in pure code and are never gated, so a
profile that lists them changes nothing.
"""

from __future__ import annotations

from typing import Any, Final

from spell_runtime.data import Keyword, SpellMap, Symbol, is_vector
from spell_runtime.effects import EFFECT_NAMESPACES, EffectContext
from spell_runtime.effects import effect_hint as effect_hint  # re-exported (it was defined here)
from spell_runtime.printer import pr_str

from ..providers.registry import ProfileError

CORE_NAMESPACES: Final = frozenset({"strings", "math", "builtins", "skills"})
DOC_KEYS: Final = frozenset({Keyword("short-docs"), Keyword("docs"), Keyword("detail")})
K_SHORT: Final = Keyword("short-docs")
K_DETAIL: Final = Keyword("detail")
UNKNOWN_REF: Final = "Unknown namespace reference: %s"
LOOP_NAMESPACES: Final = frozenset({"agents"})
"""Standard namespaces built by the turn loop rather than the runtime's effects (they need an agent)."""


def resolve_namespaces(refs: dict[str, Any], eff: EffectContext) -> dict[str, SpellMap]:
    """Symbol name → namespace map for every effect namespace of the profile (core names skipped)."""
    out: dict[str, SpellMap] = {}
    for name, ref in refs.items():
        if name in CORE_NAMESPACES:
            continue
        out[name] = resolve_reference(ref, eff)
    return out


def resolve_reference(ref: Any, eff: EffectContext) -> SpellMap:
    """One reference (or a vector of them) as a namespace map."""
    if is_vector(ref) or isinstance(ref, (list, tuple)):
        merged: SpellMap = SpellMap()
        shorts: list[str] = []
        for part in ref:
            m = resolve_reference(part, eff)
            short = m.get(K_SHORT)
            if isinstance(short, str) and short:
                shorts.append(short)
            for k, v in m.items():
                if k is K_DETAIL and isinstance(merged.get(k), SpellMap) and isinstance(v, SpellMap):
                    v = SpellMap.from_pairs([*merged.get(k).items(), *v.items()])
                merged = merged.assoc(k, v)
        if shorts:
            merged = merged.assoc(K_SHORT, "\n".join(dict.fromkeys(shorts)))
        return merged
    path = _path_of(ref)
    if len(path) >= 2 and path[0] == "stdlib" and path[1] in LOOP_NAMESPACES:
        return _select_items(ref, loop_namespace(path[1]), path[2:])
    if len(path) < 2 or path[0] != "stdlib" or path[1] not in EFFECT_NAMESPACES:
        raise ProfileError(UNKNOWN_REF % pr_str(ref), {"namespace": ref})
    return _select_items(ref, eff.namespace(path[1]), path[2:])


def loop_namespace(name: str) -> SpellMap:
    """A standard namespace the turn loop provides (``stdlib/agents``, runtime.md §11.4)."""
    from .agents.namespace import AGENTS_NAMESPACE

    if name == "agents":
        return AGENTS_NAMESPACE
    raise KeyError(name)


def _select_items(ref: Any, ns: SpellMap, items: list[str]) -> SpellMap:
    """``ns`` narrowed to the nested item a reference such as ``stdlib/io/sh`` names."""
    for item in items:
        value = ns.get(Keyword(item))
        if value is None:
            raise ProfileError(UNKNOWN_REF % pr_str(ref), {"namespace": ref})
        if isinstance(value, SpellMap):
            ns = value
            continue
        detail = ns.get(K_DETAIL)
        pairs: list[tuple[Any, Any]] = [(Keyword(item), value)]
        doc = detail.get(Keyword(item)) if isinstance(detail, SpellMap) else None
        if isinstance(doc, str):
            pairs.append((K_DETAIL, SpellMap.from_pairs([(Keyword(item), doc)])))
        ns = SpellMap.from_pairs(pairs)
    return ns


def _path_of(ref: Any) -> list[str]:
    if type(ref) is Symbol or type(ref) is Keyword:
        text = ref.name if ref.ns is None else "%s/%s" % (ref.ns, ref.name)
    elif isinstance(ref, str):
        text = ref[1:] if ref.startswith(":") else ref
    else:
        return []
    return text.split("/")
