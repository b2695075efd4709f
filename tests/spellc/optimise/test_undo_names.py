"""The rare paths make a scope's undo list themselves, in the calling frame (issue 12).

A scope allocates its undo list only once a ``def`` lands in it; a user macro's expansion (the head
is a macro only at run time) or a late reference's dynamic evaluation (``spellc.emit.late``) is
such a place. Their sites once made the list themselves (``_u3 := _u3 or []``, 5 ``ast`` nodes);
now they pass the undo local's name and the helpers (``frame_paths.macro_named``, ``late_named``,
``macro_pub_named``, ``late_pub_named``) read it from the caller's frame, make the list when it is
still None and store it there (``frame_paths.write_locals``). Each case has the rare path create
the list and checks that what it ``def``s is seen inside the scope and undone when the scope exits
— with optimisations on and off, in a plain body, a published body, a piece outlined from a body
(``EmitterBase._outline``: the piece gets the undo local and hands it back) and a module written
by ``spellc build``, also one whose sites were written before the change.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from old_sites import NAMED_TO_LIST, undo_list_sites
from optimise_programs import bound_names_restored
from spell_runtime.frame_paths import write_locals
from test_frame_writes import BIND_MINUS, SETP, generated
from test_late_bindings import agree, fresh

from spellc.cli import main


@pytest.fixture(autouse=True)
def restore_bound() -> Iterator[None]:
    yield from bound_names_restored()


CASES = [
    # plain bodies: a fn's own scope, a let's scope inside it (undone in the middle of the body)
    ("(defn peek [] q) (defn f [] (setp q 5) [q (peek)])\n" + SETP + "[(f) (try q (catch e :gone))]",
     "[[5 5] :gone]", "_macro_named("),
    ("(defn f [] [(let [a (inc 1)] (setp q a) q) (try q (catch e :gone))])\n" + SETP + "[(f) (try q (catch e :gone))]",
     "[[2 :gone] :gone]", "_macro_named("),
    ("(defn h [] (let [a 1] (m) (- q 7) [q a]))\n" + BIND_MINUS + "[(h) (try q (catch e :gone)) (- 5 3)]",
     "[[7 1] :gone 2]", "_late_named("),
    # published bodies (``f`` calls the user fn ``g``)
    # (a ``try`` in ``f`` would make its parameter observable there, so ``peek`` holds it)
    ("(defn g [v] v) (defn peek [] (try q (catch e :gone))) (defn f [x] (g x) [(let [a (g 1)] (setp q (+ x a)) q)"
     " (peek)])\n" + SETP + "[(f 1) (peek)]", "[[2 :gone] :gone]", "_macro_pub_named("),
    ("(defn g [v] v) (defn f [x] (g x) (let [a (g 1)] (m) (- q (+ x a)) [x q]))\n" + BIND_MINUS
     + "[(f 1) (try q (catch e :gone)) (- 5 3)]", "[[1 2] :gone 2]", "_late_pub_named("),
]


@pytest.mark.parametrize(("program", "value", "helper"), CASES)
def test_a_rare_path_makes_the_scopes_undo_list_and_its_defs_are_undone(program: str, value: str,
                                                                        helper: str) -> None:
    assert agree(program) == ("ok", value)
    text = generated(program)
    assert helper in text and " or []" not in text


def _each_let_defs(inner: str, depth: int = 40) -> str:
    """``inner`` under ``depth`` lets whose bodies each ``def`` ``qN`` through a macro: deep enough
    that part of the body is outlined, and some outlined piece holds a ``def`` of the scope it is
    cut from (whose undo list it then gets, still None, and hands back)."""
    for i in range(depth):
        inner = "(let [a%d (g %d)] (do (setp q%d a%d) %s))" % (i, i, i, i, inner)
    return inner


OUTLINED = [
    ("(defn g [v] v) (defn f [] %s)\n" % _each_let_defs("[q0 q39]") + SETP
     + "[(f) (try q0 (catch e :gone)) (try q39 (catch e :gone))]", "[[0 39] :gone :gone]", "_macro_named"),
    ("(defn g [v] v) (defn peek [] [(try q0 (catch e :gone)) (try q39 (catch e :gone))]) (defn f [x] [%s (peek)])\n"
     % _each_let_defs("[x q0 q39]") + SETP + "(f 1)", "[[1 0 39] [:gone :gone]]", "_macro_pub_named"),
]


@pytest.mark.parametrize(("program", "value", "helper"), OUTLINED)
def test_an_outlined_piece_hands_back_the_undo_list_its_rare_path_made(program: str, value: str,
                                                                     helper: str) -> None:
    assert agree(program) == ("ok", value)
    handed = 0
    for piece in ast.walk(ast.parse(generated(program))):
        if not (isinstance(piece, ast.FunctionDef) and piece.name.startswith("_nest")):
            continue
        args = [a.arg for a in piece.args.args]
        named = {a.value for c in ast.walk(piece) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                 and c.func.id == helper for a in c.args if isinstance(a, ast.Constant)}  # the undo local's name
        for undo in named & set(args):  # the enclosing scope's undo local: in, and back out
            back = piece.body[-1]
            assert isinstance(back, ast.Return) and isinstance(back.value, ast.Tuple)
            assert undo in [e.id for e in back.value.elts if isinstance(e, ast.Name)]
            handed += 1
    assert handed, "no outlined piece makes its enclosing scope's undo list"


BUILT = ("(defn g [v] v) (defn peek [] q) (defn gone [] (try q (catch e :gone)))\n"
         "(defn h [] (let [a 1] (m) (- q 7) [q a]))\n"
         "(defn f [x] (g x) [(let [a (g 1)] (setp q (+ x a)) (m) (- z x) [q z (peek)]) (gone)])\n"
         "(defn k [] (setp q 3) (peek))\n" + SETP + BIND_MINUS
         + "[(f 1) (h) (k) (gone) (try z (catch e :gone)) (- 5 3)]")
BUILT_VALUE = "[[[2 1 2] :gone] [7 1] 3 :gone :gone 2]"


def _build(tmp_path: Path) -> Path:
    fresh()
    (tmp_path / "undo.spl").write_text(BUILT, encoding="utf-8")
    out = tmp_path / "undo_built.py"
    # one file (--part-bytes 0): the tests read its text
    built = CliRunner().invoke(main, ["build", str(tmp_path / "undo.spl"), "-o", str(out), "--part-bytes", "0"])
    assert built.exit_code == 0, built.output
    return out


def _run(module: Path) -> str:
    run = subprocess.run([sys.executable, "-W", "ignore", str(module)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_built_module_makes_the_undo_lists_as_the_source_does(tmp_path: Path) -> None:
    out = _build(tmp_path)
    fresh()  # as in a fresh process (both commands run in this one)
    source_run = CliRunner().invoke(main, ["run", str(tmp_path / "undo.spl")])
    text = out.read_text(encoding="utf-8")
    assert all(h + "(" in text for h in NAMED_TO_LIST) and " or []" not in text
    assert source_run.output.strip() == _run(out) == BUILT_VALUE


def test_a_module_built_before_still_runs_with_the_sites_making_the_lists(tmp_path: Path) -> None:
    """``_macro_pub_here`` and ``_late_pub_here`` stay in the ABI (``abi.LEGACY``) for modules that
    ``spellc build`` wrote before the helpers made the undo lists (``_macro_here`` and ``_late_here``
    are still written for a unit's ``_U``): such a module's sites make the lists themselves."""
    out = _build(tmp_path)
    text, sites = undo_list_sites(out.read_text(encoding="utf-8"))
    assert sites >= 4 and "_named(" not in text and text.count(" or []") == sites
    out.write_text(text, encoding="utf-8")
    assert _run(out) == BUILT_VALUE


def test_write_locals_writes_only_when_a_value_changed() -> None:
    def body() -> tuple[object, ...]:
        _u3: object = None
        keep = [1]
        read_u3 = lambda: _u3  # noqa: E731 - a closure: ``_u3`` is a cell variable
        frame = sys._getframe()
        write_locals(frame, ("keep",), (keep,), ([2],))  # changed: written
        same = keep
        write_locals(frame, ("_u3", "same"), (None, same), (None, same))  # nothing changed
        write_locals(frame, ("_u3",), (None,), (["made"],))
        return _u3, read_u3(), keep, same

    assert body() == (["made"], ["made"], [2], [2])
