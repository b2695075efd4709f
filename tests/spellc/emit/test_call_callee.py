"""The rare paths of a call site whose head could be a user macro (``emit/calls.py``, issue 12):
choosing the callee is also the macro test (``support.callee``, None for a macro), and a global
head read as ``D.get(sym)`` is resolved further by ``support.callee_global`` (a builtin the binding
table does not hold, a name bound to nil, an unbound name).

Every program runs with the optimisations on and off, in the expression shape of a call site and
in its statement shape (an argument that needs statements: a ``let``), inside function bodies
compiled before their heads had the value that sends them down the rare path.
"""

from __future__ import annotations

import pytest
from program_outcome import run

import spellc
from spellc.compiler import optimisations

CASES = [
    # a global head naming a builtin that is not in the binding table (the name is def'd somewhere,
    # so it is not compiled statically): resolved at run time, as ``_miss`` resolves it
    ("(defn k [] (def inc dec)) (defn g [x] (inc x)) (g 1)", "2"),
    ("(defn k [] (def inc dec)) (defn g [x] (inc (let [a x] a))) (g 1)", "2"),
    ("(defn k [] (def inc dec) (g 1)) (defn g [x] (inc x)) [(k) (g 1)]", "[0 2]"),
    # a global bound to nil stays nil (it is not looked up among the builtins)
    ("(defn k [] (def inc nil)) (defn g [x] (inc x)) (def inc nil) (try (g 1) (catch e (:message e)))",
     '"Function call failed: inc: Cannot call nil as a function"'),
    ("(def q nil) (defn g [] (q 1)) (try (g) (catch e (:message e)))",
     '"Function call failed: q: Cannot call nil as a function"'),
    # a local head holding nil never resolves the global or builtin of its name
    ("(defn g [] (let [inc nil] (inc 1))) (try (g) (catch e (:message e)))",
     '"Function call failed: inc: Cannot call nil as a function"'),
    ("(defn g [inc] (def z 1) (inc 1)) (try (g nil) (catch e (:message e)))",
     '"Function call failed: inc: Cannot call nil as a function"'),
    # an unbound head fails before any argument is evaluated
    ("(defn g [] (zork (def evaluated 1))) [(try (g) (catch e (:message e))) (try evaluated (catch e :unbound))]",
     '["Unbound symbol: zork" :unbound]'),
    ("(defn g [] (zork (let [a (def evaluated 1)] a))) [(try (g) (catch e (:message e))) (try evaluated (catch e :unbound))]",
     '["Unbound symbol: zork" :unbound]'),
    # non-fn heads: keywords, maps, vectors, host functions
    ("(def h :a) (defn g [] (h {:a 1})) (g)", "1"),
    ("(def h {:a 1}) (defn g [] [(h :a) (h :b 5)]) (g)", "[1 5]"),
    ("(def h [10 20]) (defn g [] (h 1)) (g)", "20"),
    ("(def h str) (defn g [] (h 1 (let [a 2] a))) (g)", '"12"'),
    ("(defn g [h] (def z 1) (h 3)) (g inc)", "4"),
    # an arity mismatch, after the arguments are evaluated
    ("(defn f [a b] a) (def h f) (defn g [] (h (def evaluated 1))) [(try (g) (catch e (:message e))) evaluated]",
     '["Wrong number of args: expected 2, got 1" 1]'),
    ("(defn f [a b] a) (defn g [] (f (let [a 1] a))) (try (g) (catch e (:message e)))",
     '"Wrong number of args: expected 2, got 1"'),
    # a macro head turning up at run time, in both shapes: its arguments reach it as forms
    ("(defn g [] (m (def evaluated true))) (defmacro m [x] (list 'quote x)) [(g) (try evaluated (catch e :unbound))]",
     "[(def evaluated true) :unbound]"),
    ("(defn g [] (m (let [a (def evaluated 1)] a))) (defmacro m [x] (list 'quote x)) [(g) (try evaluated (catch e :unbound))]",
     "[(let [a (def evaluated 1)] a) :unbound]"),
    ("(defmacro dc [n v] (list 'def n v)) (defn f [p] (def q p) (dc w (let [a q] (+ a 1))) w) [(f 1) (try w (catch e :gone))]",
     "[2 :gone]"),
]

PUBLISHED = [
    # a body whose parameters are published around calls (``published_calls``), calling with another
    # argument count than its own: the head is tested with ``_not_macro`` alone, everything else is
    # ``_apply_pub``'s; a macro expansion may rebind a parameter (reloaded after)
    ("(defmacro dc [n v] (list 'def n v)) (defn f [k] (dc k (+ k 1)) k) [(f 1) (try k (catch e :gone))]", "[2 :gone]"),
    ("(defn f [k] (m k 2)) (defmacro m [a b] (list 'vector b a)) (f 1)", "[2 1]"),
    ("(defn peek [a b] [a b k]) (defn f [k] (peek k 2)) (f 1)", "[1 2 1]"),
    ("(def h {:a 1}) (defn f [k] (h k 2)) (f :b)", "2"),
    ("(def h 3) (defn f [k] (h k 2)) (try (f 1) (catch e (:message e)))",
     '"Function call failed: h: class java.lang.Long cannot be cast to class clojure.lang.IFn (java.lang.Long is in'
     ' module java.base of loader \'bootstrap\'; clojure.lang.IFn is in unnamed module of loader \'app\')"'),
    ("(defn f [k] (zork k (def evaluated 1))) [(try (f 1) (catch e (:message e))) (try evaluated (catch e :unbound))]",
     '["Unbound symbol: zork" :unbound]'),
    # a head that is no macro (a namespace path): the head and the arguments stored in one tuple display
    ('(defn f [k] (strings/trim (str k " "))) (f "a")', '"a"'),
    ("(defn f [k] (strings/trim (inc k))) (f 1)", '"2"'),
]


def _nested_lets(inner: str, depth: int = 40) -> str:
    """``inner`` under ``depth`` nested lets: deep enough that the emitter outlines pieces of the body
    into ``_nest`` functions (``EmitterBase._outline``), whose frames the macro helpers read."""
    for i in range(depth):
        inner = "(let [a%d (g k)] %s)" % (i, inner)
    return inner


# The macro branch reads ``D`` and a published body's parameters from its caller's frame
# (``frame_paths.macro_named``, ``frame_paths.macro_pub_named``): also from a piece outlined from the body.
FRAMES = [
    ("(defmacro dc [n v] (list 'def n v)) (defn f [k j] (dc j (+ k 10)) (dc k (+ j 1)) [k j])"
     " [(f 1 2) (try j (catch e :gone))]", "[[12 11] :gone]"),
    # the expansion reads the parameter: its value comes from the outlined piece's frame
    ("(defmacro pk [] 'k) (defn g [x] x) (defn f [k] %s) (f 1)" % _nested_lets("(+ (pk) a0)"), "2"),
    ("(defmacro pk [] 'k) (defn g [x] x) (defn f [k] (def z 0) %s) (f 1)" % _nested_lets("(+ (pk) a0)"), "2"),
    ("(defmacro pk [] 'k) (defn g [x] x) (def k 5) %s" % _nested_lets("(+ (pk) a0)"), "10"),
    ("(defmacro dc [n v] (list 'def n v)) (defn g [x] x) (defn f [k] %s) (f 1)"
     % _nested_lets("(do (dc k (+ k a0)) k)"), "2"),
]


@pytest.mark.parametrize("optimise", [True, False], ids=["on", "off"])
@pytest.mark.parametrize("src,expected", CASES + PUBLISHED + FRAMES)
def test_rare_paths_of_a_macro_testing_call_site(src: str, expected: str, optimise: bool) -> None:
    with optimisations(optimise):
        assert run(src) == expected


@pytest.mark.parametrize("optimise", [True, False], ids=["on", "off"])
@pytest.mark.parametrize("src", ["(defn g [] (zork (def evaluated 1)))\n(g)",
                                 "(defn g [] (zork (let [a (def evaluated 1)] a)))\n(g)"])
def test_an_unbound_head_fails_at_the_head_with_the_call_path(src: str, optimise: bool) -> None:
    with optimisations(optimise), pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(src)
    err = info.value
    assert str(err) == "Unbound symbol: zork"
    assert err.position == (1, 12, 1, 16)  # the head symbol's own span
    assert [str(t) for t in err.trace or []] == ["g"]
