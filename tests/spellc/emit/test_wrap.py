"""Built modules are written in short lines (issue 12.5): ``spellc.emit.wrap`` cuts long lines inside
brackets only, so the tree — and so every position the built module's table pairs — is unchanged."""

from __future__ import annotations

import ast

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
