"""Top-level defs of a constant or a ``fn`` run without a unit function (``spellc.compiler.direct``).

They must be indistinguishable from the unit function they replace: the same value, binding and
undo entry, the same compiled body, and the same errors, positions and call paths. The reference
for "the same" is the form compiled as an ordinary unit: inside a ``do`` laid out so the ``def``
keeps its line and column, or with optimisations off (no direct units then).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

import pytest
from spell_runtime.callpath import error_report
from spell_runtime.data import SpellFn, Symbol
from spell_runtime.support import MISS
from spell_runtime.units import DefFn, DefValue

import spellc
from spellc import state
from spellc.analyze import ir
from spellc.analyze.analyzer import analyze_form
from spellc.compiler import compile_unit, optimisations, run_form
from spellc.compiler.direct import is_direct
from spellc.emit.emitter import Emitter
from spellc.environment import new_env
from spellc.reader import read_all, read_first


@pytest.fixture(autouse=True)
def core_names_kept() -> Iterator[None]:
    """Binding a core name makes it dynamic process-wide (``analyze.bound``): forget the names this
    test bound, so tests after it compile core names statically as in a fresh process."""
    saved = set(state.BOUND)
    yield
    state.reset_caches()  # units compiled while names were bound must not outlive the bindings
    state.BOUND.clear()
    state.BOUND.update(saved)


def _node(text: str) -> ir.Node:
    state.base_namespace()
    node, _ = analyze_form(read_first(text))
    return node


@pytest.mark.parametrize("text", [
    "(def x 1)", "(def s \"text\")", "(def v [1 [2 3] {:a #{4}}])", "(def q '(a b c))", "(def n nil)",
    "(defn f [x] (* x 2))", "(def f (fn [& xs] xs))", "(defn g [{:keys [a]} [b]] (+ a b))",
    "(persist p 5)", "(def 1 2)", "(def nil [1])", "(define d 3)",
])
def test_defs_of_constants_and_fns_are_direct(text: str) -> None:
    assert is_direct(_node(text))


@pytest.mark.parametrize("text", [
    "(def x (+ 1 2))", "(def v [1 (inc 2)])", "(defmacro m [x] x)", "(persist p)", "(def x y)",
    "(def x)", "(do (def x 1))", "(let [a 1] (def x a))", "(quine q (def a 1) a)", "(inc 1)",
])
def test_other_forms_keep_their_unit_function(text: str) -> None:
    assert not is_direct(_node(text))


def test_nothing_is_direct_with_optimisations_off() -> None:
    with optimisations(False):
        assert not is_direct(_node("(def x 1)"))
        assert not is_direct(_node("(defn f [x] x)"))


def test_direct_units_are_the_runtime_objects() -> None:
    forms = read_all("(def direct-c [1 2])\n(defn direct-f [x] x)\n(def direct-call (inc 1))")
    kinds = [type(compile_unit(form, "direct.spl", None)) for form in forms]
    assert kinds[:2] == [DefValue, DefFn]
    assert kinds[2] not in (DefValue, DefFn)


def _body_functions(text: str) -> tuple[list[str], dict[str, Any]]:
    """The fn bodies emitted for ``text``'s def by ``defined_fn`` and inside a unit function,
    dumped with positions, and their constants."""
    node = _node(text)
    assert type(node) is ir.Def
    direct = Emitter()
    direct.defined_fn(node)
    unit = Emitter()
    unit.emit_unit(node)
    dump = [ast.dump(f, include_attributes=True) for f in direct.functions]
    assert dump == [ast.dump(f, include_attributes=True) for f in unit.functions]
    for name, value in direct.consts.items():  # the body's constants; the unit's own come after them
        assert type(unit.consts[name]) is type(value) and unit.consts[name] == value
    assert direct.table == unit.table
    return dump, direct.consts


@pytest.mark.parametrize("text", [
    "(defn f [x] (* x 2))",
    "(defn count-to [n] (loop [i 0 acc []] (if (< i n) (recur (inc i) (conj acc i)) acc)))",
    "(defn walk [m] (map (fn [[k v]] [k (fn [y] (+ v y))]) m))",
    "(defn fact [n] (if (< n 2) 1 (* n (fact (dec n)))))",
    "(defn h [xs] (try (reduce + xs) (catch e (str \"bad: \" (:message e)))))",
    "(defn g [a & more] (let [s (apply + a more)] (def last-sum s) s))",
])
def test_direct_body_is_the_one_the_unit_function_holds(text: str) -> None:
    dump, _ = _body_functions(text)
    assert dump  # a body was emitted


def test_undo_entries_value_and_binding() -> None:
    D = new_env()
    x = Symbol("x")
    value, undo = run_form(D, read_first("(def x 41)"))
    assert value == 41 and D[x] == 41
    assert undo == [(x, MISS)]
    f = Symbol("f")
    value, undo = run_form(D, read_first("(defn f [a] (+ a x))"))
    assert type(value) is SpellFn and D[f] is value
    assert undo == [(f, MISS)]
    again, undo = run_form(D, read_first("(defn f [a] (+ a x))"))
    assert again is not value  # a fn form makes a new value each time it runs, the body is shared
    assert again.code is value.code
    assert undo == [(f, value)]
    assert spellc.eval_string("(def x 41) (defn f [a] (+ a x)) (f 1)") == 42


def test_spell_eval_env_holds_a_direct_def() -> None:
    result = spellc.spell_eval("(defn twice [x] (* 2 x))")
    env = result[spellc.keyword("env")]
    again = spellc.spell_eval("(twice 21)", env)
    assert again[spellc.keyword("ok")] == 42


def _failure(text: str, name: str = "prog.spl") -> tuple[str, Any, list[str], str]:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(text, name)
    err = info.value
    return str(err), err.position, [spellc.pr_str(h) for h in err.trace], error_report(err, name)


# Each program's failing def stands at the same line and column in the ``do`` layout.
FAILING = [
    "\n(defn f [x] (/ x 0))\n(f 1)",
    "\n(defn f [x] (g x))\n(defn g [y] (nth [] y))\n(f 3)",
    "\n(defn f [xs] (map (fn [x] (/ 1 x)) xs))\n(vec (f [1 0]))",
    "\n(defn f [n] (if (zero? n) (missing-name) (f (dec n))))\n(f 3)",
    "\n(defn f [x] (throw {:boom x}))\n(f 7)",
    "\n(def k :a)\n(defn f [m] (k m 1 2))\n(f {})",
]


@pytest.mark.parametrize("text", FAILING)
def test_failures_in_direct_fns_read_as_in_a_unit_function(text: str) -> None:
    first, rest = text.split("\n")[1], "\n".join(text.split("\n")[2:])
    as_unit = "(do\n%s)\n%s" % (first, rest)
    assert _failure(text) == _failure(as_unit)


@pytest.mark.parametrize("text", FAILING)
def test_failures_in_direct_fns_read_as_with_optimisations_off(text: str) -> None:
    direct = _failure(text)
    with optimisations(False):
        assert _failure(text) == direct


def test_failure_position_and_call_path() -> None:
    message, position, trace, report = _failure("(defn f [x]\n  (/ x 0))\n(defn g [] (f 1))\n(g)")
    assert message == "Function call failed: /: Divide by zero"
    assert position[:2] == (2, 2)
    assert trace == ["f", "g"]
    assert report.splitlines()[1:] == ["  in f  prog.spl:3:12", "  in g  prog.spl:4:1"]


@pytest.mark.parametrize(("text", "message"), [
    ("(def x)", "Too few arguments to def"),
    ("(def)", "Too few arguments to def"),
    ("(defn)", "Wrong number of args (0) passed to: defn"),
    ("(def x (/ 1 0))", "Function call failed: /: Divide by zero"),
    ("(defn f [x] x)\n(def y (f))", "Wrong number of args: expected 1, got 0"),
])
def test_errors_in_top_level_defs(text: str, message: str) -> None:
    assert _failure(text)[0] == message
    with optimisations(False):
        assert _failure(text)[0] == message


def test_redefining_builtins_and_eval() -> None:
    assert spellc.eval_string("(defn inc [x] (- x 1))\n(inc 5)") == 4
    assert spellc.eval_string("(def + -)\n(+ 5 2)") == 3
    assert spellc.eval_string("(def eval 3)\neval") == 3
    assert spellc.eval_string("(def strings {:trim 1})\nstrings/trim") == 1
    assert spellc.eval_string("(inc 5)") == 6  # a fresh program sees the builtin again


def test_fns_defined_after_a_builtin_is_rebound_see_it() -> None:
    program = "(defn uses-first [xs] (first xs))\n(defn first [xs] :mine)\n(uses-first [1])"
    assert spellc.eval_string(program) == spellc.keyword("mine")


def test_macros_at_top_level() -> None:
    program = ("(defmacro unless [c & body] (list 'if c nil (cons 'do body)))\n"
               "(def expander (fn [x] (list 'inc x)))\n"
               "(def m {:spell/macro true :expander expander})\n"
               "[(unless false 1 2) (m 41)]")
    assert spellc.pr_str(spellc.eval_string(program)) == "[2 42]"
    assert _failure("(def m '{:spell/macro true :expander (fn [x] x)})\n(m 1)")[0] == \
        "Macro expansion of m failed: Not a Spell function"


def test_quine_persist_reopen_at_top_level() -> None:
    assert spellc.eval_string("(persist p 5)\n(persist p)\np") == 5
    q = spellc.eval_string("(quine q (def a 1) (inc 1))\nq")
    assert spellc.pr_str(q) == "(quine q (def a 1) (inc 1))"
    assert spellc.eval_string("(quine q (def a 1) (inc 1))") == 2
    program = ("(def w '(quine c (eval (do (def a 1)))))\n"
               "(def extra 2)\n"
               "(reopen w (def b 2) (reopen-eval (list 'def 'n extra)))")
    assert spellc.pr_str(spellc.eval_string(program)) == "(quine c (eval (do (def a 1) (def b 2) (def n 2))))"
    assert _failure("(def w '(not-a-quine))\n(reopen w 1)")[0] == "reopen expects a quine form"


def test_incremental_units_of_direct_defs() -> None:
    text = "(defn inc-all [xs] (map inc xs))\n(def base [1 2])\n(inc-all base)"
    forms = read_all(text)
    D = new_env()
    values = [run_form(D, form, "turns.spl", text, incremental=True)[0] for form in forms]
    assert spellc.pr_str(values[-1]) == "[2 3]"
    again = [compile_unit(form, "turns.spl", text, incremental=True) for form in forms]
    assert [type(u) for u in again[:2]] == [DefFn, DefValue]
    assert again[0] is compile_unit(forms[0], "turns.spl", text, incremental=True)  # cached


def test_via_source_direct_fn() -> None:
    form = read_first("(defn via-src [x] (/ x 0))")
    unit = compile_unit(form, "via.spl", None, via_source=True)
    assert type(unit) is DefFn
    D = new_env()
    unit(D, [])
    with pytest.raises(spellc.SpellError) as info:
        run_form(D, read_first("(via-src 1)"))
    assert str(info.value) == "Function call failed: /: Divide by zero"


def test_built_module_writes_direct_units() -> None:
    from spellc.compiler import build_module

    text = "(def limit 3)\n(defn scale [x] (* x limit))\n(def limit 4)\n(vec (map scale [1 2]))"
    source = build_module(read_all(text), "scale.spl")
    assert re.search(r"^_unit0 = _def_value\(_k\d+, 3\)$", source, re.M)
    assert re.search(r"^_unit1 = _def_fn\(_k\d+, _k\d+, _k\d+, _fn\d+\)$", source, re.M)
    assert re.search(r"^def _unit3\(D, _U\):$", source, re.M)
    namespace: dict[str, Any] = {"__name__": "built_scale"}
    exec(compile(source, "built_scale.py", "exec"), namespace)
    assert spellc.pr_str(namespace["value"]) == "[4 8]" == spellc.pr_str(spellc.eval_string(text))


def test_sub_units_of_a_long_body_are_direct_and_fail_in_place() -> None:
    """The turn loop's programs compile the leading elements of a long body as cached sub-units
    (``ir.SubUnits``): a def of a constant or a fn among them is a direct unit too."""
    from spellc.compiler import compile_subunit

    elems = ["(def sub-c%d %d)" % (i, i) for i in range(6)]
    text = "(quine completion (eval (do %s (defn sub-f [x] (/ x sub-c0)) (sub-f sub-c5))))" % " ".join(elems)

    def outcome() -> tuple[str, str, Any]:
        with pytest.raises(spellc.SpellError) as info:
            run_form(new_env(), read_first(text), "turns.spl", text, incremental=True)
        return str(info.value), spellc.pr_str(info.value.expr), info.value.position

    direct = outcome()
    assert direct == ("Function call failed: /: Divide by zero", "(/ x sub-c0)", (1, 134, 1, 146))
    with optimisations(False):
        assert outcome() == direct
    assert type(compile_subunit(read_first(elems[0]), None)) is DefValue
    assert type(compile_subunit(read_first("(defn sub-g [x] x)"), None)) is DefFn
