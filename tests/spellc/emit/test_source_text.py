"""The Python text of a generated module (``emit/source.py``): one-space indentation and no
parentheses Python does not need around assignment expressions, yet the text parses back to
exactly the tree the emitter built (``call_spans`` and the dual-path tests rely on that)."""

from __future__ import annotations

import ast

import pytest

from spellc.analyze.analyzer import analyze_form
from spellc.compiler import base_namespace
from spellc.emit.emitter import Emitter
from spellc.emit.source import python_text
from spellc.reader import read_all

PROGRAMS = [
    "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))",
    "(defn g [x] (def y x) (h (f y) (if (k y) 1 (f y))))",
    "(let [a (f) b (g a)] (when (and a b) (loop [i 0 acc []] (if (< i 3) (recur (inc i) (conj acc (h i))) acc))))",
    "(for [x (range 3) :let [y (f x)] :when (odd? y)] (try (m y) (catch e (:message e))))",
    "(defmacro m [x] (list 'quote x)) (defn u [] (m (g 1)) (get {:a (f)} :a))",
]


@pytest.mark.parametrize("src", PROGRAMS)
def test_text_parses_back_to_the_emitted_tree(src: str) -> None:
    base_namespace()
    for form in read_all(src):
        node, _ = analyze_form(form)
        mod = Emitter().emit_unit(node)
        text = python_text(mod)
        assert ast.dump(ast.parse(text)) == ast.dump(mod)


def test_one_space_indentation_and_bare_walrus_arguments() -> None:
    base_namespace()
    node, _ = analyze_form(read_all("(defn g [x] (if (g x) 1 2))")[0])
    text = python_text(Emitter().emit_unit(node))
    assert "\n try:\n" in text and "\n  try:" not in text.split("def _unit")[0]
    assert "type((" not in text and "type(_" in text
