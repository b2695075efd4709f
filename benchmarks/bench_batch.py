"""Throughput of N scripted runs: spellc batch (local, ray) against one ``spellc benchmark-api`` process per item.

The reference's benchmark client starts one process per item (one JVM, about
1.3 s each) through the JSON contract; ``spellc benchmark-api`` is the drop-in
for that, so "one process per item" is measured with it. ``spellc batch`` runs
the same requests in one process: the local backend forks one warmed-up child
per item, the Ray backend runs one task per item on a local cluster (its start
is timed separately: a cluster is started once per sweep, not per item).

Every request is the same three-turn scripted run (the ``test`` provider, no
network), so the numbers are spellc's own per-item overhead, not a model's.
All modes run CONCURRENCY items at a time.

Usage: python benchmarks/bench_batch.py [N] [CONCURRENCY]   (default: 24 2)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Optional

SCRIPT = ["(def x 1)\n'(!extend)", "(def y (+ x 1))\n'(!extend)", "(* 10 (+ x y))"]


def requests(n: int) -> list[dict[str, Any]]:
    return [{"id": i, "prompt": "Add things", "model": "test:", "responses": SCRIPT} for i in range(n)]


def check(results: list[dict[str, Any]], n: int) -> None:
    assert len(results) == n and all(r.get("result") == "30" for r in results), results[:2]


def per_process(n: int, concurrency: int) -> float:
    """One ``spellc benchmark-api`` process per item."""

    def one(request: dict[str, Any]) -> dict[str, Any]:
        done = subprocess.run([sys.executable, "-m", "spellc", "benchmark-api"], input=json.dumps(request),
                              capture_output=True, text=True, check=True)
        response: dict[str, Any] = json.loads(done.stdout)
        return response

    start = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(one, requests(n)))
    elapsed = time.perf_counter() - start
    check(results, n)
    return elapsed


def batch(n: int, concurrency: int, backend: str, work: Path) -> float:
    """``spellc batch`` in this process (the backend's start-up included, a Ray cluster's not)."""
    from spellc.batch.progress import Progress
    from spellc.batch.runner import BatchOptions, BatchRunner

    source = work / ("%s-requests.jsonl" % backend)
    source.write_text("".join(json.dumps(r) + "\n" for r in requests(n)), encoding="utf-8")
    out = work / ("%s-results.jsonl" % backend)
    start = time.perf_counter()
    BatchRunner(BatchOptions(str(source), str(out), backend=backend, concurrency=concurrency),
                progress=Progress(n, enabled=False)).run()
    elapsed = time.perf_counter() - start
    check([json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()], n)
    return elapsed


def start_ray(work: Path, concurrency: int) -> Optional[float]:
    try:
        import ray
    except ImportError:
        return None
    os.environ.update({"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"})
    start = time.perf_counter()
    ray.init(num_cpus=concurrency, include_dashboard=False, log_to_driver=False, _temp_dir=str(work / "ray"))
    return time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    work = Path(tempfile.mkdtemp(prefix="bb", dir="/tmp"))
    try:
        rows: list[tuple[str, float]] = [("benchmark-api process per item", per_process(n, concurrency)),
                                         ("spellc batch --backend local", batch(n, concurrency, "local", work))]
        ray_start = start_ray(work, concurrency)
        if ray_start is not None:
            import ray

            try:
                rows.append(("spellc batch --backend ray", batch(n, concurrency, "ray", work)))
            finally:
                ray.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = rows[0][1]
    print("%d three-turn scripted runs, %d at a time (%d CPUs)" % (n, concurrency, os.cpu_count() or 0))
    print("%-34s %9s %10s %9s %14s" % ("mode", "wall s", "items/s", "ms/item", "vs per-process"))
    for name, seconds in rows:
        print("%-34s %9.2f %10.1f %9.1f %13.1fx" % (name, seconds, n / seconds, 1000 * seconds / n, base / seconds))
    if ray_start is None:
        print("(ray not installed: pip install '.[ray]' to measure the Ray backend)")
    else:
        print("(Ray cluster start, once per sweep, not in the table: %.1f s)" % ray_start)


if __name__ == "__main__":
    main()
