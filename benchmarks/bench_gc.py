"""The evaluation GC policy (``spell_runtime.gcpolicy``) measured on the six kernels.

Run: ``python benchmarks/bench_gc.py``. For each kernel, CPU time (``process_time``:
less sensitive than wall time to other processes on a shared machine) with the
default thresholds and inside ``evaluation_gc()``, interleaved, medians of
``BENCH_REPEAT`` runs, plus the number of young collections each run triggers.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from kernels import KERNELS
from spell_runtime.gcpolicy import evaluation_gc
from spell_runtime.program import close_env

import spellc
from spellc.api import new_env
from spellc.compiler import run_form


def measure(run: Callable[[], Any], policy: bool) -> tuple[float, int]:
    before = gc.get_stats()[0]["collections"]
    with evaluation_gc() if policy else nullcontext():
        t = time.process_time()
        run()
        elapsed = time.process_time() - t
    return elapsed, gc.get_stats()[0]["collections"] - before


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "7"))
    print("| kernel | default (ms CPU) | gen0 collections | evaluation_gc (ms CPU) | gen0 collections | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, setup, expr, _ in KERNELS:
        D = new_env()
        run_form(D, spellc.read_string(setup))
        form = spellc.read_string(expr)
        run_form(D, form)

        def run(D: dict[Any, Any] = D, form: Any = form) -> Any:
            return run_form(D, form)

        base: list[tuple[float, int]] = []
        policy: list[tuple[float, int]] = []
        for _ in range(repeat):
            base.append(measure(run, False))
            policy.append(measure(run, True))
        close_env(D)
        b = statistics.median(t for t, _ in base)
        p = statistics.median(t for t, _ in policy)
        print("| %s | %.1f | %d | %.1f | %d | ×%.2f |" % (
            name, b * 1000, max(c for _, c in base), p * 1000, max(c for _, c in policy), p / b))


if __name__ == "__main__":
    main()
