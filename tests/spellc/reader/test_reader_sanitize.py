"""The sanitizing passes and paren balancing (language.md §2.2, §2.4), quirks included."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spellc.reader import (
    balance_parens,
    paren_balance,
    read_all,
    sanitize,
    sanitize_comment_markers,
    sanitize_string_escapes,
    sanitize_with_inserts,
)


def test_comment_markers_at_line_start() -> None:
    assert sanitize_comment_markers("// C style comment\n(def x 1)") == ";/ C style comment\n(def x 1)"
    assert sanitize_comment_markers("/* x") == ";* x"
    assert sanitize_comment_markers("*/") == ";/"
    assert sanitize_comment_markers("  \t\r// x") == "  \t\r;/ x"
    assert sanitize_comment_markers("a\n   // b\n//c") == "a\n   ;/ b\n;/c"


def test_only_the_first_marker_of_a_line_is_rewritten() -> None:
    assert sanitize_comment_markers("// a // b") == ";/ a // b"


def test_markers_not_at_line_start_are_left_alone() -> None:
    text = "(def x 1) // trailing"
    assert sanitize_comment_markers(text) is text
    text2 = '(def s "https://x") x // y'
    assert sanitize_comment_markers(text2) is text2


def test_slashes_and_stars_that_form_no_marker_leave_the_text_alone() -> None:
    # (``comment_marker_hits`` answers these without its pattern: none holds //, /* or */)
    for text in ("(/ a b)\n/ (* 2 3)\n*\n/\n", "a/b\n  * x\n\t/ y", "*\n/", ""):
        assert sanitize_comment_markers(text) is text
    assert sanitize_comment_markers("(/ a b)\n  */") == "(/ a b)\n  ;/"


def test_q1_markers_inside_multiline_strings_are_rewritten_too() -> None:
    assert sanitize('(str "line\n// inside")') == '(str "line\n;/ inside")'
    assert read_all('(str "line\n// inside")')[0][1] == "line\n;/ inside"


def test_escape_repair() -> None:
    assert sanitize_string_escapes('(def x "a \\equiv b")') == '(def x "a \\\\equiv b")'
    assert sanitize_string_escapes('(str "\\alpha")') == '(str "\\\\alpha")'
    assert read_all('"a \\equiv b"') == ["a \\equiv b"]
    assert read_all('(count "a\\qb")')[0][1] == "a\\qb"


def test_valid_escapes_are_kept() -> None:
    for text in ['"hello\\nworld"', '"tab\\there"', '"quote\\"ok"', '"back\\\\slash"', '"\\frac"', '"\\beta"',
                 '"\\u0041"', '"\\101"']:
        assert sanitize_string_escapes(text) is text


def test_backslashes_outside_strings_are_untouched() -> None:
    text = "\\x [\\a \\b]"
    assert sanitize_string_escapes(text) is text


def test_q2_regex_literals_are_treated_as_strings() -> None:
    assert sanitize('#"\\d+"') == '#"\\\\d+"'
    assert read_all('#"\\d+"')[0].source == "\\\\d+"
    assert read_all('"\\d+"') == ["\\d+"]


def test_q3_character_literal_quote_inverts_string_tracking() -> None:
    # \" opens a "string" for the sanitizer, so the real string after it is seen as outside.
    assert sanitize('\\" "x" \\a "\\q"') == '\\" "x" \\\\a "\\q"'
    # An odd quote in a comment does the same.
    assert sanitize('; it"s\n"\\q"') == '; it"s\n"\\q"'


def test_nil_becomes_empty_and_unchanged_text_is_the_same_object() -> None:
    assert sanitize(None) == ""
    text = "(+ 1 2)"
    assert sanitize(text) is text


def test_inserts_are_reported_in_sanitized_offsets() -> None:
    out, inserts = sanitize_with_inserts('"\\q\\w" "\\e"')
    assert out == '"\\\\q\\\\w" "\\\\e"'
    assert inserts == [2, 5, 11]
    assert all(out[i] == "\\" for i in inserts)


@given(st.text(alphabet='ab"\\qnu/ *\n;#', max_size=40))
def test_sanitize_only_inserts_backslashes_into_pass_one_output(text: str) -> None:
    marked = sanitize_comment_markers(text)
    assert len(marked) == len(text)
    out, inserts = sanitize_with_inserts(text)
    kept = [c for i, c in enumerate(out) if i not in set(inserts)]
    assert "".join(kept) == marked
    assert sanitize_string_escapes(out) is out  # repaired text needs no further repair


def test_paren_balance() -> None:
    assert paren_balance("(+ 1 2)") == 0
    assert paren_balance("((+ 1") == 2
    assert paren_balance("(+ 1))") == -1
    assert paren_balance("") == 0
    assert paren_balance("(+ [1 2]") == 1
    assert paren_balance('(def x "text with ( unbalanced parens"') == 1
    assert paren_balance('(str "she said \\"(hi\\" ok")') == 0
    assert paren_balance('(def x "escaped \\" inside ( string"') == 1
    assert paren_balance("(a ; (((\n b") == 1
    assert paren_balance("(a ; ((( no newline") == 1
    assert paren_balance('(a "unterminated (') == 1


def test_balance_parens_puts_closers_on_a_new_line() -> None:
    assert balance_parens("(+ 1 2") == "(+ 1 2\n)"
    assert balance_parens("((+ 1 2") == "((+ 1 2\n))"
    assert balance_parens("(+ 1 2)") == "(+ 1 2)"
    assert balance_parens("(+ 1))") == "(+ 1))"
    assert balance_parens("(f 1 ; note") == "(f 1 ; note\n)"
    assert read_all(balance_parens("(f 1 ; note")) == read_all("(f 1)")
