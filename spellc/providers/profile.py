"""Reading the provider settings of an EDN model profile (runtime.md §7.5).

Profiles reach a provider in more than one shape: a Python dict with string keys
(``"default-model"``), the same keys written with a colon, or a Spell map read
from an ``.edn`` file whose keys are keywords and whose nested values are Spell
vectors and maps. Everything is first normalised to plain Python (str keys, list,
dict, keyword values as their names) so the providers never see Spell data, and
every key a provider understands is validated here, at load time, so that a
misconfigured profile fails before the first model call rather than mid-run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional

from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.hashmap import SpellMap, SpellSet
from spell_runtime.data.vector import as_pvector, is_vector

from .costs import CostTable
from .errors import ProfileError

DEFAULT_RETRIES: tuple[float, ...] = (0.0, 10.0)
"""Retry immediately, then after 10 s (runtime.md §5.2)."""

DEFAULT_REQUEST_TIMEOUT_SEC = 600.0
DEFAULT_SSE_IDLE_TIMEOUT_SEC = 100.0
DEFAULT_SSE_COMPLETION_TIMEOUT_SEC = 1000.0


def _key_name(key: Any) -> Any:
    if isinstance(key, (Keyword, Symbol)):
        return key.name if key.ns is None else f"{key.ns}/{key.name}"
    if isinstance(key, str) and key.startswith(":"):
        return key[1:]
    return key


def to_python(value: Any) -> Any:
    """Plain Python for a profile value: maps → dict (keys without colon), vectors → list, keywords → names."""
    if isinstance(value, (Keyword, Symbol)):
        return _key_name(value)
    if isinstance(value, SpellMap):
        return {_key_name(k): to_python(v) for k, v in value.items()}
    if isinstance(value, Mapping):
        return {_key_name(k): to_python(v) for k, v in value.items()}
    if isinstance(value, SpellSet):
        return [to_python(v) for v in value]
    if is_vector(value):
        return [to_python(v) for v in as_pvector(value)]
    if isinstance(value, (list, tuple)):
        return [to_python(v) for v in value]
    return value


def normalize_profile(profile: Any) -> dict[str, Any]:
    """The profile as a plain dict keyed by option name without the colon."""
    converted = to_python(profile)
    if not isinstance(converted, dict):
        raise ProfileError(f"Model profile must be a map, got {type(profile).__name__}")
    return converted


def _number(value: Any) -> Optional[float]:
    if type(value) is bool:
        return None
    if isinstance(value, (int, float, Fraction, Decimal)):
        return float(value)
    return None


class ProfileReader:
    """Typed, validated access to one normalised profile; errors name the offending key."""

    def __init__(self, profile: dict[str, Any]) -> None:
        self.profile = profile

    def _bad(self, key: str, expected: str) -> ProfileError:
        return ProfileError(f"Invalid model profile :{key}: expected {expected}, got {self.profile[key]!r}",
                            data={"key": key})

    def present(self, key: str) -> bool:
        """True when the key is set to something other than nil."""
        return self.profile.get(key) is not None

    def string(self, key: str, default: Optional[str] = None) -> Optional[str]:
        if not self.present(key):
            return default
        value = self.profile[key]
        if not isinstance(value, str):
            raise self._bad(key, "a string")
        return value

    def boolean(self, key: str, default: Optional[bool] = None) -> Optional[bool]:
        if not self.present(key):
            return default
        value = self.profile[key]
        if type(value) is not bool:
            raise self._bad(key, "true or false")
        return value

    def positive_int(self, key: str, default: Optional[int] = None) -> Optional[int]:
        if not self.present(key):
            return default
        value = self.profile[key]
        if type(value) is not int or value <= 0:
            raise self._bad(key, "a positive integer")
        return value

    def seconds(self, key: str, default: float) -> float:
        if not self.present(key):
            return default
        number = _number(self.profile[key])
        if number is None or number <= 0:
            raise self._bad(key, "a positive number of seconds")
        return number

    def retries(self, key: str = "retries") -> tuple[float, ...]:
        if key not in self.profile:
            return DEFAULT_RETRIES
        value = self.profile[key]
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self._bad(key, "a vector of sleep seconds")
        sleeps: list[float] = []
        for item in value:
            number = _number(item)
            if number is None or number < 0:
                raise self._bad(key, "a vector of non-negative sleep seconds")
            sleeps.append(number)
        return tuple(sleeps)

    def string_map(self, key: str) -> dict[str, str]:
        if not self.present(key):
            return {}
        value = self.profile[key]
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in value.items()):
            raise self._bad(key, "a map of strings to strings")
        return dict(value)

    def any_map(self, key: str) -> dict[str, Any]:
        if not self.present(key):
            return {}
        value = self.profile[key]
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise self._bad(key, "a map with string or keyword keys")
        return dict(value)

    def provider_name(self) -> Optional[str]:
        """``:provider`` as a bare name (``:openai``, ``"openai"`` and ``":openai"`` are the same)."""
        name = self.string("provider")
        return name[1:] if name is not None and name.startswith(":") else name

    def reasoning_effort(self, key: str = "default-reasoning-effort") -> Optional[str]:
        """Reasoning effort as a string; a number (a token budget) is kept as its decimal text."""
        if not self.present(key):
            return None
        value = self.profile[key]
        if isinstance(value, str):
            return value
        if type(value) is int and value > 0:
            return str(value)
        raise self._bad(key, "a string such as \"low\", \"medium\" or \"high\"")


@dataclass(frozen=True)
class ProviderSettings:
    """The settings every hosted provider shares; provider-specific keys stay in ``profile``."""

    provider: Optional[str]
    default_model: str
    base_url: Optional[str]
    api_key_env: str
    api_key: Optional[str]
    max_tokens: Optional[int] = None
    default_reasoning_effort: Optional[str] = None
    retries: tuple[float, ...] = DEFAULT_RETRIES
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT_SEC
    sse_idle_timeout: float = DEFAULT_SSE_IDLE_TIMEOUT_SEC
    sse_completion_timeout: float = DEFAULT_SSE_COMPLETION_TIMEOUT_SEC
    stream: Optional[bool] = None
    supports_prefill: Optional[bool] = None
    costs: Optional[CostTable] = None
    extra_headers: dict[str, str] = field(default_factory=dict)
    extra_body: dict[str, Any] = field(default_factory=dict)
    profile: dict[str, Any] = field(default_factory=dict)


def read_settings(profile: Any, *, default_model: str, default_api_key_env: str,
                  environ: Optional[Mapping[str, str]] = None) -> tuple[ProviderSettings, ProfileReader]:
    """Parse the shared keys of a profile; the reader is returned for provider-specific keys.

    The API key is resolved from the environment now (the profile names the variable,
    never the secret), so a later change of the environment does not change a live provider.
    """
    reader = ProfileReader(normalize_profile(profile))
    env = os.environ if environ is None else environ
    api_key_env = reader.string("api-key-env", default_api_key_env) or default_api_key_env
    api_key = env.get(api_key_env) or None
    # :supports-prefill? declares a capability; :prefill? is a request (runtime.md §7.3): false turns
    # prefill off, true is checked against the capability by the profile loader, never forces it.
    supports_prefill = reader.boolean("supports-prefill?")
    if reader.boolean("prefill?") is False:
        supports_prefill = False
    settings = ProviderSettings(
        provider=reader.provider_name(),
        default_model=reader.string("default-model") or reader.string("model") or default_model,
        base_url=reader.string("base-url"),
        api_key_env=api_key_env,
        api_key=api_key,
        max_tokens=reader.positive_int("max-tokens"),
        default_reasoning_effort=reader.reasoning_effort(),
        retries=reader.retries(),
        request_timeout=reader.seconds("request-timeout-sec", DEFAULT_REQUEST_TIMEOUT_SEC),
        sse_idle_timeout=reader.seconds("sse-idle-timeout-sec", DEFAULT_SSE_IDLE_TIMEOUT_SEC),
        sse_completion_timeout=reader.seconds("sse-completion-timeout-sec", DEFAULT_SSE_COMPLETION_TIMEOUT_SEC),
        stream=reader.boolean("stream"),
        supports_prefill=supports_prefill,
        costs=CostTable.from_profile(reader.profile.get("costs"), reader.profile.get("cache-read-ratio")),
        extra_headers=reader.string_map("extra-headers"),
        extra_body=reader.any_map("extra-body"),
        profile=reader.profile,
    )
    return settings, reader
