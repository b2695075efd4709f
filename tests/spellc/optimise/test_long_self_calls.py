"""Closed self-recursive functions and their second body (issue 13.1, ``analyze.selfcalls``).

Every case runs with optimisations on and off and must agree on value, error message, ``:expr``,
trace, error env, position and call path (``frames``: each call's head, site and recursion fold).
Checks on the generated code make sure the second body is really the code exercised — and that it
is not emitted where its legality argument does not hold."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optimise_programs import LONG_MAX, LONG_MIN, outcome
from spell_runtime.errors import SpellError
from spell_runtime.printer import pr_str

import spellc
from spellc import state
from spellc.analyze import bound
from spellc.compiler import optimisations, python_source

FIB = "(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n"


@pytest.fixture(autouse=True)
def operators_static() -> Any:
    """Analyze as a fresh process would (other tests may have bound core names, process-wide)."""
    was = set(bound.BOUND)
    state.reset_caches()  # a unit compiled under other bindings would not note its names again
    bound.BOUND.clear()  # every core name static, as in a fresh process (count, conj, rest... too)
    yield
    state.reset_caches()
    bound.BOUND.clear()  # as before: names a case bound (``*``) stay static for later tests' code
    bound.BOUND.update(was)


def rich_outcome(text: str) -> tuple[Any, ...]:
    """``outcome`` plus the error's call path (head, site, fold count of each frame)."""
    try:
        spellc.eval_string(text, "<gen>")
    except SpellError as e:
        path = tuple((pr_str(f.head), f.position, f.repeat) for f in e.frames or [])
        return outcome(text) + (path,)
    return outcome(text)


def agree(text: str) -> tuple[Any, ...]:
    with optimisations(True):
        on = rich_outcome(text)
    with optimisations(False):
        off = rich_outcome(text)
    assert on == off, text
    return on


def second_body(src: str) -> str:
    """Which second body the fns in ``src`` get: "long", "closed" or "" (none)."""
    with optimisations(True):
        code = python_source(spellc.read_string("(do %s)" % src))
    return "long" if "_long(D, " in code else "closed" if "_closed(D, " in code else ""


def has_long_body(src: str) -> bool:
    return second_body(src) == "long"


# ---------------------------------------------------------------- where the second body is (not) emitted

def test_fib_gets_a_second_body_with_no_per_call_checks() -> None:
    with optimisations(True):
        src = python_source(spellc.read_string(FIB))
    long_body = src[src.index("def _fn1_long"):]
    long_body = long_body[:long_body.index("\ndef ", 1)]
    assert "_fn1_long(D, " in long_body
    # ... and (< n 2) proves n >= 2 in the else branch: (- n 1), (- n 2) cannot overflow (emit.bounds)
    for check in ("_miss", "_is_macro", "_EPOCH", "_u1", "_MAYBE_RECUR", "type(", "_op_lt", "_op_sub"):
        assert check not in long_body, check
    assert "type(_a" in src[:src.index("def _fn1_long")]  # the entry tests the argument is a long
    with optimisations(False):
        assert "_long" not in python_source(spellc.read_string(FIB))


@pytest.mark.parametrize("src", [
    # the body defs its own name mid-way: a self-call's body could rebind the head
    "(defn f [n] (if (< n 1) 0 (do (def f (fn [m] 100)) (+ 1 (f (dec n))))))",
    # two different heads: the other one could run anything
    "(defn f [n] (if (< n 1) 0 (+ (f (dec n)) (g (dec n)))))",
    # an env-taking builtin, try, a fn literal, eval, recur, another arity
    "(defn f [n] (if (< n 1) 0 (+ 1 (f (reduce + 0 [n])))))",
    "(defn f [n] (if (< n 1) 0 (try (+ 1 (f (dec n))) (catch e 0))))",
    "(defn f [n] (if (< n 1) 0 (+ 1 (f ((fn [m] (dec m)) n)))))",
    "(defn f [n] (if (< n 1) (eval 'n) (+ 1 (f (dec n)))))",
    "(defn f [n] (if (< n 1) 0 (recur (dec n))))",
    "(defn f [n] (if (< n 1) 0 (+ 1 (f (dec n) 1))))",
    "(defn f [n] (let [m (f (dec n))] m))",  # a let that calls is published to D: not private
])
def test_no_second_body_where_closure_fails(src: str) -> None:
    assert second_body(src) == ""


@pytest.mark.parametrize("src", [
    "(defn f [n] (if (< n 1) nil (+ 1 (f (dec n)))))",
    "(defn f [n] (if (< n 1) 0 (+ 1 (f (quot n 2)))))",
    "(defn f [n] (if (< n 1) (throw n) (+ 1 (f (dec n)))))",
    "(defn len [xs] (if (empty? xs) 0 (+ 1 (len (rest xs)))))",
])
def test_closed_but_not_long_typed(src: str) -> None:
    assert second_body(src) == "closed"


def test_long_bodies_are_found_beyond_fib() -> None:
    assert has_long_body("(defn ack [m n] (if (< m 1) (inc n) (if (< n 1) (ack (dec m) 1) (ack (dec m) (ack m (dec n))))))")
    assert has_long_body("(defn tri [n] (if (<= n 0) 0 (+ n (tri (- n 1)))))")
    assert has_long_body("(def tri (fn [n] (if (<= n 0) 0 (+ n (tri (- n 1))))))")


def test_only_a_defined_fn_calling_its_own_name_gets_one() -> None:
    """Legality does not need the name (the entry checks the head's value at run time), but a body
    whose calls are of another function would carry a second body never entered."""
    assert not has_long_body("(fn [x] (if x (f x) 2))")
    assert not has_long_body("(defn g [n] (if (< n 1) 0 (+ 1 (f (dec n)))))")
    assert not has_long_body("(def g (do (fn [n] (if (< n 1) 0 (+ 1 (g (dec n)))))))")


# ---------------------------------------------------------------- named cases, both ways

@pytest.mark.parametrize("text,expected", [
    (FIB + "(fib 15)", ("ok", "610")),
    (FIB + "(fib 0)", ("ok", "0")),
    # the body redefines itself mid-way (keeps the ordinary shape)
    ("(defn f [n] (if (< n 1) 0 (do (def f (fn [m] 100)) (+ 1 (f (dec n))))))\n(f 5)", ("ok", "101")),
    # the name rebound after the fn was made: the entry's lookup sees another fn
    (FIB + "(def orig fib)\n(defn fib [n] 7)\n(orig 5)", ("ok", "14")),
    # a caller's let of the fn's name (Spell has no `binding`: let is dynamic scope)
    (FIB + "(def orig fib)\n(let [fib (fn [n] 100)] (orig 5))", ("ok", "200")),
    (FIB + "(let [fib fib] (fib 10))", ("ok", "55")),
    # a macro defined later under the fn's name: the entry's call sites expand it
    (FIB + "(def orig fib)\n(defmacro fib [n] 7)\n(orig 5)", ("ok", "14")),
    # arguments that are not longs take the ordinary body all the way
    (FIB + "(fib 5.5)", ("ok", "9.0")),
    (FIB + "(fib 15N)", ("ok", "610N")),  # a BigInt is not a long
    (FIB + "(fib nil)", None),
    (FIB + "(fib \"s\")", None),
    # an unbound head, found by the entry
    ("(defn f [n] (if (< n 1) 0 (+ 1 (g (dec n)))))\n(f 3)", None),
])
def test_named_cases_agree(text: str, expected: Any) -> None:
    on = agree(text)
    if expected is not None:
        assert on == expected
    else:
        assert on[0] == "err"


@pytest.mark.parametrize("text,expected", [
    ("(defn len [xs] (if (empty? xs) 0 (+ 1 (len (rest xs)))))\n(len [1 2 3 4 5])", ("ok", "5")),
    ("(defn len [xs] (if (empty? xs) 0 (+ 1 (len (rest xs)))))\n(len (range 300))", ("ok", "300")),
    ("(defn len [xs] (if (empty? xs) 0 (+ 1 (len (rest xs)))))\n(len 5)", None),
    # a map value that is a recur request (Q17) re-runs the fn, from inside the second body too
    ("(defn f [n] (if (< n 1) {:spell/recur true :vals [(- n 1)]} (if (< n 3) {:a n} (f (dec n)))))\n(f 5)",
     ("ok", "{:a 2}")),
    ("(defn f [n] (if (< n 1) {:spell/recur true :vals [7]} (f (dec n))))\n(f 3)", None),
    ("(defn f [n] (if (< n 1) {:spell/recur true :vals [1 2]} (f (dec n))))\n(f 3)", None),
    ("(defn f [n] (if (nil? n) :done (if (< n 1) {:spell/recur true :vals [nil]} (f (dec n)))))\n(f 3)",
     ("ok", ":done")),
    ("(defn f [n] (if (< n 1) (throw {:at n}) (+ 1 (f (dec n)))))\n(try (f 4) (catch e e))", ("ok", "{:at 0}")),
    ("(defn f [n] (if (< n 1) (throw {:at n}) (+ 1 (f (dec n)))))\n(f 4)", None),
    ("(defn f [v] (if (< (count v) 4) (f (conj v (count v))) v))\n(f [])", ("ok", "[0 1 2 3]")),
    # the ordinary body's other paths, with a second body present
    ("(defn len [xs] (if (empty? xs) 0 (+ 1 (len (rest xs)))))\n(def orig len)\n(defmacro len [xs] 100)\n"
     "(orig [1 2])", ("ok", "101")),
    ("(defn len [xs] (if (empty? xs) 0 (+ 1 (len (rest xs)))))\n(def orig len)\n"
     "(let [len (fn [xs] 50)] (orig [1 2]))", ("ok", "51")),
])
def test_closed_bodies_agree(text: str, expected: Any) -> None:
    assert second_body(text.split("\n")[0]) == "closed"
    on = agree(text)
    if expected is not None:
        assert on == expected
    else:
        assert on[0] == "err"


@pytest.mark.parametrize("text,message", [
    # overflow near ±2⁶³: in an argument, in the result of two calls, in a one-sided test
    ("(defn s [n acc] (if (< n 1) acc (+ 1 (s (dec n) (+ acc 4611686018427387904)))))\n(s 5 0)", "overflow"),
    ("(defn f [n] (if (> n 0) n (+ 0 (f (- n 1)))))\n(f -9223372036854775807)", "overflow"),
    ("(defn f [n] (if (< n 1) 9223372036854775800 (+ (f (dec n)) 3)))\n(f 5)", "overflow"),
    ("(defn f [n] (if (< n 1) -9223372036854775800 (- (f (dec n)) 3)))\n(f 5)", "overflow"),
    ("(defn f [n m] (if (< n 1) m (* (f (dec n) m) m)))\n(f 5 3037000500)", "overflow"),
    ("(defn f [n] (if (< n 1) 9223372036854775807 (inc (f (dec n)))))\n(f 2)", "overflow"),
    # deep recursion hits the depth limit at the same depth, with the same env and call path
    ("(defn down [n] (if (< n 1) 0 (+ 1 (down (dec n)))))\n(down 100000)", "Stack overflow"),
])
def test_errors_agree(text: str, message: str) -> None:
    on = agree(text)
    assert on[0] == "err" and message in on[1]
    assert has_long_body(text.split("\n")[0])


@pytest.mark.parametrize("text", [
    # ranges from if tests (emit.bounds), right at the ends of the long range
    "(defn f [n] (if (< n -9223372036854775806) n (+ 0 (f (- n 1)))))\n(f -9223372036854775800)",
    "(defn f [n] (if (<= n -9223372036854775807) n (+ 0 (f (dec n)))))\n(f -9223372036854775800)",
    "(defn f [n] (if (>= n -9223372036854775808) (+ 0 (f (- n 1))) n))\n(f -9223372036854775806)",
    "(defn f [n] (if (> n -9223372036854775808) (+ 0 (f (- n 1))) n))\n(f -9223372036854775806)",
    "(defn f [n] (if (> 9223372036854775806 n) (+ 0 (f (+ n 1))) n))\n(f 9223372036854775800)",
    "(defn f [n] (if (< 9223372036854775806 n) n (+ 0 (f (inc n)))))\n(f 9223372036854775800)",
    "(defn f [n] (if (< n 9223372036854775807) (+ 0 (f (+ n 2))) n))\n(f 9223372036854775800)",
    "(defn f [n] (if (< n 3) n (+ 0 (f (- n -9223372036854775807)))))\n(f 5)",
    "(defn f [n] (if (> n 3) (+ (f (- n 1)) (f (+ n -2))) (- n 9223372036854775807)))\n(f 6)",
    "(defn f [n] (if (< n 1) (- n 9223372036854775807) (+ 0 (f (dec n)))))\n(f 1)",
    "(defn f [n] (if (< n -1) (- n 9223372036854775807) (+ 0 (f (dec n)))))\n(f 1)",
])
def test_ranges_near_the_long_limits_agree(text: str) -> None:
    agree(text)
    assert has_long_body(text.split("\n")[0])


@pytest.mark.parametrize("text", [
    # private long loop variables get ranges in an if's branches too (emit.bounds)
    "(loop [i 9223372036854775800] (if (< i 9223372036854775807) (recur (inc i)) i))",
    "(loop [i 9223372036854775800] (if (<= i 9223372036854775807) (recur (inc i)) i))",
    "(loop [i -9223372036854775800] (if (> i -9223372036854775808) (recur (dec i)) i))",
    "(loop [i -9223372036854775800] (if (>= i -9223372036854775808) (recur (- i 1)) i))",
    "(loop [i 0 acc 9223372036854775805] (if (< i 4) (recur (inc i) (+ acc i)) acc))",
    # a let or an inner loop rebinding the name inside the branch has no range
    "(loop [i 9223372036854775806] (if (< i 0) (recur (inc i)) (let [i 9223372036854775807] (inc i))))",
    "(loop [i 0] (if (< i 3) (loop [i 9223372036854775807] (inc i)) i))",
    # a fn literal inside a branch is another Python function whose locals are numbered afresh: the
    # outer loop's range must not reach its loop variable (here both are the local _lv5; without the
    # reset in _fn_body the inner (inc j) lost its test and gave 9223372036854775808)
    "(let [a (inc 1)] ((loop [i 0] (if (< i 1) (fn [x] (loop [j 9223372036854775807] (if (> j 0) (inc j) j)))"
    " (recur (inc i)))) 5))",
])
def test_loop_ranges_agree(text: str) -> None:
    agree(text)


def test_loop_ranges_drop_dead_overflow_tests() -> None:
    with optimisations(True):
        src = python_source(spellc.read_string(
            "(loop [i 0 acc 0] (if (< i 1000000) (recur (inc i) (+ acc i)) acc))"))
    assert "_op_inc" not in src and "_op_add" in src  # acc has no range: its test stays


def test_deep_recursion_below_the_limit_agrees() -> None:
    assert agree("(defn down [n] (if (< n 1) 0 (+ 1 (down (dec n)))))\n(down 400)") == ("ok", "400")


def test_a_moved_epoch_sends_the_entry_to_the_ordinary_body() -> None:
    """Binding a core name moves the binding epoch (``spell_runtime.epoch``): bodies compiled before
    refer to that builtin directly and must be recompiled, so the entry must not go into the second
    body then. Here a macro under the fn's name, expanded at the entry's first call site, binds
    ``*`` and puts the fn back under its name: the second call site finds the fn again, with the
    epoch moved (without the gate's epoch test the value is 2, not 300)."""
    text = ("(defn fib [n] (if (< n 2) (* n 1) (+ (fib (- n 1)) (fib (- n 2)))))\n(def orig fib)\n"
            "(defmacro fib [n] (list 'do (list 'def 'fib 'orig) (list 'def '* (list 'fn '[a b] 100)) 0))\n"
            "(orig 5)")
    assert agree(text) == ("ok", "300")


def test_macro_named_like_the_fn_defined_inside_a_callee() -> None:
    """A different fn under the name runs arbitrary code between the entry's two call sites (here:
    it defines a macro under the name); the second call site must see it."""
    text = (FIB + "(def orig fib)\n"
            "(defn fib [n] (do (defmacro fib [m] 1000) 1))\n"
            "[(orig 3) (orig 2)]")
    agree(text)


# ---------------------------------------------------------------- generated kernels, both ways

edge = st.sampled_from([0, 1, 2, -1, 3, LONG_MAX, LONG_MIN, LONG_MAX - 1, LONG_MIN + 1, 2**62, -(2**62),
                        3037000499, 3037000500, -3037000500])


@st.composite
def kexpr(draw: Any, calls: bool, depth: int) -> str:
    """An expression over ``d`` and ``a``: long arithmetic, comparisons, and (when ``calls``) self-calls
    whose first argument counts ``d`` down (so every program terminates)."""
    leaf = st.one_of(edge.map(str), st.sampled_from(["d", "a", "a", "0", "1", "2"]))
    if depth <= 0:
        return str(draw(leaf))
    sub = kexpr(calls, depth - 1)
    kind = draw(st.integers(min_value=0, max_value=10 if calls else 7))
    if kind <= 1:
        return str(draw(leaf))
    if kind <= 3:
        return "(%s %s %s)" % (draw(st.sampled_from(["+", "-", "*", "+", "-"])), draw(sub), draw(sub))
    if kind == 4:
        return "(%s %s)" % (draw(st.sampled_from(["inc", "dec"])), draw(sub))
    if kind == 5:
        return "(if (%s %s %s) %s %s)" % (draw(st.sampled_from(["<", "<=", ">", "="])), draw(sub), draw(sub),
                                          draw(sub), draw(sub))
    if kind == 6:  # something not long-typed: keeps the ordinary shape, or fails the same way
        return str(draw(st.sampled_from(["(quot %s 2)", "(max %s 1)", "(if (< d 0) nil %s)"])) % draw(sub))
    if kind == 7:  # a parameter compared with a literal: a range in each branch (emit.bounds)
        cmp, lit, name = draw(st.sampled_from(["<", "<=", ">", ">="])), draw(edge), draw(st.sampled_from("ad"))
        test = "(%s %s %s)" % ((cmp, name, lit) if draw(st.booleans()) else (cmp, lit, name))
        step = draw(st.sampled_from(["(+ %s 1)", "(- %s 1)", "(inc %s)", "(dec %s)", "(- %s 2)", "(+ %s -3)"]))
        branches = (step % name, draw(sub))
        return "(if %s %s %s)" % ((test, *branches) if draw(st.booleans()) else (test, *reversed(branches)))
    return "(g %s %s)" % (draw(st.sampled_from(["(dec d)", "(- d 2)", "(- d 1)"])), draw(sub))


@st.composite
def kernel_program(draw: Any) -> str:
    body = "(if (< d 1) %s %s)" % (draw(kexpr(False, 2)), draw(kexpr(True, 3)))
    call = "(g %d %s)" % (draw(st.integers(min_value=0, max_value=4)),
                          draw(st.one_of(edge.map(str), st.sampled_from(["nil", "1.5", "\"s\"", "2"]))))
    after = draw(st.sampled_from([
        "%s",
        "(let [a 5 d 7] %s)",  # the caller's own bindings of the parameters' names
        "(try %s (catch e [:caught (:message e)]))",
        "(do (def orig g) (defn g [d a] (+ d 1000)) (orig 3 1) %s)",
        "(do (def orig g) (defmacro g [d a] 5) [(orig 2 1) (orig 3 2)])",
    ]))
    text = "(defn g [d a] %s)\n%s" % (body, after.replace("%s", call) if "%s" in after else after)
    return text


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(kernel_program())
def test_generated_kernels_agree(text: str) -> None:
    agree(text)
