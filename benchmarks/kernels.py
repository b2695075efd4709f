"""The six kernels of issue 3 against plain Python, cold compile of a 300-line program, and start-up.

Run: ``python benchmarks/kernels.py`` (prints a table). Each kernel runs compiled
Spell and its plain-Python equivalent in the same process, interleaved, and
reports medians and their ratio. Timings are wall-clock medians; run on an idle
machine for stable figures.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spell_runtime.program import close_env

import spellc
from spellc.api import new_env
from spellc.compiler import run_form

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "bench" / "compile-300.spl"


def py_fib(n: int) -> int:
    return n if n < 2 else py_fib(n - 1) + py_fib(n - 2)


def py_loop() -> int:
    i = 0
    acc = 0
    while i < 1_000_000:
        acc += i
        i += 1
    return acc


def py_conj() -> int:
    v: list[int] = []
    for i in range(100_000):
        v.append(i)
    return sum(v)


def py_assoc() -> int:
    ks = ["k%d" % i for i in range(10_000)]
    m: dict[str, int] = {}
    for k in ks:
        m[k] = 1
    acc = 0
    for k in ks:
        acc += m[k]
    return acc


def py_filter() -> int:
    return sum(x for x in (y + 1 for y in range(100_000)) if x % 2 == 0)


def py_str() -> int:
    return len("".join(str(i) for i in range(10_000)))


KERNELS: list[tuple[str, str, str, Callable[[], Any]]] = [
    ("fib 25", "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))", "(fib 25)", lambda: py_fib(25)),
    ("loop/recur sum 0..10^6", "nil", "(loop [i 0 acc 0] (if (< i 1000000) (recur (inc i) (+ acc i)) acc))",
     py_loop),
    ("conj 10^5 then reduce +", "nil",
     "(reduce + (loop [i 0 v []] (if (< i 100000) (recur (inc i) (conj v i)) v)))", py_conj),
    ("assoc 10^4 keywords, get each", "(def ks (map (fn [i] (keyword (str \"k\" i))) (range 10000)))",
     "(let [m (reduce (fn [m k] (assoc m k 1)) {} ks)] (reduce (fn [acc k] (+ acc (get m k))) 0 ks))", py_assoc),
    ("reduce + filter even? map inc", "nil", "(reduce + (filter even? (map inc (range 100000))))", py_filter),
    ("count apply str range 10^4", "nil", "(count (apply str (range 10000)))", py_str),
]


def time_it(fn: Callable[[], Any], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def kernel_rows(repeat: int) -> list[tuple[str, float, float]]:
    rows = []
    for name, setup, expr, py in KERNELS:
        D = new_env()
        run_form(D, spellc.read_string(setup))
        form = spellc.read_string(expr)
        spell_value, _ = run_form(D, form)  # compile once (warm)
        assert spell_value == py(), name
        spell_times: list[float] = []
        py_times: list[float] = []
        def run_spell(D: dict[Any, Any] = D, form: Any = form) -> Any:
            return run_form(D, form)

        for _ in range(repeat):  # interleave so machine noise hits both alike
            spell_times.append(time_it(run_spell, 1))
            py_times.append(time_it(py, 1))
        close_env(D)
        rows.append((name, statistics.median(spell_times), statistics.median(py_times)))
    return rows


def compile_row(repeat: int) -> tuple[float, int, bool]:
    """Median cold compile of compile-300.spl (read + analyze + emit + compile(), caches cleared)."""
    from spellc import compiler, state

    text = SHARED.read_text(encoding="utf-8")
    expected = (SHARED.parent / "compile-300.expected").read_text(encoding="utf-8")
    ok = spellc.pr_str(spellc.eval_string(text)) == expected
    samples = []
    for _ in range(repeat):
        state.reset_caches()
        t = time.perf_counter()
        for form in spellc.read_all(text):
            compiler.compile_unit(form, "compile-300.spl", text)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples), text.count("\n"), ok


def startup_row(repeat: int) -> tuple[float, float]:
    """Median wall time of a whole ``spellc eval '(+ 1 2)'`` process, and of a bare ``python -c pass``.

    Bytecode for the package is written first (as ``pip install`` does for an installed package);
    the machine's ``PYTHONDONTWRITEBYTECODE=1`` otherwise makes every start-up recompile spellc.
    """
    root = Path(__file__).resolve().parents[1]
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "spellc"), str(root / "runtime")],
                   env=clean, capture_output=True, check=False)
    exe = [sys.executable, "-m", "spellc", "eval", "(+ 1 2)"]
    # This tree's packages, whatever the caller's PYTHONPATH and working directory: a ``-m`` child
    # puts its working directory first on ``sys.path``, so run from another checkout it would time
    # that checkout's ``spellc`` (backend.py ``_run_rss`` does the same).
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=os.pathsep.join([str(root), str(root / "runtime")]))
    bare = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True, cwd=root)
        bare.append(time.perf_counter() - t)
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = subprocess.run(exe, capture_output=True, text=True, env=env, cwd=root)
        samples.append(time.perf_counter() - t)
        if out.stdout.strip() != "3":
            raise SystemExit("spellc eval failed: %s" % out.stderr)
    return statistics.median(samples), statistics.median(bare)


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    print("| kernel | spellc (ms) | Python (ms) | ratio |")
    print("|---|---:|---:|---:|")
    for name, s, p in kernel_rows(repeat):
        print("| %s | %.1f | %.1f | ×%.2f |" % (name, s * 1000, p * 1000, s / p))
    compile_time, lines, ok = compile_row(repeat)
    print()
    print("| measure | value | goal |")
    print("|---|---:|---:|")
    print("| cold compile of compile-300.spl (%d lines; value %s) | %.1f ms | ≤ 20 ms |"
          % (lines, "matches" if ok else "DIFFERS", compile_time * 1000))
    try:
        total, bare = startup_row(repeat)
        print("| start-up of `spellc eval '(+ 1 2)'` (bare `python -c pass`: %.0f ms) | %.0f ms | ≤ 60 ms |"
              % (bare * 1000, total * 1000))
    except (SystemExit, OSError) as e:
        print("| start-up of `spellc eval '(+ 1 2)'` | unavailable (%s) | ≤ 60 ms |" % e)


if __name__ == "__main__":
    main()
