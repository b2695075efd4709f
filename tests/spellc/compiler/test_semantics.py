"""Evaluation semantics of the compiler: special forms, env threading, dynamic scoping, errors.

Each case is a program of our own and the printed value (or error text) the
language spec requires of it.
"""

from __future__ import annotations

import pytest

import spellc

VALUES = [
    # special forms
    ("(if nil 1 2)", "2"),
    ("(if 0 :yes :no)", ":yes"),
    ("(if false 1)", "nil"),
    ("(do)", "nil"),
    ("(do 1 2 (+ 1 2))", "3"),
    ("(quote (a b))", "(a b)"),
    ("'[x y]", "[x y]"),
    ("(let [a 2 b (* a 3)] (+ a b))", "8"),
    ("(let [x 1] (let [x (+ x 10)] x))", "11"),
    ("(let [[h & t] [1 2 3]] [h t])", "[1 [2 3]]"),
    ("(let [{:keys [p q] :or {q 5}} {:p 1}] [p q])", "[1 5]"),
    ("((fn [a b] (* a b)) 6 7)", "42"),
    ("(fn [x] (inc x))", "{:spell/fn true, :params [x], :body ((inc x))}"),
    ("(loop [n 5 acc 1] (if (= n 0) acc (recur (dec n) (* acc n))))", "120"),
    ("((fn [n acc] (if (= n 0) acc (recur (dec n) (+ acc n)))) 10 0)", "55"),
    ("(recur 1 2)", "{:spell/recur true, :vals [1 2]}"),
    ("(do (recur 1) 2)", "2"),
    ("(loop [x 3] (let [y (dec x)] (if (> y 0) (recur y) y)))", "0"),
    ("(for [a [1 2] b [:x :y]] [a b])", "[[1 :x] [1 :y] [2 :x] [2 :y]]"),
    ("(for [a [1 2 3 4] :when (even? a) :let [b (* a a)]] b)", "[4 16]"),
    ("(quine me (count me))", "3"),
    ("(do (quine q 7) q)", "(quine q 7)"),
    ("(reopen '(quine c (eval (do 1))) (def z 2))", "(quine c (eval (do 1 (def z 2))))"),
    ("(try (throw \"no\") (catch e (str \"got \" e)))", "\"got no\""),
    ("(try missing-name (catch e (:message e)))", "\"Unbound symbol: missing-name\""),
    ("(try ((fn [p] (throw :x)) 9) (catch e p))", "9"),
    ("(try (def t1 5) (throw 1) (catch e t1))", "5"),
    ("(do (try (throw 1) (catch e 2)) (try e (catch z :gone)))", ":gone"),
    ("(#(* % %2) 6 7)", "42"),
    ("()", "nil"),
    ("(nil 1 (/ 1 0))", "nil"),
    ("#{(+ 1 2)}", "#{(+ 1 2)}"),
    ("(let [k 1] {k (+ k 1)})", "{k 2}"),
    # env threading and where defs escape
    ("(do (def a 1) (def a (inc a)) a)", "2"),
    ("(+ (def b 2) b)", "4"),
    ("[(def c 3) c]", "[3 3]"),
    ("(do (if true (def d 4)) d)", "4"),
    ("(do (loop [i (def e 1)] i) e)", "1"),
    ("(do (think \"t\" (def f 6)) f)", "6"),
    ("(do (defn g [] (def inner 1) inner) (g))", "1"),
    # dynamic scoping
    ("(do (defn h [x] (+ x y)) (def y 10) (h 1))", "11"),
    ("(do (defn h [x] (+ x y)) (let [y 7] (h 1)))", "8"),
    ("(do (defn inner [] (* base 2)) (defn outer [base] (inner)) (outer 21))", "42"),
    ("(do (defn mk [n] (fn [x] (+ x n))) (let [n 100] ((mk 5) 1)))", "101"),
    ("(let [f (fn [n] (if (= n 0) :done (f (dec n))))] (f 3))", ":done"),
    ("(let [k 3] (map (fn [x] (* x k)) [1 2]))", "[3 6]"),
    ("(do (defn cw [f] (let [x 99] (f))) (let [x 1] (cw (fn [] x))))", "99"),
    ("(map (fn [x] (recur x)) [1])", "[{:spell/recur true, :vals [1]}]"),
    # macros
    ("(do (defmacro unless [c b] (list 'if c nil b)) (unless false 5))", "5"),
    ("(do (defmacro dc [n v] (list 'def n v)) (dc w 3) w)", "3"),
    ("(do (defn f2 [y] (twice y)) (defmacro twice [x] (list '* x 2)) (f2 4))", "8"),
    ("(-> 1 inc (* 10))", "20"),
    ("(->> [1 2 3] (map inc) (reduce +))", "9"),
    ("(cond false 1 :else 2)", "2"),
    ("(case 2 1 :one 2 :two :many)", ":two"),
    ("[(and 1 2) (and 1 nil 2) (or nil 3) (or)]", "[2 nil 3 nil]"),
    ("(when-let [[a] [7]] a)", "7"),
    ("(eval '(+ 1 2))", "3"),
    ("(do (def x 5) (eval '(* x 2)))", "10"),
    ("(do (def x 10) (spell-eval '(+ x 1)))", "11"),
    ("(strings/upper-case \"ab\")", "\"AB\""),
    ("(do (def my {:dbl (fn [x] (* 2 x))}) (my/dbl 4))", "8"),
]

ERRORS = [
    ("nope", "Unbound symbol: nope"),
    ("(do (let [a 1] (def b 2)) b)", "Unbound symbol: b"),
    ("(do (defn f [] (def z 1) z) (f) z)", "Unbound symbol: z"),
    ("(do (eval '(def q 1)) q)", "Unbound symbol: q"),
    ("(do (defn mk [n] (fn [x] (+ x n))) ((mk 5) 1))", "Unbound symbol: n"),
    ("((fn [a b] a) 1)", "Wrong number of args: expected 2, got 1"),
    ("((fn [a] (if a (recur 1 2) a)) true)", "Wrong number of args: expected 1, got 2"),
    ("(/ 5 0)", "Function call failed: /: Divide by zero"),
    ("(inc)", "Function call failed: inc: Wrong number of args (0) passed to: clojure.core/inc"),
    ("(let [+ 5] (+ 1 2))", "Function call failed: +: class java.lang.Long cannot be cast to class "
     "clojure.lang.IFn (java.lang.Long is in module java.base of loader 'bootstrap'; clojure.lang.IFn is in "
     "unnamed module of loader 'app')"),
    ("(throw \"boom\")", "boom"),
    ("(case 5 1 :a)", "No matching clause: 5"),
    ("(strings/nothing \"a\")", "Namespace lookup failed: strings/nothing"),
    ("(io/read-file \"x\")", "io/read-file: io/ is an effect namespace - use it in the trailing expression via eval"),
    ("(!llm-self \"x\")", "Unbound symbol: !llm-self"),
    ("(do (defmacro bad [x] (/ 1 0)) (bad 1))", "Macro expansion of bad failed: Function call failed: /: Divide by zero"),
    ("(def)", "Too few arguments to def"),
    ("(reopen '(foo))", "reopen expects a quine form"),
    ("(when)", "Wrong number of args (0) passed to: when"),
    ("(prune 1 2)", "prune: expected 0 args (prune 1) or 1 numeric arg (prune k)"),
    ("(map (fn [a b] a) [1])", "Function call failed: map: Wrong number of args: expected 2, got 1 {:expected 2, :actual 1}"),
    ("(map (fn [a] (undefined-thing a)) [1])", "Function call failed: map: Unbound symbol: undefined-thing"),
]


@pytest.mark.parametrize("src,expected", VALUES)
def test_value(src: str, expected: str) -> None:
    assert spellc.pr_str(spellc.eval_string(src)) == expected


@pytest.mark.parametrize("src,message", ERRORS)
def test_error(src: str, message: str) -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(src)
    assert str(info.value) == message


def test_error_result_shape() -> None:
    result = spellc.spell_eval("(do (defn g [x] (throw \"bad\")) (defn f [x] (g x)) (f 1))")
    K = spellc.keyword
    assert result[K("err")] == "bad"
    assert result[K("thrown")] == "bad"
    assert spellc.pr_str(result[K("expr")]) == '(throw "bad")'
    assert spellc.pr_str(result[K("trace")]) == "[g f]"
    assert spellc.pr_str(result[K("containing-form")]) == "(f 1)"
    env = result[K("env")]
    assert env[spellc.symbol("x")] == 1
    assert spellc.symbol("f") in env and spellc.symbol("g") in env


def test_spell_eval_threads_env() -> None:
    K = spellc.keyword
    first = spellc.spell_eval("(def counter 41)")
    assert first[K("ok")] == 41
    second = spellc.spell_eval("(inc counter)", first[K("env")])
    assert second[K("ok")] == 42


def test_function_compiled_before_a_builtin_name_was_bound_sees_the_binding() -> None:
    # f is compiled (with a direct reference to the count builtin) before any code binds
    # count; a later top-level form binds it dynamically around the call.
    assert spellc.eval_string("(defn f [x] (count x)) (let [count (fn [_] 42)] (f [1 2]))") == 42
    assert spellc.eval_string("(defn g [x] (+ x 1)) (let [+ (fn [a b] (* a 10))] (g 5))") == 50


def test_deep_recursion_is_a_spell_error() -> None:
    src = "(do (defn down [n] (if (= n 0) 0 (+ 1 (down (dec n))))) (down 5000))"
    assert spellc.eval_string(src) == 5000
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string("(do (defn forever [n] (+ 1 (forever n))) (forever 1))")
    assert "Stack overflow" in str(info.value)


def test_short_recur_request_leaves_loop_names_to_the_base_env() -> None:
    # Q16: patterns without a value are not rebound; they resolve in the env before the loop.
    shared = "(do (defn f [a] a) (def y :outer) (loop [x 0 y 1] (if (= x 0) (recur (f 1)) [x y])))"
    private = "(do (def y :outer) (loop [x 0 y 1] (if (= x 0) (recur 1) [x y])))"
    assert spellc.pr_str(spellc.eval_string(shared)) == "[1 :outer]"
    assert spellc.pr_str(spellc.eval_string(private)) == "[1 :outer]"
    unbound = "(do (defn f [a] a) (loop [x 0 y 1] (if (= x 0) (recur (f 1)) [x (try y (catch e :unbound))])))"
    assert spellc.pr_str(spellc.eval_string(unbound)) == "[1 :unbound]"
