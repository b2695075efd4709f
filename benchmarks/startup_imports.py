"""What ``spellc eval '(+ 1 2)'`` imports, and what each import costs (issue 12.4).

Run: ``python benchmarks/startup_imports.py [--top N] [--root DIR]`` (``BENCH_REPEAT`` fresh processes,
default 7). Each process runs ``python -X importtime -m spellc eval '(+ 1 2)'``; because the
machine is shared and noisy, each module's time is the *minimum* over the runs (the least
disturbed). Prints the number of modules loaded, the sum of their self times, and the top N
modules by self time and by cumulative time. ``--root`` profiles another checkout (e.g. an
export of ``main``) for a before/after table. Bytecode is written first, as ``pip install`` would;
``benchmarks/backend.py`` has the whole-process ratio and peak memory.

``-X importtime`` sees only imports made through the interpreter's import entry point
(``import``, ``__import__``); ``importlib.import_module`` bypasses it, which is why
``spell_runtime.library`` loads the builtin modules with ``__import__`` (before that, the whole
builtin library, about 11 ms, was missing from this list). Not in the list at all: the
interpreter's own start (``python -c pass``), the compile and run of the expression, and exit
(CPython's exit-time collections, which ``spellc.launch`` now skips: ``spell_runtime.gcpolicy``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def profile(root: Path, repeat: int) -> dict[str, tuple[int, int]]:
    """Module → (min self µs, min cumulative µs) over ``repeat`` runs."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(root / "runtime")]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "spellc"), str(root / "runtime")],
                   env=env, capture_output=True, check=False)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    best: dict[str, tuple[int, int]] = {}
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "spellc", "eval", "(+ 1 2)"],
                              env=env, capture_output=True, text=True, check=True, timeout=60, cwd=str(root))
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "self [us]" in line:
                continue
            self_us, cumulative_us, name = line[len("import time:"):].split("|")
            key = name.strip()
            seen = best.get(key)
            now = (int(self_us), int(cumulative_us))
            best[key] = now if seen is None else (min(seen[0], now[0]), min(seen[1], now[1]))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    repeat = int(os.environ.get("BENCH_REPEAT", "7"))
    best = profile(args.root.resolve(), repeat)
    print("%s: %d modules, sum of self times %.1f ms (min of %d runs each)" % (
        args.root, len(best), sum(s for s, _ in best.values()) / 1000, repeat))
    print("\n  self ms  cumul ms  module (top %d by self time)" % args.top)
    for name, (s, c) in sorted(best.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print("  %7.1f  %8.1f  %s" % (s / 1000, c / 1000, name))
    print("\n  self ms  cumul ms  module (top %d by cumulative time)" % args.top)
    for name, (s, c) in sorted(best.items(), key=lambda kv: -kv[1][1])[: args.top]:
        print("  %7.1f  %8.1f  %s" % (s / 1000, c / 1000, name))


if __name__ == "__main__":
    main()
