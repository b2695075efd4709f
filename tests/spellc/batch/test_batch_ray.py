"""``spellc batch --backend ray``: the same batch on a local Ray cluster (one per test session, always shut down).

Skipped only when ray is not importable (``.ci/run`` installs the ``ray`` extra).
The cluster is local and offline: two CPUs, no dashboard, token authentication
off, usage statistics off, its HOME and temp dir under a fresh temporary
directory (short, because Ray puts Unix sockets there).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from spellc.batch.backends.ray_backend import RayBackend, wheel_runtime_env  # noqa: E402
from spellc.batch.benchmark_api import handle_request  # noqa: E402
from spellc.batch.progress import Progress  # noqa: E402
from spellc.batch.runner import BatchOptions, BatchRunner  # noqa: E402

SCRIPTED = ["(def x 1)\n'(!extend)", "(def y (+ x 1))\n'(!extend)", "(* 10 (+ x y))"]
BATCH = [
    {"id": "three-turns", "prompt": "Add things", "model": "test:", "responses": SCRIPTED},
    {"id": "runaway", "init": "(loop [] (recur))", "model": "test:"},
    {"id": "hello", "prompt": "Say hello", "model": "test:"},
    {"id": 7, "init": "(+ 1 2)", "model": "test:"},
]


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    base = tempfile.mkdtemp(prefix="sr", dir="/tmp")
    saved = {k: os.environ.get(k) for k in ("HOME", "RAY_AUTH_MODE", "RAY_USAGE_STATS_ENABLED", "PIP_NO_INDEX")}
    os.environ.update({"HOME": base, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0",
                       "PIP_NO_INDEX": "1"})  # a shipped wheel installs from itself, never from an index
    try:
        ray.init(num_cpus=2, include_dashboard=False, _temp_dir=os.path.join(base, "t"), log_to_driver=False)
        yield
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(base, ignore_errors=True)


def run_batch(tmp_path: Path, lines: list[Any], **options: Any) -> tuple[Any, list[dict[str, Any]]]:
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "results.jsonl"
    summary = BatchRunner(BatchOptions(str(requests), str(out), backend="ray", **options),
                          progress=Progress(len(lines), enabled=False)).run()
    return summary, [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_the_batch_runs_on_ray_with_the_runaway_stopped(ray_cluster: None, tmp_path: Path) -> None:
    summary, out = run_batch(tmp_path, BATCH, timeout=20.0, concurrency=2)
    by_id = {json.dumps(r["id"]): r for r in out}
    assert len(out) == 4 == len(by_id)
    assert by_id['"three-turns"']["result"] == "30"
    assert by_id['"hello"']["result"] == "hello world"
    assert by_id["7"]["result"] == "3"
    runaway = by_id['"runaway"']
    assert runaway["ok"] is False and runaway["error_type"] == "timeout"
    assert runaway["error_data"] == {"timeout_sec": 20.0}
    assert ray.is_initialized()  # a runtime the caller started is left running

    summary, again = run_batch(tmp_path, BATCH, timeout=20.0, resume=True)
    assert again == out and summary.resumed == 4 and summary.written == 0


def make_wheel(directory: Path) -> Path:
    """A one-module wheel with no dependencies (what an agent package's wheel looks like to Ray)."""
    wheel = directory / "spellc_shipped_probe-1.0-py3-none-any.whl"
    info = "spellc_shipped_probe-1.0.dist-info"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("spellc_shipped_probe.py", "SHIPPED = 'from the wheel'\n")
        zf.writestr(info + "/METADATA", "Metadata-Version: 2.1\nName: spellc-shipped-probe\nVersion: 1.0\n")
        zf.writestr(info + "/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(info + "/RECORD", "")
    return wheel


PROBE = """
import importlib, json, sys
import ray
from spellc.batch.backends.ray_backend import RayBackend
from spellc.batch.benchmark_api import handle_request

def probe(module):
    return importlib.import_module(module).SHIPPED

backend = RayBackend(handle_request, address=sys.argv[1], wheels=[sys.argv[2]])
try:
    print(json.dumps(ray.get(ray.remote(probe).remote("spellc_shipped_probe"), timeout=300)))
finally:
    backend.close()
"""


def test_an_agent_wheel_is_installed_where_items_run(ray_cluster: None, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path)
    assert wheel_runtime_env([str(wheel)]) == {"py_modules": [str(wheel)]}
    with pytest.raises(ValueError, match="not a wheel file"):
        wheel_runtime_env([str(tmp_path / "missing.whl")])
    with pytest.raises(ValueError, match="its own Ray driver"):
        RayBackend(handle_request, wheels=[str(wheel)])  # this session's runtime was started by the fixture
    # A second driver on the session's cluster, as `spellc batch --ray-address ... --agent-wheel W` makes it.
    address = ray.get_runtime_context().gcs_address
    done = subprocess.run([sys.executable, "-c", PROBE, address, str(wheel)], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == "from the wheel"


def test_the_cli_refuses_wheels_without_ray_backend(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path)
    requests = tmp_path / "r.jsonl"
    requests.write_text("", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "spellc", "batch", str(requests), "-o", str(tmp_path / "o.jsonl"),
                           "--agent-wheel", str(wheel)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--backend ray" in done.stderr
