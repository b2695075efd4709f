"""Fuzz the reader, the compiler and evaluation; count every failure that is not a ``SpellError``.

Issue 16.8. Whatever text a model writes, spellc must answer with a value or a
Spell error — never a Python exception, a hang or a crash. Each input is read
(``read_all``), compiled form by form (``compile_unit``) and evaluated
(``eval_string``) under an evaluation deadline and a small collection limit (the
evaluation limits of issue 16.3 keep random loops and huge ranges bounded).

Inputs come from five generators, chosen by a seeded RNG so that input ``i`` of
seed ``s`` is always the same text (a failure can be replayed with ``--replay``):

* ``noise``    — random characters from Spell's syntax alphabet;
* ``numbers``  — integer, ratio, radix, BigInt/BigDecimal and float literals, up to
  20,000 digits, read, printed and computed with;
* ``nesting``  — brackets, ``let``/``do``/``fn``/``try``/``loop``/``when-let`` and
  calls nested up to ``--max-depth``;
* ``programs`` — random well-formed programs over the core builtins and special forms;
* ``mutants``  — well-formed programs with characters deleted, duplicated or swapped.

Crash detection: the inputs run in child processes; a child that dies (a segfault,
the OOM killer) or stops reporting for ``--hang-seconds`` is counted as a crash or a
hang *of the input it was on*, and a fresh child continues after it.

Every input goes through three stages — ``read``, ``compile``, ``eval`` — and its outcome
names the stage it ended in (``spell-error@compile``, ``escape:read:ValueError``...), so
the counts say how far inputs got in each mode.

Run 10⁶ inputs (about 4 hours per worker on one core; niced so it leaves the machine usable)::

    export PYTHONPATH=$PWD:$PWD/runtime        # from the repository root
    nice -n 19 python tests/fuzz/fuzz_spell.py --inputs 1000000 --workers 2 --failures /tmp/fuzz-failures.jsonl

It prints the counts and exits 1 when anything escaped; ``--budget-seconds`` stops early,
``--seed`` picks another series and ``--replay N`` re-runs input N of a seed. CI runs a
small budget through ``tests/fuzz/test_fuzz_budget.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[2]

ALPHABET = "()[]{}#'`~@^\\\";:,. \n\t abcxyz019+-*/<>=!?&%_$eENM/rx"
NEST_OPENERS = [
    ("(", ")"), ("[", "]"), ("{:k ", "}"), ("#{", "}"), ("(do ", ")"), ("(let [a 1] ", ")"),
    ("((fn [x] ", ") 1)"), ("(try ", " (catch e 0))"), ("(loop [i 0] ", ")"), ("(when-let [a 1] ", ")"),
    ("(if true ", " 0)"), ("(+ 1 ", ")"), ("(vector ", ")"), ("'(", ")"), ("(quote ", ")"), ("#(", ")"),
]
BUILTINS = [
    "+", "-", "*", "/", "inc", "dec", "quot", "rem", "mod", "max", "min", "abs", "*'", "+'", "=", "<", ">",
    "str", "pr-str", "count", "first", "rest", "next", "cons", "conj", "assoc", "dissoc", "get", "get-in",
    "nth", "vec", "list", "vector", "hash-map", "set", "keys", "vals", "map", "filter", "remove", "reduce",
    "range", "repeat", "take", "drop", "concat", "reverse", "sort", "distinct", "frequencies", "group-by",
    "partition", "interpose", "apply", "subs", "format", "read-string", "keyword", "symbol", "name",
    "bit-shift-left", "bit-and", "double", "long", "bigint", "bigdec", "rationalize", "numerator",
    "empty?", "seq", "into", "merge", "update", "select-keys", "zipmap", "split-at", "last", "butlast",
    "some", "every?", "not", "identity", "comp", "partial", "juxt", "sort-by", "str/join", "str/split",
]
SPECIALS = ["if", "do", "let", "fn", "loop", "when", "cond", "and", "or", "try", "def", "defn", "quote"]


def gen_noise(rng: random.Random, max_depth: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 200)))


def _digits(rng: random.Random, n: int, alphabet: str = "0123456789") -> str:
    return rng.choice(alphabet[1:] or alphabet) + "".join(rng.choice(alphabet) for _ in range(n - 1))


def gen_number_literal(rng: random.Random) -> str:
    n = rng.choice([1, 5, 19, 20, 300, 4300, 4301, 5000, rng.randint(1, 20000)])
    sign = rng.choice(["", "-", "+"])
    kind = rng.randrange(8)
    if kind == 0:
        return sign + _digits(rng, n)
    if kind == 1:
        return sign + _digits(rng, n) + "N"
    if kind == 2:
        return sign + _digits(rng, n) + "/" + _digits(rng, rng.randint(1, n))
    if kind == 3:
        return sign + "0x" + _digits(rng, n, "0123456789abcdefABCDEF")
    if kind == 4:
        radix = rng.randint(2, 36)
        alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"[:radix]
        return sign + "%dr" % radix + _digits(rng, n, alphabet if len(alphabet) > 1 else "01")
    if kind == 5:
        return sign + _digits(rng, n) + "." + _digits(rng, rng.randint(1, 50)) + "M"
    if kind == 6:
        return sign + _digits(rng, min(n, 400)) + "e" + rng.choice(["", "-", "+"]) + str(rng.randint(0, 400))
    return sign + "0" + _digits(rng, n, "01234567")


def gen_numbers(rng: random.Random, max_depth: int) -> str:
    a, b = gen_number_literal(rng), gen_number_literal(rng)
    op = rng.choice(["*'", "+'", "-'", "+", "*", "quot", "rem", "=", "<", "max", "/", "bit-and"])
    shape = rng.randrange(5)
    if shape == 0:
        return a
    if shape == 1:
        return "(str (%s %s %s))" % (op, a, b)
    if shape == 2:
        return "(pr-str [%s %s])" % (a, b)
    if shape == 3:
        return "(read-string (str %s))" % a
    return "(format \"%%s %%s\" %s (%s %s %s))" % (a, op, a, b)


def gen_nesting(rng: random.Random, max_depth: int) -> str:
    depth = rng.choice([rng.randint(1, 30), rng.randint(1, max(1, max_depth))])
    chain = [rng.choice(NEST_OPENERS) if rng.random() < 0.3 or i == 0 else None for i in range(depth)]
    opener = chain[0]
    assert opener is not None
    out_open, out_close = [], []
    for link in chain:
        opener = link or opener
        out_open.append(opener[0])
        out_close.append(opener[1])
    middle = rng.choice(["1", "a", "", "x", "(recur 1)", "nil"])
    closing = "".join(reversed(out_close))
    if rng.random() < 0.2:  # unbalanced on purpose
        closing = closing[: rng.randrange(len(closing) + 1)]
    return "".join(out_open) + middle + closing


def gen_form(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice([
            str(rng.randint(-5, 100)), "%d.%d" % (rng.randint(0, 9), rng.randint(0, 9)), "nil", "true",
            '"s%d"' % rng.randint(0, 9), ":k%d" % rng.randint(0, 3), "x", "y", "[1 2 3]", "{:a 1 :b [2]}",
            "#{1 2}", "'(1 2)", "1/3", "9999999999999999999", "\\a", "##Inf",
        ])
    r = rng.random()
    if r < 0.6:
        args = " ".join(gen_form(rng, depth - 1) for _ in range(rng.randint(0, 3)))
        return "(%s %s)" % (rng.choice(BUILTINS), args)
    if r < 0.7:
        return "[%s]" % " ".join(gen_form(rng, depth - 1) for _ in range(rng.randint(0, 3)))
    head = rng.choice(SPECIALS)
    a, b, c = (gen_form(rng, depth - 1) for _ in range(3))
    return {
        "if": "(if %s %s %s)" % (a, b, c), "do": "(do %s %s)" % (a, b), "let": "(let [x %s y %s] %s)" % (a, b, c),
        "fn": "((fn [x] %s) %s)" % (a, b), "loop": "(loop [x 0] (if (< x 3) (recur (inc x)) %s))" % a,
        "when": "(when %s %s)" % (a, b), "cond": "(cond %s %s :else %s)" % (a, b, c),
        "and": "(and %s %s)" % (a, b), "or": "(or %s %s)" % (a, b),
        "try": "(try %s (catch e (:message e)))" % a, "def": "(def x %s)" % a,
        "defn": "(do (defn f [x] %s) (f %s))" % (a, b), "quote": "(quote %s)" % a,
    }[head]


def gen_programs(rng: random.Random, max_depth: int) -> str:
    return " ".join(gen_form(rng, rng.randint(1, 5)) for _ in range(rng.randint(1, 4)))


def gen_mutants(rng: random.Random, max_depth: int) -> str:
    text = list(gen_programs(rng, max_depth))
    for _ in range(rng.randint(1, 4)):
        if not text:
            break
        i = rng.randrange(len(text))
        op = rng.randrange(3)
        if op == 0:
            del text[i]
        elif op == 1:
            text.insert(i, text[i])
        else:
            j = rng.randrange(len(text))
            text[i], text[j] = text[j], text[i]
    return "".join(text)


GENERATORS: list[tuple[str, Callable[[random.Random, int], str]]] = [
    ("noise", gen_noise), ("numbers", gen_numbers), ("nesting", gen_nesting), ("programs", gen_programs),
    ("mutants", gen_mutants),
]


def input_for(seed: int, index: int, max_depth: int) -> tuple[str, str]:
    """(generator name, text) of input ``index`` of ``seed``: the same every time."""
    rng = random.Random(seed * 1_000_003 + index)
    name, gen = GENERATORS[index % len(GENERATORS)]
    return name, gen(rng, max_depth)


# -- one input, in a worker ---------------------------------------------------------------------


STAGES = ("read", "compile", "eval")
"""The three modes every input goes through, in order; an outcome names the stage it ended in."""


def check_one(text: str, eval_timeout: float) -> str:
    """``ok``, ``spell-error@<stage>``, ``timeout`` or ``escape:<stage>:<ExceptionType>`` for one input.

    Stages (``STAGES``): ``read`` (the reader), ``compile`` (expansion, analysis, emission and
    CPython's ``compile``, form by form) and ``eval`` (``eval_string`` under the limits).
    """
    from spell_runtime import limits
    from spell_runtime.errors import SpellError

    import spellc
    from spellc.compiler import compile_unit

    stage = "read"
    try:
        with limits.deadline(eval_timeout * 2), limits.collection_limit(100_000):
            forms = spellc.read_all(text)
            stage = "compile"
            for form in forms:
                compile_unit(form, "<fuzz>", text)
        stage = "eval"
        spellc.eval_string(text, "<fuzz>", eval_timeout_sec=eval_timeout, max_collection_size=100_000)
        spellc.pr_str(None)
        return "ok"
    except SpellError as e:
        return "timeout" if e.message.startswith("Evaluation timed out") else "spell-error@" + stage
    except RecursionError:
        return "escape:%s:RecursionError" % stage
    except Exception as e:  # noqa: BLE001 - this is what the fuzzer counts
        return "escape:%s:%s" % (stage, type(e).__name__)


def worker(seed: int, start: int, stop: int, max_depth: int, eval_timeout: float) -> None:
    """Report one line per input on stdout: ``<index> <outcome>``."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    crash_at = int(os.environ.get("SPELLC_FUZZ_CRASH_AT", "-1"))  # proves crash counting (the tests use it)
    out = sys.stdout
    for index in range(start, stop):
        out.write("%d start\n" % index)
        out.flush()
        if index == crash_at:
            os.abort()
        _, text = input_for(seed, index, max_depth)
        out.write("%d %s\n" % (index, check_one(text, eval_timeout)))
        out.flush()


# -- the campaign, in the parent -----------------------------------------------------------------


@dataclass
class Report:
    inputs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def bad(self) -> int:
        return sum(n for k, n in self.outcomes.items() if k.startswith(("escape", "crash", "hang")))

    def record(self, seed: int, index: int, outcome: str, max_depth: int) -> None:
        self.inputs += 1
        self.outcomes[outcome] += 1
        if outcome.startswith(("escape", "crash", "hang")) and len(self.failures) < 200:
            name, text = input_for(seed, index, max_depth)
            self.failures.append({"index": index, "generator": name, "outcome": outcome, "input": text[:2000]})


def _child(seed: int, start: int, stop: int, max_depth: int, eval_timeout: float) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "runtime"), env.get("PYTHONPATH", "")])
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", "--seed", str(seed), "--start", str(start),
            "--stop", str(stop), "--max-depth", str(max_depth), "--eval-timeout", str(eval_timeout)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def run_range(report: Report, seed: int, start: int, stop: int, max_depth: int, eval_timeout: float,
              hang_seconds: float, deadline: Optional[float]) -> None:
    """Inputs ``start``..``stop`` through children, restarting after a crash or a hang."""
    import selectors

    index = start
    while index < stop and (deadline is None or time.monotonic() < deadline):
        proc = _child(seed, index, stop, max_depth, eval_timeout)
        assert proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        current: Optional[int] = None
        while True:
            if deadline is not None and time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                return
            if not sel.select(timeout=hang_seconds):
                proc.kill()
                proc.wait()
                if current is not None:
                    report.record(seed, current, "hang", max_depth)
                    index = current + 1
                break
            line = proc.stdout.readline()
            if not line:  # the child ended
                code = proc.wait()
                if current is not None:
                    report.record(seed, current, "crash:exit %d" % code, max_depth)
                    index = current + 1
                else:
                    index = stop
                break
            number, outcome = line.split(" ", 1)
            outcome = outcome.strip()
            if outcome == "start":
                current = int(number)
            else:
                report.record(seed, int(number), outcome, max_depth)
                current = None
                index = int(number) + 1
        sel.close()


def campaign(inputs: int, *, seed: int = 1, workers: int = 1, max_depth: int = 2000, eval_timeout: float = 2.0,
             hang_seconds: float = 60.0, budget_seconds: Optional[float] = None) -> Report:
    """Run ``inputs`` inputs (fewer if ``budget_seconds`` runs out) split across ``workers`` children."""
    import threading

    report = Report()
    started = time.monotonic()
    deadline = None if budget_seconds is None else started + budget_seconds
    share = -(-inputs // workers)
    threads = [threading.Thread(target=run_range, args=(report, seed, w * share, min(inputs, (w + 1) * share),
                                                        max_depth, eval_timeout, hang_seconds, deadline))
               for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report.seconds = time.monotonic() - started
    return report


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--inputs", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--max-depth", type=int, default=2000, help="deepest nesting the nesting generator writes")
    p.add_argument("--eval-timeout", type=float, default=2.0)
    p.add_argument("--hang-seconds", type=float, default=60.0)
    p.add_argument("--budget-seconds", type=float, default=None)
    p.add_argument("--failures", type=Path, default=None, help="write failing inputs here (JSON lines)")
    p.add_argument("--replay", type=int, default=None, help="print input N of --seed and check it here")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--stop", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.seed, args.start, args.stop, args.max_depth, args.eval_timeout)
        return 0
    if args.replay is not None:
        name, text = input_for(args.seed, args.replay, args.max_depth)
        print("generator %s, %d chars:\n%s" % (name, len(text), text[:4000]))
        print(check_one(text, args.eval_timeout))
        return 0
    report = campaign(args.inputs, seed=args.seed, workers=args.workers, max_depth=args.max_depth,
                      eval_timeout=args.eval_timeout, hang_seconds=args.hang_seconds,
                      budget_seconds=args.budget_seconds)
    print("inputs %d in %.0f s (seed %d)" % (report.inputs, report.seconds, args.seed))
    for outcome, n in sorted(report.outcomes.items()):
        print("  %-28s %d" % (outcome, n))
    print("non-SpellError escapes, crashes and hangs: %d" % report.bad)
    if args.failures is not None:
        with args.failures.open("w", encoding="utf-8") as fh:
            for f in report.failures:
                fh.write(json.dumps(f) + "\n")
    for f in report.failures[:10]:
        print("  #%d %s %s: %r" % (f["index"], f["generator"], f["outcome"], f["input"][:120]))
    return 1 if report.bad else 0


if __name__ == "__main__":
    sys.exit(main())
