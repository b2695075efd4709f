"""Failure classification for exceptions that do not come from a fake-server exchange."""

from __future__ import annotations

import json

import pytest

from spellc.providers.base import ProviderError
from spellc.providers.http_common import StreamDeadline, classify_failure, field, token_count

openai = pytest.importorskip("openai")


def test_bugs_are_not_provider_failures() -> None:
    assert classify_failure(KeyError("x"), openai, "L") is None
    assert classify_failure(TypeError("x"), openai, "L") is None


def test_provider_errors_pass_through() -> None:
    err = ProviderError("m", reason="http-429", retryable=True)
    assert classify_failure(err, openai, "L") is err


def test_decoding_errors_are_malformed_bodies() -> None:
    err = classify_failure(json.JSONDecodeError("Expecting value", "{", 1), openai, "L")
    assert err is not None and (err.reason, err.retryable) == ("malformed-response", True)
    assert err.message.startswith("L returned a malformed response")
    bad_utf8 = classify_failure(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), openai, "L")
    assert bad_utf8 is not None and bad_utf8.reason == "malformed-response"


def test_sdk_refusing_our_arguments_is_not_a_server_fault() -> None:
    assert classify_failure(ValueError("Streaming is required"), openai, "L") is None


def test_field_reads_dicts_objects_and_pydantic_extras() -> None:
    class Obj:
        a = 1
        model_extra = {"b": 2}

    assert (field({"a": 1}, "a"), field(Obj(), "a"), field(Obj(), "b"), field(None, "a")) == (1, 1, 2, None)
    assert (token_count({"n": 5}, "n"), token_count({"n": -1}, "n"), token_count({"n": True}, "n")) == (5, 0, 0)


def test_stream_deadline() -> None:
    StreamDeadline(60, "L").check()
    expired = StreamDeadline(0.001, "L")
    expired.deadline -= 1
    with pytest.raises(ProviderError, match="did not complete") as info:
        expired.check()
    assert info.value.reason == "timeout"
