"""Incremental compilation: long body sequences compile element by element, cached by source text."""

from __future__ import annotations

from spell_runtime.program import close_env

import spellc
from spellc import state
from spellc.api import new_env
from spellc.compiler import run_form


def run(src: str, incremental: bool) -> str:
    D = new_env()
    try:
        value, _ = run_form(D, spellc.read_string(src), "<inc>", src, incremental=incremental)
        return spellc.pr_str(value)
    except spellc.SpellError as e:
        return "ERR %s in %s" % (e, spellc.pr_str(e.containing_form))
    finally:
        close_env(D)


BODY = " ".join("(def v%d (* %d 2))" % (i, i) for i in range(10))


def test_same_value_as_whole_program_compile() -> None:
    src = "(quine completion (eval (do %s (defn f [x] (+ x v3)) '(f v9))))" % BODY
    assert run(src, True) == run(src, False) == "24"


def test_failing_element_is_the_containing_form() -> None:
    src = "(do %s (def bad (undefined-fn 1)) (def after 1) after)" % BODY
    assert run(src, True) == "ERR Unbound symbol: undefined-fn in (def bad (undefined-fn 1))"


def test_defs_of_elements_do_not_escape_a_let() -> None:
    src = "(do (let [a 1] %s (def inner 5)) (try inner (catch e :gone)))" % BODY
    assert run(src, True) == ":gone"


def test_a_grown_program_compiles_only_its_new_forms() -> None:
    forms = ["(def w%d %d)" % (i, i) for i in range(8)]
    first = "(do %s w7)" % " ".join(forms)
    assert run(first, True) == "7"
    before = len(state.sub_cache)
    grown = "(do %s (def w8 8) w8)" % " ".join(forms)
    assert run(grown, True) == "8"
    assert len(state.sub_cache) - before == 1  # only (def w8 8) was new
