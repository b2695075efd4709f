"""Start-up of a packaged agent vs the same agent from its source folder (issue 15, packages.md §4).

Run: ``python benchmarks/bench_package.py [--fns 100] [--runs 7]``. It generates an agent package
whose library has ``--fns`` fns of about 8 lines each (100 → ~800 lines), builds its wheel,
installs it into a temporary venv (``--system-site-packages``, ``--no-deps``) and times, in fresh
processes, a scripted run (test provider, one turn) that calls every library fn once:

- ``source``: ``spellc run --agent-profile <folder>/agents/bench.agent.edn`` (libraries compiled at start);
- ``package``: ``spellc run --agent bench`` (libraries imported precompiled);

each with Python's bytecode cache (``.pyc`` of spellc and the package written by a warm-up run into a
private ``PYTHONPYCACHEPREFIX``) and without any (``PYTHONDONTWRITEBYTECODE=1``, the package's
``__pycache__`` removed). Packages ship their libraries' code objects for the Python that built them
(``spellc.package.installed.load_compiled``), so "no .pyc" still loads the libraries precompiled. Prints the
median wall time and the peak RSS of the child (``wait4``), and the package/source ratios.

Peak memory: the package used to peak 8–9% above the source run although its library takes half
the heap (measured with ``tracemalloc``: 1.6 MiB vs 3.1 MiB for 100 fns). The excess was not the
library but OpenSSL, loaded by ``hashlib`` for the compatibility fingerprint (3.7 MB resident),
and ``email.parser``, loaded to read the distribution's name; neither is imported on the run path
now (``installed.builtins_fingerprint``, ``agents_registry._package_name``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FN_TEMPLATE = """\
;; Step {i}: folds the words of a text into a score, weighting word {i}.
(defn step-{i} [text]
  (let [words (strings/split text " ")
        sizes (map count words)
        total (reduce + 0 sizes)
        best  (if (empty? sizes) 0 (apply max sizes))]
    (if (> total {i})
      (+ best (mod total {m}) (count (filter (fn [w] (> (count w) 2)) words)))
      (- best {i}))))
"""


def write_package(root: Path, fns: int) -> None:
    (root / "agents").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / "spell-package.edn").write_text('{:name "bench-agent" :version "1.0.0" :agents [bench]}')
    (root / "agents" / "bench.agent.edn").write_text('{:system-prompt "Bench." :namespaces {bench lib/bench}}')
    (root / "lib" / "bench.spl").write_text("\n".join(FN_TEMPLATE.format(i=i, m=i + 7) for i in range(fns)))


def response(fns: int) -> str:
    calls = " ".join('(bench/step-%d "alpha beta gamma delta")' % i for i in range(fns))
    return "(def total (+ %s))\n(eval (quote total))" % calls


def measure(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """(wall seconds, peak RSS KiB) of one fresh child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    out = proc.stdout.read().decode() if proc.stdout else ""
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0 or not out.strip():
        raise SystemExit("benchmark run failed: %s\n%s%s" % (" ".join(cmd), out, err))
    return elapsed, usage.ru_maxrss


def clear_pycache(site: Path) -> None:
    for path in site.glob("spellpkg_bench_agent/**/__pycache__"):
        shutil.rmtree(path, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fns", type=int, default=100)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-package-") as tmp_name:
        tmp = Path(tmp_name)
        src = tmp / "bench-agent"
        write_package(src, args.fns)
        lines = (src / "lib" / "bench.spl").read_text().count("\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "runtime"), env.get("PYTHONPATH", "")])
        env["HOME"] = str(tmp)
        built = subprocess.run([sys.executable, "-m", "spellc", "package", str(src), "-o", str(tmp / "dist")],
                               env=env, capture_output=True, text=True, check=True)
        wheel = built.stdout.strip()
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp / "venv")], check=True)
        python = str(tmp / "venv" / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel], check=True, env=env)
        site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip())
        (tmp / "responses.json").write_text(json.dumps([response(args.fns)]))
        common = ["--prompt", "bench", "--provider", "test", "--responses", str(tmp / "responses.json"), "-q"]
        cases = {
            "source": [python, "-m", "spellc", "run", "--agent-profile", str(src / "agents" / "bench.agent.edn"),
                       *common],
            "package": [python, "-m", "spellc", "run", "--agent", "bench", *common],
        }
        print("library: %d fns, %d lines; %d runs each, medians" % (args.fns, lines, args.runs))
        print("%-10s %-8s %10s %12s" % ("bytecode", "case", "wall ms", "peak RSS MiB"))
        results: dict[tuple[str, str], tuple[float, float]] = {}
        for mode in ("with .pyc", "no .pyc"):
            run_env = dict(env)
            if mode == "no .pyc":
                run_env["PYTHONDONTWRITEBYTECODE"] = "1"
                clear_pycache(site)
            else:
                # Bytecode of spellc and of the package goes to a private prefix: nothing shared is touched.
                run_env.pop("PYTHONDONTWRITEBYTECODE", None)
                run_env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
                for cmd in cases.values():
                    measure(cmd, run_env, tmp)  # warm-up: writes the .pyc files
            samples: dict[str, list[tuple[float, int]]] = {name: [] for name in cases}
            for _ in range(args.runs):
                for name, cmd in cases.items():  # interleaved, so drift hits both alike
                    samples[name].append(measure(cmd, run_env, tmp))
            for name in cases:
                wall = statistics.median(s[0] for s in samples[name]) * 1000
                rss = statistics.median(s[1] for s in samples[name]) / 1024
                results[(mode, name)] = (wall, rss)
                print("%-10s %-8s %10.0f %12.1f" % (mode, name, wall, rss))
        for mode in ("with .pyc", "no .pyc"):
            (pw, pr), (sw, sr) = results[(mode, "package")], results[(mode, "source")]
            print("%-10s package/source: time %.2fx, peak memory %.2fx" % (mode, pw / sw, pr / sr))


if __name__ == "__main__":
    main()
