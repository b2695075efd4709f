"""Issue 12's time ratios (``backend.py``) counted in machine instructions, when valgrind is installed.

Run: ``python benchmarks/backend_instructions.py`` (about two minutes; nothing is printed without
``valgrind``). Wall-clock ratios on a shared machine move by ±5% from run to run, which is the whole
margin of a target like ×3; an instruction count under ``callgrind`` repeats to about ±0.3%
(``PYTHONHASHSEED`` is fixed), so a change to the compiler can be judged by one run of each tree.
What it leaves out is what instructions do not show: cache misses, page faults, the machine's load.
The wall-clock rows stay the targets; this is the instrument for the work between two of them.

- cold compile+run of ``compile-300.spl`` against ``compile()`` of ``argparse.py``: three processes that
  start alike (``spellc`` imported, the builtin library loaded by ``(+ 1 2)``, both texts read) and
  then evaluate the program, compile argparse, or do neither; each row is its process's count less
  the last one's;
- ``python built.py`` against ``spellc run`` of the source, whole processes, and net of ``python -c pass``,
  and both again under ``python -S`` (``backend.py`` says why);
- ``spellc eval '(+ 1 2)'`` against ``python -c pass``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from backend import SHARED, _env, _write_package_bytecode, compiler_build  # noqa: E402

COLD_CHILD = r"""
import sys
import spellc
spellc.eval_string("(+ 1 2)")
program = open(sys.argv[2], encoding="utf-8").read()
import argparse
source = open(argparse.__file__, encoding="utf-8").read()
if sys.argv[1] == "program":
    spellc.eval_string(program)
elif sys.argv[1] == "argparse":
    compile(source, argparse.__file__, "exec")
"""

_COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(cmd: list[str]) -> int:
    """Machine instructions of the process ``cmd`` (all its threads), counted by callgrind; a ``python -S``
    child gets site-packages on its path (``backend._env``)."""
    env = dict(_env("-S" in cmd[1:2]), PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        ran = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=%s/out" % tmp, *cmd],
                             capture_output=True, text=True, env=env, cwd=ROOT)
    found = _COLLECTED.search(ran.stderr)
    if ran.returncode != 0 or found is None:
        raise SystemExit("%s failed under callgrind: %s" % (" ".join(cmd), ran.stderr[-2000:]))
    return int(found.group(1))


def main() -> None:
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts (backend.py times the same rows).")
        return
    _write_package_bytecode()
    py = sys.executable
    print("Measured with %s; instructions counted by callgrind (millions).\n" % compiler_build())
    print("| measure | subject | yardstick | ratio | target (of the timed row) |")
    print("|---|---:|---:|---:|---:|")
    cold = {mode: instructions([py, "-c", COLD_CHILD, mode, str(SHARED)]) for mode in ("none", "program", "argparse")}
    program, argparse = cold["program"] - cold["none"], cold["argparse"] - cold["none"]
    print("| cold compile+run of compile-300 vs `compile()` of argparse.py | %.1f M | %.1f M | ×%.2f | ≤ ×3 |"
          % (program / 1e6, argparse / 1e6, program / argparse))
    bare = instructions([py, "-c", "pass"])
    evaluated = instructions([py, "-m", "spellc", "eval", "(+ 1 2)"])
    print("| `spellc eval '(+ 1 2)'` vs `python -c pass` | %.1f M | %.1f M | ×%.2f | ≤ ×2.5 |"
          % (evaluated / 1e6, bare / 1e6, evaluated / bare))
    with tempfile.TemporaryDirectory() as tmp:
        built_path = Path(tmp) / "compile300_built.py"
        subprocess.run([py, "-m", "spellc", "build", str(SHARED), "-o", str(built_path)], check=True,
                       capture_output=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                           [str(ROOT), str(ROOT / "runtime")])))
        built = instructions([py, str(built_path)])
        built_s = instructions([py, "-S", str(built_path)])
    run = instructions([py, "-m", "spellc", "run", str(SHARED)])
    print("| `python built.py` (no .pyc) vs `spellc run` of the source | %.1f M | %.1f M | %.3f× | ≤ 0.7× |"
          % (built / 1e6, run / 1e6, built / run))
    print("| the same, each net of a bare `python -c pass` (%.1f M here) | %.1f M | %.1f M | %.3f× | — |"
          % (bare / 1e6, (built - bare) / 1e6, (run - bare) / 1e6, (built - bare) / (run - bare)))
    run_s = instructions([py, "-S", "-m", "spellc", "run", str(SHARED)])
    bare_s = instructions([py, "-S", "-c", "pass"])
    print("| the same two under `python -S` (no `.pth` start-up hooks; bare start %.1f M) | %.1f M | %.1f M "
          "| %.3f× | — |" % (bare_s / 1e6, built_s / 1e6, run_s / 1e6, built_s / run_s))


if __name__ == "__main__":
    main()
