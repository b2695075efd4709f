"""Prefix text and response cleaning (runtime.md §5.2 step 3, §5.3–§5.4, §7.2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from spell_runtime.data import Symbol, plist, vec

from spellc.loop.cleaning import clean_response, strip_code_fences, strip_prefix_echo
from spellc.loop.wrapper import (
    escape_prompt,
    expand_free_symbols,
    natural_language_prefix,
    prompt_prefix,
    root_program,
    text_prefix,
)
from spellc.reader import balance_parens, read_first


def test_root_program_is_the_product_format() -> None:
    assert root_program("Return 42") == "(quine completion (eval (do (quine prompt \"Return 42\") '(!extend))))"


def test_root_program_wraps_code_looking_prompts_too() -> None:
    assert root_program("(+ 1 2)").startswith('(quine completion (eval (do (quine prompt "(+ 1 2)")')


def test_escaping_covers_backslash_quote_newline_and_tab_only() -> None:
    assert escape_prompt('a\\b"c\nd\te\rf') == 'a\\\\b\\"c\\nd\\te\rf'


def test_natural_language_prefix_t7() -> None:
    assert natural_language_prefix("Summarize the README.") == \
        '(quine completion (eval (do (quine prompt "Summarize the README.") '


def test_text_starting_with_paren_is_used_verbatim() -> None:
    assert text_prefix("  (eval (do ") == "  (eval (do "
    assert text_prefix("hello") == '(quine completion (eval (do (quine prompt "hello") '


def test_quine_prompt_becomes_its_canonical_prefix() -> None:
    q = read_first('(quine completion (eval (do (def a 1) (quote (!extend)))))')
    assert prompt_prefix(q, {}) == "(quine completion (eval (do (def a 1) (quote (!extend)) "


def test_other_lists_are_expanded_with_the_callers_values() -> None:
    form = read_first("(eval (do (+ x 1) (fn [x] x) (quote x)))")
    text = prompt_prefix(form, {Symbol("x"): 41})
    assert text == "(eval (do (+ 41 1) (fn [x] x) (quote x)))"


def test_let_bindings_shadow_the_callers_values() -> None:
    form = read_first("(let [x (+ x 1) y x] [x y z])")
    out = expand_free_symbols(form, {Symbol("x"): 5, Symbol("z"): "zz"})
    assert out == read_first('(let [x (+ 5 1) y x] [x y "zz"])')


def test_non_string_prompts_are_converted_to_text() -> None:
    assert prompt_prefix(42, {}) == '(quine completion (eval (do (quine prompt "42") '
    assert prompt_prefix(vec([1]), {}) == '(quine completion (eval (do (quine prompt "[1]") '
    assert prompt_prefix(plist([]), {}) == "()"


@given(st.text(max_size=60))
def test_every_natural_language_prefix_reads_back_the_prompt(prompt: str) -> None:
    form = read_first(balance_parens(natural_language_prefix(prompt)))
    inner = form[2][1][1]  # (quine completion (eval (do (quine prompt "...")))
    assert inner[2] == prompt.replace("\r", "\r")


# -- cleaning -------------------------------------------------------------------------------------

def test_fences_with_a_language_tag_are_removed() -> None:
    assert strip_code_fences("```clojure\n(def x 1))\n```") == "(def x 1))"


def test_bare_fences_and_trailing_prose_after_the_closing_fence() -> None:
    assert strip_code_fences("  ```\n42)))\n```\nDone.") == "42)))"


def test_unfenced_responses_are_kept_byte_for_byte() -> None:
    assert strip_code_fences("  42)) \n") == "  42)) \n"


def test_echo_of_the_prefix_is_dropped_without_prefill() -> None:
    prefix = "(quine completion (eval (do "
    assert strip_prefix_echo(prefix, "(quine completion (eval (do 42)))") == "42)))"
    assert strip_prefix_echo(prefix, "\n(quine completion (eval (do42)))") == "42)))"
    assert strip_prefix_echo(prefix, "```\n(quine completion (eval (do 7)))\n```") == "7)))"
    assert strip_prefix_echo(prefix, "42)))") == "42)))"


def test_echo_is_kept_with_prefill() -> None:
    prefix = "(do "
    assert clean_response(prefix, "(do 1)", prefill=True) == "(do 1)"
    assert clean_response(prefix, "(do 1)", prefill=False) == "1)"
