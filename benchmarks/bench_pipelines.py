"""Fused sequence pipelines (issue 13 item 4, ``spellc.emit.pipelines``): each one fused, unfused, and in plain Python.

Run: ``python benchmarks/bench_pipelines.py [WORD...]`` (prints a table; with words, only the
rows whose name contains one). ``BENCH_REPEAT`` (default 5) sets the runs per row.

"unfused" is the same program compiled with every other optimisation on but no pipeline
fused (``pipelines.pipeline_of`` answering None while it compiles), so the column pair shows
what the fusion alone gains; the ratios are to the plain-Python equivalent, measured
interleaved in the same process as ``kernels.py`` does.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from spell_runtime.program import close_env

import spellc
from spellc import state
from spellc.api import new_env
from spellc.compiler import run_form
from spellc.emit import pipelines

N = 100_000


def py_keep() -> int:
    return sum(x * x for x in range(N) if x % 2 == 1)


def py_map_indexed() -> int:
    return sum(i + x for i, x in enumerate(range(N)))


def py_keep_indexed() -> list[int]:
    return [x for i, x in enumerate(range(N)) if i % 2 == 0]


def py_mapcat() -> int:
    acc = 0
    for x in range(N // 2):
        for y in (x, x + 1):
            acc += y
    return acc


def py_some() -> Any:
    return next((x for x in range(N) if x > N - 2), None)


def py_every() -> bool:
    return all(x < N for x in range(N))


def py_some_chain() -> bool:
    return any(y > 2 * N - 3 for y in [2 * x for x in range(N)])


def py_group_by() -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for x in range(N):
        groups.setdefault(x % 3, []).append(x)
    return groups


def py_reduce_kv() -> int:
    m = {k: k for k in range(10_000)}
    return sum(v for _, v in m.items())


# (name, setup, program, plain Python)
ROWS: list[tuple[str, str, str, Callable[[], Any]]] = [
    ("reduce + keep (fn) range 10^5", "nil", "(reduce + (keep (fn [x] (if (odd? x) (* x x))) (range %d)))" % N,
     py_keep),
    ("reduce + map-indexed (fn) range 10^5", "nil", "(reduce + (map-indexed (fn [i x] (+ i x)) (range %d)))" % N,
     py_map_indexed),
    ("into [] keep-indexed (fn) range 10^5", "nil",
     "(into [] (keep-indexed (fn [i x] (if (even? i) x)) (range %d)))" % N, py_keep_indexed),
    ("reduce + mapcat (fn) range 5*10^4", "nil", "(reduce + (mapcat (fn [x] [x (inc x)]) (range %d)))" % (N // 2),
     py_mapcat),
    ("some (fn) range 10^5", "nil", "(some (fn [x] (if (> x %d) x)) (range %d))" % (N - 2, N), py_some),
    ("every? (fn) range 10^5", "nil", "(every? (fn [x] (< x %d)) (range %d))" % (N, N), py_every),
    ("some (fn) map (fn) range 10^5", "nil",
     "(some (fn [x] (> x %d)) (map (fn [x] (* 2 x)) (range %d)))" % (2 * N - 3, N), py_some_chain),
    ("group-by (fn) range 10^5", "nil", "(group-by (fn [x] (mod x 3)) (range %d))" % N, py_group_by),
    ("reduce-kv (fn) map 10^4", "(def m (zipmap (range 10000) (range 10000)))",
     "(reduce-kv (fn [a k v] (+ a v)) 0 m)", py_reduce_kv),
]


def _compiled(setup: str, text: str, fuse: bool) -> tuple[dict[Any, Any], Any]:
    """A fresh env with ``setup`` run, and ``text``'s form compiled (fused or not) and run once."""
    state.reset_caches()
    real = pipelines.pipeline_of
    if not fuse:
        pipelines.pipeline_of = lambda node: None
    try:
        D = new_env()
        run_form(D, spellc.read_string(setup))
        form = spellc.read_string(text)
        run_form(D, form)
    finally:
        pipelines.pipeline_of = real
    return D, form


def _timed_run(D: dict[Any, Any], form: Any) -> tuple[float, str]:
    """One run of the compiled ``form`` in ``D``: seconds, and the printed value."""
    t = time.perf_counter()
    value, _ = run_form(D, form)
    elapsed = time.perf_counter() - t
    close_env(D)
    return elapsed, spellc.pr_str(value)


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    words = sys.argv[1:]
    print("| pipeline | fused (ms) | unfused (ms) | Python (ms) | fused ratio | unfused ratio | gain |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, setup, text, py in ROWS:
        if words and not any(w in name for w in words):
            continue
        samples: dict[str, list[float]] = {"fused": [], "unfused": [], "py": []}
        values: set[str] = set()
        for _ in range(repeat):  # interleaved so machine noise hits all three alike
            for fuse, key in ((True, "fused"), (False, "unfused")):
                elapsed, value = _timed_run(*_compiled(setup, text, fuse))
                samples[key].append(elapsed)
                values.add(value)
            t = time.perf_counter()
            py()
            samples["py"].append(time.perf_counter() - t)
        assert len(values) == 1, (name, values)  # fused and unfused agree
        f, u, p = (statistics.median(samples[k]) for k in ("fused", "unfused", "py"))
        print("| %s | %.1f | %.1f | %.1f | ×%.2f | ×%.2f | ×%.2f |" % (name, f * 1000, u * 1000, p * 1000, f / p,
                                                                       u / p, u / f))


if __name__ == "__main__":
    main()
