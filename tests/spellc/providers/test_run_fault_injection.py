"""Fault injection end to end: ``spellc.run`` against a failing model server on 127.0.0.1.

A provider failure is the environment's fault: the run reports it (with its reason) instead of
re-prompting the model, never spends the model's error budget, and what the program already
wrote stays whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from provider_wire import FakeServer, Reply, Stream, Truncated, chat_body, chat_stream

import spellc

pytest.importorskip("openai")

# The trailing expression writes a file, then asks the model for the next turn.
INIT = ("(quine completion (eval (do (def note \"kept\") "
        "'(do (io/write-file \"out.txt\" note) (!extend)))))")


def profile(server: FakeServer, **extra: Any) -> dict[str, Any]:
    p = {"provider": "openai", "base-url": server.url + "/v1", "default-model": "local-model",
         "retries": [0, 0], "request-timeout-sec": 2}
    p.update({k.replace("_", "-"): v for k, v in extra.items()})
    return p


def run(server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **extra: Any) -> dict[str, Any]:
    monkeypatch.chdir(tmp_path)
    out: dict[str, Any] = spellc.run(init=INIT, model_profile=profile(server, **extra))
    return out


def assert_environment_failure(out: dict[str, Any], tmp_path: Path) -> None:
    assert "error" in out, out
    data = out["error_data"] or {}
    assert str(data.get("spell/fault")) in (":environment", "environment"), data
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "kept"  # whole, not half-written
    assert not list(tmp_path.glob(".*tmp*"))  # no temporary file left behind


def test_persistent_5xx_is_reported_after_retries_without_a_repair_turn(
        fake_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_server.then(*[Reply(503, {"error": {"message": "overloaded"}}) for _ in range(3)])
    out = run(fake_server, tmp_path, monkeypatch)
    assert_environment_failure(out, tmp_path)
    assert len(fake_server.requests) == 3  # the schedule [0 0] = three attempts, and no recovery call


def test_5xx_then_success_continues_the_run(fake_server: FakeServer, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fake_server.then(Reply(502, {"error": {"message": "bad gateway"}}), Reply(body=chat_body("(+ 40 2))))")))
    out = run(fake_server, tmp_path, monkeypatch)
    assert out.get("result") == 42, out
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "kept"


def test_timeout_is_an_environment_failure(fake_server: FakeServer, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fake_server.then(*[Reply(body=chat_body("1)))"), delay=5.0) for _ in range(3)])
    out = run(fake_server, tmp_path, monkeypatch, request_timeout_sec=0.3)
    assert_environment_failure(out, tmp_path)


@pytest.mark.parametrize("action", [Truncated(b'{"choices": [{"message": {"content": "(+ 1'),
                                    Reply(body="this is not json", content_type="application/json")])
def test_truncated_or_malformed_bodies_are_environment_failures(
        action: Any, fake_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_server.then(action, action, action)
    out = run(fake_server, tmp_path, monkeypatch)
    assert_environment_failure(out, tmp_path)


def test_stalled_stream_is_an_environment_failure(fake_server: FakeServer, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    stalled = Stream(chat_stream(["(+ 1", " 2)))"]), gap=3.0)
    fake_server.then(stalled, stalled, stalled)
    out = run(fake_server, tmp_path, monkeypatch, stream=True, sse_idle_timeout_sec=0.3, request_timeout_sec=0.3)
    assert_environment_failure(out, tmp_path)
