"""Every target of issue 12 (the compiler back end), printed as ratios measured side by side in one run.

Run: ``python benchmarks/backend.py`` (``BENCH_REPEAT`` fresh processes per row, default 5).
The machine these run on is shared and noisy, so each row times its subject and its yardstick
interleaved in the same run and reports the ratio of medians (architecture.md §2.4, §2.5):

- size of the module ``spellc build`` writes for ``compile-300.spl`` (target ≤ 100 KB);
- cold compile+run of ``compile-300.spl`` in a fresh process (``spellc`` imported and the builtin
  library loaded, compiler caches empty) against CPython's ``compile()`` of ``argparse.py`` in that
  same process (target ≤ ×3);
- whole ``spellc eval '(+ 1 2)'`` process against ``python -c pass`` (target ≤ ×2.5), and its peak
  RSS (target ≤ 25 MB);
- ``python built.py`` with no ``.pyc`` against ``spellc run`` of the source (target ≤ 0.7×); the module reads
  its fn bodies from part files (``spell_runtime.built_parts``), whose bytecode a second run with bytecode
  writing on finds cached (a row of its own, no target); and, with no
  target, the same two net of a bare interpreter start timed beside them: what the row measures of the
  two programs themselves, apart from a start-up (``site``, ``.pth`` files) that differs between machines;
  and the two again under ``python -S`` (site-packages on ``PYTHONPATH`` instead): a start-up without
  the ``.pth`` hooks an installation runs in every interpreter (on the machines this was measured on,
  a certificate hook importing ``certifi`` and setuptools' editable-install finder, ~25 ms of the
  ~33 ms ``python -c pass``, none of it ours), as a plain ``pip install`` of the wheel would start;
  and the two once more from a fresh virtual environment over this interpreter (``clean_venv``): ``site``
  runs as usual, but none of the installation's ``.pth`` hooks do — how ``python`` starts where the
  installation has none.

``PYTHONDONTWRITEBYTECODE=1`` is set for every child; the packages' own bytecode is written first,
as ``pip install`` would, so start-up rows measure the installed case.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "conformance" / "bench" / "compile-300.spl"

COLD_COMPILE = r"""
import argparse, sys, time
import spellc
from spellc import compiler
spellc.eval_string("(+ 1 2)")   # the builtin library and helpers load here, not in the timed part
text = open(sys.argv[1], encoding="utf-8").read()
t = time.perf_counter()
spellc.eval_string(text)
spell = time.perf_counter() - t
src = open(argparse.__file__, encoding="utf-8").read()
t = time.perf_counter()
compile(src, argparse.__file__, "exec")
cpython = time.perf_counter() - t
print(spell, cpython)
"""


def _env(no_site: bool = False) -> dict[str, str]:
    """The children's environment; ``no_site``: for ``python -S``, which adds no site-packages itself."""
    dirs = [str(ROOT), str(ROOT / "runtime")]
    if no_site:
        paths = sysconfig.get_paths()
        dirs += [paths["purelib"], paths["platlib"]]
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=os.pathsep.join(dirs))


def _write_package_bytecode() -> None:
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "spellc"), str(ROOT / "runtime")],
                   env=clean, capture_output=True, check=False)


def _run_rss(cmd: list[str], bytecode: bool = False) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in KB, stdout) of one child, reaped with ``wait4`` to read its own peak RSS;
    ``bytecode``: the child may write ``.pyc`` files (``PYTHONDONTWRITEBYTECODE`` unset)."""
    env = _env("-S" in cmd[1:2])
    if bytecode:
        del env["PYTHONDONTWRITEBYTECODE"]
    t = time.perf_counter()
    # cwd: ``python -c``/``-m`` children put the working directory first on ``sys.path``, so run from
    # another checkout (``/work/main``) they would import its ``spellc`` instead of this tree's.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    out = proc.stdout.read() if proc.stdout else b""
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit("%s failed: %s" % (" ".join(cmd), err.decode(errors="replace")[-2000:]))
    return wall, usage.ru_maxrss, out.decode()


def built_size(workdir: Path) -> tuple[int, int, Path]:
    """(bytes written, number of files, the module): the module and its parts (``spell_runtime.built_parts``)."""
    out = workdir / "compile300_built.py"
    _run_rss([sys.executable, "-m", "spellc", "build", str(SHARED), "-o", str(out)])
    files = [out, *sorted((workdir / "compile300_built.parts").glob("*.py"))]
    return sum(f.stat().st_size for f in files), len(files), out


def built_cached_vs_run(built: Path, repeat: int) -> tuple[float, float]:
    """Medians of ``python built.py`` with bytecode writing on, after one such run has cached its parts'
    bytecode (CPython never caches a script's own), and of ``spellc run`` beside it."""
    _run_rss([sys.executable, str(built)], bytecode=True)
    built_t, run_t = [], []
    for _ in range(repeat):
        run_t.append(_run_rss([sys.executable, "-m", "spellc", "run", str(SHARED)])[0])
        built_t.append(_run_rss([sys.executable, str(built)], bytecode=True)[0])
    return statistics.median(built_t), statistics.median(run_t)


def cold_compile(repeat: int) -> tuple[float, float]:
    spell, cpy = [], []
    for _ in range(repeat):
        _, _, out = _run_rss([sys.executable, "-c", COLD_COMPILE, str(SHARED)])
        s, c = out.split()
        spell.append(float(s))
        cpy.append(float(c))
    return statistics.median(spell), statistics.median(cpy)


def startup(repeat: int) -> tuple[float, float, int]:
    spell, bare, rss = [], [], []
    for _ in range(repeat):
        t, _, _ = _run_rss([sys.executable, "-c", "pass"])
        bare.append(t)
        t, peak, out = _run_rss([sys.executable, "-m", "spellc", "eval", "(+ 1 2)"])
        if out.strip() != "3":
            raise SystemExit("spellc eval printed %r" % out)
        spell.append(t)
        rss.append(peak)
    return statistics.median(spell), statistics.median(bare), max(rss)


def clean_venv(directory: Path) -> str:
    """The interpreter of a new virtual environment in ``directory`` that imports this one's packages
    (a ``.pth`` line naming their directory adds it to the path without running the ``.pth`` files in it)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(directory)], check=True, capture_output=True)
    ours = sysconfig.get_paths()
    theirs = sysconfig.get_paths(vars={"base": str(directory), "platbase": str(directory)})
    Path(theirs["purelib"], "_packages_of_the_benchmarked_python.pth").write_text(
        "%s\n%s\n" % (ours["purelib"], ours["platlib"]), encoding="utf-8")
    return str(directory / "bin" / "python")


def built_vs_run(built: Path, repeat: int, flags: tuple[str, ...] = (),
                 python: str = sys.executable) -> tuple[float, float, int, int, float]:
    """Medians of ``python built.py`` and ``spellc run`` (and a bare start, timed between them: the
    ratio net of it shows how much of the row is the interpreter's own start on this machine), each
    run as ``python <flags> ...``."""
    py = [python, *flags]
    run_t, built_t, run_rss, built_rss, bare_t = [], [], [], [], []
    for _ in range(repeat):
        bare_t.append(_run_rss([*py, "-c", "pass"])[0])
        t, peak, out_run = _run_rss([*py, "-m", "spellc", "run", str(SHARED)])
        run_t.append(t)
        run_rss.append(peak)
        t, peak, out_built = _run_rss([*py, str(built)])
        built_t.append(t)
        built_rss.append(peak)
        if out_run.strip() != out_built.strip():
            raise SystemExit("built module printed %r, spellc run %r" % (out_built[:200], out_run[:200]))
    return (statistics.median(built_t), statistics.median(run_t), max(built_rss), max(run_rss),
            statistics.median(bare_t))


def compiler_build() -> str:
    """Which build of the compiler the children run (``spellc.native``): the figures depend on it."""
    _, _, out = _run_rss([sys.executable, "-c", "import spellc.native as n, spellc; print(n.COMPILED[0])"])
    return ("the compiler's mypyc build (spellc.native)" if out.strip() == "True"
            else "the compiler's interpreted source (no usable mypyc build, or SPELLC_PURE_COMPILER set)")


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    _write_package_bytecode()
    print("Measured with %s.\n" % compiler_build())
    print("| measure | value | yardstick | ratio | target |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        size, files, built = built_size(Path(tmp))
        print("| `spellc build` of compile-300.spl (%d B source), %d files | %.1f KB | — | ×%.1f of source | ≤ 100 KB |"
              % (SHARED.stat().st_size, files, size / 1024, size / SHARED.stat().st_size))
        s, c = cold_compile(repeat)
        print("| cold compile+run of compile-300 vs `compile()` of argparse.py | %.1f ms | %.1f ms | ×%.2f | ≤ ×3 |"
              % (s * 1000, c * 1000, s / c))
        s, b, rss = startup(repeat)
        print("| `spellc eval '(+ 1 2)'` vs `python -c pass` | %.0f ms | %.0f ms | ×%.2f | ≤ ×2.5 |"
              % (s * 1000, b * 1000, s / b))
        print("| peak RSS of `spellc eval '(+ 1 2)'` | %.1f MB | — | — | ≤ 25 MB |" % (rss / 1024))
        bt, rt, brss, rrss, bare = built_vs_run(built, repeat)
        print("| `python built.py` (no .pyc) vs `spellc run` of the source | %.0f ms | %.0f ms | %.2f× | ≤ 0.7× |"
              % (bt * 1000, rt * 1000, bt / rt))
        print("| the same, each net of a bare `python -c pass` (%.0f ms here) | %.0f ms | %.0f ms | %.2f× | — |"
              % (bare * 1000, (bt - bare) * 1000, (rt - bare) * 1000, (bt - bare) / (rt - bare)))
        print("| peak RSS: built.py / spellc run | %.1f MB | %.1f MB | — | — |" % (brss / 1024, rrss / 1024))
        bt, rt, _, _, bare = built_vs_run(built, repeat, ("-S",))
        print("| the same two under `python -S` (no `.pth` start-up hooks; bare start %.0f ms) | %.0f ms | %.0f ms "
              "| %.2f× | — |" % (bare * 1000, bt * 1000, rt * 1000, bt / rt))
        bt, rt, _, _, bare = built_vs_run(built, repeat, python=clean_venv(Path(tmp, "venv")))
        print("| the same two from a fresh venv (`site` on, no `.pth` hooks; bare start %.0f ms) | %.0f ms | %.0f ms "
              "| %.2f× | — |" % (bare * 1000, bt * 1000, rt * 1000, bt / rt))
        # last: the rows above read no bytecode of the parts, which this one leaves in their folder
        bt, rt = built_cached_vs_run(built, repeat)
        print("| `python built.py` run again with bytecode writing on (its parts' `.pyc` cached) vs `spellc run` "
              "| %.0f ms | %.0f ms | %.2f× | — |" % (bt * 1000, rt * 1000, bt / rt))


if __name__ == "__main__":
    main()
