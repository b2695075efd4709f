"""read_all's stray-delimiter tolerance (§2.3) and read_first's stop-after-one-form contract (§2.1)."""

from __future__ import annotations

import pytest

from spellc.reader import ReaderError, read_all, read_first, read_first_span, sanitize


def test_read_all_reads_every_form() -> None:
    assert read_all("42 \"hello\" (+ 1 2)")[:2] == [42, "hello"]
    assert read_all("") == []
    assert read_all("  ; only a comment\n") == []
    assert read_all(None) == []


@pytest.mark.parametrize("text", ["(+ 1 2)}", "(+ 1 2)\n]", "(+ 1 2))  \n\t", "(+ 1 2)\u2003)"])
def test_one_stray_trailing_delimiter_is_forgiven(text: str) -> None:
    assert read_all(text) == read_all("(+ 1 2)")


@pytest.mark.parametrize("text", ["(+ 1 2)))", "(+ 1 } 2)", "} (+ 1 2)", "(+ 1 2)},", "(+ 1 2)] x"])
def test_other_stray_delimiters_fail(text: str) -> None:
    with pytest.raises(ReaderError, match="Unmatched delimiter"):
        read_all(text)


def test_stripping_can_reveal_another_error() -> None:
    with pytest.raises(ReaderError, match="^EOF while reading$"):
        read_all("[1 #_]")


def test_read_first_ignores_everything_after_the_first_form() -> None:
    assert read_first("(quine c (eval (do 42))) But wait: ...)}]") == read_all("(quine c (eval (do 42)))")[0]
    assert read_first("42 ] not-tail") == 42
    assert read_first("1 \"unterminated") == 1
    assert read_first("#_ skipped 7 junk") == 7


@pytest.mark.parametrize("text", ["", "   ", "; comment only", "#_ x", "// note\n", None])
def test_read_first_returns_none_without_a_form(text: str | None) -> None:
    assert read_first(text) is None


def test_read_first_span_reports_the_offset_after_the_form() -> None:
    text = "  (a b) c"
    found, form, end = read_first_span(text)
    assert found and end == 7 and text[:end].endswith("(a b)")
    found, form, end = read_first_span('"x\\q" rest')
    sanitized = sanitize('"x\\q" rest')
    assert found and form == "x\\q" and sanitized[end:] == " rest"
    assert read_first_span("  ") == (False, None, 2)
    assert read_first_span("nil") == (True, None, 3)
