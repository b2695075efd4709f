"""``spellc benchmark-api`` driven as a harness drives it: a process, JSON on stdin, JSON on stdout, an exit status."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

import pytest

SCRIPTED = ["(def x 1)\n'(!extend)", "(def y (+ x 1))\n'(!extend)", "(* 10 (+ x y))"]
PROVIDER_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "FIREWORKS_API_KEY", "OLLAMA_API_KEY")


def _env() -> dict[str, str]:
    env = dict(os.environ)  # PYTHONPATH inherited: the spellc under test
    for key in PROVIDER_KEYS:
        env.pop(key, None)  # no test may reach a real provider
    return env


def api(request: Any, *args: str, cwd: Optional[Path] = None) -> tuple[int, Optional[dict[str, Any]], str]:
    """(exit status, the response object or None, stderr) of one ``spellc benchmark-api`` process."""
    stdin = request if isinstance(request, str) else json.dumps(request)
    done = subprocess.run([sys.executable, "-m", "spellc", "benchmark-api", *args], input=stdin, text=True,
                          capture_output=True, timeout=120, env=_env(), cwd=cwd)
    lines = done.stdout.splitlines()
    return done.returncode, (json.loads(lines[0]) if lines else None), done.stderr


def test_test_provider_answers_hello_world() -> None:
    code, response, _ = api({"prompt": "Say hello", "model": "test:anything"})
    assert code == 0
    assert response is not None
    assert response["ok"] is True and response["mode"] == "spell" and response["result"] == "hello world"
    assert isinstance(response["latency_ms"], float) and response["latency_ms"] > 0
    assert response["usage"]["total"]["calls"] == 1
    assert "trace_dir" not in response


def test_response_is_one_json_line() -> None:
    done = subprocess.run([sys.executable, "-m", "spellc", "benchmark-api"], input='{"init": "(+ 1 2)", "model": "test:"}',
                          text=True, capture_output=True, timeout=120, env=_env())
    assert done.stdout.count("\n") == 1 and done.stdout.endswith("\n")
    assert json.loads(done.stdout)["result"] == "3"


def test_no_prompt_and_no_init_is_an_invalid_request() -> None:
    code, response, _ = api({"model": "test:"})
    assert code == 1
    assert response == {"ok": False, "mode": "spell", "error": "Request must include prompt or init",
                        "error_type": "invalid_request"}


def test_unknown_prefix_lists_the_known_ones() -> None:
    code, response, _ = api({"prompt": "x", "model": "gemini:pro"})
    assert code == 1 and response is not None
    assert response["error"] == ('Unknown provider prefix: "gemini". Known prefixes: anthropic-pf, anthropic-tc, '
                                 'codex-tc, fireworks, ollama, openai-tc, test')
    assert response["error_data"] == {"prefix": "gemini", "model-spec": "gemini:pro"}


def test_missing_model_is_refused() -> None:
    code, response, _ = api({"prompt": "x"})
    assert code == 1 and response is not None
    assert response["error"] == "model is required in benchmark request"


def test_keys_with_underscores_and_dashes_alike(tmp_path: Path) -> None:
    for key in ("trace_dir", "trace-dir"):
        trace = tmp_path / key
        code, response, _ = api({"prompt": "Say hello", "model": "test:", key: str(trace)})
        assert code == 0 and response is not None
        assert response["trace_dir"] == str(trace)
        assert (trace / "trace.edn").is_file()


def test_trace_true_without_a_directory_uses_a_timestamped_one(tmp_path: Path) -> None:
    code, response, _ = api({"prompt": "Say hello", "model": "test:", "trace": True}, cwd=tmp_path)
    assert code == 0 and response is not None
    assert response["trace_dir"].startswith("traces/")
    assert (tmp_path / response["trace_dir"] / "trace.edn").is_file()


def test_scripted_responses_run_three_turns() -> None:
    code, response, _ = api({"prompt": "Add things", "model": "test:", "responses": SCRIPTED})
    assert code == 0 and response is not None
    assert response["result"] == "30"
    assert response["usage"]["total"]["calls"] == 3


def test_running_out_of_scripted_responses_is_a_provider_fault() -> None:
    code, response, _ = api({"prompt": "Add things", "model": "test:", "responses": SCRIPTED[:1]})
    assert code == 1 and response is not None
    assert response["error"] == "TestProvider: no response for prompt"
    assert response["error_data"]["spell/fault"] == "environment"
    assert response["error_data"]["provider-failure"]["retryable"] is False


def test_one_shot_returns_the_raw_completion() -> None:
    code, response, _ = api({"mode": "one_shot", "prompt": "Say hello", "model": "test:"})
    assert code == 0 and response is not None
    assert response["mode"] == "one_shot" and response["result"] == '"hello world"'


def test_one_shot_needs_a_prompt_and_unknown_modes_are_refused() -> None:
    code, response, _ = api({"mode": "one_shot", "init": "1", "model": "test:"})
    assert code == 1 and response == {"ok": False, "mode": "one_shot", "error": "one_shot mode requires prompt",
                                      "error_type": "invalid_request"}
    code, response, _ = api({"mode": "chat", "prompt": "x", "model": "test:"})
    assert code == 1 and response == {"ok": False, "mode": "chat", "error": "Unsupported mode: chat",
                                      "error_type": "invalid_mode"}


def test_a_run_error_carries_its_type_and_data() -> None:
    code, response, _ = api({"init": "(quine completion (eval (do '(!extend))))", "model": "test:",
                             "responses": ["(def a 1)\n'(!extend)"] * 5, "depth": 2})
    assert code == 1 and response is not None
    assert response["error"] == "LLM recursion limit exceeded"
    assert response["error_type"] == "depth-exceeded"
    assert response["error_data"]["spell/fault"] == "environment"


def test_settings_spellc_cannot_honour_are_refused_not_ignored() -> None:
    code, response, _ = api({"prompt": "x", "model": "test:", "thinking": True})
    assert code == 1 and response is not None
    assert response["error_type"] == "invalid_request"
    assert response["error"] == "spellc benchmark-api does not support the request key 'thinking' (use reasoning_effort)"


def test_a_provider_without_its_key_fails_naming_what_is_missing() -> None:
    pytest.importorskip("anthropic")  # the dev extra installs it; the missing-SDK message is tested elsewhere
    code, response, _ = api({"prompt": "x", "model": "anthropic-pf:claude-sonnet-4-5"})
    assert code == 1 and response is not None
    assert "ANTHROPIC_API_KEY" in response["error"]


def test_an_installed_agent_name_is_refused_by_name() -> None:
    code, response, _ = api({"prompt": "x", "model": "test:", "agent": "tally"})
    assert code == 1 and response is not None
    assert response["error_type"] == "invalid_request"
    assert "'tally'" in response["error"] and response["error_data"] == {"agent": "tally"}


def test_an_agent_profile_path_is_used(tmp_path: Path) -> None:
    profile = tmp_path / "strict.agent.edn"
    profile.write_text("{:recover false}\n", encoding="utf-8")
    code, response, _ = api({"init": "(do undefined-symbol)", "model": "test:", "agent": str(profile)})
    assert code == 1 and response is not None
    assert response["error"] == "Unbound symbol: undefined-symbol"


def test_request_and_response_files(tmp_path: Path) -> None:
    request = tmp_path / "req.json"
    request.write_text(json.dumps({"prompt": "x", "model": "test:"}), encoding="utf-8")
    out = tmp_path / "resp.json"
    code, response, _ = api("", "--request", str(request), "--response", str(out))
    assert code == 0 and response is None
    assert json.loads(out.read_text(encoding="utf-8"))["result"] == "hello world"


def test_bad_json_is_an_invalid_request_and_bad_options_a_usage_error() -> None:
    code, response, _ = api("{not json")
    assert code == 1 and response is not None
    assert response["error_type"] == "invalid_request" and response["error"].startswith("Request is not valid JSON")
    code, response, stderr = api({}, "--bogus")
    assert code == 2 and response is None and "--bogus" in stderr


def _wait_for_handler(pid: int, sig: signal.Signals, deadline_sec: float = 60.0) -> None:
    """Wait until the process has installed its handler for ``sig`` (Linux: SigCgt in /proc/PID/status)."""
    end = time.monotonic() + deadline_sec
    while time.monotonic() < end:
        for line in Path("/proc/%d/status" % pid).read_text().splitlines():
            if line.startswith("SigCgt:") and int(line.split()[1], 16) & (1 << (sig - 1)):
                return
        time.sleep(0.05)
    raise AssertionError("the process never installed its %s handler" % sig.name)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to know the handler is installed")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_terminated_run_writes_the_killed_response(sig: signal.Signals) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "spellc", "benchmark-api"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    try:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps({"init": "(loop [] (recur))", "model": "test:"}))
        proc.stdin.close()
        # SIGTERM's handler, not SIGINT's: Python installs its own SIGINT handler at start-up, while SIGTERM
        # is caught only once the command has installed the killed-response handlers (both at once).
        _wait_for_handler(proc.pid, signal.SIGTERM)
        time.sleep(0.5)  # into the runaway loop
        proc.send_signal(sig)
        proc.wait(timeout=60)
        assert proc.stdout is not None
        out = proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode == 1
    response = json.loads(out)
    assert response["ok"] is False and response["error_type"] == "killed"
    assert response["error"] == "spellc benchmark-api was terminated before completing"
    assert isinstance(response["patch_on_disk"], bool)
    assert response["error_data"] == {"patch_on_disk": response["patch_on_disk"], "partial_work": False}
