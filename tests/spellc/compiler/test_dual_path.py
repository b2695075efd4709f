"""Each program compiled straight from the AST and via ast.unparse → source → compile() gives equal results."""

from __future__ import annotations

import pytest
from spell_runtime.program import close_env

import spellc
from spellc.api import new_env
from spellc.compiler import run_form

PROGRAMS = [
    "(do (defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (fib 15))",
    "(loop [i 0 acc []] (if (< i 5) (recur (inc i) (conj acc (* i i))) acc))",
    "(let [{:keys [a b] :or {b 2}} {:a 1}] (for [x [a b] y [:p :q]] [x y]))",
    "(try (do (def t 1) (/ t 0)) (catch e [t (:message e)]))",
    "(do (defmacro twice [x] (list 'do x x)) (def n 0) (twice (def n (inc n))) n)",
    "(quine completion (eval (do (def q 6) '(* q 7))))",
    "(reduce (fn [acc x] (+ acc x)) 0 (range 10))",
    "(-> {:a 1} (assoc :b 2) (update :a inc) vals)",
    "(case (+ 1 1) 1 :one 2 :two :other)",
    "[(= 1 1.0) (= [1 2] '(1 2)) (not= :a :b) (< 1 2 3)]",
]


def evaluate(src: str, via_source: bool) -> str:
    D = new_env()
    value = None
    try:
        for form in spellc.read_all(src):
            value, _ = run_form(D, form, "<dual>", src, via_source=via_source)
    except spellc.SpellError as e:
        return "ERR " + str(e)
    finally:
        close_env(D)
    return spellc.pr_str(value)


@pytest.mark.parametrize("src", PROGRAMS)
def test_same_result_both_paths(src: str) -> None:
    direct = evaluate(src, via_source=False)
    assert direct == evaluate(src, via_source=True)
    assert not direct.startswith("ERR Unbound")
