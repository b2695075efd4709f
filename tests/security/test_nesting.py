"""Any nesting compiles or fails as a Spell error at the form's position (issue 16 item 1).

CPython refuses more than 20 statically nested blocks per function, and the analyzer, emitter,
``compile()`` and evaluation recurse with the nesting (partly on the C stack): the emitter moves
deep constructs into nested functions, and nesting past ``MAX_NESTING`` levels is a Spell error.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import spellc
from spellc.analyze.analyzer import MAX_NESTING
from spellc.compiler import build_module

ROOT = Path(__file__).resolve().parents[2]


def nested(open_: str, close: str, n: int, inner: str) -> str:
    return "".join(open_ % {"i": i} for i in range(n)) + inner + close * n


# (name, program, printed value): the shapes that failed with a Python SyntaxError at these depths.
DEEP_PROGRAMS = [
    ("4 when-let", nested("(when-let [a%(i)d %(i)d] ", ")", 4, "[a0 a3]"), "[0 3]"),
    ("30 when-let", nested("(when-let [a%(i)d %(i)d] ", ")", 30, "[a0 a29]"), "[0 29]"),
    ("10 let", nested("(let [a%(i)d %(i)d] ", ")", 10, "[a0 a9]"), "[0 9]"),
    ("60 let", nested("(let [a%(i)d %(i)d] ", ")", 60, "[a0 a59]"), "[0 59]"),
    ("10 try", nested("(try (def t%(i)d %(i)d) ", " (catch e :caught))", 10, "[t0 t9]"), "[0 9]"),
    ("40 try, throwing", nested("(try ", " (catch e [:caught e]))", 40, "(throw \"deep\")"),
     "[:caught \"deep\"]"),
    ("40 try, failing", nested("(try ", " (catch e [:caught (:message e)]))", 40, "(/ 1 0)"),
     "[:caught \"Function call failed: /: Divide by zero\"]"),
    ("7 loop", nested("(loop [i%(i)d 0] ", ")", 7, "(if (< i6 3) (recur (inc i6)) [i0 i6])"), "[0 3]"),
    ("40 loop", nested("(loop [i%(i)d %(i)d] ", ")", 40, "(if (< i39 50) (recur (inc i39)) [i0 i39])"),
     "[0 50]"),
    ("30 for clauses", "(for [" + " ".join("a%d [%d]" % (i, i) for i in range(30)) + "] [a0 a29])",
     "[[0 29]]"),
    ("40 let in a recurring fn",
     "(do (defn f [x] " + nested("(let [a%(i)d x] ", ")", 40, "(if (< x 5) (recur (inc x)) [x a0 a39])")
     + ") (f 0))", "[5 5 5]"),
    ("30 let around a user macro",
     "(do (defmacro m [] '(def mm 7)) (defn g [x] " + nested("(let [a%(i)d x] ", ")", 30, "(do (m) [x mm])")
     + ") [(g 1) (try mm (catch e :undone))])", "[[1 7] :undone]"),
    ("30 let inside a for inside a let",
     "(let [r (for [x [1 2]] " + nested("(let [a%(i)d x] ", ")", 30, "(do (def q x) [x a0 q])")
     + ")] [r (try q (catch e :undone))])", "[[[1 1 1] [2 2 2]] :undone]"),
]


@pytest.mark.parametrize(("name", "src", "expected"), DEEP_PROGRAMS, ids=[p[0] for p in DEEP_PROGRAMS])
def test_deep_nesting_compiles_and_evaluates(name: str, src: str, expected: str) -> None:
    assert spellc.pr_str(spellc.eval_string(src)) == expected


@pytest.mark.parametrize(("name", "src", "expected"), DEEP_PROGRAMS, ids=[p[0] for p in DEEP_PROGRAMS])
def test_built_module_of_deep_nesting_compiles_and_runs(name: str, src: str, expected: str) -> None:
    source = build_module(spellc.read_all(src), "deep.spl")
    compile(source, "deep_built.py", "exec")
    ast.parse(source)
    namespace: dict[str, Any] = {"__name__": "deep_built"}
    exec(compile(source, "deep_built.py", "exec"), namespace)
    assert spellc.pr_str(namespace["value"]) == expected


def test_nesting_past_the_limit_is_a_spell_error_at_the_innermost_form() -> None:
    src = "(do 1\n  " + "(" * 40_000 + ")" * 40_000 + ")"
    with pytest.raises(spellc.SpellError) as caught:
        spellc.eval_string(src, "deep.spl")
    assert caught.value.message == "Form nested too deeply (more than %d levels)" % MAX_NESTING
    assert caught.value.position is not None
    line, col = caught.value.position[:2]
    assert (line, col) == (2, 2 + MAX_NESTING - 1)  # the first form past the limit, 0-based column


def test_the_limit_itself_compiles_on_a_default_size_thread() -> None:
    """Every stage at the deepest nesting allowed stays inside a thread's default C stack."""
    programs = {
        "vector": ("[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1), None),
        "arithmetic": ("(+ 1 " * (MAX_NESTING - 1) + "1" + ")" * (MAX_NESTING - 1), str(MAX_NESTING)),
        "if": ("(if true " * (MAX_NESTING - 1) + "1" + " 2)" * (MAX_NESTING - 1), "1"),
    }
    results: dict[str, Any] = {}

    def run() -> None:
        for name, (src, _) in programs.items():
            try:
                results[name] = spellc.pr_str(spellc.eval_string(src))
            except BaseException as e:  # reported below, not lost in the thread
                results[name] = e

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=300)
    assert not worker.is_alive()
    for name, (_, expected) in programs.items():
        assert isinstance(results[name], str), (name, results[name])
        if expected is not None:
            assert results[name] == expected


def test_twenty_thousand_brackets_are_a_clear_error_from_spellc_run(tmp_path: Path) -> None:
    """Used to crash ``spellc run`` with a segmentation fault."""
    program = tmp_path / "deep.spl"
    program.write_text("[" * 20_000 + "]" * 20_000, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))
    done = subprocess.run([sys.executable, "-m", "spellc", "run", str(program)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == "%s:1:%d: Form nested too deeply (more than %d levels)" % (
        program, MAX_NESTING + 1, MAX_NESTING)


def test_deeply_nested_quoted_data_is_not_limited() -> None:
    depth = 3 * MAX_NESTING
    value = spellc.eval_string("'" + "(" * depth + ")" * depth)
    assert spellc.pr_str(value) == "(" * depth + ")" * depth


# Deep shapes that compile straight from the AST but whose ``spellc build`` text broke Python's
# tokenizer limits (100 indentation levels, 200 open brackets) or recursed without bound.
DEEP_TEXT = [
    ("500 nested additions", "(+ 1 " * 500 + "1" + ")" * 500, "501"),
    ("300 nested ifs in a fn literal", "(fn [x] " + "(if x " * 300 + "1" + " 2)" * 300 + ")", None),
    ("300 nested ifs in tail position", "(if true " * 300 + "1" + " 2)" * 300, "1"),
    ("300 nested user calls", "(do (defn f [x] x) " + "(f " * 300 + "1" + ")" * 300 + ")", "1"),
]


@pytest.mark.parametrize(("name", "src", "expected"), DEEP_TEXT, ids=[p[0] for p in DEEP_TEXT])
def test_built_text_of_deep_expressions_parses_and_runs(name: str, src: str, expected: str | None) -> None:
    source = build_module(spellc.read_all(src), "deep.spl")
    namespace: dict[str, Any] = {"__name__": "deep_built"}
    exec(compile(source, "deep_built.py", "exec"), namespace)
    direct = spellc.pr_str(spellc.eval_string(src))
    assert spellc.pr_str(namespace["value"]) == direct
    if expected is not None:
        assert direct == expected
