"""Generated Spell programs for the switch-off equivalence tests, and how their outcomes are compared.

A program is text: a prelude of ``defn``s/``defmacro``s and one main expression, generated so
that it stays small and always terminates (loops count to a literal bound, recursion is on small
literals). What it exercises is what the optimisations of issue 13 could get wrong:

* arithmetic near ±2⁶³ (overflow errors at the exact operation, longs against doubles, nil);
* dynamic scoping across calls: a callee reading its caller's parameter or ``let`` local by
  name, parameters shadowing, ``def`` of a parameter name inside the body, ``eval`` of a symbol
  naming a parameter;
* errors inside loops and functions (their message, error env and trace), ``try``/``catch``;
* ``recur`` in every position (tail of ``if``/``let``/``do``, inside ``try``, wrong arity, not in
  tail position) and user macros.

``outcome`` reduces a result to what a program can observe: value or error message, the error's
``:expr``, ``:trace`` and env (as a set of printed bindings: the env is a map, its order is not
part of the value the tests compare), and the error's position.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st
from spell_runtime.data import Symbol
from spell_runtime.errors import SpellError
from spell_runtime.printer import pr_str

import spellc
from spellc import state
from spellc.analyze import bound
from spellc.compiler import optimisations

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)

NAMES = ["x", "y", "n", "acc"]
"""Parameter and local names; every generated function binds some of them, so callees see callers'."""

edge_ints = st.sampled_from([0, 1, 2, -1, 7, LONG_MAX, LONG_MIN, LONG_MAX - 1, LONG_MIN + 1, 2**62, -(2**62),
                             3037000499, 3037000500, -3037000500])
small_ints = st.integers(min_value=-3, max_value=6)
atoms = st.one_of(
    edge_ints.map(str),
    small_ints.map(str),
    st.sampled_from(["nil", "1.5", "-0.5", "\"s\"", ":k", "[1 2]", "{:a 1}", "true"]),
)

ARITH = ["+", "-", "*", "<", ">", "<=", ">=", "=", "not=", "max", "quot", "+'", "*'"]
UNARY = ["inc", "dec", "zero?", "pos?", "neg?", "nil?", "not", "-", "count"]


@st.composite
def expr(draw: Any, names: tuple[str, ...], depth: int) -> str:
    """An expression over the names in scope (``names``), at most ``depth`` levels deep."""
    leaf = st.one_of(atoms, st.sampled_from(names)) if names else atoms
    if depth <= 0:
        return draw(leaf)
    sub = expr(names, depth - 1)
    kind = draw(st.integers(min_value=0, max_value=14))
    if kind <= 2:
        return draw(leaf)
    if kind == 3:
        return "(%s %s %s)" % (draw(st.sampled_from(ARITH)), draw(sub), draw(sub))
    if kind == 4:
        return "(%s %s)" % (draw(st.sampled_from(UNARY)), draw(sub))
    if kind == 5:
        name = draw(st.sampled_from(NAMES))
        inner = expr(tuple(sorted({*names, name})), depth - 1)
        return "(let [%s %s] %s)" % (name, draw(sub), draw(inner))
    if kind == 6:
        return "(if %s %s %s)" % (draw(sub), draw(sub), draw(sub))
    if kind == 7:  # a call of a prelude function (they read their callers' names dynamically)
        f, arity = draw(st.sampled_from([("add-x", 1), ("twice-y", 0), ("sum-to", 1), ("pair", 2),
                                        ("countdown", 1), ("def-x", 1), ("peek-n", 1), ("bad-x", 1),
                                        ("fib", 1), ("via-apply", 1), ("macro-x", 1)]))
        args = [draw(sub) if f not in ("sum-to", "countdown", "fib") else str(draw(small_ints))
                for _ in range(arity)]
        return "(%s)" % " ".join([f, *args])
    if kind == 8:
        i, a = "i", draw(st.sampled_from(NAMES))
        body = expr(tuple(sorted({*names, i, a})), depth - 1)
        bound = draw(small_ints)
        return "(loop [%s 0 %s %s] (if (< %s %d) (recur (inc %s) %s) %s))" % (
            i, a, draw(sub), i, bound, i, draw(body), a)
    if kind == 9:
        return "(try %s (catch e (:err e)))" % draw(sub)
    if kind == 10:
        return "(do (def %s %s) %s)" % (draw(st.sampled_from(NAMES)), draw(sub), draw(sub))
    if kind == 11:  # eval of a symbol naming a binding in scope (or not)
        return "(eval '%s)" % draw(st.sampled_from(NAMES))
    if kind == 12:  # user macros (set-x defs x in the caller's scope; def-minus and def-inc a core name there)
        return draw(st.sampled_from(["(swap2 %s %s)", "(do (set-x %s) %s)", "(do (def-minus) [%s (- %s 1)])",
                                     "(def-inc [%s (inc %s)])", "(let-inc [(inc %s) %s])"])) % (draw(sub), draw(sub))
    if kind == 13:
        return "(throw %s)" % draw(sub)
    return "[%s %s]" % (draw(sub), draw(sub))


PRELUDE = """
(defn add-x [v] (+ v x))
(defn twice-y [] (* 2 y))
(defn sum-to [n] (loop [i 0 acc 0] (if (< i n) (recur (inc i) (+ acc i)) acc)))
(defn pair [x y] [x y (add-x y)])
(defn countdown [n] (if (<= n 0) :done (recur (dec n))))
(defn def-x [x] (def x (inc x)) (add-x x))
(defn peek-n [n] (eval 'n))
(defmacro swap2 [a b] (list 'do b a))
(defmacro set-x [v] (list 'def 'x v))
(defmacro def-minus [] '(def - (fn [a b] [a b])))
(defmacro def-inc [v] (list 'do '(def inc (fn [z] [:inc z])) v))
(defmacro let-inc [v] (list 'let '[inc (fn [z] :let-inc)] v))
(defn bad-x [x] (do (try 1) (+ x :k)))
(defn fib [n] (if (< n 2) (+ n y) (+ (fib (- n 1)) (fib (- n 2)))))
(defn via-apply [x] (apply add-x [x]))
(defn macro-x [x] (set-x (inc x)) [x (add-x x) (fib 2)])
"""


@st.composite
def fn_program(draw: Any) -> str:
    """A prelude, one generated function with its own body, and a call of it."""
    params = draw(st.lists(st.sampled_from(NAMES), min_size=0, max_size=3, unique=True))
    body = draw(expr(tuple(params), 3))
    shape = draw(st.integers(min_value=0, max_value=5))
    if shape == 1:  # recur in tail position of an if, with a literal countdown guard
        guard = "(if (< k 1) %s (recur %s))" % (body, " ".join(["(dec k)", *params]))
        params = ["k", *params]
        body = guard
    elif shape == 2:  # recur inside a let body
        body = "(let [z %s] (if (< k 1) z (recur %s)))" % (body, " ".join(["(dec k)", *params]))
        params = ["k", *params]
    elif shape == 3:  # recur with a wrong count, or not in tail position
        body = draw(st.sampled_from(["(recur %s 1 2 3 4)" % body, "(do (recur) %s)" % body,
                                     "(+ 1 (recur %s))" % body]))
    elif shape == 4:  # recur inside try
        body = "(try (if (< k 1) %s (recur (dec k) %s)) (catch e [:caught (:err e)]))" % (
            body, " ".join(params))
        params = ["k", *params]
    args = [draw(expr((), 1)) for _ in params]
    if params and params[0] == "k":
        args[0] = str(draw(small_ints))
    caller_binds = draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True))
    call = "(gen %s)" % " ".join(args)
    for name in caller_binds:  # the caller's own binding of a name the callee may read
        call = "(let [%s %s] %s)" % (name, draw(expr((), 1)), call)
    return "%s\n(defn gen [%s] %s)\n%s" % (PRELUDE, " ".join(params), body, call)


@st.composite
def loop_program(draw: Any) -> str:
    """A loop whose body may fail part-way (an overflow near ±2⁶³, a nil, a throw)."""
    start = draw(edge_ints)
    step = draw(st.sampled_from(["(inc acc)", "(+ acc i)", "(* acc 2)", "(- acc big)", "(conj v i)",
                                 "(if (= i 3) (throw i) acc)", "(+ acc (get m i))", "(conj v (+ i big))",
                                 "v-first"]))
    bound = draw(small_ints)
    if step == "v-first":  # the vector's conj is evaluated before a recur argument that may fail
        # i steps by big, so big must be positive or the loop (and its vector) would never end.
        return "(let [big %d] (loop [v [] i 0] (if (< i %d) (recur (conj v i) (+ i big)) [v i])))" % (
            max(start, 1), bound)
    if "conj" in step:
        init = draw(st.sampled_from(["[]", "[:a]", "(vec (range 3))"]))
        return "(let [big %d] (loop [i 0 v %s] (if (< i %d) (recur (inc i) %s) v)))" % (start, init, bound, step)
    return "(let [big %d m {0 1}] (loop [i 0 acc %d] (if (< i %d) (recur (inc i) %s) acc)))" % (
        draw(edge_ints), start, bound, step)


programs = st.one_of(fn_program(), loop_program(),
                     expr((), 4).map(lambda e: "%s\n%s" % (PRELUDE, e)))


def outcome(text: str) -> tuple[Any, ...]:
    """What a program can observe of its own evaluation: value, or error and its env, expr, trace, place."""
    try:
        value = spellc.eval_string(text, "<gen>")
    except SpellError as e:
        env: frozenset[Any] = frozenset((pr_str(k), pr_str(v)) for k, v in (e.env or {}).items() if type(k) is Symbol)
        trace = tuple(pr_str(t) for t in e.trace or [])
        if e.message == "Stack overflow":
            trace = trace[-STACK_OVERFLOW_FRAMES:]
            env = frozenset(name for name, _ in env)
        return ("err", e.message, pr_str(e.expr), trace, env, getattr(e, "position", None))
    return ("ok", pr_str(value))


STACK_OVERFLOW_FRAMES = 1000
"""How much of a stack overflow's call path an outcome keeps: its outermost frames (and of its env,
the names only). How many nested calls fit before the host stack runs out is the implementation's
(language.md A8 asks for at least about 10,000), and the optimised code uses fewer Python frames per
call than the unoptimised, so the two overflow at different depths (a hypothesis example: 9,997
against 59,980 frames of one recursion), with the innermost call's arguments as that depth made
them. The error, its place, the names bound there and the frames outside the recursion agree."""


BINDING_MACROS = ("(def-minus)", "(def-inc ")
"""Prelude macros whose expansions bind a core name in the caller's frame (``spellc.analyze.late``)."""


def outcomes_both_ways(text: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The outcome with optimisations on, then off. A program that uses a macro binding a core name
    starts from every core name static (as in a fresh process: else the first such program would
    make the name dynamic for all later ones) and leaves the compiler's state as it found it."""
    rebinding = any(m in text for m in BINDING_MACROS)
    was = set(bound.BOUND)
    if rebinding:
        state.reset_caches()  # a unit compiled earlier would bind the name without noting it again
        bound.BOUND.clear()
        bound.BOUND.add(Symbol("eval"))
    try:
        with optimisations(True):
            on = outcome(text)
        with optimisations(False):
            off = outcome(text)
    finally:
        if rebinding:
            state.reset_caches()
            bound.BOUND.clear()
            bound.BOUND.update(was)
    return on, off


def agree(text: str) -> tuple[Any, ...]:
    """The program's outcome, asserted identical with optimisations on and off."""
    on, off = outcomes_both_ways(text)
    assert on == off, text
    return on


def timeout_positions(text: str, seconds: float = 0.2) -> tuple[Any, Any]:
    """(position with optimisations on, with them off) of the timeout of a program that runs forever.

    Each position is ``SpellError.position``, (line, column, end line, end column), lines from 1 and
    columns from 0; the message is checked to be the timeout's, so another error cannot pass for it.
    """
    found = []
    for on in (True, False):
        with optimisations(on):
            try:
                spellc.eval_string(text, "<gen>", eval_timeout_sec=seconds)
            except SpellError as e:
                assert e.message.startswith("Evaluation timed out"), (on, e.message)
                found.append(e.position)
            else:
                raise AssertionError("the program ended: %s" % text)
    return found[0], found[1]


def static_core_names(*names: str) -> Iterator[None]:
    """Body of an autouse fixture: analyze with ``names`` static, as a fresh process would.

    Which core names code has bound is process-wide compiler state (``spellc.analyze.bound``), so
    an earlier test that bound ``+`` would otherwise turn the optimisations under test off.
    """
    symbols = [spellc.symbol(n) for n in names]
    was = [s for s in symbols if s in bound.BOUND]
    bound.BOUND.difference_update(symbols)
    yield
    bound.BOUND.update(was)


def bound_names_restored() -> Iterator[None]:
    """Body of an autouse fixture: after the test, the core names bound are those bound before it.
    Units compiled while the test's names were bound are forgotten with them: reused, they would
    not note those names again (a real process never forgets a bound name)."""
    was = set(bound.BOUND)
    yield
    state.reset_caches()
    bound.BOUND.clear()
    bound.BOUND.update(was)


__all__ = ["programs", "fn_program", "loop_program", "outcome", "outcomes_both_ways", "agree",
           "static_core_names", "bound_names_restored", "timeout_positions", "PRELUDE"]
