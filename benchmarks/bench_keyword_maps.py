"""Keyword-keyed map access outside ``reduce`` (issue 13 item 3) against plain Python.

Run: ``python benchmarks/bench_keyword_maps.py`` (prints a table; ``BENCH_REPEAT`` runs, medians,
Spell and Python interleaved in one process as in ``kernels.py``). The rows exercise what
``emit.natives.keyword_lookup`` (``(:k m)``, ``(:k m default)``), ``spell_runtime.keyword_assoc``
(several keyword pairs) and the native one-pair ``assoc`` compile to, in a ``loop``, on a small
map and on a 10⁴-entry map built whole. Python's side is the dict code a person would write.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from spell_runtime.program import close_env

import spellc
from spellc.api import new_env
from spellc.compiler import run_form

N = 100_000
SMALL = {"a": 1, "b": 2, "c": 3}
BIG = {"k%d" % i: i for i in range(10_000)}


def py_reads() -> int:
    m, acc = SMALL, 0
    for _ in range(N):
        acc += m["b"] + m.get("z", 1)
    return acc


def py_big_reads() -> int:
    m, acc = BIG, 0
    for _ in range(N):
        acc += m["k77"]
    return acc


def py_assoc2() -> int:
    m = SMALL
    for i in range(N):
        m = {**m, "a": i, "d": i}
    return len(m)


def py_assoc1() -> int:
    m = SMALL
    for i in range(N):
        m = {**m, "a": i}
    return len(m)


ROWS: list[tuple[str, str, str, Callable[[], Any]]] = [
    ("(:b m) + (:z m 1), small map", "(def m {:a 1 :b 2 :c 3})",
     "(loop [i 0 acc 0] (if (< i %d) (recur (inc i) (+ acc (+ (:b m) (:z m 1)))) acc))" % N, py_reads),
    ("(:k77 m), 10^4 entries built whole", "(def m (zipmap (map (fn [i] (keyword (str \"k\" i))) (range 10000)) "
     "(range 10000)))", "(loop [i 0 acc 0] (if (< i %d) (recur (inc i) (+ acc (:k77 m))) acc))" % N, py_big_reads),
    ("(assoc m :a i :d i), small map", "(def m {:a 1 :b 2 :c 3})",
     "(count (loop [i 0 m m] (if (< i %d) (recur (inc i) (assoc m :a i :d i)) m)))" % N, py_assoc2),
    ("(assoc m :a i), small map", "(def m {:a 1 :b 2 :c 3})",
     "(count (loop [i 0 m m] (if (< i %d) (recur (inc i) (assoc m :a i)) m)))" % N, py_assoc1),
]


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    print("| row | spellc (ms) | Python (ms) | ratio |")
    print("|---|---:|---:|---:|")
    for name, setup, expr, py in ROWS:
        D = new_env()
        run_form(D, spellc.read_string(setup))
        form = spellc.read_string(expr)
        value, _ = run_form(D, form)
        assert value == py(), name
        spell_t: list[float] = []
        py_t: list[float] = []
        for _ in range(repeat):
            t = time.perf_counter()
            run_form(D, form)
            spell_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            py()
            py_t.append(time.perf_counter() - t)
        close_env(D)
        s, p = statistics.median(spell_t), statistics.median(py_t)
        print("| %s | %.1f | %.1f | ×%.2f |" % (name, s * 1000, p * 1000, s / p))


if __name__ == "__main__":
    main()
