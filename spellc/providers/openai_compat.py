"""A provider for OpenAI and every server that speaks its API (vLLM, llama.cpp server, Ollama, Fireworks).

Chat Completions by default; the Responses API when the profile sets
``:use-responses-api true`` (or ``:api "responses"``), when the model is a Codex
model (they are served only there), or when ``:force-tool-call true`` asks for the
suffix as a ``spell_suffix`` custom tool call.

Prefill: OpenAI cannot continue an assistant message, so by default the prefix is
the user message (runtime.md §5.2) and ``supports_prefill`` is False. A local server
that can continue a final assistant message declares it with
``:supports-prefill? true``; the prefix is then sent as that message with vLLM's
``continue_final_message`` switches (override them with ``:prefill-extra-body``).

Profile keys (runtime.md §7.5): ``:default-model``, ``:base-url``, ``:api-key-env``
(default ``OPENAI_API_KEY``; a server at a non-OpenAI URL may need no key),
``:max-tokens``, ``:max-tokens-param``, ``:default-reasoning-effort``, ``:retries``,
``:request-timeout-sec``, ``:sse-idle-timeout-sec``, ``:sse-completion-timeout-sec``,
``:stream``, ``:stream-usage``, ``:costs``, ``:cache-read-ratio``, ``:system-role``,
``:extra-headers``, ``:extra-body``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Optional

from .base import PREFILL_USER_MESSAGE, ModelRequest, ProviderError
from .costs import TokenCounts
from .errors import ProfileError
from .http_common import StreamDeadline, field, load_sdk, malformed, sdk_timeout, token_count
from .profile import ProfileReader, ProviderSettings, normalize_profile, read_settings
from .sdk_provider import Answer, SdkProvider

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MAX_TOKENS = 16384
"""Sent to OpenAI itself when the profile sets no ``:max-tokens`` (the reference's default)."""

VLLM_CONTINUE_FINAL_MESSAGE: dict[str, Any] = {"continue_final_message": True, "add_generation_prompt": False}

SUFFIX_TOOL_NAME = "spell_suffix"
SUFFIX_TOOL_INSTRUCTIONS = (
    "\n\nCustom tool call output mode:\n"
    "Return the full Spell suffix as the input of exactly one custom tool call named spell_suffix.\n"
    "Do not send assistant message text, markdown, or wrapper JSON.")


# Per ``:provider`` name: (default base URL, API key variable, default model).
_SERVICE_DEFAULTS: dict[str, tuple[str, str, str]] = {
    "openai": (OPENAI_BASE_URL, "OPENAI_API_KEY", "gpt-4o"),
    "codex-tc": (OPENAI_BASE_URL, "OPENAI_API_KEY", "gpt-5.3-codex"),
    "ollama": ("http://localhost:11434/v1", "OLLAMA_API_KEY", "llama3.2"),
    "fireworks": ("https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY",
                  "accounts/fireworks/models/glm-5"),
    "fireworks-tc": ("https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY",
                     "accounts/fireworks/models/kimi-k3"),
}
_KEYLESS_SERVICES = frozenset({"ollama"})


def _is_openai_itself(base_url: str) -> bool:
    return base_url.rstrip("/").startswith("https://api.openai.com")


class OpenAICompatibleProvider(SdkProvider):
    """OpenAI Chat Completions / Responses through the official ``openai`` SDK."""

    label = "OpenAI API"

    def __init__(self, settings: ProviderSettings, *, api: str = "chat", max_tokens_param: Optional[str] = None,
                 force_tool_call: bool = False, stream_usage: bool = True, system_role: str = "system",
                 prefill_extra_body: Optional[dict[str, Any]] = None, require_api_key: Optional[bool] = None,
                 sleep: Callable[[float], None] = time.sleep, client: Any = None) -> None:
        base_url = (settings.base_url or OPENAI_BASE_URL).rstrip("/")
        official = _is_openai_itself(base_url)
        api_key = settings.api_key
        if api_key is None:
            if official if require_api_key is None else require_api_key:
                raise ProfileError(f"No API key provided. Set {settings.api_key_env}", reason="auth",
                                   data={"env": settings.api_key_env})
            api_key = "EMPTY"  # servers without auth ignore the key; the SDK insists on one
        sdk = load_sdk("openai", "openai")
        if client is None:
            client = sdk.OpenAI(api_key=api_key, base_url=base_url, max_retries=0,
                                timeout=settings.request_timeout, default_headers=settings.extra_headers or None)
        super().__init__(settings, sdk, client, sleep=sleep)
        self.base_url = base_url
        self.api = api
        self.force_tool_call = force_tool_call
        self.max_tokens_param = max_tokens_param or ("max_completion_tokens" if official else "max_tokens")
        self.default_max_tokens = DEFAULT_MAX_TOKENS if official else None
        self.stream_usage = stream_usage
        self.system_role = system_role
        self.prefill_extra_body = VLLM_CONTINUE_FINAL_MESSAGE if prefill_extra_body is None else prefill_extra_body

    @classmethod
    def from_profile(cls, profile: Any) -> OpenAICompatibleProvider:
        """Build the provider from an EDN model profile (dict with str or keyword keys, or a Spell map).

        The ``:provider`` name picks the hosted service's URL, key variable and model as
        defaults; an API key is required only for a hosted service's own URL.
        """
        normalized = normalize_profile(profile)
        name = ProfileReader(normalized).provider_name() or "openai"
        base_url, key_env, model = _SERVICE_DEFAULTS.get(name, _SERVICE_DEFAULTS["openai"])
        settings, reader = read_settings(normalized, default_model=model, default_api_key_env=key_env)
        hosted_default = settings.base_url is None and name not in _KEYLESS_SERVICES
        if settings.base_url is None:
            settings = replace(settings, base_url=base_url)
        if reader.present("auth-file"):
            raise ProfileError("Model profile :auth-file (ChatGPT subscription login) is not supported by spellc; "
                               "use :api-key-env", data={"key": "auth-file"})
        api = reader.string("api", "chat") or "chat"
        if api not in ("chat", "responses"):
            raise ProfileError(f"Invalid model profile :api: expected \"chat\" or \"responses\", got {api!r}",
                               data={"key": "api"})
        force_tool_call = bool(reader.boolean("force-tool-call", False)) or name == "codex-tc"
        if reader.boolean("use-responses-api", False) or force_tool_call:
            api = "responses"
        max_tokens_param = reader.string("max-tokens-param")
        if max_tokens_param not in (None, "max_tokens", "max_completion_tokens"):
            raise ProfileError("Invalid model profile :max-tokens-param: expected \"max_tokens\" or "
                               f"\"max_completion_tokens\", got {max_tokens_param!r}", data={"key": "max-tokens-param"})
        prefill_extra = reader.any_map("prefill-extra-body") if reader.present("prefill-extra-body") else None
        return cls(settings, api=api, max_tokens_param=max_tokens_param, force_tool_call=force_tool_call,
                   stream_usage=bool(reader.boolean("stream-usage", True)),
                   system_role=reader.string("system-role", "system") or "system",
                   prefill_extra_body=prefill_extra,
                   require_api_key=hosted_default or _is_openai_itself(settings.base_url or OPENAI_BASE_URL))

    @property
    def supports_prefill(self) -> bool:
        """False unless the profile declares a server that continues a final assistant message."""
        return bool(self.settings.supports_prefill) and not self.force_tool_call

    def uses_responses_api(self, model: str) -> bool:
        return self.api == "responses" or "codex" in model

    # -- one attempt -------------------------------------------------------------------------

    def _attempt(self, request: ModelRequest, model: str) -> Answer:
        if self.uses_responses_api(model):
            return self._responses_attempt(request, model)
        return self._chat_attempt(request, model)

    def _stream(self) -> bool:
        return bool(self.settings.stream)

    def _timeout(self) -> Any:
        idle = self.settings.sse_idle_timeout if self._stream() else None
        return sdk_timeout(self.sdk, self.settings.request_timeout, idle)

    def _max_tokens(self, request: ModelRequest) -> Optional[int]:
        return request.max_tokens or self.settings.max_tokens or self.default_max_tokens

    def _messages(self, request: ModelRequest, *, with_system: bool) -> list[dict[str, str]]:
        messages: list[dict[str, str]] = []
        if with_system and request.system:
            messages.append({"role": self.system_role, "content": request.system})
        if request.prefill:
            messages.append({"role": "user", "content": PREFILL_USER_MESSAGE})
            messages.append({"role": "assistant", "content": request.prefix})
        else:
            messages.append({"role": "user", "content": request.prefix})
        return messages

    def _extra_body(self, request: ModelRequest) -> dict[str, Any]:
        extra = dict(self.settings.extra_body)
        if request.prefill:
            extra.update(self.prefill_extra_body)
        return extra

    def _send(self, create: Any, required: dict[str, Any], body: dict[str, Any], request: ModelRequest) -> Any:
        """Call an SDK ``create`` with only its required keyword arguments.

        Everything else travels in ``extra_body`` so that fields newer than the installed
        SDK release (``reasoning_effort``, ``max_completion_tokens``...) still reach the server.
        """
        extra = {**body, **self._extra_body(request)}
        if self._stream():
            return create(**required, stream=True, extra_body=extra, timeout=self._timeout())
        return create(**required, extra_body=extra, timeout=self._timeout())

    def _chat_attempt(self, request: ModelRequest, model: str) -> Answer:
        required = {"model": model, "messages": self._messages(request, with_system=True)}
        body: dict[str, Any] = {}
        max_tokens = self._max_tokens(request)
        if max_tokens is not None:
            body[self.max_tokens_param] = max_tokens
        effort = self.reasoning_effort_for(request)
        if effort is not None:
            body["reasoning_effort"] = effort
        if request.stop:
            body["stop"] = list(request.stop)
        if self._stream() and self.stream_usage:
            body["stream_options"] = {"include_usage": True}
        answer = self._send(self.client.chat.completions.create, required, body, request)
        return self._read_chat_stream(answer) if self._stream() else self._read_chat(answer)

    def _read_chat(self, response: Any) -> Answer:
        choices = field(response, "choices")
        if not isinstance(choices, list) or not choices:
            raise malformed(self.label, "no choices in the body" if not isinstance(response, str)
                            else "the body is not JSON")
        message = field(choices[0], "message")
        if message is None:
            raise malformed(self.label, "the first choice has no message")
        content = field(message, "content")
        if content is not None and not isinstance(content, str):
            raise malformed(self.label, "the message content is not text")
        return Answer(content or "", _chat_counts(field(response, "usage")), raw=response)

    def _read_chat_stream(self, stream: Any) -> Answer:
        deadline = StreamDeadline(self.settings.sse_completion_timeout, self.label)
        parts: list[str] = []
        usage: Any = None
        finished = False
        try:
            for chunk in stream:
                deadline.check()
                if field(chunk, "usage") is not None:
                    usage = field(chunk, "usage")
                for choice in field(chunk, "choices") or []:
                    if field(choice, "index") not in (0, None):
                        continue
                    piece = field(field(choice, "delta"), "content")
                    if isinstance(piece, str):
                        parts.append(piece)
                    if field(choice, "finish_reason") is not None:
                        finished = True
        finally:
            _close(stream)
        if not finished:
            raise malformed(self.label, "the stream ended before its final chunk")
        return Answer("".join(parts), _chat_counts(usage))

    def _responses_attempt(self, request: ModelRequest, model: str) -> Answer:
        if not hasattr(self.client, "responses"):
            raise ProfileError("The OpenAI Responses API needs a newer SDK: pip install -U 'openai>=1.66'",
                               reason="missing-sdk", data={"module": "openai"})
        required = {"model": model, "input": self._messages(request, with_system=False)}
        body: dict[str, Any] = {}
        instructions = request.system or ""
        if self.force_tool_call:
            instructions = (instructions or "You are a helpful assistant.") + SUFFIX_TOOL_INSTRUCTIONS
            body["tools"] = [{"type": "custom", "name": SUFFIX_TOOL_NAME,
                              "description": "Spell suffix emitted as custom tool input"}]
            body["tool_choice"] = "required"
        if instructions:
            body["instructions"] = instructions
        max_tokens = self._max_tokens(request)
        if max_tokens is not None:
            body["max_output_tokens"] = max_tokens
        effort = self.reasoning_effort_for(request)
        if effort is not None:
            body["reasoning"] = {"effort": effort}
        answer = self._send(self.client.responses.create, required, body, request)
        return self._read_responses_stream(answer) if self._stream() else self._read_response(answer)

    def _read_response(self, response: Any) -> Answer:
        if isinstance(response, str) or field(response, "output") is None:
            raise malformed(self.label, "no output in the body")
        status = field(response, "status")
        if status == "failed":
            error = field(response, "error")
            raise _response_failed(self.label, field(error, "message") or "no error message")
        output = field(response, "output")
        if not isinstance(output, list):
            raise malformed(self.label, "the output is not a list")
        counts = _responses_counts(field(response, "usage"))
        if self.force_tool_call:
            for item in output:
                if field(item, "type") == "custom_tool_call" and field(item, "name") == SUFFIX_TOOL_NAME:
                    text = field(item, "input")
                    if isinstance(text, str):
                        return Answer(text, counts, raw=response)
            raise malformed(self.label, "no spell_suffix custom tool call in the output", reason="missing-tool-call")
        parts = [field(content, "text")
                 for item in output if field(item, "type") == "message"
                 for content in field(item, "content") or []
                 if field(content, "type") == "output_text"]
        return Answer("".join(p for p in parts if isinstance(p, str)), counts, raw=response)

    def _read_responses_stream(self, stream: Any) -> Answer:
        deadline = StreamDeadline(self.settings.sse_completion_timeout, self.label)
        final: Any = None
        try:
            for event in stream:
                deadline.check()
                kind = field(event, "type")
                if kind in ("response.completed", "response.incomplete", "response.failed"):
                    final = field(event, "response")
                elif kind == "error":
                    raise _response_failed(self.label, field(event, "message") or "error event in stream")
        finally:
            _close(stream)
        if final is None:
            raise malformed(self.label, "the stream ended before response.completed")
        return self._read_response(final)


def _close(stream: Any) -> None:
    close = getattr(stream, "close", None)
    if callable(close):
        close()


def _response_failed(label: str, message: str) -> ProviderError:
    return ProviderError(f"{label} request failed: response failed: {message}", reason="http-5xx", retryable=True)


def _chat_counts(usage: Any) -> TokenCounts:
    prompt = token_count(usage, "prompt_tokens")
    cached = min(prompt, token_count(field(usage, "prompt_tokens_details"), "cached_tokens"))
    return TokenCounts(uncached_input=prompt - cached, cached_input=cached,
                       output=token_count(usage, "completion_tokens"),
                       reasoning=token_count(field(usage, "completion_tokens_details"), "reasoning_tokens"))


def _responses_counts(usage: Any) -> TokenCounts:
    prompt = token_count(usage, "input_tokens")
    cached = min(prompt, token_count(field(usage, "input_tokens_details"), "cached_tokens"))
    return TokenCounts(uncached_input=prompt - cached, cached_input=cached,
                       output=token_count(usage, "output_tokens"),
                       reasoning=token_count(field(usage, "output_tokens_details"), "reasoning_tokens"))
