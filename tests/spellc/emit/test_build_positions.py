"""Host failures in a module written by ``spellc build`` are attributed to the same call form as in
compiled memory, through one span per call form (``support.SpanTable``) rather than one table entry
per Python node (issue 12 item 1)."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from spell_runtime.data import Symbol
from spell_runtime.support import SpanTable, pack_spans, unpack_spans

import spellc
from spellc.compiler import build_module

FAILING = [
    "(defn f [x] (inc (/ x 0))) (f 1)",
    "(defn g [v] (nth v (+ 1 5))) (g [1 2])",
    "(let [m {:a 1}] (str (name (get m :a)) (count 5)))",
    "(defn h [xs] (map (fn [x] (/ 10 x)) xs)) (vec (h [1 0]))",
    "(defn avg [xs] (/ (reduce + 0 xs) (count xs))) (defn report [m] (str \"avg \" (avg (:xs m)))) (report {:xs []})",
]


def built_error(src: str) -> str:
    source = build_module(spellc.read_all(src), "prog.spl")
    namespace: dict[str, Any] = {"__name__": "built"}
    with pytest.raises(spellc.SpellError) as caught:
        exec(compile(source, "built.py", "exec"), namespace)
    return caught.value.message


@pytest.mark.parametrize("src", FAILING)
def test_built_module_names_the_same_failing_call(src: str) -> None:
    with pytest.raises(spellc.SpellError) as direct:
        spellc.eval_string("(do %s)" % src)
    assert direct.value.message.startswith("Function call failed: ")
    assert built_error("(do %s)" % src) == direct.value.message


def test_the_built_table_has_one_entry_per_call_form() -> None:
    src = "(defn f [x y] (+ (* x 2) (g y) (count [x y]))) (f 1 2)"
    source = build_module(spellc.read_all(src), "prog.spl")
    tree = ast.parse(source)  # everything but running the program (``g`` is unbound)
    tree.body = [stmt for stmt in tree.body if not isinstance(stmt, ast.If)]
    namespace: dict[str, Any] = {}
    exec(compile(tree, "built.py", "exec"), namespace)
    spans = namespace["_T"].spans
    entries = [span for span in spans if type(span[4]) is not Symbol]
    # the call forms: (+ ...), (* x 2), (g y), (count [x y]), (f 1 2); and the places where the
    # heads ``g`` and ``f`` may be unbound (``Emitter.fail_pos``), which name the symbol
    assert len(entries) == 5 and sorted(str(span[4]) for span in spans if span not in entries) == ["f", "g"]
    assert len({id(e[4]) for e in entries}) == 5
    lines = source.splitlines()
    for sl, sc, el, _ec, _ in entries:  # each span covers generated code in the module text
        assert 1 <= sl <= el <= len(lines) and lines[sl - 1][sc:].strip()


def test_a_built_module_decodes_its_spans_on_the_first_failure_only() -> None:
    """``built_constants.spans_later``: a run that fails nowhere never unpacks the table; a failure
    unpacks it to name its call form. (The run that succeeds has no fn body: after an earlier test
    moved the binding epoch, a body would go stale and be compiled again, which restores every built
    module's spans first, ``built_spans``.)"""
    programs = (("(def v [1 2 5]) (str (count v) (/ 10 (last v)))", False),
                ("(defn f [x] (inc (/ 10 x))) (f 0)", True))
    for src, fails in programs:
        source = build_module(spellc.read_all(src), "prog.spl")
        assert "_T = SpanTable(spans_later(globals()," in source
        namespace: dict[str, Any] = {"__name__": "built"}
        if fails:
            with pytest.raises(spellc.SpellError, match=r"^Function call failed: /: Divide by zero$"):
                exec(compile(source, "built.py", "exec"), namespace)
        else:
            exec(compile(source, "built.py", "exec"), namespace)
            assert namespace["value"] == "32"
        assert (namespace["_T"]._spans is not None) is fails


def test_packed_spans_round_trip() -> None:
    spans = [(7, 4, 7, 30, "b"), (3, 2, 5, 1, "a"), (7, 4, 7, 30, "c"), (12, 0, 12, 9, "d")]
    packed, forms = pack_spans(spans)
    assert sorted(unpack_spans(packed, tuple(forms))) == sorted(spans)
    table = SpanTable(packed, tuple(forms))
    assert table.get((7, 7, 10, 12)) == "b"  # equal spans: the first written wins, as before


def test_span_table_picks_the_innermost_span() -> None:
    table = SpanTable([(1, 0, 9, 10, "outer"), (3, 4, 3, 40, "inner"), (3, 10, 3, 20, "innermost")])
    assert table.get((3, 3, 12, 15)) == "innermost"
    assert table.get((3, 3, 5, 8)) == "inner"
    assert table.get((2, 2, 0, 1)) == "outer"
    assert table.get((12, 12, 0, 1)) is None
    assert table.get((None, None, None, None)) is None


def test_spell_positions_round_trip_through_their_packing() -> None:
    from spell_runtime.support import pack_spell_positions

    # (line, end line, col, end col): on one line the width is written, over lines the end col
    positions = [(3, 3, 40, 75), (1, 4, 2, 1), (1, 1, 0, 0), (120, 120, 7, 300), (12, 13, 90, 3)]
    table = SpanTable([(1, 0, 1, 1, None)] * len(positions), (), "prog.spl", pack_spell_positions(positions))
    assert table.spell == positions
