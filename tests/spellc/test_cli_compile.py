"""``spellc eval`` and ``spellc build`` from the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from spellc.cli import main

PROGRAM = """(defn safe-div [a b]
  (/ a b))
(defn run []
  (safe-div 10 0))
"""


def test_eval_prints_the_value() -> None:
    result = CliRunner().invoke(main, ["eval", "(map inc [1 2 3])"])
    assert result.exit_code == 0
    assert result.output == "[2 3 4]\n"


def test_eval_error_names_position_and_call_path() -> None:
    result = CliRunner().invoke(main, ["eval", "(do (defn f [x] (g x)) (defn g [y] (/ y 0)) (f 1))"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "<eval>:1:36: Function call failed: /: Divide by zero"
    # each frame carries its call site: (g x) at column 17, (f 1) at column 45 (issue 16.6)
    assert lines[1:] == ["  in g  <eval>:1:17", "  in f  <eval>:1:45"]
    assert "Traceback" not in result.output


def test_build_writes_a_module_that_needs_only_the_runtime(tmp_path: Path) -> None:
    import spellc

    spellc.eval_string("(let [count 1] count)")  # binding a builtin name moves this process's epoch
    src = tmp_path / "prog.spl"
    src.write_text("(defn sq [x] (* x x))\n{:squares (map sq (range 5)) :name \"prog\"}\n", encoding="utf-8")
    out = tmp_path / "prog_built.py"
    result = CliRunner().invoke(main, ["build", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True, check=True)
    assert run.stdout == '{:squares [0 1 4 9 16], :name "prog"}\n'
    check = ("import sys; sys.path.insert(0, %r); import prog_built; "
             "from spell_runtime.printer import pr_str; print(pr_str(prog_built.value)); "
             "print(sorted(m for m in sys.modules if m == 'spellc' or m.startswith('spellc.')))" % str(tmp_path))
    imported = subprocess.run([sys.executable, "-W", "ignore", "-c", check], capture_output=True, text=True, check=True)
    assert imported.stdout.splitlines() == ['{:squares [0 1 4 9 16], :name "prog"}', "[]"]


def test_built_script_collects_only_once_its_program_runs_and_an_import_leaves_collection_alone(
        tmp_path: Path) -> None:
    # Run as a script, a built module keeps the collector off while it starts (what start-up
    # allocates stays alive) and run_script freezes that and turns it back on before the program runs,
    # as the spellc command does; imported as a library, it never touches the importer's collector.
    src = tmp_path / "prog.spl"
    src.write_text("(reduce + (map inc (range 10)))\n", encoding="utf-8")
    out = tmp_path / "gc_built.py"
    assert CliRunner().invoke(main, ["build", str(src), "-o", str(out)]).exit_code == 0
    script = ("import gc, runpy, spell_runtime.script as s\n"
              "real = s.run_script\n"
              "def spy(run, name, paused=False):\n"
              "    print('starting', gc.isenabled(), paused)\n"
              "    def program():\n"
              "        print('running', gc.isenabled(), gc.get_freeze_count() > 0)\n"
              "        return run()\n"
              "    real(program, name, paused)\n"
              "s.run_script = spy\n"
              "runpy.run_path(%r, run_name='__main__')\n" % str(out))
    ran = subprocess.run([sys.executable, "-W", "ignore", "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.splitlines() == ["starting False True", "running True True", "55"]
    check = ("import gc, sys; sys.path.insert(0, %r); import gc_built; "
             "print(gc.isenabled(), gc.get_freeze_count(), gc_built._PAUSED_GC)" % str(tmp_path))
    imported = subprocess.run([sys.executable, "-W", "ignore", "-c", check], capture_output=True, text=True, check=True)
    assert imported.stdout.split() == ["True", "0", "False"]


def test_built_module_reports_spell_errors(tmp_path: Path) -> None:
    src = tmp_path / "calc.spl"
    src.write_text(PROGRAM + "(run)\n", encoding="utf-8")
    out = tmp_path / "calc.py"
    assert CliRunner().invoke(main, ["build", str(src), "-o", str(out)]).exit_code == 0
    run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True)
    assert run.returncode == 1
    # the same report as `spellc run`: position and call path with call sites (issue 16.6)
    assert run.stderr.strip().splitlines() == ["calc.spl:2:3: Function call failed: /: Divide by zero",
                                               "  in safe-div  calc.spl:4:3", "  in run  calc.spl:5:1"]


def test_run_without_a_model_evaluates_the_program_and_reports_spell_errors(tmp_path: Path) -> None:
    good = tmp_path / "good.spl"
    good.write_text("(defn sq [x] (* x x))\n(sq 12)\n", encoding="utf-8")
    ok = CliRunner().invoke(main, ["run", str(good)])
    assert ok.exit_code == 0 and ok.output == "144\n"
    bad = tmp_path / "bad.spl"
    bad.write_text(PROGRAM + "(run)\n", encoding="utf-8")
    failed = CliRunner().invoke(main, ["run", str(bad)])
    assert failed.exit_code == 1
    assert failed.output.splitlines() == ["%s:2:3: Function call failed: /: Divide by zero" % bad,
                                          "  in safe-div  %s:4:3" % bad, "  in run  %s:5:1" % bad]
