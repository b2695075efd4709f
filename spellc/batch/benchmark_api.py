"""One benchmark request → one response: the per-item function of ``spellc benchmark-api`` and ``spellc batch``.

``handle_request`` never raises for anything a request can contain: every
failure becomes the contract's ``{ok: false ...}`` response (``contract``), so a
batch backend can run it blindly and a harness always gets JSON back.

Model specs become spellc model profiles (``PROFILES``); the provider is built
here and wrapped in a ``RecordingProvider`` so that a run that failed on the
provider reports *why* (``error_data["provider-failure"]``: reason code, HTTP
status, retryable) — the run's own error data keeps only the fault verdict
(runtime.md §9), and ``spellc batch`` retries only retryable provider failures.

Request keys spellc cannot honour (``thinking``, ``verbosity``, ``format``) are
refused with ``invalid_request`` rather than silently ignored (the rule of
runtime.md §7.2's removed options); ``reasoning_effort`` is the spellc way to ask
for thinking. Choices where the reference is silent or odd are marked "choice".
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from ..providers.base import ModelRequest, ModelResponse, Provider, ProviderError, Usage
from .agents import AgentError, agent_options
from .contract import (
    MODES,
    NO_INPUT,
    ONE_SHOT_NEEDS_PROMPT,
    TEST_RESPONSE,
    UNSUPPORTED_MODE,
    ContractError,
    ModelSpec,
    error_response,
    json_safe,
    normalize_keys,
    parse_model_spec,
    result_text,
)

PROFILES: Final[dict[str, dict[str, Any]]] = {
    "anthropic-pf": {"provider": "anthropic-pf"},
    "anthropic-tc": {"provider": "anthropic-tc"},
    "codex-tc": {"provider": "codex-tc"},
    "fireworks": {"provider": "fireworks"},
    "ollama": {"provider": "ollama"},
    "openai-tc": {"provider": "openai", "use-responses-api": True, "force-tool-call": True},
    "test": {"provider": "test"},
}
"""Contract prefix → the spellc model profile behind it (a prefix missing here is refused by name)."""

UNSUPPORTED_KEYS: Final = ("thinking", "verbosity", "format")
UNSUPPORTED_KEY: Final = "spellc benchmark-api does not support the request key %r%s"
UNSUPPORTED_HINTS: Final = {"thinking": " (use reasoning_effort)"}
NOT_IMPLEMENTED: Final = "Provider %s is not implemented by spellc"
RESPONSES_NEED_TEST: Final = "responses (scripted completions) needs the test provider, not %s"
INVALID_REQUEST: Final = "invalid_request"


@dataclass
class RequestState:
    """What the shutdown path needs to describe a run cut short (``shutdown.killed_response``)."""

    mode: str = "spell"
    started: float = field(default_factory=time.perf_counter)
    trace_dir: Optional[str] = None
    turns: int = 0
    finishing: bool = False
    """Set just before the response is written; a termination after that lets the write finish."""

    def latency_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000.0

    def count_turn(self, _event: Any) -> None:
        self.turns += 1


class RecordingProvider:
    """A provider that remembers the last ``ProviderError`` it raised (reason, status, retryable)."""

    def __init__(self, inner: Provider) -> None:
        self.inner = inner
        self.last_failure: Optional[ProviderError] = None

    @property
    def supports_prefill(self) -> bool:
        return self.inner.supports_prefill

    def complete(self, request: ModelRequest) -> ModelResponse:
        try:
            return self.inner.complete(request)
        except ProviderError as err:
            self.last_failure = err
            raise

    def failure_data(self) -> Optional[dict[str, Any]]:
        err = self.last_failure
        if err is None:
            return None
        return {"reason": err.reason, "status": err.status, "retryable": err.retryable}


def handle_request(raw: Any, state: Optional[RequestState] = None) -> dict[str, Any]:
    """The contract's response to one request (a JSON object, keys with ``_`` or ``-``)."""
    state = state if state is not None else RequestState()
    request = normalize_keys(raw) if isinstance(raw, dict) else raw
    if not isinstance(request, dict):
        return {"ok": False, "mode": "spell", "error": "Request must be a JSON object", "error_type": INVALID_REQUEST}
    mode = request.get("mode") or "spell"
    state.mode = mode if isinstance(mode, str) else str(mode)
    prompt, init = request.get("prompt"), request.get("init")
    if prompt is None and init is None:
        return {"ok": False, "mode": state.mode, "error": NO_INPUT, "error_type": INVALID_REQUEST}
    if mode not in MODES:
        return {"ok": False, "mode": state.mode, "error": UNSUPPORTED_MODE % state.mode, "error_type": "invalid_mode"}
    if mode == "one_shot" and prompt is None:
        return {"ok": False, "mode": state.mode, "error": ONE_SHOT_NEEDS_PROMPT, "error_type": INVALID_REQUEST}
    try:
        _refuse_unsupported(request)
        spec = parse_model_spec(request.get("model"))
        provider = RecordingProvider(build_provider(spec, request))
        if mode == "one_shot":
            return _one_shot(request, spec, provider, state)
        return _spell(request, spec, provider, state)
    except ContractError as e:
        return error_response(state.mode, state.latency_ms(), e.message, e.error_type, e.data)
    except AgentError as e:
        return error_response(state.mode, state.latency_ms(), e.message, INVALID_REQUEST, {"agent": e.agent})
    except Exception as e:  # noqa: BLE001 - a spellc bug still owes the harness its one JSON response
        return error_response(state.mode, state.latency_ms(), "%s: %s" % (type(e).__name__, e), "internal",
                              {"spell/fault": "unknown", "spell/reason": "internal"})


def _refuse_unsupported(request: dict[str, Any]) -> None:
    for key in UNSUPPORTED_KEYS:
        if request.get(key) not in (None, False):
            raise ContractError(UNSUPPORTED_KEY % (key, UNSUPPORTED_HINTS.get(key, "")), INVALID_REQUEST, {"key": key})


def model_profile(spec: ModelSpec, request: dict[str, Any]) -> dict[str, Any]:
    """The spellc model profile for a request's model spec and provider settings."""
    base = PROFILES.get(spec.provider)
    if base is None:
        raise ContractError(NOT_IMPLEMENTED % spec.provider, "unsupported_provider", {"provider": spec.provider})
    profile = dict(base)
    responses = request.get("responses")
    if spec.provider == "test":
        if responses is not None:
            if not isinstance(responses, list) or not all(isinstance(r, str) for r in responses):
                raise ContractError("responses must be a list of strings", INVALID_REQUEST, {"key": "responses"})
            profile["responses"] = responses
        else:
            profile["response"] = TEST_RESPONSE
        if "prefill" in request:
            profile["supports-prefill?"] = bool(request["prefill"])
        return profile
    if responses is not None:
        raise ContractError(RESPONSES_NEED_TEST % spec.provider, INVALID_REQUEST, {"key": "responses"})
    if spec.model:
        profile["default-model"] = spec.model
    for key, profile_key in (("max-tokens", "max-tokens"), ("retries", "retries"), ("prefill", "prefill?")):
        if request.get(key) is not None:
            profile[profile_key] = request[key]
    return profile


def build_provider(spec: ModelSpec, request: dict[str, Any]) -> Provider:
    """The provider a request asks for; a profile the provider refuses becomes a ``ContractError``."""
    from ..providers.registry import ProfileError, provider_from_profile

    try:
        return provider_from_profile(model_profile(spec, request))
    except ProfileError as e:
        raise ContractError(e.message, None, json_safe(e.data)) from None
    except ProviderError as e:  # a provider's own profile check (missing SDK, missing API key)
        raise ContractError(e.message, None, {"reason": e.reason, **json_safe(e.data)}) from None


def _usage(usage: Any) -> dict[str, Any]:
    """The reference's usage summary: ``{by-model: {model: counts}, total: counts}``."""
    data: dict[str, Any] = usage.as_dict()
    by_model = data.pop("by_model")
    return {"by-model": by_model, "total": data}


def _one_shot(request: dict[str, Any], spec: ModelSpec, provider: RecordingProvider,
              state: RequestState) -> dict[str, Any]:
    """One plain model call on the prompt; the result is the raw completion text."""
    from ..loop.usage import UsageTracker, check_budget, effective_budget

    tracker = UsageTracker()
    try:
        budget = effective_budget(request.get("budget"), "budget" in request, None)
    except ValueError as e:
        raise ContractError(str(e), INVALID_REQUEST, {"key": "budget"}) from None
    effort = request.get("reasoning-effort")
    try:
        answer = provider.complete(ModelRequest(prefix=str(request["prompt"]), model=spec.model,
                                                reasoning_effort=None if effort is None else str(effort)))
        tracker.add(answer.model or spec.model, answer.usage if answer.usage is not None else Usage())
        check_budget(tracker, budget)
    except ProviderError as e:
        data = {**json_safe(e.data), "provider-failure": provider.failure_data()}
        return {**error_response("one_shot", state.latency_ms(), e.message, None, data), "usage": _usage(tracker)}
    except Exception as e:  # noqa: BLE001 - the typed budget stop and anything else become the response
        from spell_runtime.errors import ControlError

        typed = json_safe(e.data) if isinstance(e, ControlError) else None
        error_type = typed.get("type") if isinstance(typed, dict) else None
        return {**error_response("one_shot", state.latency_ms(), str(e), error_type, typed), "usage": _usage(tracker)}
    return {"ok": True, "mode": "one_shot", "latency_ms": state.latency_ms(), "usage": _usage(tracker),
            "result": answer.text}


def run_options(request: dict[str, Any], spec: ModelSpec, provider: Provider) -> dict[str, Any]:
    """The ``spellc.run`` options of a spell-mode request."""
    options: dict[str, Any] = {"model-profile": provider}
    for key in ("prompt", "init"):
        if request.get(key) is not None:
            options[key] = request[key]
    if spec.model and spec.provider != "test":
        options["model"] = spec.model
    for key in ("budget", "depth", "reasoning-effort"):
        if request.get(key) is not None:
            options[key] = request[key]
    trace_dir = resolve_trace_dir(request)
    if trace_dir is not None:
        options["trace-dir"] = trace_dir
    for key in ("agent-profile", "agent"):  # the reference's newer and older names
        if request.get(key) is not None:
            options.update(agent_options(request[key]))
            break
    options.update(extra_run_options(request))
    return options


NOT_PASSED_THROUGH: Final = frozenset({"prompt", "init", "model", "model-profile", "agent-profile", "agent",
                                       "trace-dir", "usage-tracker", "log-writer", "user-reader", "coordinator"})


def extra_run_options(request: dict[str, Any]) -> dict[str, Any]:
    """spellc extension: other ``spellc.run`` options in a request are passed on (``context_max_chars``,
    ``max_consecutive_errors``, ``recover``, and what later work adds to the public run options).

    Options holding Python objects, and the ones the contract maps itself, are not taken from JSON.
    """
    from ..loop.options import PUBLIC_KEYS

    return {key: value for key, value in request.items()
            if key in PUBLIC_KEYS and key not in NOT_PASSED_THROUGH and value is not None}


def resolve_trace_dir(request: dict[str, Any]) -> Optional[str]:
    """``trace_dir``, or ``traces/<timestamp>`` when only ``trace`` is true (the reference's default).

    Choice: a ``trace_dir`` without ``trace`` also records a trace (the reference ignores it silently).
    """
    trace_dir = request.get("trace-dir")
    if trace_dir is not None:
        return str(trace_dir)
    if request.get("trace") in (None, False):
        return None
    return "traces/" + time.strftime("%Y-%m-%dT%H-%M-%S")


def _spell(request: dict[str, Any], spec: ModelSpec, provider: RecordingProvider,
           state: RequestState) -> dict[str, Any]:
    """A full agent run through ``spellc.run``."""
    from ..loop.options import RunOptionsError
    from ..loop.run import execute

    options = run_options(request, spec, provider)
    state.trace_dir = options.get("trace-dir")
    try:
        out = execute(options, on_turn=state.count_turn)
    except RunOptionsError as e:
        data = json_safe(e.error_data)
        error_type = data.get("type") if isinstance(data, dict) else None
        response = error_response("spell", state.latency_ms(), e.message, error_type, data)
        return {**response, "trace_dir": state.trace_dir}
    usage = _usage(out["usage_tracker"])
    if "error" in out:
        data = json_safe(out.get("error_data"))
        if provider.last_failure is not None and isinstance(data, dict) and data.get("spell/reason") == "provider":
            data["provider-failure"] = provider.failure_data()
        error_type = data.get("type") if isinstance(data, dict) else None
        return {**error_response("spell", state.latency_ms(), str(out["error"]), error_type, data), "usage": usage,
                "trace_dir": out.get("trace_dir", state.trace_dir)}
    done: dict[str, Any] = {"ok": True, "mode": "spell", "latency_ms": state.latency_ms(), "usage": usage,
                            "result": result_text(out["result"])}
    if out.get("trace_dir") is not None:
        done["trace_dir"] = out["trace_dir"]
    return done
