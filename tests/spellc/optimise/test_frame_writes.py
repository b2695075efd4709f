"""The rare paths of a published body write its parameter locals back themselves (issue 12).

A user macro's expansion (the call site's head is a macro only at run time) and a late reference's
dynamic evaluation (``spellc.emit.late``) may ``def`` a parameter of a body whose parameters are
published around calls; ``_macro_pub_named`` and ``_late_pub_named`` (``spell_runtime.frame_paths``)
write the values the parameters have afterwards into the calling frame's locals (``write_params``)
instead of a list display at every site reloading them from the helper's answer. Each case checks
that the body's later reads (its own and its callees') see the new values, with optimisations on
and off, in a plain body with one and three parameters, in a piece outlined from the body
(``EmitterBase._outline``, which must then hand every parameter in and back out) and in a module
written by ``spellc build``; and that the generated code really takes these paths.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from old_sites import undo_list_sites
from optimise_programs import bound_names_restored
from spell_runtime.frame_paths import write_params
from test_late_bindings import agree, fresh

import spellc
from spellc.cli import main
from spellc.compiler import optimisations, python_source


@pytest.fixture(autouse=True)
def restore_bound() -> Iterator[None]:
    yield from bound_names_restored()


def generated(program: str) -> str:
    """The Python text of every form of ``program`` but the last, compiled as a fresh process would,
    before any of them runs (so no macro of the program is known yet)."""
    fresh()
    with optimisations(True):
        return "\n".join(python_source(f) for f in spellc.read_all(program)[:-1])


SETP = "(defmacro setp [n v] (list 'def n v))\n"
"""A macro defined after the bodies that call it: their heads are macros only at run time."""

BIND_MINUS = "(defmacro m [] '(defmacro - [a b] (list 'def a b)))\n"
"""Its expansion binds ``-`` in the frame as a macro: a later ``(- p v)`` is late and ``def``s ``p``."""


def _nested_lets(inner: str, depth: int = 40) -> str:
    """``inner`` under ``depth`` lets that call a user fn: deep enough that part of the body is outlined."""
    for i in range(depth):
        inner = "(let [a%d (g %d)] %s)" % (i, i, inner)
    return inner


MACRO_CASES = [
    # one parameter: the body and its callee read the new value
    ("(defn g [v] v) (defn peek [] x) (defn f [x] (setp x (inc x)) [x (peek)])\n" + SETP
     + "[(f 1) (try x (catch e :unbound))]", "[[2 2] :unbound]"),
    # three parameters, the last then the first rebound; the middle one keeps its value
    ("(defn g [v] v) (defn peek [] [x y z]) (defn f [x y z] (setp z (+ x y)) (setp x 0) [x y z (peek)])\n" + SETP
     + "[(f 1 2 9) (try z (catch e :unbound))]", "[[0 2 3 [0 2 3]] :unbound]"),
    # an expansion that defs no parameter leaves them all as they were
    ("(defn g [v] v) (defn f [x y z] (setp q (+ x y)) [x y z q])\n" + SETP + "(f 1 2 9)", "[1 2 9 3]"),
    # a parameter read before the expansion in the same call keeps the value of that moment
    ("(defn g [v] v) (defn f [x] (vector x (setp x 5) x))\n" + SETP + "(f 1)", "[1 5 5]"),
]

LATE_CASES = [
    ("(defn g [] n) (defn f [n] (g) (m) (- n 99) [n (g)])\n" + BIND_MINUS + "(f 10)", "[99 99]"),
    ("(defn g [] [x y z]) (defn f [x y z] (g) (m) (- z (+ x y)) (- x 0) [x y z (g)])\n" + BIND_MINUS
     + "[(f 1 2 9) (try z (catch e :unbound))]", "[[0 2 3 [0 2 3]] :unbound]"),
]


@pytest.mark.parametrize(("program", "value"), MACRO_CASES)
def test_a_macro_expansion_that_defs_a_parameter_is_seen_by_the_rest_of_the_body(program: str, value: str) -> None:
    assert agree(program) == ("ok", value)
    text = generated(program)
    assert "_macro_pub_named(" in text and "_macro_pub_here(" not in text and "_mr" not in text


@pytest.mark.parametrize(("program", "value"), LATE_CASES)
def test_a_late_reference_that_defs_a_parameter_is_seen_by_the_rest_of_the_body(program: str, value: str) -> None:
    assert agree(program) == ("ok", value)
    text = generated(program)
    assert "_late_pub_named(" in text and "_late_pub_here(" not in text and "_mr" not in text


OUTLINED = [
    # the piece reads the parameter after the expansion rebound it
    ("(defn g [v] v) (defn peek [] [x y]) (defn f [x y] %s)\n" % _nested_lets("(do (setp y (+ x a0)) [x y (peek)])")
     + SETP + "(f 1 2)", "[1 1 [1 1]]", "_macro_pub_named("),
    # the body reads the value the lets put back when they exit (the def was the innermost let's)
    ("(defn g [v] v) (defn f [x y] %s [x y])\n" % _nested_lets("(setp x 7)") + SETP + "(f 1 2)",
     "[1 2]", "_macro_pub_named("),
    ("(defn g [v] v) (defn f [x y] %s)\n" % _nested_lets("(do (m) (- y (+ x a1)) [x y (g y)])") + BIND_MINUS
     + "(f 1 2)", "[1 2 2]", "_late_pub_named("),
    ("(defn g [v] v) (defn f [x y] %s [x y])\n" % _nested_lets("(do (m) (- x 5))") + BIND_MINUS + "(f 1 2)",
     "[1 2]", "_late_pub_named("),
]


def _outlined_calls(text: str, helper: str) -> list[ast.FunctionDef]:
    """The outlined pieces (``_nestN``) of ``text`` that call ``helper`` themselves."""
    return [d for d in ast.walk(ast.parse(text)) if isinstance(d, ast.FunctionDef) and d.name.startswith("_nest")
            and any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == helper
                    for st in d.body for c in ast.walk(st))]


@pytest.mark.parametrize(("program", "value", "helper"), OUTLINED)
def test_an_outlined_piece_hands_the_parameters_the_helper_writes_in_and_out(program: str, value: str,
                                                                           helper: str) -> None:
    assert agree(program) == ("ok", value)
    pieces = _outlined_calls(generated(program), helper.rstrip("("))
    assert pieces, "the helper call is not in an outlined piece"
    for piece in pieces:  # every parameter comes in, and goes back out with the value
        assert {"_p0", "_p1"} <= {a.arg for a in piece.args.args}
        back = piece.body[-1]
        assert isinstance(back, ast.Return) and isinstance(back.value, ast.Tuple)
        assert [e.id for e in back.value.elts if isinstance(e, ast.Name)][-2:] == ["_p0", "_p1"]


BUILT = [
    ("(defn peek [] [x y z]) (defn f [x y z] (setp z (+ x y)) (m) (- x 0) [x y z (peek)])\n" + SETP + BIND_MINUS
     + "[(f 1 2 9) (try z (catch e :unbound))]", "[[0 2 3 [0 2 3]] :unbound]"),
    ("(defn g [v] v) (defn f [x y] %s)\n" % _nested_lets("(do (setp y (+ x a0)) (m) (- x (+ y 10)) [x y (g y)])")
     + SETP + BIND_MINUS + "(f 1 2)", "[11 1 1]"),
]


@pytest.mark.parametrize(("program", "value"), BUILT)
def test_a_built_module_writes_the_parameters_as_the_source_does(tmp_path: Path, program: str, value: str) -> None:
    fresh()
    (tmp_path / "writes.spl").write_text(program, encoding="utf-8")
    out = tmp_path / "writes_built.py"
    # one file (--part-bytes 0): the text read below holds every function
    built = CliRunner().invoke(main, ["build", str(tmp_path / "writes.spl"), "-o", str(out), "--part-bytes", "0"])
    fresh()  # as in a fresh process (both commands run in this one)
    source_run = CliRunner().invoke(main, ["run", str(tmp_path / "writes.spl")])
    assert built.exit_code == 0, built.output
    text = out.read_text(encoding="utf-8")
    assert "_macro_pub_named(" in text and "_late_pub_named(" in text
    run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True, timeout=120)
    assert source_run.output.strip() == run.stdout.strip() == value, run.stderr


def test_write_params_writes_plain_and_cell_locals_of_the_frame() -> None:
    def body() -> tuple[object, ...]:
        _p0, _p1, _p2 = 1, 2, 3
        read_p1 = lambda: _p1  # noqa: E731 - a closure: ``_p1`` is a cell variable
        write_params(sys._getframe(), (1, 2, 3), ("a", "b", 3))
        return _p0, _p1, _p2, read_p1()

    assert body() == ("a", "b", 3, "b")


def test_an_expansion_that_defs_nothing_loads_no_ctypes() -> None:
    """Nothing changed, nothing written: ctypes (start-up cost) stays unloaded on that path. (An
    expansion that ``def``s any name, not only a parameter, now writes the scope's undo list it made
    into the frame: ``frame_paths.macro_pub_named``.)"""
    program = ("(defn g [v] v) (defn f [x] [(same (inc x)) x])\n(defmacro same [v] v)\n(f 1)")
    script = ("import sys, spellc\nv = spellc.pr_str(spellc.eval_string(sys.argv[1]))\n"
              "print(v, 'ctypes' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", script, program], capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["[2", "1]", "False"], run.stderr
    text = generated(program)
    assert "_macro_pub_named(" in text


def test_a_module_built_before_still_runs_with_the_reloading_helpers(tmp_path: Path) -> None:
    """``_macro_pub_here`` and ``_late_pub_here`` stay in the ABI (``abi.LEGACY``) for modules that
    ``spellc build`` wrote before the frame writes: such a module's sites reload the locals."""
    program, value = BUILT[0]
    fresh()
    (tmp_path / "old.spl").write_text(program, encoding="utf-8")
    out = tmp_path / "old_built.py"
    assert CliRunner().invoke(main, ["build", str(tmp_path / "old.spl"), "-o", str(out), "--part-bytes", "0"]).exit_code == 0
    text, _ = undo_list_sites(out.read_text(encoding="utf-8"))  # the sites as 369c69c wrote them
    assert text.count("_pub_here(") >= 2
    assert "_macro_pub_here(" in text and "_late_pub_here(" in text and "_pub_named(" not in text
    out.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == value, run.stderr
