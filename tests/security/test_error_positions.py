"""Issue 16.6: every error has its real position, every call-path frame its call site.

``Unbound symbol`` and ``Stack overflow`` used to be reported at 1:1 by ``spellc run``/``eval``;
the call path named its frames (``in average``) but not where each call stands; an error inside
a fn passed to ``map`` said nothing of the fn. The same report comes from every path: the CLI,
``SpellError`` (``.position``, ``.frames``), error result maps (``:spell/position``,
``:spell/call-path``), the turn loop and modules written by ``spellc build``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from spell_runtime.data import Keyword
from spell_runtime.errors import SpellError
from spell_runtime.errors_result import error_result

import spellc
from spellc.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"

PROGRAM = """(defn average [xs]
  (/ (reduce + 0 xs)
     (count yy)))
(defn report [xs]
  (str "avg " (average xs)))
(report [1 2 3])
"""

RECURSION = """(defn g [n]
  (+ 1 (g n)))
(g 1)
"""

VIA_MAP = """(defn bad [y]
  (/ 1 y))
(defn g [xs]
  (vec (map bad xs)))
(g [1 0])
"""

ANONYMOUS = """(defn g [xs]
  (vec (filter (fn [y] (< (/ 1 y) 2)) xs)))
(g [1 0])
"""


def _run(tmp_path: Path, text: str, name: str = "prog.spl") -> list[str]:
    prog = tmp_path / name
    prog.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(prog)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    return [line.replace(str(tmp_path) + "/", "") for line in result.output.splitlines()]


def _error(text: str, name: str = "prog.spl") -> SpellError:
    with pytest.raises(SpellError) as info:
        spellc.eval_string(text, name)
    return info.value


def test_unbound_symbol_is_reported_where_it_stands_with_each_call_site(tmp_path: Path) -> None:
    assert _run(tmp_path, PROGRAM) == [
        "prog.spl:3:13: Unbound symbol: yy",
        "  in average  prog.spl:5:15",
        "  in report  prog.spl:6:1",
    ]


def test_eval_reports_the_unbound_symbol_position() -> None:
    result = CliRunner().invoke(main, ["eval", "(do 1\n  (foo 2))"])
    assert result.output == "<eval>:2:4: Unbound symbol: foo\n"


def test_spell_error_carries_position_trace_and_frames() -> None:
    e = _error(PROGRAM)
    assert e.position is not None and e.position[:2] == (3, 12)
    assert [str(h) for h in e.trace] == ["average", "report"]  # :trace stays the spec's head forms
    assert [(str(f.head), f.position[:2] if f.position else None) for f in e.frames] == [
        ("average", (5, 14)), ("report", (6, 0))]


def test_error_result_has_position_and_call_path_but_the_trace_is_unchanged() -> None:
    result = error_result(_error(PROGRAM))
    assert result[Keyword("position", "spell")] == "prog.spl:3:13"
    assert list(result[Keyword("call-path", "spell")]) == ["average  prog.spl:5:15", "report  prog.spl:6:1"]
    assert [str(h) for h in result[Keyword("trace")]] == ["average", "report"]


def test_stack_overflow_has_its_position_and_the_recursion_folds(tmp_path: Path) -> None:
    lines = _run(tmp_path, RECURSION)
    assert lines[0] == "prog.spl:2:8: Stack overflow"
    assert re.fullmatch(r"  in g  prog\.spl:2:8  \(\d+ times\)", lines[1])
    assert lines[2:] == ["  in g  prog.spl:3:1"]


def test_fn_passed_to_map_is_named_with_its_position_and_the_applying_call(tmp_path: Path) -> None:
    assert _run(tmp_path, VIA_MAP) == [
        "prog.spl:4:8: Function call failed: map: Function call failed: /: Divide by zero",
        "  in bad  prog.spl:2:3 (called by map at prog.spl:4:8)",
        "  in g  prog.spl:5:1",
    ]


def test_anonymous_fn_passed_to_filter_is_shown_where_it_stands(tmp_path: Path) -> None:
    assert _run(tmp_path, ANONYMOUS) == [
        "prog.spl:2:8: Function call failed: filter: Function call failed: /: Divide by zero",
        "  in fn  prog.spl:2:16 (called by filter at prog.spl:2:8)",
        "  in g  prog.spl:3:1",
    ]


def test_deep_paths_stay_short(tmp_path: Path) -> None:
    # 30 distinct functions calling each other: at most 8 frames and one "... N more" line
    defs = "".join("(defn f%d [] (f%d))\n" % (i, i + 1) for i in range(30)) + "(defn f30 [] (/ 1 0))\n(f0)\n"
    lines = _run(tmp_path, defs)
    assert len(lines) == 10
    assert lines[1] == "  in f30  prog.spl:30:14" and lines[-1] == "  ... 23 more"


def test_built_module_reports_positions_and_call_sites(tmp_path: Path) -> None:
    prog = tmp_path / "prog.spl"
    prog.write_text(PROGRAM, encoding="utf-8")
    out = tmp_path / "prog.py"
    assert CliRunner().invoke(main, ["build", str(prog), "-o", str(out)]).exit_code == 0
    run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    # a built module keeps one Spell span per call form, and one per global read that can miss: the
    # unbound symbol is placed at the symbol, as ``spellc run`` places it
    assert run.stderr.splitlines() == ["prog.spl:3:13: Unbound symbol: yy", "  in average  prog.spl:5:15",
                                       "  in report  prog.spl:6:1"]


def test_turn_loop_error_result_carries_the_position() -> None:
    from spellc.providers.test_provider import TestProvider

    start = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
    provider = TestProvider(responses=["(defn h [] (+ 1 nope))\n(h))))"])
    out = spellc.run(init=start, model_profile=provider, recover=False)
    inner = out["error_data"]["result"]
    while Keyword("result") in inner:  # eval → !llm-self → the completion's own failure
        inner = inner[Keyword("result")]
    assert inner[Keyword("err")] == "Unbound symbol: nope"
    # the program is the prompt prefix (28 characters) followed by the completion
    assert inner[Keyword("position", "spell")] == "<completion>:1:%d" % (28 + 17)
    assert list(inner[Keyword("call-path", "spell")]) == ["h  <completion>:2:1"]


def test_readme_error_examples_are_what_the_tool_prints() -> None:
    examples = re.findall(r"```\n\$ spellc eval '([^']*)'\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(examples) >= 2
    for source, printed in examples:
        result = CliRunner().invoke(main, ["eval", source])
        assert result.exit_code == 1
        assert result.stderr == printed
