"""What the turn loop needs from a model provider, and nothing more.

A provider turns one ``ModelRequest`` (the system prompt plus the program prefix
the model must continue) into one ``ModelResponse`` (the raw completion text plus
usage). Whether the prefix goes in as an assistant *prefill* or as the user
message is the provider's capability (``supports_prefill``); the turn loop
builds the request accordingly (runtime.md §5.2 step 2) and cleans the response.

Failures: a provider raises ``ProviderError`` for anything that is the
environment's fault — HTTP 5xx/429 after its retries, timeouts, connection
failures, malformed or truncated bodies, a scripted provider that ran out of
responses. The turn loop reports these with fault ``environment`` and never
spends the model's error budget on them (runtime.md §9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, runtime_checkable

PREFILL_USER_MESSAGE = "Continue this Spell program."
"""PRODUCT STRING sent as the user message when the prefix is an assistant prefill (runtime.md §5.2)."""


@dataclass(frozen=True)
class ModelRequest:
    """One model call. ``prefix`` is the open Spell program; ``prefill`` says how to send it."""

    prefix: str
    system: str = ""
    prefill: bool = False
    model: Optional[str] = None
    max_tokens: Optional[int] = None
    reasoning_effort: Optional[str] = None
    stop: tuple[str, ...] = ()


@dataclass
class Usage:
    """Token counts and cost of one or more calls (cost None = unknown pricing)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost: Optional[float] = None
    calls: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.calls += other.calls
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost


@dataclass
class ModelResponse:
    """The raw completion text (before the turn loop cleans it) and what it cost."""

    text: str
    usage: Usage = field(default_factory=Usage)
    raw: Any = None
    latency_ms: float = 0.0
    attempts: int = 1
    """HTTP attempts the provider made for this answer (more than 1 when ``:retries`` were used)."""
    model: Optional[str] = None
    """The model that answered (the request's or the profile's default), for per-model usage records."""


class ProviderError(Exception):
    """A provider failure: the environment's fault, never the model's.

    ``reason`` is a short code (``http-5xx``, ``http-429``, ``timeout``, ``connection``,
    ``malformed-response``, ``no-response``, ``auth``...); ``status`` the HTTP status if any;
    ``data`` extra facts for ``:error-data``.
    """

    def __init__(self, message: str, *, reason: str = "provider", status: Optional[int] = None,
                 data: Optional[dict[str, Any]] = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.status = status
        self.data = data or {}
        self.retryable = retryable

    def __str__(self) -> str:
        return self.message


@runtime_checkable
class Provider(Protocol):
    """A model provider."""

    @property
    def supports_prefill(self) -> bool:
        """True when the prefix can be sent as an assistant prefill."""
        ...

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Answer one request (retrying transient failures per its own schedule) or raise ``ProviderError``."""
        ...
