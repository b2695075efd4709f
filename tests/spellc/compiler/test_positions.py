"""Spell positions survive compilation: errors carry them and Python tracebacks show Spell lines."""

from __future__ import annotations

import traceback

import pytest

import spellc

PROGRAM = """(defn safe-div [a b]
  (/ a b))
(defn run []
  (safe-div 10 0))
(run)
"""


def test_error_position_points_at_failing_call() -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(PROGRAM, "calc.spl")
    err = info.value
    assert str(err) == "Function call failed: /: Divide by zero"
    assert spellc.pr_str(err.expr) == "(/ a b)"
    assert err.position is not None
    line, col, _, _ = err.position
    assert (line, col) == (2, 2)
    assert [spellc.pr_str(h) for h in err.trace] == ["safe-div", "run"]


def test_python_traceback_names_spell_file_and_lines() -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string(PROGRAM, "calc.spl")
    text = "".join(traceback.format_exception(info.value))
    assert 'File "calc.spl", line 2' in text
    assert "(/ a b)" in text
    assert 'File "calc.spl", line 4' in text


def test_unbound_symbol_position() -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string("(do\n  (+ 1\n     missing))")
    assert str(info.value) == "Unbound symbol: missing"
