"""A provider for Anthropic's Messages API with assistant prefill (``:anthropic-pf``) or a tool call (``:anthropic-tc``).

Prefill is what makes "the completion is the program" cheap (runtime.md §5.1): the
user message is the fixed ``PREFILL_USER_MESSAGE``, the open program is the start of
the assistant's own message, and the reply is its continuation. The API rejects an
assistant message that ends in whitespace, so the prefix is sent right-trimmed (the
turn loop still appends the reply to the untrimmed prefix).

Thinking (``:default-reasoning-effort`` / a run's ``:reasoning-effort``) cannot be
combined with prefill. A profile whose default effort turns thinking on therefore
reports ``supports_prefill`` False and the prefix goes as the user message; a request
that arrives in prefill mode anyway keeps prefill and is sent without thinking,
because the turn loop has already committed to reading the reply as a continuation.

The ``-tc`` variant asks for the suffix as the ``suffix`` field of a forced
``spell_suffix`` tool call and never prefills.

Profile keys (runtime.md §7.5): ``:default-model``, ``:base-url``, ``:api-key-env``
(default ``ANTHROPIC_API_KEY``), ``:max-tokens``, ``:default-reasoning-effort``,
``:retries``, ``:request-timeout-sec``, ``:sse-idle-timeout-sec``,
``:sse-completion-timeout-sec``, ``:stream``, ``:costs``, ``:cache-read-ratio``,
``:supports-prefill?``, ``:force-tool-call``, ``:extra-headers``, ``:extra-body``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Optional

from .base import PREFILL_USER_MESSAGE, ModelRequest, ProviderError
from .costs import TokenCounts
from .errors import ProfileError
from .http_common import StreamDeadline, field, load_sdk, malformed, sdk_timeout, token_count
from .profile import ProviderSettings, read_settings
from .sdk_provider import Answer, SdkProvider

ANTHROPIC_BASE_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-sonnet-4-5"
DEFAULT_MAX_TOKENS = 16384
DEFAULT_THINKING_MAX_TOKENS = 32768
STREAM_ABOVE_MAX_TOKENS = 16384
"""Larger requests must stream: the API refuses long non-streaming calls."""

NO_PREFILL_MODELS = ("opus-4-6", "opus-4-7", "opus-4-8", "sonnet-5", "fable-5", "mythos-5")
"""Model-name fragments of models that reject assistant prefill (from the reference implementation)."""

ADAPTIVE_THINKING_MODELS = ("opus-4-7", "opus-4-8", "sonnet-5", "fable-5", "mythos-5")
"""Models that accept only adaptive thinking, steered by an output effort instead of a token budget."""

THINKING_BUDGETS: dict[str, int] = {
    "minimal": 1024, "low": 4096, "medium": 10000, "high": 20000, "xhigh": 32000, "max": 32000,
}
"""Provider-neutral effort → thinking budget tokens for budget-based models (a number is a budget itself)."""

THINKING_OFF = frozenset({"none", "off", "disabled"})
MIN_THINKING_BUDGET = 1024

SUFFIX_TOOL: dict[str, Any] = {
    "name": "spell_suffix",
    "description": "Return the full Spell suffix in input.suffix",
    "input_schema": {"type": "object", "properties": {"suffix": {"type": "string"}},
                     "required": ["suffix"], "additionalProperties": False},
}


@dataclass(frozen=True)
class Thinking:
    """The request fields that switch thinking on: ``thinking`` and, for adaptive models, ``output_config``."""

    thinking: dict[str, Any]
    output_config: Optional[dict[str, Any]] = None


def is_adaptive(model: str) -> bool:
    return any(fragment in model for fragment in ADAPTIVE_THINKING_MODELS)


def thinking_for(model: str, effort: Optional[str], max_tokens: int) -> Optional[Thinking]:
    """How a reasoning effort maps onto this model's thinking mechanism; None = no thinking."""
    if effort is None or effort.lower() in THINKING_OFF:
        return None
    if is_adaptive(model):
        return Thinking({"type": "adaptive"}, {"effort": effort})
    budget = int(effort) if effort.isdigit() else THINKING_BUDGETS.get(effort.lower())
    if budget is None:
        raise ProviderError(f"Unknown reasoning effort {effort!r} for {model}; expected one of "
                            f"{', '.join(sorted(THINKING_BUDGETS))}, none, or a token budget",
                            reason="invalid-request", data={"reasoning-effort": effort})
    budget = max(MIN_THINKING_BUDGET, min(budget, max_tokens - MIN_THINKING_BUDGET))
    if budget >= max_tokens:
        return None  # too few tokens to think and still answer
    return Thinking({"type": "enabled", "budget_tokens": budget})


class AnthropicProvider(SdkProvider):
    """Anthropic Messages through the official ``anthropic`` SDK."""

    label = "Anthropic API"

    def __init__(self, settings: ProviderSettings, *, tool_call: bool = False,
                 sleep: Callable[[float], None] = time.sleep, client: Any = None) -> None:
        api_key = settings.api_key
        if api_key is None:
            if settings.base_url is None:
                raise ProfileError(f"No API key provided. Set {settings.api_key_env}", reason="auth",
                                   data={"env": settings.api_key_env})
            api_key = "EMPTY"  # a local proxy without auth; the SDK insists on a key
        base_url = (settings.base_url or ANTHROPIC_BASE_URL).rstrip("/")
        sdk = load_sdk("anthropic", "anthropic")
        if client is None:
            client = sdk.Anthropic(api_key=api_key, base_url=base_url, max_retries=0,
                                   timeout=settings.request_timeout,
                                   default_headers=settings.extra_headers or None)
        super().__init__(settings, sdk, client, sleep=sleep)
        self.base_url = base_url
        self.tool_call = tool_call
        # Fail at load time, not mid-run, on a default effort this model cannot use.
        thinking_for(settings.default_model, settings.default_reasoning_effort, DEFAULT_THINKING_MAX_TOKENS)

    @classmethod
    def from_profile(cls, profile: Any) -> AnthropicProvider:
        """Build the provider from an EDN model profile (dict with str or keyword keys, or a Spell map)."""
        settings, reader = read_settings(profile, default_model=DEFAULT_MODEL,
                                         default_api_key_env="ANTHROPIC_API_KEY")
        tool_call = settings.provider == "anthropic-tc" or bool(reader.boolean("force-tool-call", False))
        try:
            return cls(settings, tool_call=tool_call)
        except ProviderError as err:
            if isinstance(err, ProfileError):
                raise
            raise ProfileError(f"Invalid model profile :default-reasoning-effort: {err.message}",
                               data={"key": "default-reasoning-effort"}) from err

    @property
    def supports_prefill(self) -> bool:
        """Prefill unless tool-call mode, a model that rejects it, or default thinking rule it out."""
        if self.tool_call:
            return False
        if self.settings.supports_prefill is not None:
            return self.settings.supports_prefill
        model = self.settings.default_model
        if any(fragment in model for fragment in NO_PREFILL_MODELS):
            return False
        return thinking_for(model, self.settings.default_reasoning_effort, DEFAULT_THINKING_MAX_TOKENS) is None

    # -- one attempt -------------------------------------------------------------------------

    def _plan(self, request: ModelRequest, model: str) -> tuple[int, Optional[Thinking]]:
        """max_tokens and thinking for this request (prefill wins over thinking, see the module doc)."""
        effort = None if request.prefill and not self.tool_call else self.reasoning_effort_for(request)
        explicit = request.max_tokens or self.settings.max_tokens
        thinking = thinking_for(model, effort, explicit or DEFAULT_THINKING_MAX_TOKENS)
        if explicit is not None:
            return explicit, thinking
        return (DEFAULT_THINKING_MAX_TOKENS if thinking is not None else DEFAULT_MAX_TOKENS), thinking

    def _messages(self, request: ModelRequest) -> list[dict[str, Any]]:
        if request.prefill and not self.tool_call:
            messages: list[dict[str, Any]] = [{"role": "user", "content": PREFILL_USER_MESSAGE}]
            prefill = request.prefix.rstrip()
            if prefill:
                messages.append({"role": "assistant", "content": prefill})
            return messages
        return [{"role": "user", "content": request.prefix}]

    def _attempt(self, request: ModelRequest, model: str) -> Answer:
        max_tokens, thinking = self._plan(request, model)
        params: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "messages": self._messages(request)}
        if request.system:
            params["system"] = request.system
        if request.stop:
            params["stop_sequences"] = list(request.stop)
        extra = dict(self.settings.extra_body)
        if thinking is not None:
            # Sent as raw body fields so older SDK releases without these parameters still work.
            extra["thinking"] = thinking.thinking
            if thinking.output_config is not None:
                extra["output_config"] = thinking.output_config
        if self.tool_call:
            params["tools"] = [SUFFIX_TOOL]
            params["tool_choice"] = {"type": "auto" if thinking is not None else "any"}
        if extra:
            params["extra_body"] = extra
        stream = self.settings.stream
        if stream is None:
            stream = thinking is not None or max_tokens > STREAM_ABOVE_MAX_TOKENS
        idle = self.settings.sse_idle_timeout if stream else None
        timeout = sdk_timeout(self.sdk, self.settings.request_timeout, idle)
        if stream:
            return self._read_stream(self.client.messages.create(**params, stream=True, timeout=timeout))
        return self._read_message(self.client.messages.create(**params, timeout=timeout))

    def _read_message(self, message: Any) -> Answer:
        content = field(message, "content")
        if not isinstance(content, list):
            raise malformed(self.label, "no content in the body" if not isinstance(message, str)
                            else "the body is not JSON")
        counts = _counts(field(message, "usage"), None)
        if self.tool_call:
            for block in content:
                if field(block, "type") == "tool_use" and field(block, "name") == SUFFIX_TOOL["name"]:
                    suffix = _suffix_of(field(block, "input"))
                    if suffix is not None:
                        return Answer(suffix, counts, raw=message)
            raise malformed(self.label, "no spell_suffix tool_use in the response", reason="missing-tool-call")
        texts = [field(block, "text") for block in content if field(block, "type") == "text"]
        return Answer("".join(t for t in texts if isinstance(t, str)), counts, raw=message)

    def _read_stream(self, stream: Any) -> Answer:
        deadline = StreamDeadline(self.settings.sse_completion_timeout, self.label)
        texts: list[str] = []
        tool_json: dict[int, list[str]] = {}
        tool_input: dict[int, Any] = {}
        start_usage: Any = None
        final_usage: Any = None
        finished = False
        try:
            for event in stream:
                deadline.check()
                kind = field(event, "type")
                if kind == "message_start":
                    start_usage = field(field(event, "message"), "usage")
                elif kind == "content_block_start":
                    block = field(event, "content_block")
                    if field(block, "type") == "tool_use" and field(block, "name") == SUFFIX_TOOL["name"]:
                        index = field(event, "index") or 0
                        tool_json[index] = []
                        tool_input[index] = field(block, "input")
                    elif field(block, "type") == "text" and isinstance(field(block, "text"), str):
                        texts.append(field(block, "text"))
                elif kind == "content_block_delta":
                    delta = field(event, "delta")
                    delta_kind = field(delta, "type")
                    if delta_kind == "text_delta" and isinstance(field(delta, "text"), str):
                        texts.append(field(delta, "text"))
                    elif delta_kind == "input_json_delta" and (field(event, "index") or 0) in tool_json:
                        piece = field(delta, "partial_json")
                        if isinstance(piece, str):
                            tool_json[field(event, "index") or 0].append(piece)
                elif kind == "message_delta":
                    final_usage = field(event, "usage")
                elif kind == "message_stop":
                    finished = True
        finally:
            close = getattr(stream, "close", None)
            if callable(close):
                close()
        if not finished:
            raise malformed(self.label, "the stream ended before message_stop")
        counts = _counts(start_usage, final_usage)
        if not self.tool_call:
            return Answer("".join(texts), counts)
        for index, pieces in tool_json.items():
            suffix = _suffix_of(_parse_tool_json("".join(pieces), self.label) if pieces else tool_input[index])
            if suffix is not None:
                return Answer(suffix, counts)
        raise malformed(self.label, "no spell_suffix tool_use in the stream", reason="missing-tool-call")


def _suffix_of(tool_input: Any) -> Optional[str]:
    if isinstance(tool_input, str):
        return tool_input
    suffix = field(tool_input, "suffix")
    return suffix if isinstance(suffix, str) else None


def _parse_tool_json(text: str, label: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as err:
        raise malformed(label, f"the spell_suffix tool input is not JSON: {err}") from err


def _counts(start: Any, final: Any) -> TokenCounts:
    """Usage from a message (``start``) and, for streams, the closing ``message_delta`` (``final``)."""
    def pick(name: str) -> int:
        late = token_count(final, name)
        return late if late else token_count(start, name)

    return TokenCounts(uncached_input=pick("input_tokens"), cached_input=pick("cache_read_input_tokens"),
                       cache_write_input=pick("cache_creation_input_tokens"), output=pick("output_tokens"))
