"""Model profiles → provider objects (runtime.md §7.5).

A model profile names its implementation with ``:provider``; this module maps
that name to a provider class and builds it with the class's ``from_profile``.
Classes are imported only when a profile asks for them, so a run with the
``:test`` provider never imports an HTTP SDK.

Profiles arrive either as Spell maps read from EDN (keyword keys) or as Python
dicts (string keys, with or without the leading colon); ``profile_get`` reads
both, so provider classes need not care where their profile came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, Final

from spell_runtime.data import Keyword, SpellMap, Symbol
from spell_runtime.printer import pr_str

from .base import Provider

_MISSING: Final = object()

PROVIDER_CLASSES: Final[dict[str, str]] = {
    "test": "spellc.providers.test_provider:TestProvider",
    "openai": "spellc.providers.openai_compat:OpenAICompatibleProvider",
    "fireworks": "spellc.providers.openai_compat:OpenAICompatibleProvider",
    "fireworks-tc": "spellc.providers.openai_compat:OpenAICompatibleProvider",
    "ollama": "spellc.providers.openai_compat:OpenAICompatibleProvider",
    "codex-tc": "spellc.providers.openai_compat:OpenAICompatibleProvider",
    "anthropic": "spellc.providers.anthropic:AnthropicProvider",
    "anthropic-pf": "spellc.providers.anthropic:AnthropicProvider",
    "anthropic-tc": "spellc.providers.anthropic:AnthropicProvider",
}
"""``:provider`` name → ``module:Class`` (the reference's names; all but ``:test`` are peripheral)."""

UNKNOWN_PROVIDER: Final = "Unknown provider type: %s"
PREFILL_UNSUPPORTED: Final = ("Explicit :prefill? true is unsupported by this provider or thinking mode; "
                              "omit :prefill? or set false")


class ProfileError(Exception):
    """A model profile that cannot be turned into a provider (raised by ``run`` before any model call)."""

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return self.message


def profile_get(profile: Any, key: str, default: Any = None) -> Any:
    """``profile[key]`` for a Spell map (``:key``) or a dict (``"key"``, ``":key"`` or ``:key``)."""
    if isinstance(profile, SpellMap):
        return profile.get(Keyword(key), default)
    if isinstance(profile, Mapping):
        for k in (key, ":" + key, Keyword(key), key.replace("-", "_").rstrip("?")):
            if k in profile:
                return profile[k]
    return default


def profile_has(profile: Any, key: str) -> bool:
    """Whether ``key`` is present in the profile (even with a nil value)."""
    return profile_get(profile, key, _MISSING) is not _MISSING


def provider_name(value: Any) -> str:
    """The bare provider name of a ``:provider`` value (``:test``, ``"test"``, ``test``)."""
    if type(value) is Keyword or type(value) is Symbol:
        return value.name if value.ns is None else "%s/%s" % (value.ns, value.name)
    if isinstance(value, str):
        return value[1:] if value.startswith(":") else value
    return pr_str(value)


def is_provider(value: Any) -> bool:
    """True for an already constructed provider object (anything speaking the protocol)."""
    return isinstance(value, Provider) and not isinstance(value, (Mapping, SpellMap))


def provider_from_profile(profile: Any) -> Provider:
    """Build the provider a model profile names; ``ProfileError`` for unknown names or bad prefill requests."""
    raw = profile_get(profile, "provider")
    name = provider_name(raw)
    target = PROVIDER_CLASSES.get(name)
    if target is None:
        raise ProfileError(UNKNOWN_PROVIDER % (pr_str(raw) if not isinstance(raw, str) else raw),
                           {"provider": raw})
    module_name, _, class_name = target.partition(":")
    try:
        cls = getattr(import_module(module_name), class_name)
    except (ImportError, AttributeError) as e:
        raise ProfileError("Provider %s is not available: %s" % (name, e), {"provider": raw}) from None
    provider: Provider = cls.from_profile(profile)
    if profile_get(profile, "prefill?") is True and not provider.supports_prefill:
        raise ProfileError(PREFILL_UNSUPPORTED, {"provider": raw})
    return provider
