"""The call skeleton shared by the SDK-backed providers: retries, failure mapping, usage and cost.

A concrete provider only says how to send one attempt and read its answer
(``_attempt``); everything that must behave identically across providers — the
``:retries`` schedule, turning SDK exceptions into ``ProviderError`` with §9 reason
codes, the usage/cost record of the ``ModelResponse`` — lives here once.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional

from .base import ModelRequest, ModelResponse, Usage
from .costs import TokenCounts
from .http_common import classify_failure
from .profile import ProviderSettings
from .retry import call_with_retries


@dataclass
class Answer:
    """One successful attempt: the completion text, what it consumed and the raw SDK response."""

    text: str
    counts: TokenCounts
    raw: Any = None


class SdkProvider(ABC):
    """Base of the OpenAI-compatible and Anthropic providers."""

    label = "Model API"
    """Names the service in error messages (``OpenAI API request failed: HTTP 500: ...``)."""

    def __init__(self, settings: ProviderSettings, sdk: Any, client: Any, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings
        self.sdk = sdk
        self.client = client
        self.sleep = sleep
        """How retries wait; replaceable so tests can record the schedule instead of sleeping."""

    @property
    @abstractmethod
    def supports_prefill(self) -> bool:
        """True when the prefix can be sent as an assistant prefill."""

    @abstractmethod
    def _attempt(self, request: ModelRequest, model: str) -> Answer:
        """Send one request and read the whole answer; raise anything, it is classified by the caller."""

    def model_for(self, request: ModelRequest) -> str:
        return request.model or self.settings.default_model

    def reasoning_effort_for(self, request: ModelRequest) -> Optional[str]:
        return request.reasoning_effort or self.settings.default_reasoning_effort

    def _classified_attempt(self, request: ModelRequest, model: str) -> Answer:
        try:
            return self._attempt(request, model)
        except Exception as exc:  # every provider failure must become a ProviderError
            err = classify_failure(exc, self.sdk, self.label)
            if err is None:
                raise
            err.data = {"provider": self.settings.provider or self.label, "model": model, **err.data}
            if err is exc:
                raise
            raise err from exc

    def complete(self, request: ModelRequest) -> ModelResponse:
        """Answer one request, retrying transient failures per ``:retries``, or raise ``ProviderError``."""
        model = self.model_for(request)
        started = time.monotonic()
        answer, attempts = call_with_retries(lambda: self._classified_attempt(request, model),
                                             self.settings.retries, sleep=self.sleep)
        counts = answer.counts
        cost = self.settings.costs.cost(model, counts) if self.settings.costs is not None else None
        usage = Usage(input_tokens=counts.input_total, output_tokens=counts.output, cost=cost, calls=1)
        return ModelResponse(text=answer.text, usage=usage, raw=answer.raw,
                             latency_ms=(time.monotonic() - started) * 1000.0, attempts=attempts, model=model)

    def close(self) -> None:
        """Release the SDK client's connection pool."""
        close = getattr(self.client, "close", None)
        if callable(close):
            close()

