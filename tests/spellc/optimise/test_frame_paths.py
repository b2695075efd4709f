"""The rare paths of compiled fn bodies that read the body's frame (``spell_runtime.frame_paths``).

A tail value that is a recur request (Q17, §8.1 step 5) re-runs the body through ``_recur_here``,
which finds the body, ``D`` and ``_H`` in the calling frame; a failing body raises through
``_fn_failed_here``, which takes the exception, the running element and the parameters' values at
the failure from the frame. Each case runs with optimisations on and off (private, published,
second and env-bound bodies) and checks the observable facts the frame reads decide: the re-run's
value and arity error, the error env's parameter values after a ``recur`` jump re-bound them, the
containing form, the trace and call path. The generated code is checked too, so the cases really
go through the helpers."""

from __future__ import annotations

from typing import Any

import pytest
from optimise_programs import outcome
from spell_runtime import frame_paths
from spell_runtime.abi import L
from spell_runtime.data import Symbol
from spell_runtime.errors import SpellError
from spell_runtime.printer import pr_str

import spellc
from spellc import state
from spellc.analyze import bound
from spellc.compiler import optimisations, python_source


@pytest.fixture(autouse=True)
def operators_static() -> Any:
    """Analyze as a fresh process would (other tests may have bound core names, process-wide)."""
    was = set(bound.BOUND)
    state.reset_caches()  # a unit compiled under other bindings would not note its names again
    bound.BOUND.clear()
    yield
    state.reset_caches()
    bound.BOUND.clear()
    bound.BOUND.update(was)


def failure(text: str) -> SpellError:
    with pytest.raises(SpellError) as info:
        spellc.eval_string(text, "<gen>")
    return info.value


def facts(text: str) -> tuple[Any, ...]:
    """``outcome`` plus the failing element and the call path (head, site, fold count per frame)."""
    try:
        spellc.eval_string(text, "<gen>")
    except SpellError as e:
        path = tuple((pr_str(f.head), f.position, f.repeat) for f in e.frames or [])
        containing = getattr(e, "containing_form", None)
        return outcome(text) + (pr_str(containing) if containing is not None else None, path)
    return outcome(text)


def both(text: str) -> tuple[Any, ...]:
    """The facts of ``text``, asserted the same with optimisations on and off."""
    with optimisations(True):
        on = facts(text)
    with optimisations(False):
        off = facts(text)
    assert on == off, text
    return on


def env_value(text: str, name: str) -> str:
    """The printed value of ``name`` in the error env, asserted the same on and off."""
    values = []
    for switch in (True, False):
        with optimisations(switch):
            values.append(pr_str(failure(text).env[Symbol(name)]))  # type: ignore[index]
    assert values[0] == values[1], text
    return values[0]


def code(src: str, on: bool = True) -> str:
    with optimisations(on):
        return python_source(spellc.read_string("(do %s)" % src))


# ---------------------------------------------------------------- recur requests arriving as values

REQUEST_SUM = "(defn f [n acc] (if (> n 0) {:spell/recur true :vals [(dec n) (+ acc n)]} acc))\n"


def test_a_request_value_re_runs_a_directly_applied_body() -> None:
    assert "_recur_here(" in code(REQUEST_SUM)
    assert both(REQUEST_SUM + "(f 4 0)") == ("ok", "10")


def test_a_request_value_with_the_wrong_count_fails_at_the_fn_form() -> None:
    text = "(defn f [a b] (if (> a 0) {:spell/recur true :vals [(dec a)]} b))\n(f 3 4)"
    result = both(text)
    assert result[:3] == ("err", "Wrong number of args: expected 2, got 1", pr_str(spellc.read_string(
        "(fn [a b] (if (> a 0) {:spell/recur true :vals [(dec a)]} b))")))
    assert result[3] == ("f",)


def test_a_request_returned_to_a_builtin_is_its_value() -> None:
    """``map`` applies the body with no head: the body hands the request back as its value
    (§8.1 step 5), where a direct call re-runs it."""
    body = "(fn [n] (if (> n 0) {:spell/recur true :vals [(dec n)]} :done))"
    assert both("(first (map %s [2]))" % body) == ("ok", "{:spell/recur true, :vals [1]}")
    assert both("(%s 2)" % body) == ("ok", ":done")
    assert both(REQUEST_SUM + "(first (map (fn [n] (f n 0)) [3]))") == ("ok", "6")


def test_a_request_value_from_a_published_body() -> None:
    """``peek`` reads ``n`` by name: ``f``'s parameters are published around that call."""
    text = ("(defn peek [] n)\n"
            "(defn f [n acc] (if (> n 0) {:spell/recur true :vals [(dec n) (+ acc (peek))]} acc))\n(f 3 0)")
    assert "_apply_pub(" in code(text) or "_publish(" in code(text)
    assert both(text) == ("ok", "6")


def test_a_request_value_after_a_recur_jump_re_bound_the_parameters() -> None:
    """The jump re-binds the parameter locals; the re-run takes the request's values, not the old ones."""
    text = ("(defn f [n acc] (if (> n 10) (recur (dec n) (+ acc 100))"
            " (if (> n 0) {:spell/recur true :vals [(dec n) (+ acc n)]} acc)))\n(f 12 0)")
    assert both(text) == ("ok", "%d" % (100 + 100 + sum(range(11))))


def test_a_request_value_from_a_second_body() -> None:
    """A closed self-recursive fn runs its self-calls in a second body (``analyze.selfcalls``) whose
    tail value ``m`` can be a request passed in as an argument."""
    src = "(defn f [xs m] (if (empty? xs) m (+ 1 (f (rest xs) m))))"
    generated = code(src)
    closed = generated[generated.index("_closed(D, _H"):]
    assert "_recur_here(" in closed
    assert both(src + "\n(f [1 2 3] {:spell/recur true :vals [[] 5]})") == ("ok", "8")
    wrong = both(src + "\n(f [1 2] {:spell/recur true :vals [[]]})")
    assert wrong[1] == "Wrong number of args: expected 2, got 1"


def test_map_literals_without_a_recur_key_are_returned_unchecked() -> None:
    """Their keys are constants (Q10): only one with a :spell/recur key can be a request."""
    plain = code("(defn f [x] {:a x :b 2})")
    assert "_MAYBE_RECUR" not in plain and "_recur_here" not in plain
    assert both("(defn f [x] {:a x :b 2})\n(f 1)") == ("ok", "{:a 1, :b 2}")
    assert "_recur_here" in code("(defn f [x] {:spell/recur x})")
    assert both("(defn f [x] {:spell/recur x :vals [false]})\n(f true)") == ("ok", "{:spell/recur false, :vals [false]}")


# ---------------------------------------------------------------- failures read from the frame

def test_failure_env_shows_parameters_re_bound_by_recur() -> None:
    text = "(defn f [n] (if (> n 0) (recur (dec n)) (/ 1 n)))\n(f 3)"
    assert "_fn_failed_here(" in code(text)
    assert env_value(text, "n") == "0"
    assert both(text)[:2] == ("err", "Function call failed: /: Divide by zero")


def test_failure_env_with_two_parameters_re_bound_by_recur() -> None:
    text = "(defn f [n acc] (if (> n 0) (recur (dec n) (+ acc n)) (/ acc n)))\n(f 4 0)"
    assert env_value(text, "n") == "0"
    assert env_value(text, "acc") == "10"


def test_failure_of_a_published_body() -> None:
    text = "(defn peek-k [] k)\n(defn fk [k] (if (> k 0) (+ (peek-k) (fk (dec k))) (/ 1 k)))\n(fk 2)"
    assert "_apply_pub(" in code(text)
    assert env_value(text, "k") == "0"
    result = both(text)
    assert result[3] == ("fk", "fk", "fk")


def test_failure_of_a_published_body_that_rebinds_a_core_name() -> None:
    """``peek`` is a core name: after the published-body case above has bound it (process-wide),
    this program must still give the innermost ``n`` in its error env, on and off. (It gave 2 with
    optimisations on when the fixture forgot the core names but kept the units compiled under them.)"""
    test_a_request_value_from_a_published_body()
    state.reset_caches()
    bound.BOUND.clear()
    text = "(defn peek [] n)\n(defn f [n] (if (> n 0) (+ (peek) (f (dec n))) (/ 1 n)))\n(f 2)"
    assert env_value(text, "n") == "0"


def test_a_symbol_named_twice_shows_its_last_parameter() -> None:
    assert env_value("(defn f [x x] (/ 1 x))\n(f 1 0)", "x") == "0"


def test_the_failing_element_of_a_body_is_its_containing_form() -> None:
    text = "(defn f [n] (inc n) (/ 1 n) n)\n(f 0)"
    assert both(text)[-2] == "(/ 1 n)"
    assert both("(defn f [n] (/ 1 n))\n(f 0)")[-2] == "(/ 1 n)"


def test_failures_in_nested_fns() -> None:
    text = "(defn outer [a] (let [g (fn [b] (inc b) (/ a b))] (g 0)))\n(outer 5)"
    result = both(text)
    assert result[:2] == ("err", "Function call failed: /: Divide by zero")
    assert result[3] == ("g", "outer")
    assert result[-2] == "(let [g (fn [b] (inc b) (/ a b))] (g 0))"  # the outermost body's element wins
    assert env_value(text, "b") == "0" and env_value(text, "a") == "5"


def test_failures_in_bodies_compiled_at_run_time() -> None:
    evaluated = "(def h (eval '(fn [x] (if (> x 0) (recur (dec x)) (/ 1 x)))))\n(h 2)"
    assert both(evaluated)[:2] == ("err", "Function call failed: /: Divide by zero")
    assert env_value(evaluated, "x") == "0"
    data = "(def k (assoc {} :spell/fn true :params '[y] :body '((inc y) (/ 1 y))))\n(k 0)"
    result = both(data)
    assert result[:2] == ("err", "Function call failed: /: Divide by zero")
    assert result[-2] == "(/ 1 y)"
    assert env_value(data, "y") == "0"


def test_catch_inside_a_body_sees_the_failure_env() -> None:
    text = "(defn f [n] (try (if (> n 0) (f (dec n)) (/ 1 n)) (catch e [n (:message e)])))\n(f 2)"
    assert both(text) == ("ok", "[0 \"Function call failed: /: Divide by zero\"]")


def test_scope_handlers_convert_host_failures_inside_let_and_loop() -> None:
    assert "_conv_here()" in code("(let [x (f)] (g x))") or "_priv_failed_here(" in code("(let [x (f)] (g x))")
    text = "(defn f [xs] (loop [i 0 acc 0] (if (< i 3) (recur (inc i) (+ acc (nth xs i))) acc)))\n(f [1 2])"
    result = both(text)
    assert result[0] == "err" and "nth" in result[1]
    assert env_value(text, "i") == "2"


def test_the_frame_names_are_the_abi_conventions() -> None:
    assert (frame_paths.ENV, frame_paths.HEAD, frame_paths.TABLE, frame_paths.INDEX) == (L.ENV, L.HEAD, L.TABLE, L.INDEX)
