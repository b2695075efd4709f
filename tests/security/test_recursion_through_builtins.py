"""An endless recursion that goes through a builtin (``(defn f [x] (map f [x]))``) fails with ``Stack
overflow`` (language.md §15.5, A8) from every entry point, as a direct recursion does.

It used to crash the process: every level takes C stack inside ``map``, and the main thread's ran out
before the recursion limit (a segmentation fault from ``spellc eval``/``run`` and built modules; the
turn loop already evaluated on a large stack). With enough stack it then took a minute and 3 GB: each
level wrapped the overflow as ``Function call failed: map: ...`` around the message of the level
below. Evaluations now run on a large stack (``spell_runtime.bigstack``) and the overflow crosses
builtins as it is (``errors.StackOverflow``).
"""

from __future__ import annotations

import contextvars
import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from spell_runtime.bigstack import call_with_large_stack, has_large_stack, on_large_stack
from spell_runtime.errors import SpellError, StackOverflow

import spellc

THROUGH = {
    "map": "(defn f [x] (map f [x]))\n(f 1)\n",
    "filter": "(defn f [x] (filter f [x]))\n(f 1)\n",
    "reduce": "(defn f [x] (reduce (fn [a b] (f b)) 0 [x]))\n(f 1)\n",
    "apply": "(defn f [x] (apply f [x]))\n(f 1)\n",
}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spellc", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("via", sorted(THROUGH))
def test_spellc_run_reports_stack_overflow_at_the_recursive_call(tmp_path: Path, via: str) -> None:
    prog = tmp_path / "deep.spl"
    prog.write_text(THROUGH[via], encoding="utf-8")
    ran = _cli("run", str(prog))
    assert ran.returncode == 1, ran.stderr[-500:]  # not -11 (SIGSEGV)
    lines = ran.stderr.replace(str(tmp_path) + "/", "").splitlines()
    assert re.fullmatch(r"deep\.spl:1:\d+: Stack overflow", lines[0]), lines[0][:300]
    assert "Function call failed" not in ran.stderr
    assert len(lines) <= 12  # the call path folds the recursion or says how many more frames there were


def test_spellc_eval_and_a_built_script_report_it_too(tmp_path: Path) -> None:
    ran = _cli("eval", "(do (defn f [x] (map f [x])) (f 1))")
    assert ran.returncode == 1 and ran.stderr.startswith("<eval>:1:17: Stack overflow\n"), ran.stderr[:300]
    prog = tmp_path / "deep.spl"
    prog.write_text(THROUGH["map"], encoding="utf-8")
    out = tmp_path / "deep_built.py"
    assert _cli("build", str(prog), "-o", str(out)).returncode == 0
    built = subprocess.run([sys.executable, str(out)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 1 and built.stderr.startswith("deep.spl:1:13: Stack overflow\n"), built.stderr[:300]


def test_spellc_test_fails_that_test_and_runs_the_next(tmp_path: Path) -> None:
    """A Spell test recursing through a builtin, in its prelude or its body, errors with ``Stack overflow``
    and the run goes on: evaluated on pytest's main thread, it crashed the whole run."""
    (tmp_path / "test_deep.spl").write_text(
        "(defn f [x] (first (map f [x])))\n(deftest deep (is (= 1 (f 1))))\n(deftest fine (is (= 2 (+ 1 1))))\n",
        encoding="utf-8")
    (tmp_path / "test_prelude.spl").write_text(
        "(defn g [x] (map g [x]))\n(def boom (g 1))\n(deftest after (is true))\n", encoding="utf-8")
    ran = _cli("test", str(tmp_path))
    assert ran.returncode == 1, ran.stderr[-500:] + ran.stdout[-500:]  # not -11 (SIGSEGV)
    assert "1 passed, 2 errors" in ran.stdout, ran.stdout[-800:]
    assert ran.stdout.count("Stack overflow") >= 2


def test_the_overflow_crosses_the_builtin_unwrapped_in_process() -> None:
    with pytest.raises(SpellError) as info:
        call_with_large_stack(spellc.eval_string, "(do (defn g [x] (map g [x])) (g 1))")
    assert type(info.value) is StackOverflow and info.value.message == "Stack overflow"


def test_other_failures_inside_a_builtin_are_still_wrapped_once_per_level() -> None:
    with pytest.raises(SpellError) as info:
        spellc.eval_string("(do (defn h [x] (/ x 0)) (map h [1]))")
    assert info.value.message == "Function call failed: map: Function call failed: /: Divide by zero"


def test_call_with_large_stack_returns_raises_and_runs_elsewhere() -> None:
    assert call_with_large_stack(lambda a, b=0: a + b, 2, b=3) == 5
    assert call_with_large_stack(threading.get_ident) != threading.get_ident()
    with pytest.raises(SystemExit):
        call_with_large_stack(sys.exit, 3)
    with pytest.raises(KeyError):
        call_with_large_stack({}.__getitem__, "missing")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)


def test_the_python_api_called_from_a_main_thread_reports_it() -> None:
    """``spellc.eval_string`` and ``spell_eval`` called by a host program on its main thread: a model's
    program recursing through a builtin used to kill the host with a segmentation fault."""
    ran = _python("""
        import spellc
        try:
            spellc.eval_string("(defn f [x] (vec (map f [x])))\\n(f 1)")
        except spellc.SpellError as e:
            print("eval_string:", e.message)
        result = spellc.spell_eval("(do (defn g [x] (vec (filter g [x]))) (g 1))")
        print("spell_eval:", result[spellc.keyword("err")])
    """)
    assert ran.returncode == 0, ran.stderr[-500:]  # not -11 (SIGSEGV)
    assert ran.stdout.splitlines() == ["eval_string: Stack overflow", "spell_eval: Stack overflow"]


def test_the_repl_reports_it_and_goes_on() -> None:
    ran = subprocess.run([sys.executable, "-m", "spellc", "repl"], input="(defn f [x] (vec (map f [x])))\n(f 1)\n(+ 1 2)\n",
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-500:]
    assert ran.stdout.splitlines()[-1] == "3"
    assert re.match(r"<repl>:1:\d+: Stack overflow", ran.stderr), ran.stderr[:300]


def test_an_interrupted_caller_interrupts_the_evaluation() -> None:
    """Ctrl-C reaches the thread waiting for the evaluation; the evaluation stops too, instead of
    running on in the background of the host process."""
    ran = _python("""
        import os, signal, threading, time
        import spellc
        threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            spellc.eval_string("(loop [i 0] (recur (inc i)))")
        except KeyboardInterrupt:
            print("interrupted")
        left = time.monotonic() + 30
        while time.monotonic() < left and any(th.name == "spell-eval" for th in threading.enumerate()):
            time.sleep(0.05)
        print("evaluations left:", [th.name for th in threading.enumerate() if th.name == "spell-eval"])
    """)
    assert ran.returncode == 0, ran.stderr[-500:]
    assert ran.stdout.splitlines() == ["interrupted", "evaluations left: []"], ran.stdout


def test_on_large_stack_runs_inline_on_one_and_hops_elsewhere() -> None:
    assert not has_large_stack()
    outer = threading.get_ident()
    assert on_large_stack(threading.get_ident) != outer
    inner = call_with_large_stack(lambda: (threading.get_ident(), has_large_stack(),
                                           on_large_stack(threading.get_ident)))
    assert inner[1] is True and inner[0] == inner[2]  # already on a large stack: no second thread


def test_the_callers_context_variables_go_along() -> None:
    seen: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="unset")
    token = seen.set("caller's")
    try:
        assert on_large_stack(seen.get) == "caller's"
    finally:
        seen.reset(token)
