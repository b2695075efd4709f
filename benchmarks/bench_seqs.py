"""Sequence builtins inside loops: the quadratic traps of issue 16 item 7.

Run: ``python benchmarks/bench_seqs.py [WORD...]`` (prints a table; with words, only the rows
whose name contains one). Each row runs one
Spell loop at size N and at 2N and prints both times and their ratio: ≈ ×2 means
the loop is linear (each step costs O(1) or O(what it adds)), ≈ ×4 means every
step copies what came before. ``BENCH_SCALE`` (default 1) multiplies every N.

``drop``/``drop-last``/``pop``/``subvec`` return *vectors* (language.md §3.5), and
pyrsistent's C vector has no offset and no O(1) pop (its slices, ``delete`` and evolvers
all copy), so each of them copied the remaining elements: ×3.7–×7.0 at 2N before
vector views. They now return a ``VectorView`` sharing the vector they take apart
(``spell_runtime.data.vector``), and ``conj``/``assoc`` on a view set one slot of a
new backing, so the pop-then-conj stack loop is linear too.
"""

from __future__ import annotations

import os
import statistics
import time

from spell_runtime.program import close_env

import spellc
from spellc.api import new_env
from spellc.compiler import compile_unit, run_form

# (name, N, program with N in it as {n})
ROWS: list[tuple[str, int, str]] = [
    ("concat acc [i] in a loop", 4_000,
     "(count (loop [i 0 acc []] (if (< i {n}) (recur (inc i) (concat acc [i])) acc)))"),
    ("concat [i] acc in a loop", 4_000,
     "(count (loop [i 0 acc (rest [0])] (if (< i {n}) (recur (inc i) (concat [i] acc)) acc)))"),
    ("rest of a vector in a loop", 20_000,
     "(loop [xs (vec (range {n})) k 0] (if (seq xs) (recur (rest xs) (inc k)) k))"),
    ("next of a vector in a loop", 20_000,
     "(loop [xs (vec (range {n})) k 0] (if xs (recur (next xs) (inc k)) k))"),
    ("take 2 of each suffix reached by rest", 20_000,
     "(loop [xs (rest (vec (range {n}))) s 0] (if (seq xs) (recur (rest xs) (+ s (count (take 2 xs)))) s))"),
    ("butlast in a loop", 5_000,
     "(loop [xs (vec (range {n})) k 0] (if xs (recur (butlast xs) (inc k)) k))"),
    ("take-last 2 of a growing concat", 4_000,
     "(loop [i 0 acc [0] s 0] (if (< i {n}) (recur (inc i) (concat acc [i]) (+ s (first (take-last 2 acc)))) s))"),
    ("drop 1 of a vector in a loop", 20_000,
     "(loop [xs (vec (range {n})) k 0] (if (empty? xs) k (recur (drop 1 xs) (inc k))))"),
    ("pop of a vector in a loop", 20_000,
     "(loop [xs (vec (range {n})) k 0] (if (empty? xs) k (recur (pop xs) (inc k))))"),
    ("drop-last of a vector in a loop", 20_000,
     "(loop [xs (vec (range {n})) k 0] (if (empty? xs) k (recur (drop-last xs) (inc k))))"),
    ("subvec from 1 of a vector in a loop", 20_000,
     "(loop [xs (vec (range {n})) k 0] (if (empty? xs) k (recur (subvec xs 1) (inc k))))"),
    ("stack: pop then conj onto a vector in a loop", 20_000,
     "(loop [xs (vec (range 1000)) k 0] (if (< k {n}) (recur (conj (pop xs) k) (inc k)) (count xs)))"),
]


def run_once(program: str) -> float:
    """Wall time of one evaluation of ``program`` (compiled once beforehand, untimed)."""
    D = new_env()
    form = spellc.read_string(program)
    try:
        compile_unit(form)  # cached: run_form below finds it
        t = time.perf_counter()
        run_form(D, form)
        return time.perf_counter() - t
    finally:
        close_env(D)


def row(program: str, n: int, repeat: int) -> tuple[float, float]:
    small = statistics.median(run_once(program.format(n=n)) for _ in range(repeat))
    large = statistics.median(run_once(program.format(n=2 * n)) for _ in range(repeat))
    return small, large


def main() -> None:
    import sys

    only = sys.argv[1:]  # words: run only the rows whose name contains one of them
    scale = float(os.environ.get("BENCH_SCALE", "1"))
    repeat = int(os.environ.get("BENCH_REPEAT", "3"))
    print("| loop | N | time at N (ms) | time at 2N (ms) | 2N/N |")
    print("|---|---:|---:|---:|---:|")
    for name, n0, program in ROWS:
        if only and not any(word in name for word in only):
            continue
        n = max(1, int(n0 * scale))
        small, large = row(program, n, repeat)
        print("| %s | %d | %.1f | %.1f | ×%.2f |" % (name, n, small * 1000, large * 1000, large / small))


if __name__ == "__main__":
    main()
