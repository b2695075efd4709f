"""A scope that saves three or more names restores them in its ``finally`` by one
``_restore_all`` call (``emit/scopes.py`` ``_saves``, ``support.restore_all``): the same bindings
come back, last name first, on a normal exit and on a failure alike."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data import Symbol
from spell_runtime.support import MISS, restore, restore_all

import spellc
from spellc.compiler import python_source
from spellc.reader import read_all

NAMES = [Symbol(n) for n in "abcd"]


@given(st.lists(st.tuples(st.sampled_from(NAMES), st.one_of(st.just(MISS), st.integers(0, 3))), max_size=6),
       st.dictionaries(st.sampled_from(NAMES), st.integers(10, 13)))
def test_restore_all_is_the_restores_last_first(saved: list[tuple[Symbol, Any]], env: dict[Symbol, int]) -> None:
    one_by_one, together = dict(env), dict(env)
    for sym, old in reversed(saved):
        restore(one_by_one, sym, old)
    restore_all(together, tuple(s for s, _ in saved), tuple(o for _, o in saved))
    assert together == one_by_one


def run(src: str) -> str:
    return str(spellc.pr_str(spellc.eval_string(src)))


def test_a_let_of_three_names_restores_them_with_one_call() -> None:
    src = "(defn peek [] [x y z]) (defn f [q] (let [x 1 y 2 x 3 z 4] (peek)))"
    code = python_source(read_all("(do %s)" % src)[0])
    assert code.count("_restore_all(") == 1 and "_restore(" not in code
    assert run("(def x :outer) %s [(f 0) x (try y (catch e :unbound))]" % src) == "[[3 2 4] :outer :unbound]"


def test_the_names_come_back_after_a_failure_too() -> None:
    # (the catch runs in the failure's env, Q13, until g's scope ends: then x is what f's finally left)
    src = ("(def x :outer) (defn peek [] [x y z]) (defn f [q] (let [x 1 y 2 z (/ q 0)] (peek)))"
           " (defn g [] (try (f 1) (catch e (:message e)))) [(g) x (try z (catch e :unbound))]")
    assert run(src) == "[\"Function call failed: /: Divide by zero\" :outer :unbound]"


def test_defs_inside_are_undone_before_the_names_are_restored() -> None:
    src = ("(def y :outer) (defn peek [] [x y z]) (defn f [q] (let [x 1 y 2 z 3] (def y 7) (def w 8) (peek)))"
           " [(f 0) y (try w (catch e :unbound))]")
    assert run(src) == "[[1 7 3] :outer :unbound]"
