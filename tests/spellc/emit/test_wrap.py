"""Built modules are written in short lines (issue 12.5): ``spellc.emit.wrap`` cuts long lines inside
brackets only, so the tree — and so every position the built module's table pairs — is unchanged."""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

import spellc
from spellc.compiler import build_module
from spellc.emit.wrap import wrap_long_lines

PROGRAM = """
(defn score [xs] (reduce + 0 (map (fn [x] (if (> x 2) (* x (inc x)) (- x (dec x)))) (filter number? xs))))
(defn label [m] (str (get m :name "anon") ": " (score (get m :xs [])) " / " (count (get m :xs []))))
(label {:name "q" :xs [1 2 3 4 5 6]})
"""


def test_long_lines_are_cut_inside_brackets_and_parse_to_the_same_tree() -> None:
    line = "x = f(%s) if g(%s) else h('%s')\n" % (", ".join("a%d" % i for i in range(60)),
                                                  ", ".join(str(i) for i in range(60)), "s, " * 50)
    text = "def k():\n  " + line + '  """doc ' + "(a, b, " * 40 + '\n  end"""\n'
    wrapped = wrap_long_lines(text, 80)
    assert ast.dump(ast.parse(wrapped)) == ast.dump(ast.parse(text))
    assert max(len(x) for x in wrapped.splitlines()[:-3]) <= 80 + len("'%s'" % ("s, " * 50))
    assert ('"""doc ' + "(a, b, " * 40) in wrapped  # a multi-line string is never cut
    assert wrapped.count("\n") > text.count("\n")


def test_a_built_module_has_short_lines_and_runs_as_before() -> None:
    source = build_module(spellc.read_all(PROGRAM), "prog.spl")
    assert max(len(line) for line in source.splitlines()) <= 122
    namespace: dict[str, object] = {"__name__": "built"}
    exec(compile(source, "built.py", "exec"), namespace)
    assert namespace["value"] == spellc.eval_string(PROGRAM)


def test_a_long_string_constant_becomes_adjacent_literals_of_the_same_value() -> None:
    table = "".join("row%d,%s,%d\n" % (i, "x" * (i % 7), i * 3) for i in range(40))
    text = "def k():\n  return f(%r, 'short')\n" % table
    wrapped = wrap_long_lines(text, 60)
    assert ast.dump(ast.parse(wrapped)) == ast.dump(ast.parse(text))  # one constant, the same value
    assert max(len(x) for x in wrapped.splitlines()) <= 60
    assert wrapped.count("\n") > 10
    # cut after the table's newlines, not inside its rows
    assert all(piece.endswith("\\n'") or piece.endswith("'short')") for piece in
               (line.strip() for line in wrapped.splitlines()[2:]))


def test_prefixed_and_triple_quoted_strings_keep_their_text() -> None:
    raw = "r'%s'" % ("\\d+ " * 40)
    text = "x = f(%s, f'{y}%s', b'%s')\n" % (raw, "z" * 90, "w" * 90)
    wrapped = wrap_long_lines(text, 60)
    assert ast.dump(ast.parse(wrapped)) == ast.dump(ast.parse(text))
    assert raw in wrapped and ("z" * 90) in wrapped and ("w" * 90) in wrapped


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=400), st.integers(min_value=20, max_value=130))
def test_any_string_constant_survives_wrapping(value: str, width: int) -> None:
    text = "x = f(%r, %r)\n" % (value, value[::-1])
    wrapped = wrap_long_lines(text, width)
    assert ast.dump(ast.parse(wrapped)) == ast.dump(ast.parse(text))
