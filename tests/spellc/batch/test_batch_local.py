"""``spellc batch`` on the local backend: one result per id, runaways killed, resume, retries, the budget."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from spellc.batch import runner as runner_mod
from spellc.batch.backends.local import LocalBackend
from spellc.batch.benchmark_api import RequestState
from spellc.batch.progress import Progress
from spellc.batch.runner import BatchOptions, BatchRunner

SCRIPTED = ["(def x 1)\n'(!extend)", "(def y (+ x 1))\n'(!extend)", "(* 10 (+ x y))"]


def write_jsonl(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def batch_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spellc", "batch", *args], capture_output=True, text=True,
                          timeout=300)


MIXED = [
    {"id": "three-turns", "prompt": "Add things", "model": "test:", "responses": SCRIPTED},
    {"id": "runaway", "init": "(loop [] (recur))", "model": "test:"},
    {"id": "hello", "prompt": "Say hello", "model": "test:"},
    {"id": 7, "init": "(+ 1 2)", "model": "test:"},
]


def test_a_runaway_item_is_killed_and_resume_reruns_nothing(tmp_path: Path) -> None:
    # The batch timeout is the one wall-clock part: only the runaway runs under it, so a loaded machine
    # cannot make a working item exceed it; the other items run in the resumed batch, which has none.
    requests = write_jsonl(tmp_path / "requests.jsonl", MIXED + ["{broken", {"prompt": "no id", "model": "test:"}])
    runaway_only = write_jsonl(tmp_path / "runaway.jsonl", [MIXED[1]])
    out = tmp_path / "results.jsonl"
    killed = batch_cli(str(runaway_only), "-o", str(out), "--timeout", "2")
    assert killed.returncode == 1, killed.stderr
    rest = batch_cli(str(requests), "-o", str(out), "--resume", "--concurrency", "2")
    assert rest.returncode == 1, rest.stderr  # two bad lines
    assert "5 written (2 failed), 1 already done" in rest.stderr
    by_id = {json.dumps(r["id"]) + str(r.get("line", "")): r for r in results(out)}
    assert len(results(out)) == 6 == len(by_id)
    assert by_id['"three-turns"']["result"] == "30"
    assert by_id['"hello"']["result"] == "hello world"
    assert by_id["7"]["result"] == "3"
    runaway = by_id['"runaway"']
    assert runaway["ok"] is False and runaway["error_type"] == "killed"
    assert runaway["error"] == "Item exceeded the batch timeout of 2s and was terminated"
    assert runaway["error_data"]["timeout_sec"] == 2.0
    assert by_id["null5"]["error_type"] == "invalid_request" and by_id["null5"]["error"].startswith("line 5")
    assert by_id["null6"]["error"] == "line 6 has no id"

    before = out.read_bytes()
    again = batch_cli(str(requests), "-o", str(out), "--timeout", "2", "--resume")
    assert again.returncode == 0, again.stderr
    assert out.read_bytes() == before
    assert "0 written (0 failed), 6 already done" in again.stderr


def test_resume_runs_only_the_missing_ids(tmp_path: Path) -> None:
    requests = write_jsonl(tmp_path / "requests.jsonl", [MIXED[0], MIXED[2], MIXED[3]])
    out = write_jsonl(tmp_path / "results.jsonl", [{"id": "hello", "ok": True, "result": "from before"}])
    done = batch_cli(str(requests), "-o", str(out), "--resume")
    assert done.returncode == 0, done.stderr
    ids = [r["id"] for r in results(out)]
    assert sorted(ids, key=str) == [7, "hello", "three-turns"]
    assert results(out)[0]["result"] == "from before"


def test_existing_results_need_resume(tmp_path: Path) -> None:
    requests = write_jsonl(tmp_path / "requests.jsonl", [MIXED[2]])
    out = write_jsonl(tmp_path / "results.jsonl", [{"id": "hello", "ok": True}])
    done = batch_cli(str(requests), "-o", str(out))
    assert done.returncode == 2 and "--resume" in done.stderr


def test_trace_dir_gives_each_item_its_own_directory(tmp_path: Path) -> None:
    requests = write_jsonl(tmp_path / "requests.jsonl", [MIXED[0], MIXED[2]])
    out = tmp_path / "results.jsonl"
    done = batch_cli(str(requests), "-o", str(out), "--trace-dir", str(tmp_path / "traces"))
    assert done.returncode == 0, done.stderr
    for item_id in ("three-turns", "hello"):
        assert (tmp_path / "traces" / item_id / "trace.edn").is_file()
    assert {r["trace_dir"] for r in results(out)} == {str(tmp_path / "traces" / i) for i in ("three-turns", "hello")}


# -- in-process runs with injected item functions (forked, so they need no pickling) ---------------------
def attempt_counter(request: dict[str, Any], state: RequestState) -> dict[str, Any]:
    """Counts attempts in a file; fails like a provider 5xx until ``fail_times`` attempts were made."""
    counter = Path(request["counter"])
    attempts = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(attempts))
    if attempts <= request["fail_times"]:
        return {"ok": False, "mode": "spell", "error": request["error"], "error_type": None,
                "error_data": {"spell/fault": request["fault"], "provider-failure": {"retryable": request["retryable"]}}}
    return {"ok": True, "mode": "spell", "result": str(attempts), "usage": {"total": {"cost": request.get("cost")}}}


def crasher(request: dict[str, Any], state: RequestState) -> dict[str, Any]:
    os._exit(3)


def sigterm_ignorer(request: dict[str, Any], state: RequestState) -> dict[str, Any]:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(600)
    return {"ok": True}


def run_in_process(tmp_path: Path, lines: list[Any], item_fn: Any, **options: Any) -> tuple[Any, list[dict[str, Any]]]:
    requests = write_jsonl(tmp_path / "requests.jsonl", lines)
    out = tmp_path / "results.jsonl"
    summary = BatchRunner(BatchOptions(str(requests), str(out), **options), item_fn=item_fn,
                          progress=Progress(len(lines), enabled=False)).run()
    return summary, results(out)


def test_environment_faults_are_retried_and_program_errors_are_not(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_mod, "retry_delay", lambda attempts: 0.05)
    flaky = {"id": "flaky", "counter": str(tmp_path / "flaky"), "fail_times": 2, "error": "HTTP 503",
             "fault": "environment", "retryable": True}
    broken = {"id": "broken", "counter": str(tmp_path / "broken"), "fail_times": 5, "error": "Unbound symbol: x",
              "fault": "document", "retryable": False}
    hopeless = {"id": "hopeless", "counter": str(tmp_path / "hopeless"), "fail_times": 9, "error": "HTTP 500",
                "fault": "environment", "retryable": True}
    summary, out = run_in_process(tmp_path, [flaky, broken, hopeless], attempt_counter, retries=2)
    by_id = {r["id"]: r for r in out}
    assert by_id["flaky"]["ok"] is True and by_id["flaky"]["attempts"] == 3
    assert by_id["broken"]["ok"] is False and "attempts" not in by_id["broken"]
    assert (tmp_path / "broken").read_text() == "1"
    assert by_id["hopeless"]["attempts"] == 3 and (tmp_path / "hopeless").read_text() == "3"
    assert summary.retried == 4


def test_the_budget_ledger_starts_no_item_once_spent(tmp_path: Path) -> None:
    lines = [{"id": i, "counter": str(tmp_path / ("c%d" % i)), "fail_times": 0, "cost": 0.6} for i in range(5)]
    summary, out = run_in_process(tmp_path, lines, attempt_counter, budget=1.0, concurrency=1)
    assert [r["id"] for r in out] == [0, 1]
    assert summary.not_started == 3 and summary.spent == pytest.approx(1.2)
    summary, out = run_in_process(tmp_path, lines, attempt_counter, budget=2.0, concurrency=1, resume=True)
    assert [r["id"] for r in out] == [0, 1, 2, 3]  # the earlier 1.2 counts: one more item fits
    assert summary.not_started == 1


def test_a_crashing_item_is_recorded_and_the_others_finish(tmp_path: Path) -> None:
    summary, out = run_in_process(tmp_path, [{"id": "x"}], crasher)
    assert out[0]["error_type"] == "crashed" and out[0]["error_data"] == {"detail": "exit status 3"}


def ignore_sigterm(state: RequestState, write: Any, signals: Any = ()) -> None:
    """Stands in for the item's SIGTERM handler (``shutdown.on_termination``): the item ignores SIGTERM
    from its first instruction, so the timeout cannot find it before it ignores the signal."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def test_an_item_that_ignores_sigterm_is_killed_as_a_timeout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spellc.batch import shutdown

    real_init = LocalBackend.__init__

    def short_grace(self: LocalBackend, item_fn: Any, timeout: Any = None, grace_sec: float = 0.5) -> None:
        real_init(self, item_fn, timeout, grace_sec=0.5)

    monkeypatch.setattr(LocalBackend, "__init__", short_grace)
    monkeypatch.setattr(shutdown, "on_termination", ignore_sigterm)  # read by the forked item
    started = time.monotonic()
    summary, out = run_in_process(tmp_path, [{"id": "stubborn"}], sigterm_ignorer, timeout=1.0)
    assert out[0]["error_type"] == "timeout" and out[0]["error_data"] == {"timeout_sec": 1.0}
    assert time.monotonic() - started < 300  # killed, not left to sleep its 600 s


def test_progress_shows_only_when_enabled() -> None:
    quiet = io.StringIO()
    Progress(4, stream=quiet).show(1, 0, 1, 0.0)  # a StringIO is not a terminal
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    bar = Progress(4, stream=shown, enabled=True)
    bar.show(2, 1, 1, 0.25)
    bar.close()
    assert shown.getvalue() == "\r[############------------] 2/4 done  1 failed  1 running  $0.2500\n"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="walks /proc for the item processes")
@pytest.mark.parametrize("sig, kill_batch", [(signal.SIGTERM, False), (signal.SIGKILL, True)])
def test_items_never_outlive_the_batch(tmp_path: Path, sig: signal.Signals, kill_batch: bool) -> None:
    requests = write_jsonl(tmp_path / "requests.jsonl", [MIXED[1], MIXED[2]])  # runaway, no timeout
    out = tmp_path / "results.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "spellc", "batch", str(requests), "-o", str(out), "--concurrency", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (out.exists() and out.read_text(encoding="utf-8").count("\n") == 1):  # "hello" finished
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        items = _children(proc.pid)
        assert len(items) == 1  # the runaway
        proc.send_signal(sig)
        proc.wait(timeout=60)
        if not kill_batch:
            assert proc.returncode == 128 + signal.SIGTERM
            assert proc.stderr is not None and "--resume" in proc.stderr.read()
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in items):
            assert time.monotonic() < deadline, "an item outlived its batch"
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()
    assert [r["id"] for r in results(out)] == ["hello"]  # the interrupted item is left for --resume


def test_resume_after_a_torn_last_line(tmp_path: Path) -> None:
    requests = write_jsonl(tmp_path / "requests.jsonl", [MIXED[2], MIXED[3]])
    out = tmp_path / "results.jsonl"
    out.write_text('{"id": "hello", "ok": true, "result": "hello world"}\n{"id": 7, "ok": tr', encoding="utf-8")
    done = batch_cli(str(requests), "-o", str(out), "--resume")
    assert done.returncode == 0, done.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[1] == '{"id": 7, "ok": tr'
    assert json.loads(lines[2])["id"] == 7 and json.loads(lines[2])["result"] == "3"
