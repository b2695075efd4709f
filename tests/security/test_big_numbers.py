"""Issue 16.2: every integer the reader accepts reads, computes and prints, whatever its length.

CPython 3.11 refuses int↔str conversions past 4,300 digits and its message tells the user to
call ``sys.set_int_max_str_digits()``; spellc converts through ``spell_runtime.bigdigits``.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from spell_runtime.bigdigits import int_text, parse_int

import spellc

FACTORIAL_1999 = math.factorial(1999)


def _decimal(n: int) -> str:
    """CPython's own conversion, limit lifted only for the comparison."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.parametrize("n", [0, 7, -7, 10**4299, 10**4300, -(10**4300) + 1, 3**30000, -(7**20000),
                               10**12000 - 1, FACTORIAL_1999], ids=lambda n: "%d bits" % n.bit_length())
def test_int_text_and_parse_int_agree_with_cpython(n: int) -> None:
    text = int_text(n)
    assert text == _decimal(n)
    assert (-parse_int(text[1:]) if text.startswith("-") else parse_int(text)) == n


def test_parse_int_in_other_radixes() -> None:
    digits = "z" * 5000
    assert parse_int(digits, 36) == 36**5000 - 1
    assert parse_int("7" * 9000, 8) == 8**9000 - 1


@pytest.mark.parametrize("program, expected", [
    ("(str (reduce *' (range 1 2000)))", _decimal(FACTORIAL_1999)),
    ("(pr-str (reduce *' (range 1 2000)))", _decimal(FACTORIAL_1999) + "N"),
    ("(format \"%s\" (reduce *' (range 1 2000)))", _decimal(FACTORIAL_1999)),
    ("(str (read-string (apply str (repeat 5000 \"9\"))))", "9" * 5000),
    ("(str (bigint (apply str (repeat 5000 \"9\"))))", "9" * 5000),
    ("(str (- (bigint (apply str (repeat 5000 \"9\")))))", "-" + "9" * 5000),
    ("(str (/ (reduce *' (range 1 2000)) 7))", _decimal(FACTORIAL_1999 // 7)),
], ids=lambda v: v if v.startswith("(") else "")
def test_huge_integers_compute_and_print(program: str, expected: str) -> None:
    assert spellc.eval_string(program) == expected


def test_huge_literal_reads_evaluates_and_prints() -> None:
    literal = "1" * 6000
    value = spellc.eval_string("(inc %s)" % literal)
    assert spellc.pr_str(value) == literal[:-1] + "2N"
    assert spellc.pr_str(spellc.read_string("-" + literal)) == "-" + literal + "N"


def test_built_module_keeps_huge_literals(tmp_path: Path) -> None:
    literal = "3" * 6000
    src = tmp_path / "big.spl"
    src.write_text("(def y -%sN) (str y (quote [%s]))" % ("7" * 6000, literal))
    out = tmp_path / "big.py"
    from click.testing import CliRunner

    from spellc.cli import main
    result = CliRunner().invoke(main, ["build", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    run = subprocess.run([sys.executable, str(out)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "\"-%s[%sN]\"" % ("7" * 6000, literal)


def test_no_message_advises_set_int_max_str_digits() -> None:
    from spell_runtime.support import host_message

    try:
        int("9" * 5000)
    except ValueError as e:
        assert "set_int_max_str_digits" not in host_message(e)
