"""What starting a compiled program costs: the runtime's import-time work (issue 12).

A module written by ``spellc build`` imports only the runtime, calls ``compiled_namespace()`` (the
builtin library, or the share of it its code refers to: ``test_library_share.py``), decodes its constants and starts the program with ``program.fresh_env``;
``spellc eval``/``run`` do the same through the compiler. Work that only some programs need is
done on first use instead: the runtime's regular expressions are compiled, and ``array``,
``unicodedata``, ``json``, ``spell_runtime.edits`` and the effect implementations imported, when a
builtin first needs them. The first test pins that contract in a fresh interpreter; the second
runs a built program that uses each of those things and checks its answers (the same as before
they were made lazy).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))

LAZY_MODULES = (
    "array", "unicodedata", "json", "spell_runtime.edits", "spell_runtime.effects.globals",
    "spell_runtime.effects.envelope", "spell_runtime.effects.paths", "spell_runtime.effects.args",
    "spell_runtime.effects.render",
)
"""Modules a program's start must not import (each serves builtins or effects few programs use)."""

LAZY_PATTERNS = (
    ("spell_runtime.core.numcoerce", "_number_search", "_first_number_search"),
    ("spell_runtime.readable", "_symbol_match", "_first_symbol_match"),
    ("spell_runtime.data.text", "_astral_search", "_first_astral_search"),
)
"""Module globals that are a compiling stand-in until a builtin first needs the pattern: (module, global,
the stand-in it is bound to at import). ``numcoerce._COMPILED`` (its other patterns) is empty then too."""

START = """
import sys
from spell_runtime.abi import compiled_namespace
compiled_namespace()
import spell_runtime.program as program
from spell_runtime.built_constants import decode_constants
import spell_runtime.script
program.close_env(program.fresh_env())
constants = decode_constants('["a", ":k", [0, 1], ["t", 0, 2], NaN]')
patterns = {m + "." + name: getattr(sys.modules[m], name) is getattr(sys.modules[m], first) for m, name, first in %r}
patterns["numcoerce._COMPILED"] = not sys.modules["spell_runtime.core.numcoerce"]._COMPILED
loaded = [m for m in %r if m in sys.modules]
import json  # only now: the start itself must not import it
print(json.dumps({"loaded": loaded, "patterns": patterns,
                  "constants": repr(constants)}))
"""


def run_python(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=ENV,
                          check=True, timeout=120)
    return done.stdout


def test_a_program_start_leaves_the_rarely_used_parts_unloaded() -> None:
    report = json.loads(run_python(START % (LAZY_PATTERNS, LAZY_MODULES)))
    assert report["loaded"] == []
    assert report["patterns"] == {"numcoerce._COMPILED": True, **{m + "." + name: True for m, name, _ in LAZY_PATTERNS}}
    assert report["constants"] == "[a, :k, (a :k), (a, (a :k)), nan]"


PROGRAM = r"""
(def numbers [(parse-number "x12.5y") (parse-number "n-7") (bigint "-42") (bigdec "1e3")])
(def bad-dec (try (bigdec "1x") (catch e (:message e))))
(def bad-int (try (bigint "4a") (catch e (:message e))))
(def astral [(count "a😀b") (subs "a😀b" 1 3) (count "né")])
(def regexes [(re-find "\p{Lu}+" "abCDe") (re-find "\N{LATIN SMALL LETTER B}+" "abbc")])
(def sums [(reduce + [1 -2 3]) (reduce + [1 2 3]) (reduce + 0 [-1 -2])])
(def n 42)
(def edited (edit-reopen '(do (persist n (* 6 7)))))
(def shown [(serialize 'ab) (serialize (symbol "a b")) (serialize :k)])
(def results [numbers bad-dec bad-int astral regexes sums edited shown])
(eval '(do (globals/set :x 5) [results (globals/get :x)]))
"""

EXPECTED = (
    '[[[12.5 -7 -42N 1E+3M] "Function call failed: bigdec: Character x is neither a decimal digit number, '
    'decimal point, nor \\"e\\" notation exponential mark." "Function call failed: bigint: For input string: '
    '\\"4a\\"" [4 "😀" 2] ["CD" "bb"] [2 6 -3] (do (persist n 42)) ["(quote ab)" "(symbol \\"a b\\")" ":k"]] 5]\n'
)

RUN_BUILT = """
import runpy, sys
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
finally:
    sys.stdout.flush()
    print("--", sorted(m for m in %r if m in sys.modules))
"""


def test_a_built_program_using_the_lazy_parts_gives_the_same_answers(tmp_path: Path) -> None:
    source = tmp_path / "lazy.spl"
    source.write_text(PROGRAM, encoding="utf-8")
    built = tmp_path / "lazy_built.py"
    subprocess.run([sys.executable, "-m", "spellc", "build", str(source), "-o", str(built)], capture_output=True,
                   text=True, env=ENV, check=True, timeout=120)
    output, _, loaded = run_python(RUN_BUILT % (LAZY_MODULES,), str(built)).partition("-- ")
    assert output == EXPECTED
    # The program used each lazily loaded part, so the answers above came from their first use
    # (json included: ``eval`` installs ``web/``, whose module imports it).
    assert loaded.strip() == repr(sorted(LAZY_MODULES))
