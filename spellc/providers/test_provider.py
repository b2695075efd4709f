"""The deterministic ``:test`` provider (runtime.md §7.5, decision D8).

It answers from a script so that whole multi-turn runs can be tested without a
model. The *match text* of a call is the program prefix, in prefill mode too:
fixtures are written against prefixes, never against the fixed prefill user
message. Resolution order: ``:responses`` (exact key of a map, or the next
unused element of a vector) → ``:response-fn`` → ``:response-rules`` (first
match) → ``:response``. Running out is a provider failure (an environment
fault, never the model's), raised only after the request was recorded so that
tests can count the call that found the script empty. It is its own plain-text
provider: ``leaf-llm`` calls ``complete`` with the leaf prompt as the prefix.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Optional

from spell_runtime.data import SpellMap
from spell_runtime.data.vector import is_vector

from .base import ModelRequest, ModelResponse, ProviderError, Usage
from .registry import profile_get, profile_has

NO_RESPONSE: Final = "TestProvider: no response for prompt"
RULE_WITHOUT_RESPONSE: Final = "TestProvider: matched rule has no :response key"

ResponseFn = Callable[[str], Any]


def _field(entry: Any, key: str) -> Any:
    """A field of a response entry or rule given as a Spell map or a dict."""
    return profile_get(entry, key)


def _has(entry: Any, key: str) -> bool:
    return profile_has(entry, key)


def _is_map(x: Any) -> bool:
    return isinstance(x, (SpellMap, Mapping))


def _strings(x: Any) -> list[str]:
    if x is None:
        return []
    if isinstance(x, str):
        return [x]
    return [s for s in x if isinstance(s, str)]


class TestProvider:
    """A scripted provider. ``requests`` holds every prefix it was asked to continue, in order."""

    __test__ = False  # not a pytest test class despite its name

    def __init__(self, responses: Any = None, *, response_rules: Optional[Iterable[Any]] = None,
                 response: Any = None, supports_prefill: Optional[bool] = None, prefill: Optional[bool] = None,
                 response_fn: Optional[ResponseFn] = None) -> None:
        if responses is not None and not (_is_map(responses) or is_vector(responses)
                                          or isinstance(responses, (list, tuple))):
            raise TypeError("TestProvider responses must be a list/vector or a map")
        self._map: Optional[Any] = responses if _is_map(responses) else None
        self._queue: list[Any] = list(responses) if responses is not None and self._map is None else []
        self._next = 0
        self._rules: list[Any] = list(response_rules or ())
        self._response = response
        self._response_fn = response_fn
        chosen = supports_prefill if supports_prefill is not None else prefill
        self._prefill = True if chosen is None else bool(chosen)
        self._lock = threading.Lock()
        self.requests: list[str] = []
        self.systems: list[str] = []

    @classmethod
    def from_profile(cls, profile: Any) -> TestProvider:
        """The provider a ``{:provider :test ...}`` profile describes."""
        prefill = profile_get(profile, "supports-prefill?")
        if prefill is None:
            prefill = profile_get(profile, "prefill?")
        return cls(profile_get(profile, "responses"), response_rules=profile_get(profile, "response-rules"),
                   response=profile_get(profile, "response"), supports_prefill=prefill)

    @property
    def supports_prefill(self) -> bool:
        return self._prefill

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Record the prefix, then answer it from the script (or raise ``ProviderError``)."""
        match_text = request.prefix
        with self._lock:
            self.requests.append(match_text)
            self.systems.append(request.system)
            entry = self._resolve(match_text)
        if entry is None:
            raise ProviderError(NO_RESPONSE, reason="no-response",
                                data={"prompt": match_text, "available-keys": self._available_keys()})
        return self._answer(entry)

    # -- resolution --------------------------------------------------------------------------------
    def _resolve(self, text: str) -> Any:
        if self._map is not None:
            found = self._map.get(text) if isinstance(self._map, (SpellMap, Mapping)) else None
            if found is not None:
                return found
        elif self._next < len(self._queue):
            entry = self._queue[self._next]
            self._next += 1
            return entry
        if self._response_fn is not None:
            found = self._response_fn(text)
            if found is not None:
                return found
        for rule in self._rules:
            if self._rule_matches(rule, text):
                if not _has(rule, "response"):
                    raise ProviderError(RULE_WITHOUT_RESPONSE, reason="bad-rule", data={"prompt": text})
                return _field(rule, "response")
        return self._response

    @staticmethod
    def _rule_matches(rule: Any, text: str) -> bool:
        includes = _strings(_field(rule, "includes"))
        excludes = _strings(_field(rule, "excludes"))
        return all(s in text for s in includes) and not any(s in text for s in excludes)

    def _available_keys(self) -> list[Any]:
        if self._map is None:
            return []
        return list(self._map.keys())

    @staticmethod
    def _answer(entry: Any) -> ModelResponse:
        if _is_map(entry):
            latency = _field(entry, "latency")
            if type(latency) in (int, float) and latency > 0:
                time.sleep(latency / 1000.0)
            text = _field(entry, "response")
            return ModelResponse(text="" if text is None else str(text), usage=Usage(calls=1),
                                 latency_ms=float(latency or 0))
        return ModelResponse(text=str(entry), usage=Usage(calls=1))

