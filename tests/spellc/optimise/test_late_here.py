"""The late fallbacks read ``D`` and a published body's parameter values from the calling frame
(``spell_runtime.frame_paths.late_named``/``late_pub_named``, issue 12), and ``late_pub_named`` writes
the parameters' values afterwards back into it: the values they evaluate with are the body's
current ones, the same from source with and without optimisations and from a
module written by ``spellc build``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_late_bindings import agree, count_fallbacks, fresh

import spellc
from spellc import state
from spellc.cli import main
from spellc.compiler import optimisations, python_source

# ``g`` is a user fn, so ``f`` publishes ``x`` and ``y`` around calls; ``m`` binds ``-`` in the frame,
# so the ``-`` after it is late: evaluated afresh with the parameters' values of that moment.
PROGRAM = ("(defmacro m [] '(def - (fn [a b] [a b])))\n(defn g [v] v)\n"
           "(defn f [x y] (g x) (m) [(- x y) (- y x) x])\n(f 10 3)")
UNPUBLISHED = "(defmacro m [] '(def - (fn [a b] [b a])))\n(defn h [] (m) (- 3 1))\n(h)"  # no parameters


@pytest.mark.parametrize(("program", "value", "helper"), [(PROGRAM, "[[10 3] [3 10] 10]", "_late_pub_named("),
                                                          (UNPUBLISHED, "[1 3]", "_late_named(")])
def test_a_late_fallback_evaluates_with_the_frames_env_and_parameters(program: str, value: str, helper: str) -> None:
    assert agree(program) == ("ok", value)
    fresh()
    with optimisations(True):
        text = "\n".join(python_source(f) for f in spellc.read_all(program)[:-1])
    assert helper in text
    fallbacks, restore = count_fallbacks()
    try:
        fresh()
        with optimisations(True):
            assert spellc.pr_str(spellc.eval_string(program)) == value
        assert fallbacks() >= 1
    finally:
        restore()
        state.reset_caches()


def test_a_built_module_takes_the_late_fallback_as_the_source_does(tmp_path: Path) -> None:
    fresh()
    # the macro defined after ``f``: a build expands the macro calls it knows of when it compiles
    program = "(defn g [v] v)\n(defn f [x y] (g x) (m) [(- x y) (- y x) x])\n" + PROGRAM.split("\n")[0] + "\n(f 10 3)"
    (tmp_path / "late.spl").write_text(program, encoding="utf-8")
    out = tmp_path / "late_built.py"
    # one file (--part-bytes 0): the text read below holds every function
    built = CliRunner().invoke(main, ["build", str(tmp_path / "late.spl"), "-o", str(out), "--part-bytes", "0"])
    fresh()  # as in a fresh process (both commands run in this one)
    source_run = CliRunner().invoke(main, ["run", str(tmp_path / "late.spl")])
    assert built.exit_code == 0, built.output
    assert "_late_pub_named(" in out.read_text(encoding="utf-8")
    run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True, timeout=120)
    assert source_run.output.strip() == run.stdout.strip() == "[[10 3] [3 10] 10]", run.stderr
