"""Every reader error text (language.md §2.9 plus the JVM's other reader texts), and where it points."""

from __future__ import annotations

import sys

import pytest
from spell_runtime.errors import SpellError

from spellc.reader import ReaderError, read_all, read_first


def error_of(text: str) -> ReaderError:
    with pytest.raises(ReaderError) as info:
        read_all(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # end of input
        ("(", "EOF while reading"), ("[1 2", "EOF while reading"), ("{:a", "EOF while reading"),
        ("#{", "EOF while reading"), ("#(", "EOF while reading"), ("'", "EOF while reading"),
        ("#_", "EOF while reading"), ("^:k", "EOF while reading"), ("`", "EOF while reading"),
        ('"abc', "EOF while reading string"), ('"abc\\', "EOF while reading string"),
        ('#"abc', "EOF while reading regex"), ("\\", "EOF while reading character"),
        ("#", "EOF while reading character"), ("~", "EOF while reading character"),
        # delimiters
        ("(+ 1 2)))", "Unmatched delimiter: )"), ("(+ 1 } 2)", "Unmatched delimiter: }"),
        ("} (+ 1 2)", "Unmatched delimiter: }"), ("(] 1", "Unmatched delimiter: ]"),
        ("('] 1)", "Unmatched delimiter: ]"),
        # tokens and numbers
        ("(def x 1) // note", "Invalid token: //"), ("a/", "Invalid token: a/"), (":a:", "Invalid token: :a:"),
        ("a::b", "Invalid token: a::b"), ("::a/b", "Invalid token: ::a/b"), (":", "Invalid token: :"),
        ("08", "Invalid number: 08"), ("1a", "Invalid number: 1a"), ("1.2.3", "Invalid number: 1.2.3"),
        ("3/-4", "Invalid number: 3/-4"), ("1/0", "Divide by zero"), ("0/0", "Divide by zero"),
        ("37r1", "Radix out of range"), ("2r102", 'For input string: "102" under radix 2'),
        # collections
        ("{:a 1 :b}", "Map literal must contain an even number of forms"),
        ("{:a 1 :a 2}", "Duplicate key: :a"), ('{"a" 1 "a" 2}', "Duplicate key: a"),
        ("{nil 1 nil 2}", "Duplicate key: null"), ("{1 1 1N 2}", "Duplicate key: 1"),
        ("{[1] 1 (1) 2}", "Duplicate key: [1]"), ("{\\a 1 \\a 2}", "Duplicate key: a"),
        ("{:a 1 :b 2 :b 3 :a 4}", "Duplicate key: :a"),
        ("{:a 1 :b 2 :c 3 :d 4 :e 5 :f 6 :g 7 :h 8 :i 9 :b 10 :a 11}", "Duplicate key: :b"),
        ("#{1 2 1}", "Duplicate key: 1"), ("#{:a :b :b :a}", "Duplicate key: :b"),
        ("#:a{:b}", "Namespaced map literal must contain an even number of forms"),
        ("#:a{:b 1 :b 2}", "Duplicate key: :a/b"),
        ("#:{:b 1}", "Namespaced map must specify a valid namespace: null"),
        ("#: a{}", "Namespaced map must specify a namespace"),
        ("#:: x{}", "Namespaced map must specify a namespace"),
        ("#:a/b{}", "Namespaced map must specify a valid namespace: a/b"),
        ("#:a x", "Namespaced map must specify a map"),
        ("#::a{:b 1}", "Unknown auto-resolved namespace alias: a"),
        # characters and strings
        ("\\abc", "Unsupported character: \\abc"), ("\\\U0001F600", "Unsupported character: \\\U0001F600"),
        ("\\u12", "Invalid unicode character: \\u12"), ("\\uD800", "Invalid character constant: \\ud800"),
        ("\\u00G1", "Invalid digit: G"), ("\\o8", "Invalid digit: 8"),
        ("\\o1234", "Invalid octal escape sequence length: 4"),
        ("\\o400", "Octal escape sequence must be in range [0, 377]."),
        ('"\\u00g1"', "Invalid digit: g"), ('"\\u00"', "Invalid character length: 2, should be: 4"),
        ('"\\uZ"', "Invalid unicode escape: \\uZ"), ('"\\u', "Invalid unicode escape: \\u\uffff"),
        ('"\\400"', "Octal escape sequence must be in range [0, 377]."), ('"\\18"', "Invalid digit: 8"),
        # reader macros
        ("#(#(%))", "Nested #()s are not allowed"), ("#(%a)", "arg literal must be %, %& or %integer"),
        ("#(%99999)", "Arg literal %99999 is too large"),
        ("^1 x", "Metadata must be Symbol,Keyword,String,Map or Vector"),
        ("^:a 1", "Metadata can only be applied to IMetas"), ('^:a "s"', "Metadata can only be applied to IMetas"),
        ("#=(+ 1 2)", "EvalReader not allowed when *read-eval* is false."),
        ("#?(:clj 1)", "Conditional read not allowed"), ("#?@(:clj [1])", "Conditional read not allowed"),
        ("#<foo>", "Unreadable form"), ("#foo 1", "No reader function for tag foo"),
        ("#a/b [1]", "No reader function for tag a/b"),
        ("#nil 1", "Reader tag must be a symbol"),
        ("#my.Rec{:a 1}", "Record construction syntax can only be used when *read-eval* == true"),
        ("#[1]", "No dispatch macro for: ["), ("#1", "No dispatch macro for: 1"), ("# x", "No dispatch macro for:  "),
        ("##foo", "Unknown symbolic value: ##foo"), ("##1", "Invalid token: ##1"),
        ("`~@x", "splice not in list"), ("`" * 12 + "(a b)", "Syntax-quote expansion too large"),
        ('#inst "2020-13-01"', "failed: (<= 1 months 12)"), ('#inst "nope"', "Unrecognized date/time syntax: nope"),
        ('#uuid "nope"', "Invalid UUID string: nope"), ("#uuid 5", "Assert failed: (string? form)"),
    ],
)
def test_message(text: str, message: str) -> None:
    assert str(error_of(text)) == message


def test_reader_error_is_a_spell_error_without_position_in_message() -> None:
    err = error_of("(a\n  b ] c")
    assert isinstance(err, SpellError)
    assert str(err) == "Unmatched delimiter: ]"
    assert (err.line, err.column) == (2, 5)
    assert err.position == (2, 4, 2, 5)


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("(", 1, 2),  # end of input
        ("(a\n b", 2, 3),
        ("x\n  1a", 2, 3),  # the bad token's start
        ('"\\u00g1"', 1, 6),  # the bad digit inside the string
        ("{:a 1\n :a 2}", 2, 6),  # the closer where the duplicate is detected
        ('"a\\qb" ) x', 1, 8),  # after a sanitizer insertion: column in the original text
    ],
)
def test_positions_point_at_the_problem(text: str, line: int, column: int) -> None:
    err = error_of(text)
    assert (err.line, err.column) == (line, column)


def test_source_name_is_carried() -> None:
    with pytest.raises(ReaderError) as info:
        read_all("(", source_name="prog.spl")
    assert info.value.source_name == "prog.spl"


def test_deeply_nested_set_elements_fail_cleanly() -> None:
    # Under Python's default recursion limit (evaluation raises it, see support.set_recursion_limit).
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        with pytest.raises(ReaderError) as info:
            read_all("#{" * 3000 + "}" * 3000)
    finally:
        sys.setrecursionlimit(old)
    assert str(info.value) == "Set element nested too deeply"


def test_errors_inside_the_first_form_escape_read_first() -> None:
    with pytest.raises(ReaderError, match="EOF while reading"):
        read_first("(+ 1")
    with pytest.raises(ReaderError, match="Unmatched delimiter: \\)"):
        read_first(") 42")
