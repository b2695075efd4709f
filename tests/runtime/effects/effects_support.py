"""Small helpers shared by the effect tests (a uniquely named module, unlike ``conftest``)."""

from __future__ import annotations

from typing import Any

from spell_runtime.data import Keyword, SpellMap


def field(env: SpellMap, name: str) -> Any:
    """An envelope field by name."""
    return env.get(Keyword(name))


def keys(env: SpellMap) -> list[str]:
    """The envelope's keys in order, as text."""
    return [str(k) for k in env.keys()]
