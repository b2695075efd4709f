"""Per-turn cost of the turn loop as the completion grows (issue 14).

Each scripted session starts from the standard wrapper and appends one small
form per turn (``(def vN N) '(!extend)``), so turn N's program holds N forms.
The provider answers instantly; the time between two consecutive model requests
is therefore the runtime's own work for one turn: cleaning, balancing, reading,
compiling, evaluating the program, editing and re-rendering the prefix.

Times are CPU seconds of the session's thread (``CLOCK``).

Usage: python benchmarks/bench_turns.py [--full] [--no-freeze] [TURNS ...]   (default: 20 200 400)

Prints, per session length: the total runtime work, the mean per turn, the cost of
turns 1, 50, 190 and 390 (median of the 5 turns around each), and the ratio of the
mean per-turn cost to the shortest session's (issue 14's target: 200 turns ≤ ×1.5 of
20). Then where the time of the longest session went, stage by stage, measured in
the loop. ``--full`` switches the incremental path off (``SPELLC_FULL_TURNS=1``: the
"before" of every table), ``--no-freeze`` the GC policy (``SPELLC_GC_FREEZE=0``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

import spellc
from spellc.providers.base import ModelRequest, ModelResponse, Usage

CLOCK = time.thread_time
"""CPU time of the thread running the session (the run's worker thread, where every stage runs): on a
machine shared with other busy processes, wall time mostly measures the scheduler."""

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
AT_TURNS = (1, 50, 190, 390)


class TimedScript:
    """Answers turn k with one new definition; records when each request arrived."""

    supports_prefill = True

    def __init__(self, turns: int) -> None:
        self.turns = turns
        self.stamps: list[float] = []
        self.last_prefix = ""

    def complete(self, request: ModelRequest) -> ModelResponse:
        self.stamps.append(CLOCK())
        self.last_prefix = request.prefix
        k = len(self.stamps)
        text = "(+ v1 %d))))" % k if k >= self.turns else "(def v%d %d) '(!extend)))" % (k, k)
        return ModelResponse(text=text, usage=Usage(calls=1))


def forget_texts() -> None:
    """Empty the compiler's text-keyed caches: sessions of different lengths share their first
    turns word for word, which a real session never does (the model writes new text every turn)."""
    from spellc import state

    state.reset_caches()
    from spellc import compiler

    templates = getattr(compiler, "templates", None)  # program templates (absent in older checkouts)
    if templates is not None:
        templates.clear()


def session(turns: int) -> list[float]:
    """Runtime work per turn: per_turn[k-1] is the time between model requests k and k+1 (turns - 1 values)."""
    forget_texts()
    script = TimedScript(turns)
    out = spellc.run(init=START, model_profile=script)
    assert out.get("result") == 1 + turns, out
    stamps = script.stamps
    return [stamps[i + 1] - stamps[i] for i in range(len(stamps) - 1)]


class Stages:
    """Wall time spent in each stage of the loop, summed over a session (the stages do not nest)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._undo: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, attr: str, stage: str) -> None:
        """Time calls of ``owner.attr`` as ``stage`` (skipped when the attribute does not exist, so the
        bench also runs against an older checkout for a "before" table)."""
        original = getattr(owner, attr, None)
        if original is None:
            return
        seconds = self.seconds
        seconds.setdefault(stage, 0.0)

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = CLOCK()
            try:
                return original(*args, **kwargs)
            finally:
                seconds[stage] += CLOCK() - t0

        self._undo.append((owner, attr, original))
        setattr(owner, attr, timed)

    def restore(self) -> None:
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)


def staged_session(turns: int) -> tuple[float, dict[str, float]]:
    """(total runtime work, seconds per stage) of one session, measured in the loop."""
    from spell_runtime.core import quine

    from spellc import compiler
    from spellc.loop import pipeline, selfcall

    stages = Stages()
    read = "read (balance + sanitize + read)"
    if hasattr(pipeline, "read_completion"):
        stages.wrap(pipeline, "read_completion", read)
    else:  # before issue 14
        stages.wrap(pipeline, "_read_program", read)
        stages.wrap(pipeline, "balance_parens", read)
    stages.wrap(compiler, "compile_unit", "compile (program)")
    stages.wrap(compiler, "compile_subunit", "compile (sub-unit lookup)")
    stages.wrap(quine, "apply_edits", "edit (edit-reopen)")
    stages.wrap(selfcall, "prompt_prefix", "render prefix")
    try:
        total = sum(session(turns))
    finally:
        stages.restore()
    return total, stages.seconds


def row(n: int, per: list[float], base_mean: float) -> str:
    mean = statistics.mean(per)
    at = [("%.2fms" % (statistics.median(per[max(0, k - 3):k + 2]) * 1e3)) if k <= len(per) else "-"
          for k in AT_TURNS]
    return "%6d %10.3f %10.3f %9s %9s %9s %9s %8.2f" % (n, sum(per), mean * 1e3, *at, mean / base_mean)


def main(argv: list[str]) -> None:
    if "--full" in argv:
        os.environ["SPELLC_FULL_TURNS"] = "1"
    if "--no-freeze" in argv:
        os.environ["SPELLC_GC_FREEZE"] = "0"
    sizes = [int(a) for a in argv if not a.startswith("--")] or [20, 200, 400]
    mode = "full read" if os.environ.get("SPELLC_FULL_TURNS") else "incremental"
    freeze = "off" if os.environ.get("SPELLC_GC_FREEZE") == "0" else "on"
    session(10)  # warm imports and caches
    print("turn loop, %s, gc freeze %s" % (mode, freeze))
    print("%6s %10s %10s %9s %9s %9s %9s %8s" % ("turns", "total (s)", "mean (ms)", "turn 1", "turn 50",
                                                  "turn 190", "turn 390", "mean/" + str(sizes[0])))
    base_mean = 0.0
    for n in sizes:
        per = session(n)
        if not base_mean:
            base_mean = statistics.mean(per)
        print(row(n, per, base_mean))
    n = max(sizes)
    total, seconds = staged_session(n)
    print()
    print("where the %d-turn session's %.3f s went (measured in the loop):" % (n, total))
    for stage, s in seconds.items():
        print("  %-34s %8.3f s %6.1f%%" % (stage, s, 100 * s / total))
    rest = total - sum(seconds.values())
    print("  %-34s %8.3f s %6.1f%%" % ("evaluate + the rest of the loop", rest, 100 * rest / total))


if __name__ == "__main__":
    main(sys.argv[1:])
