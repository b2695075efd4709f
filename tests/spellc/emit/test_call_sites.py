"""The generic call site (``emit/calls.py``, architecture.md §2.5): one inline fast path, every rare
case through a runtime helper (``support.applier``, ``callee``, ``callee_global``, ``macro_into``).

Each program reaches one of the rare paths from a call site compiled before its head had the
value that sends it there (a function defined before the macro it calls, a name rebound to a map
or a host function), in a unit and inside a function body whose parameters are not published
(a ``def`` in the body keeps them in the binding table), so the call site cannot know the case.
"""

from __future__ import annotations

import pytest
from program_outcome import run

from spellc.compiler import python_source
from spellc.reader import read_all

CASES = [
    # a macro head in a body whose parameters are Python locals (published_calls.macro_expr): the
    # expansion sees them, may def one (reloaded after), and its other defs are undone on exit
    ("(defmacro dc [n v] (list 'def n v)) (def k 0) (defn f [k] (dc k (+ k 1)) (dc w k) [k w])"
     " [(f 1) k (try w (catch e :gone))]", "[[2 2] 0 :gone]"),
    ("(defn g [a b] (m a b)) (defmacro m [x y] (list 'vector y x)) (g 1 2)", "[2 1]"),
    ("(defn g [a] (m a)) (defmacro m [x] (list '/ x 0)) (g 1)", "error: Function call failed: /: Divide by zero"),
    # a macro head: the arguments reach the expander as forms and are never evaluated
    ("(defn use [] (m (def evaluated true))) (defmacro m [x] (list 'quote x)) [(use) (try evaluated (catch e :unbound))]",
     "[(def evaluated true) :unbound]"),
    # a macro's escaping def, from a unit and from a function body (undone when the body exits)
    ("(defmacro dc [n v] (list 'def n v)) (dc w 3) w", "3"),
    ("(defmacro dc [n v] (list 'def n v)) (defn f [] (dc w2 4) w2) [(f) (try w2 (catch e :gone))]", "[4 :gone]"),
    ("(defmacro dc [n v] (list 'def n v)) (defn f [p] (def q p) (dc w3 (+ q 1)) (dc w4 (+ w3 1)) [w3 w4])"
     " [(f 1) (try w3 (catch e :gone))]", "[[2 3] :gone]"),
    # non-fn heads and arity mismatches go through the applier, after the arguments are evaluated
    ("(def h {:a 1}) (defn g [] (h :a)) (g)", "1"),
    ("(def h inc) (defn g [x] (def y x) (h y)) (g 4)", "5"),
    ("(defn f [a b] a) (defn g [] (f 1)) (g)", "error: Wrong number of args: expected 2, got 1"),
    ("(def h 3) (defn g [x] (h x)) (try (g 4) (catch e :not-a-fn))", ":not-a-fn"),
    # a recur request handed back as a value
    ("(defn r [n] (if (> n 0) (recur (dec n)) :done)) (defn g [] (r 3)) (g)", ":done"),
    # the same cases at a site in a unit's code outside loops, whose callee is chosen by one helper
    # call (``support.callee_once``): a fn of another arity, a non-fn head, an unbound head, nil
    ("(defn f [a b] a) (f 1)", "error: Wrong number of args: expected 2, got 1"),
    ("(def h {:a 1}) (h :a)", "1"),
    ("(try (no-such-fn 1) (catch e (:message e)))", '"Unbound symbol: no-such-fn"'),
    ("(def h nil) (try (h 1) (catch e :not-a-fn))", ":not-a-fn"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_rare_paths_of_a_call_site(src: str, expected: str) -> None:
    assert run(src) == expected


def test_a_call_site_evaluates_its_arguments_once_and_needs_no_temporaries() -> None:
    # the callee is chosen before the arguments are evaluated: in a fn body inline, with ``_callee_g``
    # for these global heads' rare cases; in a unit's code outside loops, by ``_callee_once`` alone
    src = python_source(read_all("(fn [] (g (h 1) (k 2)))")[0])
    assert "_callee_g(D, " in src and ".arity == 2" in src and "_a" not in src
    src = python_source(read_all("(g (h 1) (k 2))")[0])
    assert src.count("_callee_once(D, ") == 3 and "_callee_g" not in src and "_a" not in src
