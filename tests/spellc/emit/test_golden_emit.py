"""Golden snippets of emitted code: each IR node kind in each context, and the native operators.

Reviewers *see* code-shape regressions here (an ``if`` that stops being an ``IfExp``, a call site
that grows its inline part) instead of inferring them from benchmarks (house-review change 8, after
CPython's ``Lib/test/test_ast/snippets.py``). After an intended change, regenerate the expectations:

    python tests/spellc/emit/test_golden_emit.py -g

and review the diff of ``golden_emit.txt`` like code.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).with_name("golden_emit.txt")

SNIPPETS = [
    # leaves
    "42", "x", "inc", "strings/trim", "my/thing", ":k",
    # literals
    "[1 x]", "{:a x}",
    # if: expression, statement (in a do), tail
    "(if x 1 2)", "[(if x 1 2)]", "(do (if x (f) (g)) 3)", "(fn [x] (if x (f x) 2))",
    # sequences, definitions
    "(do (f) x)", "(def y 1)", "(quine q (count q))", "(reopen '(quine c (eval (do 1))) (def z 2))",
    # binding scopes: private and shared
    "(let [a 1] (+ a 1))", "(let [a (f)] (g a))", "(let [[b] [2]] b)",
    # loop / recur
    "(loop [i 0] (if (< i 3) (recur (inc i)) i))", "(loop [x 0] (if (f x) (recur (g x)) x))",
    "(fn [n acc] (if (zero? n) acc (recur (dec n) (* acc n))))", "(recur 1)",
    # fn, for, try
    "(fn [n] (* n n))", "(fn [k xs] (map (fn [x] (get x k)) xs))", "(fn [x] (def y x) (f x))", "(fn [k] (def y 1) (map (fn [x] (get x k)) y))", "(fn [{:keys [a]}] a)", "(for [a [1 2] :when (odd? a) :let [b a]] b)",
    "(try (f) (catch e (:message e)))", "(throw \"x\")", "(def)",
    # calls: user fn (maybe a macro), fn literal head, keyword, builtin, env builtin
    "(f 1 2)", "(f (let [a 1] a) 2)", "((fn [x] x) 1)", "(:k m)", "(str 1 2)", "(map inc [1])",
    # native operators: in a unit's code outside loops (run once: the library function), and in a fn
    # body, where each keeps its common case inline
    "(+ 1 x)", "(< x 1.5)", "(= x :a)", "(= x y)", "(inc x)", "(dec 2.0)", "(zero? x)", "(nil? x)",
    "(true? 1)", "(not x)", "(count x)", "(first x)", "(nth x 1)", "(get m :k)", "(assoc m :k 1)",
    "(conj v 1)",
    # a published body: only a call by its own name tests for a direct call of the body (published_calls)
    "(def g (fn [x] (f (g x))))",
    "(fn [x] (+ 1 x))", "(fn [x] (< x 1.5))", "(fn [x y] (= x y))", "(fn [x] (inc x))", "(fn [x] (zero? x))",
    "(fn [x] (count x))", "(fn [x] (first x))", "(fn [x] (nth x 1))", "(fn [m] (get m :k))", "(fn [m] (:k m))",
    "(fn [m] (:k m 0))", "(fn [m] (assoc m :k 1))", "(fn [v] (conj v 1))", "(fn [] (g 1 2))",
]


def emitted(src: str) -> str:
    """The module emitted for ``src`` as if no code had bound a builtin name yet (other tests do)."""
    from spell_runtime.data import Symbol

    import spellc
    from spellc import state
    from spellc.compiler import python_source

    with state.LOCK:
        saved = set(state.BOUND)
        state.BOUND.clear()
        state.BOUND.add(Symbol("eval"))
        try:
            text = python_source(spellc.read_string(src))
        finally:
            state.BOUND.clear()
            state.BOUND.update(saved)
    # the entry into a second body over longs tests the epoch (issue 13.1, published_calls); at epoch 0
    # as `not _MOVED` (spell_runtime.epoch: the same test, shorter)
    return re.sub(r"not _MOVED|_EPOCH\[0\] == \d+", "_EPOCH[0] == EPOCH", text)


def render() -> str:
    parts = []
    for src in SNIPPETS:
        parts.append(";; %s\n%s\n" % (src, emitted(src)))
    return "\n".join(parts)


def expected() -> dict[str, str]:
    out: dict[str, str] = {}
    for chunk in GOLDEN.read_text(encoding="utf-8").split("\n;; ")[0:]:
        head, _, body = chunk.removeprefix(";; ").partition("\n")
        out[head] = body.rstrip("\n")
    return out


@pytest.mark.parametrize("src", SNIPPETS)
def test_emitted_code_matches_the_golden_snippet(src: str) -> None:
    golden = expected()
    assert src in golden, "new snippet: regenerate with `python %s -g`" % Path(__file__).name
    assert emitted(src).rstrip("\n") == golden[src]


if __name__ == "__main__":
    if sys.argv[1:] != ["-g"]:
        raise SystemExit("usage: python %s -g   (regenerates %s)" % (sys.argv[0], GOLDEN.name))
    GOLDEN.write_text(render(), encoding="utf-8")
    print("wrote", GOLDEN)
