"""Deterministic namespace fixup (runtime.md §6.3, language.md §12.5, §9.6-3)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recovery_test_support import bad_result, forms, read, symbols
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import Keyword, PList, SpellMap, SpellSet, Symbol, is_vector, plist, spell_eq, spell_map
from spell_runtime.library import load
from spell_runtime.printer import render_form

from spellc.api import spell_eval
from spellc.loop.recovery import matching_namespaces, namespace_fixup

load()
STRINGS: SpellMap = BUILTINS[Symbol("strings")]
MATH: SpellMap = BUILTINS[Symbol("math")]
IO = spell_map(Keyword("read-file"), "fn", Keyword("ls"), "fn", Keyword("docs"), spell_map())
CORE = {"strings": STRINGS, "math": MATH}
WITH_IO = {"strings": STRINGS, "math": MATH, "io": IO}


def fix(program_text: str, message: str, namespaces: dict[str, SpellMap] = WITH_IO, **kw: Any) -> Any:
    program = read(program_text)
    return namespace_fixup(program, bad_result(message, None), namespaces, **kw)


@pytest.mark.parametrize(("program", "message", "fixed"), [
    ("(floor 3.7)", "Unbound symbol: floor", "(math/floor 3.7)"),
    ("(strings/floor 1)", "Namespace lookup failed: strings/floor", "(math/floor 1)"),
    ("(trim s)", "Unbound symbol: trim", "(strings/trim s)"),
    ("(sqrt 2)", "Unbound symbol: sqrt", "(math/sqrt 2)"),
    ("(read-file \"a\")", "Unbound symbol: read-file", "(io/read-file \"a\")"),
    ("(math/trim s)", "Namespace lookup failed: math/trim", "(strings/trim s)"),
    ("(split s \",\")", "Unbound symbol: split", "(strings/split s \",\")"),
])
def test_spec_examples(program: str, message: str, fixed: str) -> None:
    result = fix(program, message)
    assert result is not None
    assert render_form(result) == fixed


def test_ambiguous_member_is_not_repaired() -> None:
    other = spell_map(Keyword("split"), "fn")
    assert fix("(split s \",\")", "Unbound symbol: split", {**CORE, "text": other}) is None


def test_unknown_member_is_not_repaired() -> None:
    assert fix("(frobnicate 1)", "Unbound symbol: frobnicate") is None


def test_documentation_keys_count_as_members() -> None:
    # every namespace has :docs, so an unbound `docs` matches them all and is never repaired
    assert fix("(docs)", "Unbound symbol: docs") is None
    assert matching_namespaces("docs", WITH_IO) == ["strings", "math", "io"]
    assert fix("(short-docs)", "Unbound symbol: short-docs", {"strings": STRINGS}) is not None


def test_non_symbol_errors_are_not_repaired() -> None:
    assert fix("(/ 1 0)", "Function call failed: /: Divide by zero") is None
    assert fix("(io/ls \".\")", "io/ls: io/ is an effect namespace - use it in the trailing expression via eval") is None


def test_replay_protection_refuses_after_effects() -> None:
    assert fix("(trim s)", "Unbound symbol: trim", effects_ran=True) is None
    assert fix("(trim s)", "Unbound symbol: trim", effects_ran=False) is not None


def test_wrapped_messages_are_normalized() -> None:
    result = fix("(eval (quote (map (fn [x] (sqrt x)) [4])))",
                 "Function call failed: eval: Function call failed: map: Unbound symbol: sqrt")
    assert render_form(result) == "(eval (quote (map (fn [x] (math/sqrt x)) [4])))"


def test_every_occurrence_is_substituted_but_strings_are_not() -> None:
    text = ('(quine completion (eval (do (def a (trim " a ")) (def t \'trim) {trim [trim "trim"]} '
            '#{trim} (quote (trim "x")))))')
    result = fix(text, "Unbound symbol: trim")
    assert render_form(result) == (
        '(quine completion (eval (do (def a (strings/trim " a ")) (def t (quote strings/trim)) '
        '{strings/trim [strings/trim "trim"]} #{trim} (quote (strings/trim "x")))))')


def test_qualified_substitution_targets_only_the_bad_symbol() -> None:
    result = fix("(do (strings/floor 1) (strings/trim \" x \") floor)", "Namespace lookup failed: strings/floor")
    assert render_form(result) == "(do (math/floor 1) (strings/trim \" x \") floor)"


def test_absent_symbol_gives_none() -> None:
    # the root of a qualified symbol is reported unbound, but only `foo/bar` occurs, never `foo`
    assert fix("(foo/bar 1)", "Unbound symbol: foo", {"m": spell_map(Keyword("foo"), 1)}) is None


def test_untouched_subtrees_are_shared_and_spans_kept() -> None:
    program = read('(do (def keep [1 2 {:a "b"}]) (trim x))')
    fixed = namespace_fixup(program, bad_result("Unbound symbol: trim", None), CORE)
    assert isinstance(fixed, PList)
    assert fixed[1] is program[1]
    assert fixed.span == program.span and fixed[2].span == program[2].span
    assert fixed[2].child_spans == program[2].child_spans


def test_deep_programs_do_not_overflow() -> None:
    deep: Any = Symbol("trim")
    for _ in range(20000):
        deep = plist([Symbol("do"), deep])
    fixed = namespace_fixup(deep, bad_result("Unbound symbol: trim", None), CORE)
    node = fixed
    while type(node) is PList:
        node = node[1]
    assert node is Symbol("trim", "strings")


def test_fixed_program_evaluates() -> None:
    program = read('(do (def a (trim " a ")) (def b (trim " b ")) (str a b))')
    failure = spell_eval(program)
    fixed = namespace_fixup(program, failure, CORE)
    assert fixed is not None
    assert spell_eval(fixed).get(Keyword("ok")) == "ab"


def _occurs(form: Any, sym: Symbol) -> bool:
    """Whether ``sym`` occurs where fixup substitutes (lists, vectors, map keys and values)."""
    if form is sym:
        return True
    if isinstance(form, SpellMap):
        return any(_occurs(k, sym) or _occurs(v, sym) for k, v in form.items())
    if type(form) is PList or is_vector(form):
        return any(_occurs(x, sym) for x in form)
    return False


def _strings(form: Any) -> list[str]:
    if type(form) is str:
        return [form]
    if isinstance(form, SpellMap):
        return [s for k, v in form.items() for s in _strings(k) + _strings(v)]
    if type(form) is PList or is_vector(form) or isinstance(form, SpellSet):
        return [s for x in form for s in _strings(x)]
    return []


@given(st.lists(st.one_of(forms, st.just(Symbol("trim"))), min_size=1, max_size=5), symbols)
def test_fixup_properties(parts: list[Any], other: Symbol) -> None:
    program = plist([Symbol("do"), *parts, plist([Symbol("trim"), other])])
    fixed = namespace_fixup(program, bad_result("Unbound symbol: trim", None), CORE)
    assert fixed is not None
    assert not _occurs(fixed, Symbol("trim"))
    assert _strings(fixed) == _strings(program)
    assert spell_eq(read(render_form(fixed)), fixed)
