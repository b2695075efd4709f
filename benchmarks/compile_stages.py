"""Where a cold compile of ``compile-300.spl`` spends its CPU, stage by stage (issue 12: the profile of
what remains of the ×3 target that ``backend.py`` measures).

Run: ``python benchmarks/compile_stages.py`` (``BENCH_REPEAT`` fresh processes, default 5; medians).
Each child loads ``spellc`` and the builtin library first, as ``backend.py``'s cold row does, then
evaluates the program with ``spellc.eval_string`` while the stages it goes through are timed in
place (the driver's own functions are wrapped, so the path measured is the real one): reading,
analysis, emitting Python ``ast``, CPython's ``compile()`` of that tree, and the rest (running the
units and the driver around them). It also counts the generated ``ast`` nodes, which emitting and
``compile()`` scale with (architecture.md §2.5), and times CPython's ``compile()`` of
``argparse.py`` in the same process as the yardstick. The packages' bytecode is written first, as
``backend.py`` does (the installed case): otherwise a runtime module the program imports on first
use (``core/jformat.py`` for ``format``) is compiled from source inside the timed run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from backend import _write_package_bytecode, compiler_build

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "conformance" / "bench" / "compile-300.spl"

CHILD = r"""
import argparse, builtins, json, sys, time
import spellc
from spellc import api, compiler
from spellc.emit.emitter import Emitter

spellc.eval_string("(+ 1 2)")   # the builtin library and helpers load here, not in the timed part
cpu = {"read": 0.0, "analyze": 0.0, "emit": 0.0, "compile": 0.0}


def timed(stage, fn):
    def wrapper(*args, **kwargs):
        t = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            cpu[stage] += time.process_time() - t
    return wrapper


api.read_all = timed("read", api.read_all)
compiler.analyze_form = timed("analyze", compiler.analyze_form)
Emitter.emit_unit = timed("emit", Emitter.emit_unit)
Emitter.defined_fn = timed("emit", Emitter.defined_fn)  # a top-level def of a fn (compiler.direct)
compiler.compile = timed("compile", builtins.compile)  # the driver's global name ``compile``
text = open(sys.argv[1], encoding="utf-8").read()
t = time.process_time()
spellc.eval_string(text)
total = time.process_time() - t
src = open(argparse.__file__, encoding="utf-8").read()
t = time.process_time()
builtins.compile(src, argparse.__file__, "exec")
yardstick = time.process_time() - t
print(json.dumps({"stages": cpu, "total": total, "argparse": yardstick}))
"""

COUNT = r"""
import ast, builtins, sys
import spellc
from spellc import compiler

spellc.eval_string("(+ 1 2)")
nodes = [0]
real_compile = builtins.compile


def compile_counting(source, *args, **kwargs):
    if isinstance(source, ast.AST):
        nodes[0] += sum(1 for _ in ast.walk(source))
    return real_compile(source, *args, **kwargs)


compiler.compile = compile_counting
spellc.eval_string(open(sys.argv[1], encoding="utf-8").read())
print(nodes[0])
"""


def _env() -> dict[str, str]:
    path = os.pathsep.join([str(ROOT), str(ROOT / "runtime")])
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=path)


def _child(code: str) -> str:
    # cwd: a ``-c`` child puts the working directory first on ``sys.path`` (see backend.py).
    proc = subprocess.run([sys.executable, "-c", code, str(SHARED)], capture_output=True, text=True, env=_env(), cwd=ROOT,
                          check=False)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-2000:])
    return proc.stdout.strip()


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    _write_package_bytecode()
    runs = [json.loads(_child(CHILD)) for _ in range(repeat)]
    nodes = int(_child(COUNT))
    ms = {stage: statistics.median(r["stages"][stage] for r in runs) * 1000 for stage in runs[0]["stages"]}
    total = statistics.median(r["total"] for r in runs) * 1000
    yardstick = statistics.median(r["argparse"] for r in runs) * 1000
    rest = total - sum(ms.values())
    print("Measured with %s.\n" % compiler_build())
    print("| stage (CPU, compile-300.spl, fresh process) | ms | share |")
    print("|---|---:|---:|")
    for stage, value in [*ms.items(), ("run units + driver", rest)]:
        print("| %s | %.1f | %.0f%% |" % (stage, value, 100 * value / total))
    print("| **total** | %.1f | ×%.2f of `compile()` of argparse.py (%.1f ms) |" % (total, total / yardstick, yardstick))
    print("| generated `ast` nodes (`ast.walk`) | %d | — |" % nodes)


if __name__ == "__main__":
    main()
