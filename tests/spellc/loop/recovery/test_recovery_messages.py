"""The recovery prompt and the error-text normalisations (runtime.md §6.1, §6.7; language.md §12.5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recovery_test_support import SPEC_PROMPT
from spell_runtime.printer import render_form

from spellc.loop.recovery import RECOVERY_PROMPT, clean_error_message, normalize_symbol_message, symbol_error


def test_recovery_prompt_is_byte_exact() -> None:
    assert RECOVERY_PROMPT == SPEC_PROMPT


def test_recovery_prompt_shape() -> None:
    paragraphs = RECOVERY_PROMPT.split("\n\n")
    assert len(paragraphs) == 2
    assert "\n" not in paragraphs[0] and "\n" not in paragraphs[1]
    assert not RECOVERY_PROMPT.endswith("\n")
    assert "(stored" not in RECOVERY_PROMPT and "re-read" not in RECOVERY_PROMPT


def test_recovery_prompt_renders_with_escapes() -> None:
    text = render_form(RECOVERY_PROMPT)
    assert "turn.\\n\\nEmit a `(quine task \\\"...\\\")` form" in text
    assert "\n" not in text


@pytest.mark.parametrize(("raw", "clean"), [
    ("Function call failed: eval: Unbound symbol: missing-tail", "Unbound symbol: missing-tail"),
    ("Function call failed: foo: bad input {:x 1}", "foo: bad input"),
    ("io/ls: io/ is an effect namespace - use it in the trailing expression via eval",
     "io/ls: io/ is an effect namespace - use it in the trailing expression via eval"),
    ("Function call failed: /: Divide by zero", "/: Divide by zero"),
    ("Function call failed: agents/send: Namespace lookup failed: strings/floor",
     "Namespace lookup failed: strings/floor"),
    ("Function call failed: eval: Function call failed: map: Unbound symbol: sqrt", "Unbound symbol: sqrt"),
    ("Function call failed: strip-parens: strip: expected ')' {:char \\x, :position 5}", "strip-parens: strip: expected ')'"),
    ("a {b} c", "a {b} c"),
    ("x {:a 1} tail", "x {:a 1} tail"),
    ("Function call failed: nth: ", "nth: "),
    ("", ""),
])
def test_clean_error_message(raw: str, clean: str) -> None:
    assert clean_error_message(raw) == clean


def test_clean_error_message_strips_only_one_wrapper() -> None:
    assert clean_error_message("Function call failed: eval: Function call failed: /: Divide by zero") == \
        "eval: Function call failed: /: Divide by zero"


def test_clean_error_message_prefers_unbound_over_namespace_lookup() -> None:
    msg = "Namespace lookup failed: a/b then Unbound symbol: c"
    assert clean_error_message(msg) == "Unbound symbol: c"


@given(st.text())
def test_clean_error_message_never_grows(msg: str) -> None:
    assert len(clean_error_message(msg)) <= len(msg)


@pytest.mark.parametrize(("raw", "normal"), [
    ("Unbound symbol: trim", "Unbound symbol: trim"),
    ("Function call failed: eval: Function call failed: map: Unbound symbol: sqrt", "Unbound symbol: sqrt"),
    ("Function call failed: eval: Unbound symbol: x {:a 1}", "Unbound symbol: x"),
    ("  Namespace lookup failed: strings/floor  ", "Namespace lookup failed: strings/floor"),
    ("Unbound symbol: foo) and more", "Unbound symbol: foo"),
    ("Unbound symbol: foo}", "Unbound symbol: foo"),
    ("Function call failed: (partial f): Unbound symbol: g", "Unbound symbol: g"),
    ("Function call failed: /: Divide by zero", "Divide by zero"),
])
def test_normalize_symbol_message(raw: str, normal: str) -> None:
    assert normalize_symbol_message(raw) == normal


def test_symbol_error() -> None:
    unbound = symbol_error("Function call failed: eval: Unbound symbol: trim")
    assert unbound is not None and not unbound.qualified and unbound.text == "trim" and unbound.member == "trim"
    lookup = symbol_error("Namespace lookup failed: regs/math/add")
    assert lookup is not None and lookup.qualified and lookup.text == "regs/math/add" and lookup.member == "add"
    assert symbol_error("Unbound symbol: ") is None
    assert symbol_error("Function call failed: /: Divide by zero") is None
    assert symbol_error("io/ls: io/ is an effect namespace - use it in the trailing expression via eval") is None
