"""An unbound symbol is placed in a built module where the source run places it: at the symbol, not
at the call form around it, nor at 1:1 outside any (issue 12.1, ``Emitter.fail_pos``). A built
module's text positions mean nothing by themselves, so each global read that can miss (``_miss``,
``_callee_g``) gets a position-only entry of its position table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from built_vs_source import assert_built_fails_as_the_source
from spell_runtime.data import Symbol

import spellc
from spellc.compiler import build_module

# (where the symbol stands, the program, the first line both must print)
PROGRAMS = [
    ("the head of a call in a self-calling fn body",
     "(defn f [x]\n  (+ x 1)\n  (foo 1))\n(f 2)\n",
     "prog.spl:3:4: Unbound symbol: foo"),
    ("the head of a top-level call, indented",
     "(def x 1)\n\n  (foo 1)\n",
     "prog.spl:3:4: Unbound symbol: foo"),
    ("an argument in a let body",
     "(def x 1)\n(let [a 1]\n  (inc undefined-thing))\n",
     "prog.spl:3:8: Unbound symbol: undefined-thing"),
    ("an argument in an if branch of a closed self-recursive fn (its second body)",
     "(defn f [n] (if (< n 1) (inc  zork) (f (dec n))))\n(f 3)\n",
     "prog.spl:1:31: Unbound symbol: zork"),
    ("a head in an if branch, over several lines",
     "(defn f [n]\n  (if (= n 0)\n    (zap n)\n    (f (dec n))))\n(f 3)\n",
     "prog.spl:3:6: Unbound symbol: zap"),
    ("an argument in a loop's exit",
     "(loop [i 0] (if (< i 3) (recur (inc i)) (+ i   qq)))\n",
     "prog.spl:1:48: Unbound symbol: qq"),
    ("a loop inside a let inside a fn",
     "(defn g [x] (let [y (inc x)] (loop [i 0] (if (< i y) (recur (inc i)) (+ i  nope)))))\n(g 1)\n",
     "prog.spl:1:76: Unbound symbol: nope"),
    ("a def's value, outside any call form",
     "(def y   zz)\n",
     "prog.spl:1:10: Unbound symbol: zz"),
    ("a vector literal's element, outside any call form",
     "[1 2  zz]\n",
     "prog.spl:1:7: Unbound symbol: zz"),
    ("a let binding's value",
     "(let [a 1 b (inc nope)] a)\n",
     "prog.spl:1:18: Unbound symbol: nope"),
    ("a for body",
     "(for [x [1 2]] (inc  nope))\n",
     "prog.spl:1:22: Unbound symbol: nope"),
]


@pytest.mark.parametrize("what,program,first", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_the_built_module_places_an_unbound_symbol_as_the_source_run(tmp_path: Path, what: str, program: str,
                                                                     first: str) -> None:
    assert_built_fails_as_the_source(tmp_path, program, first)


def _table(program: str) -> Any:
    source = build_module(spellc.read_all(program), "prog.spl")
    namespace: dict[str, Any] = {"__name__": "built"}
    exec(compile(source[:source.index("\ndef run():")], "built.py", "exec"), namespace)
    return namespace["_T"]


def test_each_global_read_that_can_miss_gets_a_position_only_entry() -> None:
    # ``g`` (a head) and ``y`` (an argument) can miss; the parameter ``x`` cannot
    table = _table("(defn f [x] [x (g x) y])")
    places = sorted((key, str(form)) for (*_, form), key in zip(table.spans, table.spell) if type(form) is Symbol)
    assert places == [((1, 1, 16, 17), "g"), ((1, 1, 21, 22), "y")]  # (line, end line, col, end col) of g and of y
    assert [form for *_, form in _table("(let [f 1] [f])").spans] == []


def test_a_call_form_given_its_span_back_gives_its_global_symbols_theirs() -> None:
    """``built_spans.restore``: each symbol a table entry names gets its span in the call form around it
    (code compiled at run time from that form places an unbound symbol by it)."""
    from spell_runtime.data.positions import child_spans_of, span_of

    table = _table("(defn f [x]\n  (str x  yy (inc 1) yy))")
    spans = table.spans  # the first use gives the forms their spans back
    form = next(form for *_, form in spans if type(form) is not Symbol and str(form).startswith("(str"))
    assert span_of(form) == (2, 2, 2, 24)
    assert child_spans_of(form) == (None, None, (2, 10, 2, 12), None, (2, 21, 2, 23))


def _unbound_position(src: str, via_source: bool) -> Any:
    from spell_runtime.program import close_env

    from spellc.api import new_env
    from spellc.compiler import run_form

    D = new_env()
    try:
        with pytest.raises(spellc.SpellError) as caught:
            for form in spellc.read_all(src):
                run_form(D, form, "<dual>", src, via_source=via_source)
    finally:
        close_env(D)
    return caught.value.position


@pytest.mark.parametrize("src", ["(def y   zz)", "(do 1\n [1 2  zz])"])
def test_code_compiled_through_its_text_places_an_unbound_symbol_as_code_compiled_from_the_tree(src: str) -> None:
    """The ``via_source`` path (``compiler._exec_module``): its forms keep their spans, so only a symbol
    outside any call form went unplaced (None) there."""
    assert _unbound_position(src, via_source=True) == _unbound_position(src, via_source=False) is not None
