"""Cost of the evaluation limits (issue 16.3) on the six kernels of ``kernels.py``.

Run: ``python benchmarks/bench_deadline.py`` (prints a table). Each kernel runs
compiled Spell twice per round, interleaved: plainly, and inside
``limits.deadline(...)`` + ``limits.collection_limit(...)`` exactly as the turn
loop evaluates a completion. The deadline is a watchdog thread that raises an
asynchronous exception when it expires (see ``spell_runtime.limits``), so compiled
loops and calls carry no check at all; the column ``limited / plain`` is the
price of the registration per evaluation (goal: ≤ ×1.03).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from spell_runtime import limits
from spell_runtime.program import close_env

import spellc
from spellc.api import new_env
from spellc.compiler import run_form

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernels import KERNELS  # noqa: E402


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "7"))
    print("| kernel | plain (ms) | with deadline + size limit (ms) | limited / plain |")
    print("|---|---:|---:|---:|")
    ratios = []
    for name, setup, expr, _py in KERNELS:
        D = new_env()
        run_form(D, spellc.read_string(setup))
        form = spellc.read_string(expr)
        run_form(D, form)  # compile once (warm)
        plain: list[float] = []
        limited: list[float] = []

        def run_plain(D: dict[Any, Any] = D, form: Any = form) -> None:
            run_form(D, form)

        def run_limited(D: dict[Any, Any] = D, form: Any = form) -> None:
            with limits.deadline(3600), limits.collection_limit(limits.DEFAULT_MAX_COLLECTION_SIZE):
                run_form(D, form)

        for i in range(repeat):  # interleaved, alternating which goes first
            order = (run_plain, run_limited) if i % 2 == 0 else (run_limited, run_plain)
            for fn in order:
                t = time.perf_counter()
                fn()
                (plain if fn is run_plain else limited).append(time.perf_counter() - t)
        close_env(D)
        p, q = statistics.median(plain), statistics.median(limited)
        ratios.append(q / p)
        print("| %s | %.1f | %.1f | ×%.3f |" % (name, p * 1000, q * 1000, q / p))
    print()
    print("geometric mean of limited / plain: ×%.3f (goal ≤ ×1.03)" % statistics.geometric_mean(ratios))


if __name__ == "__main__":
    main()
