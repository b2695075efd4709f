"""Failures a built module reported otherwise than the source run, found by building and running
many failing programs (issue 12.1): each program here printed another position, head or call path
from ``python built.py`` than from ``spellc run``."""

from __future__ import annotations

from pathlib import Path

import pytest
from built_vs_source import assert_built_fails_as_the_source

# (what went wrong, the program, the first line both must print)
PROGRAMS = [
    # ``compiler.call_spans`` paired the emitted tree with the parsed text node by node in ``ast.walk``
    # order; ``-1`` parses back as a unary minus, and every span after it was lost
    ("a negative literal: the failing call's span was lost (1:1, no head)",
     "(let [a -1]\n  (str \"x\" (/ 1 (inc a))))\n",
     "prog.spl:2:12: Function call failed: /: Divide by zero"),
    ("a negative literal in a fn body: the enclosing call was named",
     "(defn f [x]\n  (if (< x -1) 0 (str \"x\" (/ x 0))))\n(f 1)\n",
     "prog.spl:2:27: Function call failed: /: Divide by zero"),
    ("a negative literal before an unbound head",
     "[(quot -17 5)\n (nope 1)]\n",
     "prog.spl:2:3: Unbound symbol: nope"),
    # ``Emitter.fail_pos``: places that fail outside any call form had no entry in the position table
    ("a recur with too few values, in a fn body",
     "(defn f [x y]\n  (if x\n    (recur false)\n    y))\n(f true 1)\n",
     "prog.spl:3:5: Wrong number of args: expected 2, got 1"),
    ("a loop's recur with too few values, a variable left with no binding (private loop)",
     "(defn f [n]\n  (loop [a 1 b 2]\n    (if (< a n)\n      (recur (inc a))\n      b)))\n(f 5)\n",
     "prog.spl:4:7: Unbound symbol: b"),
    ("the same in a unit's loop", "(def r (loop [a 1 b 2]\n  (if (< a 5)\n    (recur (inc a))\n    b)))\nr\n",
     "prog.spl:3:5: Unbound symbol: b"),
    ("a failure the analysis found (a character literal)",
     "(def x 1)\n(do 1\n  \\a)\n",
     "prog.spl:3:3: Unknown expression type: class java.lang.Character"),
    # ``written_spans.first_body_forms``: a defn's fn is named by its first body form, which had no span
    # when it was a special form
    ("a defn's fn applied by a builtin, its body an if",
     "(defn size [x]\n  (if (> x 3) \"big\" (/ x 0)))\n(group-by size [1 2])\n",
     "prog.spl:3:1: Function call failed: group-by: Function call failed: /: Divide by zero"),
    # ``built_spans.restore``: code compiled at run time from a call form whose span came back placed an
    # unbound symbol in it at the call form (its symbols had no place in it)
    ("an unbound symbol in a catch handler (its late fallback compiles it at run time)",
     "(try (throw \"boom\")\n  (catch e (str \"got \"  ee)))\n",
     "prog.spl:2:25: Unbound symbol: ee"),
    ("an unbound symbol in a macro's argument, expanded at run time",
     "(do (defmacro my-do [& forms] (cons 'do forms))\n  (my-do (def x 1) (+ x  yy 3)))\n",
     "prog.spl:2:26: Unbound symbol: yy"),
    ("the same symbol twice in a catch handler's call",
     "(try (throw \"boom\")\n  (catch e (str \"got \" (inc 1)  ee ee)))\n",
     "prog.spl:2:33: Unbound symbol: ee"),
    # equal call forms were one object in a built module: named at two places, it got no span back
    ("the second of two equal macro calls, expanded at run time",
     "(defmacro m [v] (list 'do v))\n(def y 1)\n(defn f [x]\n  (m (+ x y)) (def y :a) (m (+ x y)))\n(f 1)\n",
     "prog.spl:4:29: Function call failed: +: class clojure.lang.Keyword cannot be cast to class "
     "java.lang.Number (clojure.lang.Keyword is in unnamed module of loader 'app'; java.lang.Number is in "
     "module java.base of loader 'bootstrap')"),
    # ``compiler.call_spans``: a closed self-recursive fn's second body stamps its calls with the first
    # body's positions; one span per call form over both bodies let ``dec``'s claim the ``-``'s failure
    ("an overflow in the second body of a closed self-recursive fn",
     "(defn f [n] (if (< n -1) (- n 9223372036854775807) (+ 0 (f (dec n)))))\n(f 1)\n",
     "prog.spl:1:26: Function call failed: -: integer overflow"),
    # ``hooks.expand_user_macro``: the macro call form got its span back only after the expansion failed
    ("user macros that expand each other forever",
     "(defmacro a [] (b))\n(defmacro b [] (a))\n(a)\n",
     "prog.spl:2:16: Macro expansion too deep"),
]


@pytest.mark.parametrize("what,program,first", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_the_built_module_fails_as_the_source_run(tmp_path: Path, what: str, program: str, first: str) -> None:
    assert_built_fails_as_the_source(tmp_path, program, first)


def test_a_quoted_form_inside_a_quine_is_built_and_runs() -> None:
    """Its spans are written, but it was no constant of the code: ``spellc build`` failed with a KeyError."""
    import spellc
    from spellc.compiler import build_module

    source = build_module(spellc.read_all("(quine completion (eval (do (quote (!extend)) 1)))"), "prog.spl")
    namespace: dict[str, object] = {"__name__": "built"}
    exec(compile(source, "built.py", "exec"), namespace)
    assert namespace["value"] == 1
