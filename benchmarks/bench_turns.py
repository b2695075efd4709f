"""Per-turn cost of the turn loop as the completion grows (turn loop brief, item 6).

Each scripted session starts from the standard wrapper and appends one small
form per turn (``(def vN N) '(!extend)``), so turn N's program holds N forms.
The provider answers instantly; the time between two consecutive model requests
is therefore the runtime's own work for one turn: cleaning, balancing, reading,
compiling, evaluating the whole program, editing and re-rendering the prefix.

Usage: python benchmarks/bench_turns.py [TURNS ...]   (default: 50 100 400)
Also prints where one turn's time goes at the largest size (read / compile /
evaluate / prefix), measured on the final program outside the loop.
"""

from __future__ import annotations

import statistics
import sys
import time

import spellc
from spellc.providers.base import ModelRequest, ModelResponse, Usage

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"


class TimedScript:
    """Answers turn k with one new definition; records when each request arrived."""

    supports_prefill = True

    def __init__(self, turns: int) -> None:
        self.turns = turns
        self.stamps: list[float] = []
        self.last_prefix = ""

    def complete(self, request: ModelRequest) -> ModelResponse:
        self.stamps.append(time.perf_counter())
        self.last_prefix = request.prefix
        k = len(self.stamps)
        text = "(+ v1 %d))))" % k if k >= self.turns else "(def v%d %d) '(!extend)))" % (k, k)
        return ModelResponse(text=text, usage=Usage(calls=1))


def session(turns: int) -> list[float]:
    script = TimedScript(turns)
    started = time.perf_counter()
    out = spellc.run(init=START, model_profile=script)
    ended = time.perf_counter()
    assert out.get("result") == 1 + turns, out
    stamps = [started, *script.stamps, ended]
    # per_turn[k] = runtime work between request k and request k+1 (k = 1..turns-1)
    return [stamps[i + 1] - stamps[i] for i in range(1, len(stamps) - 2)]


def breakdown(turns: int) -> dict[str, float]:
    """Where one turn at this size spends its time (median of 5 repetitions)."""
    from spell_runtime.core.quine import serialize_prefix
    from spell_runtime.edits import apply_edits

    from spellc import compiler
    from spellc.api import new_env
    from spellc.reader import balance_parens, read_first

    body = " ".join("(def v%d %d) (quote (!extend))" % (k, k) for k in range(1, turns + 1))
    text = "(quine completion (eval (do %s 1" % body
    timings: dict[str, list[float]] = {"read": [], "compile": [], "evaluate": [], "edit + prefix": []}
    for rep in range(5):
        t0 = time.perf_counter()
        form = read_first(balance_parens(text + " " * rep))
        t1 = time.perf_counter()
        compiler._unit_cache.clear()  # every turn's program is a new text: the unit cache never hits
        unit = compiler.compile_unit(form)
        t2 = time.perf_counter()
        D = new_env()
        unit(D, [])
        t3 = time.perf_counter()
        serialize_prefix(apply_edits(form, D))
        t4 = time.perf_counter()
        timings["read"].append(t1 - t0)
        timings["compile"].append(t2 - t1)
        timings["evaluate"].append(t3 - t2)
        timings["edit + prefix"].append(t4 - t3)
    return {k: statistics.median(v) for k, v in timings.items()}


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [50, 100, 400]
    session(10)  # warm imports and caches
    print("%8s %10s %10s %10s %10s %10s %12s" % ("turns", "turn 1", "turn 10", "turn 50", "last", "last/1",
                                               "total (s)"))
    for n in sizes:
        per = session(n)
        first = statistics.median(per[:3])
        at = {k: statistics.median(per[max(0, k - 2):k + 1]) for k in (10, 50) if k < len(per)}
        last = statistics.median(per[-3:])
        print("%8d %9.2fms %9s %9s %9.2fms %10.2f %12.3f" % (
            n, first * 1e3, ("%.2fms" % (at[10] * 1e3)) if 10 in at else "-",
            ("%.2fms" % (at[50] * 1e3)) if 50 in at else "-", last * 1e3, last / first, sum(per)))
    print()
    n = max(sizes)
    print("one turn at %d forms:" % n)
    for k, v in breakdown(n).items():
        print("  %-16s %8.2f ms" % (k, v * 1e3))


if __name__ == "__main__":
    main(sys.argv[1:])
