"""Reader throughput on completion-like Spell text.

Run: ``python benchmarks/bench_reader.py`` (prints a table: input, size, forms,
median ms). The budget (issue 2) is 5 ms for a 10 KB completion-like program.
Inputs: a synthetic program built from varied Spell forms (definitions, maps,
strings with LaTeX-style escapes the sanitizer must repair, comments, reader
macros) at 10 KB and 100 KB, the same program as a model completion read with
``read_first`` (a quine wrapper followed by chatter), and the shared suite's
``compile-300.spl`` when the checkout sits next to ``../shared``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spellc.reader import read_all, read_first, sanitize  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "bench" / "compile-300.spl"

_FORMS = [
    ";; ---- helpers for the order book\n",
    "(defn total-of [items] (reduce + 0 (map (fn [it] (* (:qty it) (:price it))) items)))\n",
    "(defn classify [x]\n  (cond\n    (< x 0) :negative\n    (zero? x) :zero\n    :else :positive))\n",
    '(def config {:name "warehouse-7" :limits {:max 1200 :min 3} :tags #{:cold :dry} :ratio 3/4})\n',
    "(defn step [state event]\n  (let [{:keys [count total]} state\n        amount (get event :amount 0)]\n"
    "    (assoc state :count (inc count) :total (+ total amount))))\n",
    '(def note "Energy: $E = mc^2$, and \\alpha \\approx 0.0073 \\frac{1}{137}")\n',
    "(loop [i 0 acc []]\n  (if (< i 10) (recur (inc i) (conj acc (* i i))) acc))\n",
    "(def evens (filter #(even? %) (range 20)))\n",
    "(quine summary \"keeps its own source\" (str \"forms: \" (count (rest summary))))\n",
    "(defn fmt-row [[k v]] (strings/join \" | \" [(name k) (str v) (pr-str 'sym)]))\n",
    '(def table [[1 "one" 1.5] [2 "two" 2.5e3] [3 "three" -0.25] [4 "four" 12345678901234567890]])\n',
    "(try (/ 1 0) (catch e (str \"caught: \" (:message e))))\n",
    "(def re-digits #\"[0-9]+\")  ; a pattern\n",
    "(defn by-key [k xs] (into {} (map (fn [x] [(get x k) x]) xs)))\n",
]


def synthetic(size: int) -> str:
    """A deterministic program of about ``size`` characters cycling through ``_FORMS``."""
    parts: list[str] = []
    n = 0
    i = 0
    while n < size:
        form = _FORMS[i % len(_FORMS)].replace("warehouse-7", "warehouse-%d" % i)
        parts.append(form)
        n += len(form)
        i += 1
    return "".join(parts)


def completion(body: str) -> str:
    """A model completion: the program inside the quine wrapper, then chatter the reader must ignore."""
    return "(quine completion (eval (do\n" + body + "\n'(!llm-self (reopen completion)))))\n\nBut wait: I should double-check ]"


def median_ms(fn: Callable[[str], Any], text: str, runs: int) -> tuple[float, float]:
    """(median wall-clock ms, median CPU ms); CPU time is the steadier figure on a busy machine."""
    fn(text)  # warm caches (token table, regex)
    wall = []
    cpu = []
    for _ in range(runs):
        start = time.perf_counter()
        start_cpu = time.process_time()
        fn(text)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def main() -> None:
    inputs: list[tuple[str, Callable[[str], Any], str]] = [
        ("synthetic 10 KB, read_all", read_all, synthetic(10_000)),
        ("synthetic 10 KB, sanitize only", sanitize, synthetic(10_000)),
        ("completion 10 KB, read_first", read_first, completion(synthetic(10_000))),
        ("synthetic 100 KB, read_all", read_all, synthetic(100_000)),
    ]
    if SHARED.exists():
        inputs.append(("compile-300.spl, read_all", read_all, SHARED.read_text(encoding="utf-8")))
    print(f"{'input':34} {'size':>9} {'forms':>6} {'median ms':>10} {'cpu ms':>7}")
    for name, fn, text in inputs:
        runs = 20 if len(text) > 50_000 else 100
        ms, cpu_ms = median_ms(fn, text, runs)
        result = fn(text)
        forms = len(result) if isinstance(result, list) else (0 if isinstance(result, str) else 1)
        print(f"{name:34} {len(text) / 1000:7.1f}KB {forms:>6} {ms:10.2f} {cpu_ms:7.2f}")


if __name__ == "__main__":
    main()
