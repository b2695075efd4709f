"""Failures outside any call form are placed in a built module as in the source run (issue 12.1,
``Emitter.place_pos``): a ``for`` over a value that is not seqable, ``reopen`` of a non-quine, a
namespace path that leads nowhere. The emitter gives each such place a position-only entry of the
built module's position table; ``python built.py`` must print what ``spellc run`` prints."""

from __future__ import annotations

from pathlib import Path

import pytest
from built_vs_source import assert_built_fails_as_the_source

import spellc
from spellc.compiler import build_module
from spellc.emit.emitter import Emitter

# (what fails, the program, the first line both must print)
PROGRAMS = [
    ("a top-level for over a long",
     "(def x 5)\n(do (for [a x] a))\n",
     "prog.spl:2:5: Don't know how to create ISeq from: java.lang.Long"),
    ("a for in a fn body, with the call path",
     "(def x 5)\n(defn f []\n  (for [a x] a))\n(f)\n",
     "prog.spl:3:3: Don't know how to create ISeq from: java.lang.Long"),
    ("the second clause of a for, under a call and a builtin-applied fn",
     "(def x 5)\n(defn g [] (inc (for [a [1]\n   b x] a)))\n(map (fn [i] (g)) [1])\n",
     "prog.spl:4:1: Function call failed: map: Don't know how to create ISeq from: java.lang.Long"),
    ("reopen of a value that is not a quine, at top level",
     "(def q 5)\n(reopen q 7)\n",
     "prog.spl:2:1: reopen expects a quine form"),
    ("reopen inside a let, inside a do",
     "(def x 5)\n(do (let [y x]\n  (reopen y 1 2)))\n",
     "prog.spl:3:3: reopen expects a quine form"),
    ("a namespace path that leads nowhere",
     "(def x 5)\n(do\n x/a/b)\n",
     "prog.spl:3:2: Namespace lookup failed: x/a/b"),
]


@pytest.mark.parametrize("what,program,first", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_the_built_module_places_the_failure_as_the_source_run(tmp_path: Path, what: str, program: str, first: str) -> None:
    assert_built_fails_as_the_source(tmp_path, program, first)


def _places(program: str) -> set[tuple[int, int, int, int]]:
    from spellc.analyze.analyzer import analyze_form

    emitter = Emitter()
    for form in spellc.read_all(program):
        node, _ = analyze_form(form)
        emitter.unit_function(node, "_unit")
    return emitter.places


def test_only_places_that_fail_outside_a_call_form_get_an_entry() -> None:
    assert _places("(defn f [x] (inc (get {:a x} :a)))\n(let [y (f 1)] [y #{y}])") == set()
    # (line, end line, col, end col) of the for form: where the source run places its failure
    assert _places("(def x 5)\n(do (for [a x] a))") == {(2, 2, 4, 17)}


def test_a_program_without_such_places_is_built_as_before() -> None:
    """No place: no form-less constant and no entry; with one, the table's entry has no form."""
    plain = build_module(spellc.read_all("(let [x [1]]\n  (inc (count x)))"), "prog.spl")
    assert "null" not in plain
    namespace: dict[str, object] = {"__name__": "built"}
    source = build_module(spellc.read_all("(let [x 5]\n  (for [a x] a))"), "prog.spl")
    exec(compile(source[:source.index("\ndef run():")], "built.py", "exec"), namespace)
    table = namespace["_T"]
    assert [form for *_, form in table.spans] == [None]  # type: ignore[attr-defined]
    assert table.spell == [(2, 2, 2, 15)]  # type: ignore[attr-defined]
