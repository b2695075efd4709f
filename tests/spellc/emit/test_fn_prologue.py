"""The prologue of a fn body whose parameters live in the binding table (``emit/scopes.py``
``_publish``, ``support.publish``): one helper call saves and binds the parameters, the body's
``finally`` restores them through ``_unwind``, on a normal exit and on a failure alike.

The bodies below keep their parameters in the table because an inner ``fn`` refers to them.
"""

from __future__ import annotations

import pytest
from program_outcome import run
from spell_runtime.support import MISS, publish, unwind

import spellc
from spellc.compiler import python_source
from spellc.reader import read_all

CASES = [
    # the parameters are seen by the inner fn, and gone once the body returns
    ("(defn f [k xs] (map (fn [x] (get x k)) xs)) [(f :a [{:a 1} {:a 2}]) (try k (catch e :unbound))]",
     "[[1 2] :unbound]"),
    # an outer binding of a parameter's name is back after the call
    ("(def k 7) (defn f [k] ((fn [] k))) [(f 1) k]", "[1 7]"),
    # ... also when the body fails (the catch sees the failure's env, Q13, until its scope ends)
    ("(def k 7) (defn f [k] ((fn [] (throw k)))) (defn g [] (try (f 1) (catch e e))) [(g) k]", "[1 7]"),
    # the failure's env and trace name the parameter's value and the body
    ("(def k 7) (defn f [k] ((fn [] (/ k 0)))) (try (f 1) (catch e [(:message e) k]))",
     '["Function call failed: /: Divide by zero" 1]'),
    # the body's own defs (its undo list starts with the saved parameters) are undone, newest
    # first, then the parameters restored: a def of a parameter's name leaves the outer value
    ("(def x 1) (defn f [x] (def y x) (def x 5) ((fn [] [x y]))) [(f 2) x (try y (catch e :gone))]",
     "[[5 2] 1 :gone]"),
    ("(defmacro dc [n v] (list 'def n v)) (def k 0) (defn f [k] (dc k (+ k 1)) ((fn [] k))) [(f 1) k]", "[2 0]"),
    # a repeated parameter name: the last argument is seen, the outer value comes back
    ("(def x 5) (defn f [x x] ((fn [] x))) [(f 1 2) x]", "[2 5]"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_published_parameters(src: str, expected: str) -> None:
    assert run(src) == expected


def test_one_publish_call_per_body() -> None:
    code = python_source(read_all("(fn [k xs] (map (fn [x] (get x k)) xs))")[0])
    assert code.count("_publish(") == 1
    assert "D.get(" not in code


def test_publish_saves_all_before_binding() -> None:
    D = {"x": 1}
    saved = publish(D, ("x", "x", "y"), (2, 3, 4))
    assert D == {"x": 3, "y": 4}
    assert saved == [("x", 1), ("x", 1), ("y", MISS)]
    unwind(D, saved)
    assert D == {"x": 1}


# The handler of a fn body (``_fn_failed``, one packed constant per body): the failing element of a
# multi-element body, the private parameters in the failure's env, and the trace entry.
FAILURES = [
    ("(defn f [a] (inc a) (/ a 0) a) (try (f 2) (catch e [(:message e) a]))",
     '["Function call failed: /: Divide by zero" 2]'),
    ("(defn f [a] (/ a 0)) (try (f 2) (catch e [(:message e) a]))",
     '["Function call failed: /: Divide by zero" 2]'),
    ("(defn f [k] (def z 1) ((fn [] (/ k 0)))) (try (f 3) (catch e [(:message e) k]))",
     '["Function call failed: /: Divide by zero" 3]'),
]


@pytest.mark.parametrize("src,expected", FAILURES)
def test_body_failures(src: str, expected: str) -> None:
    assert run(src) == expected


def test_failure_trace_names_the_body() -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string("(defn f [a] (inc a) (/ a 0) a) (defn g [] (f 2)) (g)")
    assert [str(t) for t in info.value.trace] == ["f", "g"]
