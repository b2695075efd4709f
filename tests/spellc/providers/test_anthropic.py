"""AnthropicProvider against a fake Messages API server on 127.0.0.1."""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest
from provider_wire import (
    FakeServer,
    Reply,
    Stream,
    Truncated,
    message_body,
    message_stream,
    sse,
    tool_stream,
)
from spell_runtime.data.atoms import Keyword
from spell_runtime.data.hashmap import spell_map

from spellc.providers.anthropic import AnthropicProvider, thinking_for
from spellc.providers.base import PREFILL_USER_MESSAGE, ModelRequest, Provider, ProviderError
from spellc.providers.errors import ProfileError

pytest.importorskip("anthropic")

PREFIX = "(quine completion (eval (do "


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")


def make(server: FakeServer, **profile: Any) -> AnthropicProvider:
    base = {"provider": "anthropic-pf", "base-url": server.url, "default-model": "claude-test-1",
            "retries": [0, 0], "request-timeout-sec": 5}
    base.update({k.replace("_", "-"): v for k, v in profile.items()})
    return AnthropicProvider.from_profile(base)


def test_prefill_sends_fixed_user_message_and_trimmed_prefix(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("\n  (def x 42))", input_tokens=100, output_tokens=50,
                                             cache_read=1000, cache_write=200)))
    provider = make(fake_server, costs={"claude-test": [3.0, 15.0]})
    assert isinstance(provider, Provider)
    assert provider.supports_prefill is True

    response = provider.complete(ModelRequest(prefix=PREFIX, system="SYS", prefill=True, stop=("END",)))

    assert response.text == "\n  (def x 42))"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (1300, 50)
    assert response.usage.cost == pytest.approx((100 * 3.0 + 1000 * 0.3 + 200 * 3.75 + 50 * 15.0) / 1e6)
    [req] = fake_server.requests
    assert req.path == "/v1/messages"
    # SDK releases differ in how they send the key (x-api-key or a bearer token)
    assert "test-key" in (req.headers.get("x-api-key"), req.headers.get("authorization", "").removeprefix("Bearer "))
    assert "anthropic-version" in req.headers
    assert req.body["messages"] == [{"role": "user", "content": PREFILL_USER_MESSAGE},
                                    {"role": "assistant", "content": PREFIX.rstrip()}]
    assert req.body["system"] == "SYS"
    assert req.body["max_tokens"] == 16384
    assert req.body["stop_sequences"] == ["END"]
    assert "thinking" not in req.body and "stream" not in req.body


def test_without_prefill_the_prefix_is_the_user_message(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("x")))
    make(fake_server).complete(ModelRequest(prefix=PREFIX))
    assert fake_server.requests[0].body["messages"] == [{"role": "user", "content": PREFIX}]


def test_whitespace_only_prefix_sends_no_assistant_message(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("42")))
    make(fake_server).complete(ModelRequest(prefix="  \n", prefill=True))
    assert fake_server.requests[0].body["messages"] == [{"role": "user", "content": PREFILL_USER_MESSAGE}]


@pytest.mark.parametrize(("model", "expected"), [
    ("claude-sonnet-4-5", True), ("claude-opus-4-6", False), ("claude-opus-4-7", False), ("claude-sonnet-5", False),
])
def test_prefill_capability_by_model(fake_server: FakeServer, model: str, expected: bool) -> None:
    assert make(fake_server, default_model=model).supports_prefill is expected


def test_prefill_capability_overrides(fake_server: FakeServer) -> None:
    assert make(fake_server, default_model="claude-opus-4-6", **{"supports-prefill?": True}).supports_prefill
    assert not make(fake_server, **{"prefill?": False}).supports_prefill
    assert not make(fake_server, provider="anthropic-tc").supports_prefill
    assert not make(fake_server, default_reasoning_effort="high").supports_prefill
    assert make(fake_server, default_reasoning_effort="none").supports_prefill


def test_reasoning_effort_turns_on_thinking_and_streaming(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream(["(def ", "y 2))"], thinking=True)))
    provider = make(fake_server, default_reasoning_effort="high")
    response = provider.complete(ModelRequest(prefix=PREFIX))
    assert response.text == "(def y 2))"
    body = fake_server.requests[0].body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 20000}
    assert body["max_tokens"] == 32768
    assert body["stream"] is True
    assert body["messages"] == [{"role": "user", "content": PREFIX}]


def test_prefill_request_keeps_prefill_and_drops_thinking(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("1)")))
    make(fake_server).complete(ModelRequest(prefix=PREFIX, prefill=True, reasoning_effort="high"))
    body = fake_server.requests[0].body
    assert "thinking" not in body
    assert body["messages"][-1] == {"role": "assistant", "content": PREFIX.rstrip()}


def test_adaptive_models_get_adaptive_thinking_with_effort(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream(["1)"])))
    make(fake_server, default_model="claude-opus-4-7").complete(ModelRequest(prefix=PREFIX, reasoning_effort="low"))
    body = fake_server.requests[0].body
    assert (body["thinking"], body["output_config"]) == ({"type": "adaptive"}, {"effort": "low"})


def test_thinking_budget_mapping() -> None:
    assert thinking_for("claude-x", None, 32768) is None
    assert thinking_for("claude-x", "none", 32768) is None
    plan = thinking_for("claude-x", "5000", 32768)
    assert plan is not None and plan.thinking == {"type": "enabled", "budget_tokens": 5000}
    small = thinking_for("claude-x", "high", 8000)
    assert small is not None and small.thinking["budget_tokens"] == 8000 - 1024
    assert thinking_for("claude-x", "low", 1024) is None
    with pytest.raises(ProviderError, match="Unknown reasoning effort"):
        thinking_for("claude-x", "extreme", 32768)


def test_unknown_default_effort_fails_at_load(fake_server: FakeServer) -> None:
    with pytest.raises(ProfileError, match="default-reasoning-effort"):
        make(fake_server, default_reasoning_effort="extreme")


def test_large_max_tokens_streams(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream(["a", "b"])))
    response = make(fake_server, max_tokens=40000).complete(ModelRequest(prefix=PREFIX, prefill=True))
    assert response.text == "ab"
    # usage: input from message_start, output from the closing message_delta
    assert (response.usage.input_tokens, response.usage.output_tokens) == (35, 9)
    assert fake_server.requests[0].body["stream"] is True


def test_profile_as_spell_map(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("ok")))
    profile = spell_map(Keyword("provider"), Keyword("anthropic-pf"), Keyword("base-url"), fake_server.url,
                        Keyword("default-model"), "claude-kw", Keyword("max-tokens"), 77)
    AnthropicProvider.from_profile(profile).complete(ModelRequest(prefix=PREFIX))
    assert (fake_server.requests[0].body["model"], fake_server.requests[0].body["max_tokens"]) == ("claude-kw", 77)


def test_missing_key_fails_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(ProfileError, match="No API key provided. Set ANTHROPIC_API_KEY") as info:
        AnthropicProvider.from_profile({"provider": "anthropic-pf"})
    assert info.value.reason == "auth"


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)
    with pytest.raises(ProfileError, match=r"pip install 'spellc\[anthropic\]'"):
        AnthropicProvider.from_profile({"provider": "anthropic-pf"})


# -- faults ----------------------------------------------------------------------------------------


def test_overloaded_then_success(fake_server: FakeServer) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    fake_server.then(Reply(529, overloaded), Reply(500, overloaded), Reply(body=message_body("fine")))
    response = make(fake_server).complete(ModelRequest(prefix=PREFIX, prefill=True))
    assert (response.text, response.attempts) == ("fine", 3)
    assert len(fake_server.requests) == 3


def test_persistent_5xx(fake_server: FakeServer) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    fake_server.then(*[Reply(529, overloaded)] * 3)
    with pytest.raises(ProviderError) as info:
        make(fake_server).complete(ModelRequest(prefix=PREFIX))
    err = info.value
    assert (err.reason, err.status, err.retryable, err.data["attempts"]) == ("http-5xx", 529, True, 3)
    assert "Overloaded" in err.message


@pytest.mark.parametrize(("status", "kind", "reason"), [
    (401, "authentication_error", "auth"), (400, "invalid_request_error", "http-4xx"),
])
def test_client_errors_fail_at_once(fake_server: FakeServer, status: int, kind: str, reason: str) -> None:
    fake_server.then(Reply(status, {"type": "error", "error": {"type": kind, "message": "no"}}))
    with pytest.raises(ProviderError) as info:
        make(fake_server).complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.retryable, len(fake_server.requests)) == (reason, False, 1)


def test_rate_limit_is_retried(fake_server: FakeServer) -> None:
    fake_server.then(Reply(429, {"type": "error", "error": {"type": "rate_limit_error", "message": "slow"}}),
                     Reply(body=message_body("ok")))
    assert make(fake_server).complete(ModelRequest(prefix=PREFIX)).attempts == 2


def test_slow_server_times_out(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("late"), delay=3.0))
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        make(fake_server, request_timeout_sec=0.3, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert time.monotonic() - started < 2.5
    assert info.value.reason == "timeout"


@pytest.mark.parametrize("action", [
    Reply(body=b'{"id": "msg_1", "content": [{"ty'),
    Truncated(b'{"id": "msg_1", "content": [{"type": "text", "text": "(def'),
    Reply(body="<html>proxy error</html>", content_type="text/html"),
    Reply(body={"id": "msg_1"}),
], ids=["bad-json", "truncated", "html", "no-content"])
def test_malformed_bodies(fake_server: FakeServer, action: Any) -> None:
    fake_server.then(action, action, action)
    with pytest.raises(ProviderError) as info:
        make(fake_server).complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.retryable) == ("malformed-response", True)
    assert len(fake_server.requests) == 3


def test_stream_error_event_is_retried(fake_server: FakeServer) -> None:
    error = sse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "error")
    fake_server.then(Stream(message_stream(["(de"], stop=False)[:3] + [error]), Stream(message_stream(["ok"])))
    response = make(fake_server, stream=True).complete(ModelRequest(prefix=PREFIX))
    assert (response.text, response.attempts) == ("ok", 2)


def test_stream_error_event_exhausts_as_5xx(fake_server: FakeServer) -> None:
    error = sse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "error")
    fake_server.then(Stream([error]))
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.retryable) == ("http-5xx", True)
    assert "Overloaded" in info.value.message


def test_stream_without_message_stop_is_malformed(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream(["(def x"], stop=False)))
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert info.value.reason == "malformed-response"
    assert "message_stop" in info.value.message


def test_stream_with_garbled_event(fake_server: FakeServer) -> None:
    fake_server.then(Stream([sse('{"type": "message_st', "message_start")]))
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert info.value.reason == "malformed-response"


def test_stalled_stream_times_out(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream(["a", "b"]), gap=3.0))
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, sse_idle_timeout_sec=0.3, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert time.monotonic() - started < 2.5
    assert info.value.reason == "timeout"


def test_slow_first_byte_of_stream_times_out(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream(["a"]), first_delay=3.0))
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, sse_idle_timeout_sec=0.3, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert info.value.reason == "timeout"


def test_trickling_stream_hits_completion_timeout(fake_server: FakeServer) -> None:
    fake_server.then(Stream(message_stream([str(i) for i in range(30)]), gap=0.1))
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, sse_completion_timeout_sec=0.5, retries=[]).complete(
            ModelRequest(prefix=PREFIX))
    assert info.value.reason == "timeout"


# -- tool-call variant -----------------------------------------------------------------------------


def test_tool_call_variant_reads_the_suffix(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("", tool_suffix="(def z 3))")))
    provider = make(fake_server, provider="anthropic-tc")
    response = provider.complete(ModelRequest(prefix=PREFIX, system="S"))
    assert response.text == "(def z 3))"
    body = fake_server.requests[0].body
    assert body["tools"][0]["name"] == "spell_suffix"
    assert body["tool_choice"] == {"type": "any"}
    assert body["messages"] == [{"role": "user", "content": PREFIX}]


def test_tool_call_variant_streams(fake_server: FakeServer) -> None:
    fake_server.then(Stream(tool_stream(['{"suf', 'fix": "(+ 1', ' 1))"}'])))
    response = make(fake_server, provider="anthropic-tc", stream=True).complete(ModelRequest(prefix=PREFIX))
    assert response.text == "(+ 1 1))"


def test_missing_tool_call_is_retried_then_reported(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=message_body("I refuse")), Reply(body=message_body("", tool_suffix="ok)")))
    assert make(fake_server, provider="anthropic-tc").complete(ModelRequest(prefix=PREFIX)).attempts == 2
    fake_server.then(Reply(body=message_body("I refuse")))
    with pytest.raises(ProviderError) as info:
        make(fake_server, provider="anthropic-tc", retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert info.value.reason == "missing-tool-call"
