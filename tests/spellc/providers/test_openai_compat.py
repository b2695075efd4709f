"""OpenAICompatibleProvider against a fake OpenAI-compatible server on 127.0.0.1."""

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
    chat_body,
    chat_stream,
    responses_body,
    responses_stream,
    sse,
)
from spell_runtime.data.atoms import Keyword
from spell_runtime.data.hashmap import spell_map
from spell_runtime.data.vector import vec

from spellc.providers.base import PREFILL_USER_MESSAGE, ModelRequest, Provider, ProviderError
from spellc.providers.errors import ProfileError
from spellc.providers.openai_compat import OpenAICompatibleProvider

openai = pytest.importorskip("openai")
needs_responses_api = pytest.mark.skipif(not hasattr(openai.OpenAI(api_key="unused"), "responses"),
                                         reason="this openai SDK release predates the Responses API")

PREFIX = "(quine completion (eval (do "


def make(server: FakeServer, **profile: Any) -> OpenAICompatibleProvider:
    base = {"provider": "openai", "base-url": server.url + "/v1", "default-model": "local-model",
            "retries": [0, 0], "request-timeout-sec": 5}
    base.update({k.replace("_", "-"): v for k, v in profile.items()})
    return OpenAICompatibleProvider.from_profile(base)


def test_chat_completion_sends_prefix_as_user_message_and_reports_usage(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body("(def x 42))", prompt_tokens=1000, completion_tokens=500,
                                          cached_tokens=400)))
    provider = make(fake_server, costs={"local": [2.0, 8.0]})
    assert isinstance(provider, Provider)
    assert provider.supports_prefill is False

    response = provider.complete(ModelRequest(prefix=PREFIX, system="SYS", stop=("\nEND",)))

    assert response.text == "(def x 42))"
    assert (response.attempts, response.model) == (1, "local-model")
    assert (response.usage.input_tokens, response.usage.output_tokens, response.usage.calls) == (1000, 500, 1)
    # 600 uncached at $2/M, 400 cached at 10% of that, 500 output at $8/M
    assert response.usage.cost == pytest.approx((600 * 2.0 + 400 * 0.2 + 500 * 8.0) / 1e6)
    [req] = fake_server.requests
    assert req.path == "/v1/chat/completions"
    assert req.body["model"] == "local-model"
    assert req.body["messages"] == [{"role": "system", "content": "SYS"}, {"role": "user", "content": PREFIX}]
    assert req.body["stop"] == ["\nEND"]
    assert "max_tokens" not in req.body and "max_completion_tokens" not in req.body
    assert "stream" not in req.body


def test_request_overrides_model_tokens_and_reasoning_effort(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body("1)")))
    provider = make(fake_server, max_tokens=100, default_reasoning_effort="low")
    provider.complete(ModelRequest(prefix=PREFIX, model="other", max_tokens=7, reasoning_effort="high"))
    body = fake_server.requests[0].body
    assert (body["model"], body["max_tokens"], body["reasoning_effort"]) == ("other", 7, "high")
    fake_server.then(Reply(body=chat_body("1)")))
    provider.complete(ModelRequest(prefix=PREFIX))
    body = fake_server.requests[1].body
    assert (body["model"], body["max_tokens"], body["reasoning_effort"]) == ("local-model", 100, "low")


def test_max_tokens_param_can_be_chosen(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body("1)")))
    make(fake_server, max_tokens=64, max_tokens_param="max_completion_tokens").complete(ModelRequest(prefix=PREFIX))
    assert fake_server.requests[0].body["max_completion_tokens"] == 64
    with pytest.raises(ProfileError, match="max-tokens-param"):
        make(fake_server, max_tokens_param="n_predict")


def test_server_that_continues_assistant_messages_gets_a_prefill(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body(" 42)))")))
    provider = make(fake_server, **{"supports-prefill?": True})
    assert provider.supports_prefill is True
    response = provider.complete(ModelRequest(prefix=PREFIX, system="S", prefill=True))
    assert response.text == " 42)))"
    body = fake_server.requests[0].body
    assert body["messages"] == [{"role": "system", "content": "S"},
                                {"role": "user", "content": PREFILL_USER_MESSAGE},
                                {"role": "assistant", "content": PREFIX}]
    assert body["continue_final_message"] is True and body["add_generation_prompt"] is False


def test_prefill_false_in_profile_wins(fake_server: FakeServer) -> None:
    provider = make(fake_server, **{"supports-prefill?": True, "prefill?": False})
    assert provider.supports_prefill is False


def test_extra_body_and_headers_are_sent(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body("1)")))
    make(fake_server, extra_body={"top_k": 5}, extra_headers={"X-Trace": "t1"}).complete(ModelRequest(prefix=PREFIX))
    req = fake_server.requests[0]
    assert req.body["top_k"] == 5
    assert req.headers["x-trace"] == "t1"


def test_api_key_is_read_from_the_named_variable(fake_server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_LOCAL_KEY", "sekrit")
    fake_server.then(Reply(body=chat_body("1)")))
    make(fake_server, api_key_env="MY_LOCAL_KEY").complete(ModelRequest(prefix=PREFIX))
    assert fake_server.requests[0].headers["authorization"] == "Bearer sekrit"


def test_local_server_needs_no_key_but_openai_itself_does(fake_server: FakeServer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fake_server.then(Reply(body=chat_body("1)")))
    assert make(fake_server).complete(ModelRequest(prefix=PREFIX)).text == "1)"
    with pytest.raises(ProfileError, match="No API key provided. Set OPENAI_API_KEY") as info:
        OpenAICompatibleProvider.from_profile({"provider": "openai"})
    assert info.value.reason == "auth"


def test_profile_as_spell_map_with_keyword_keys(fake_server: FakeServer) -> None:
    fake_server.then(Reply(status=503, body={"error": {"message": "busy"}}), Reply(body=chat_body("ok)")))
    sleeps: list[float] = []
    profile = spell_map(Keyword("provider"), Keyword("openai"), Keyword("base-url"), fake_server.url + "/v1",
                        Keyword("default-model"), "kw-model", Keyword("retries"), vec([0.25]),
                        Keyword("costs"), spell_map("kw", vec([1, 1])))
    provider = OpenAICompatibleProvider.from_profile(profile)
    provider.sleep = sleeps.append
    response = provider.complete(ModelRequest(prefix=PREFIX))
    assert response.text == "ok)"
    assert response.attempts == 2
    assert sleeps == [0.25]
    assert fake_server.requests[0].body["model"] == "kw-model"
    assert response.usage.cost is not None


# -- faults ----------------------------------------------------------------------------------------


def test_5xx_then_success_is_retried_per_schedule(fake_server: FakeServer) -> None:
    fake_server.then(Reply(500, {"error": {"message": "boom"}}), Reply(502, "bad gateway", content_type="text/plain"),
                     Reply(body=chat_body("done)")))
    sleeps: list[float] = []
    provider = make(fake_server, retries=[0, 3])
    provider.sleep = sleeps.append
    response = provider.complete(ModelRequest(prefix=PREFIX))
    assert response.text == "done)"
    assert response.attempts == 3
    assert len(fake_server.requests) == 3
    assert sleeps == [3.0]  # a zero pause does not sleep at all


def test_persistent_5xx_exhausts_retries(fake_server: FakeServer) -> None:
    fake_server.then(*[Reply(500, {"error": {"message": "still broken"}})] * 3)
    with pytest.raises(ProviderError) as info:
        make(fake_server).complete(ModelRequest(prefix=PREFIX))
    err = info.value
    assert (err.reason, err.status, err.retryable) == ("http-5xx", 500, True)
    assert err.data["attempts"] == 3
    assert err.data["model"] == "local-model"
    assert err.message == "OpenAI API request failed: HTTP 500: still broken"
    assert err.data["body"] == '{"message": "still broken"}'
    assert len(fake_server.requests) == 3


def test_default_schedule_is_three_attempts(fake_server: FakeServer) -> None:
    fake_server.then(*[Reply(500, {})] * 3)
    sleeps: list[float] = []
    provider = OpenAICompatibleProvider.from_profile({"base-url": fake_server.url})
    provider.sleep = sleeps.append
    with pytest.raises(ProviderError):
        provider.complete(ModelRequest(prefix=PREFIX))
    assert sleeps == [10.0]
    assert len(fake_server.requests) == 3


def test_429_is_retried_and_reported(fake_server: FakeServer) -> None:
    fake_server.then(*[Reply(429, {"error": {"message": "slow down"}})] * 2)
    with pytest.raises(ProviderError) as info:
        make(fake_server, retries=[0]).complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.status) == ("http-429", 429)
    assert len(fake_server.requests) == 2


@pytest.mark.parametrize(("status", "reason"), [(401, "auth"), (403, "auth"), (400, "http-4xx"), (404, "http-4xx")])
def test_client_errors_are_not_retried(fake_server: FakeServer, status: int, reason: str) -> None:
    fake_server.then(Reply(status, {"error": {"message": "no"}}))
    with pytest.raises(ProviderError) as info:
        make(fake_server).complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.status, info.value.retryable) == (reason, status, False)
    assert info.value.data["attempts"] == 1
    assert len(fake_server.requests) == 1


def test_slow_server_times_out(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body("late)"), delay=3.0))
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        make(fake_server, request_timeout_sec=0.3, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert time.monotonic() - started < 2.5
    assert (info.value.reason, info.value.retryable) == ("timeout", True)


def test_timeout_then_success(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=chat_body("late)"), delay=3.0), Reply(body=chat_body("fast)")))
    response = make(fake_server, request_timeout_sec=0.3).complete(ModelRequest(prefix=PREFIX))
    assert (response.text, response.attempts) == ("fast)", 2)


def test_connection_refused(fake_server: FakeServer) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    provider = OpenAICompatibleProvider.from_profile({"base-url": f"http://127.0.0.1:{port}/v1", "retries": [0]})
    with pytest.raises(ProviderError) as info:
        provider.complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.retryable, info.value.data["attempts"]) == ("connection", True, 2)


@pytest.mark.parametrize("action", [
    Reply(body=b'{"id": "x", "choices": [{"mess'),
    Truncated(b'{"id": "x", "choices": [{"message": {"content": "(def'),
    Reply(body="<html>gateway</html>", content_type="text/html"),
    Reply(body={"unexpected": True}),
    Reply(body={"choices": []}),
    Reply(body={"choices": [{"index": 0}]}),
    Reply(body={"choices": [{"index": 0, "message": {"content": 42}}]}),
], ids=["bad-json", "truncated", "html", "wrong-shape", "no-choices", "no-message", "non-text"])
def test_malformed_bodies(fake_server: FakeServer, action: Any) -> None:
    fake_server.then(action, action)
    with pytest.raises(ProviderError) as info:
        make(fake_server, retries=[0]).complete(ModelRequest(prefix=PREFIX))
    assert (info.value.reason, info.value.retryable) == ("malformed-response", True)
    assert len(fake_server.requests) == 2


def test_malformed_then_good_body_recovers(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=b"{not json"), Reply(body=chat_body("fine)")))
    assert make(fake_server).complete(ModelRequest(prefix=PREFIX)).text == "fine)"


def test_missing_usage_counts_zero_and_null_content_is_empty(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": None}}]}))
    response = make(fake_server, costs=[1, 1]).complete(ModelRequest(prefix=PREFIX))
    assert response.text == ""
    assert (response.usage.input_tokens, response.usage.output_tokens, response.usage.cost) == (0, 0, 0.0)


# -- streaming -------------------------------------------------------------------------------------


def test_streamed_chat_joins_deltas_and_reads_usage(fake_server: FakeServer) -> None:
    fake_server.then(Stream(chat_stream(["(def ", "x ", "42))"])))
    response = make(fake_server, stream=True).complete(ModelRequest(prefix=PREFIX))
    assert response.text == "(def x 42))"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (7, 3)
    body = fake_server.requests[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


def test_stream_usage_can_be_turned_off(fake_server: FakeServer) -> None:
    fake_server.then(Stream(chat_stream(["1)"], usage=False)))
    response = make(fake_server, stream=True, stream_usage=False).complete(ModelRequest(prefix=PREFIX))
    assert response.text == "1)"
    assert "stream_options" not in fake_server.requests[0].body


def test_stream_cut_before_final_chunk_is_malformed_and_retried(fake_server: FakeServer) -> None:
    fake_server.then(Stream(chat_stream(["(def x"], finish=False)), Stream(chat_stream(["ok)"])))
    response = make(fake_server, stream=True).complete(ModelRequest(prefix=PREFIX))
    assert (response.text, response.attempts) == ("ok)", 2)


def test_stream_with_garbled_event(fake_server: FakeServer) -> None:
    fake_server.then(Stream([sse('{"id": "c1", "choi'), "data: [DONE]\n\n"]))
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert info.value.reason == "malformed-response"


def test_stream_error_event_is_a_retryable_failure(fake_server: FakeServer) -> None:
    fake_server.then(Stream([sse({"error": {"message": "overloaded", "type": "server_error"}})]),
                     Stream(chat_stream(["ok)"])))
    response = make(fake_server, stream=True).complete(ModelRequest(prefix=PREFIX))
    assert (response.text, response.attempts) == ("ok)", 2)


def test_stalled_stream_hits_idle_timeout(fake_server: FakeServer) -> None:
    fake_server.then(Stream(chat_stream(["(def ", "x)"]), gap=3.0))
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, sse_idle_timeout_sec=0.3, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert time.monotonic() - started < 2.5
    assert (info.value.reason, info.value.retryable) == ("timeout", True)


def test_trickling_stream_hits_completion_timeout(fake_server: FakeServer) -> None:
    fake_server.then(Stream(chat_stream([str(i) for i in range(30)]), gap=0.1))
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        make(fake_server, stream=True, sse_idle_timeout_sec=2, sse_completion_timeout_sec=0.5,
             retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert time.monotonic() - started < 2.5
    assert info.value.reason == "timeout"
    assert "did not complete within 0.5s" in info.value.message


# -- Responses API ---------------------------------------------------------------------------------


@needs_responses_api
def test_responses_api(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=responses_body("(+ 1 2))")))
    provider = make(fake_server, use_responses_api=True, max_tokens=99, default_reasoning_effort="medium",
                    costs={"input": 1.0, "output": 2.0, "cache-read-input": 0.5})
    response = provider.complete(ModelRequest(prefix=PREFIX, system="SYS"))
    assert response.text == "(+ 1 2))"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (20, 8)
    assert response.usage.cost == pytest.approx((16 * 1.0 + 4 * 0.5 + 8 * 2.0) / 1e6)
    req = fake_server.requests[0]
    assert req.path == "/v1/responses"
    assert req.body["instructions"] == "SYS"
    assert req.body["input"] == [{"role": "user", "content": PREFIX}]
    assert (req.body["max_output_tokens"], req.body["reasoning"]) == (99, {"effort": "medium"})


@needs_responses_api
def test_codex_models_use_the_responses_api(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=responses_body("1)")))
    make(fake_server).complete(ModelRequest(prefix=PREFIX, model="gpt-5-codex"))
    assert fake_server.requests[0].path == "/v1/responses"


@needs_responses_api
def test_streamed_responses_api(fake_server: FakeServer) -> None:
    fake_server.then(Stream(responses_stream("(* 6 7))")))
    response = make(fake_server, api="responses", stream=True).complete(ModelRequest(prefix=PREFIX))
    assert response.text == "(* 6 7))"
    assert response.usage.output_tokens == 8


@needs_responses_api
def test_failed_response_is_retryable(fake_server: FakeServer) -> None:
    failed = {**responses_body(""), "status": "failed", "error": {"code": "server_error", "message": "oops"}}
    fake_server.then(Reply(body=failed), Reply(body=responses_body("ok)")))
    response = make(fake_server, api="responses").complete(ModelRequest(prefix=PREFIX))
    assert (response.text, response.attempts) == ("ok)", 2)


@needs_responses_api
def test_forced_tool_call_reads_the_custom_tool_input(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=responses_body("chatter", tool_input="(def y 1))")))
    provider = make(fake_server, force_tool_call=True, **{"supports-prefill?": True})
    assert provider.supports_prefill is False
    assert provider.complete(ModelRequest(prefix=PREFIX, system="S")).text == "(def y 1))"
    body = fake_server.requests[0].body
    assert body["tool_choice"] == "required"
    assert body["tools"][0]["name"] == "spell_suffix"
    assert body["instructions"].startswith("S\n\nCustom tool call output mode:")


@needs_responses_api
def test_forced_tool_call_missing_is_retried(fake_server: FakeServer) -> None:
    fake_server.then(Reply(body=responses_body("no tool")), Reply(body=responses_body("x", tool_input="ok)")))
    response = make(fake_server, force_tool_call=True).complete(ModelRequest(prefix=PREFIX))
    assert (response.text, response.attempts) == ("ok)", 2)
    fake_server.then(Reply(body=responses_body("no tool")))
    with pytest.raises(ProviderError) as info:
        make(fake_server, force_tool_call=True, retries=[]).complete(ModelRequest(prefix=PREFIX))
    assert info.value.reason == "missing-tool-call"


def test_sdk_without_responses_api_says_how_to_upgrade(fake_server: FakeServer) -> None:
    provider = make(fake_server, api="responses")
    provider.client = object()
    with pytest.raises(ProfileError, match=r"openai>=1\.66") as info:
        provider.complete(ModelRequest(prefix=PREFIX))
    assert info.value.retryable is False


# -- loading ---------------------------------------------------------------------------------------


def test_invalid_profile_values_name_the_key() -> None:
    base = {"base-url": "http://127.0.0.1:9/v1"}
    for key, value in [("retries", "soon"), ("retries", [-1]), ("max-tokens", 0), ("request-timeout-sec", "x"),
                       ("stream", "yes"), ("api", "completions"), ("costs", {"m": [1]})]:
        with pytest.raises(ProfileError, match=key):
            OpenAICompatibleProvider.from_profile({**base, key: value})
    with pytest.raises(ProfileError, match="auth-file"):
        OpenAICompatibleProvider.from_profile({**base, "auth-file": "~/.codex/auth.json"})


def test_hosted_service_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIREWORKS_API_KEY", "fw")
    fireworks = OpenAICompatibleProvider.from_profile({"provider": Keyword("fireworks")})
    assert fireworks.base_url == "https://api.fireworks.ai/inference/v1"
    assert fireworks.max_tokens_param == "max_tokens"
    monkeypatch.delenv("FIREWORKS_API_KEY")
    with pytest.raises(ProfileError, match="FIREWORKS_API_KEY"):
        OpenAICompatibleProvider.from_profile({"provider": "fireworks"})
    ollama = OpenAICompatibleProvider.from_profile({":provider": ":ollama"})
    assert ollama.base_url == "http://localhost:11434/v1"
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    official = OpenAICompatibleProvider.from_profile({"provider": "openai"})
    assert (official.max_tokens_param, official.default_max_tokens) == ("max_completion_tokens", 16384)


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(ProfileError, match=r"pip install 'spellc\[openai\]'") as info:
        OpenAICompatibleProvider.from_profile({"base-url": "http://127.0.0.1:9/v1"})
    assert info.value.reason == "missing-sdk"
