"""A built module loads only its share of the builtin library (issue 12.4, ``spell_runtime.library``).

``spellc build`` writes the modules that register the builtins the program's code refers to
(``registry.OWNERS``), and the rest of the library loads on the first question only all of it can
answer: a symbol that is neither bound nor a loaded builtin, evaluating new code, the compiler's own
analysis. Each case runs in a fresh interpreter, since the library, once loaded, stays loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spellc.compiler import build_module
from spellc.reader import read_all

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))

UNUSED = ("spell_runtime.core.bitwise", "spell_runtime.core.types", "spell_runtime.core.quine",
          "spell_runtime.snapshot.serialize")
"""Library modules none of the programs below refers to statically."""


def _built(tmp_path: Path, text: str, name: str = "prog") -> Path:
    path = tmp_path / ("%s.py" % name)
    path.write_text(build_module(read_all(text), "%s.spl" % name), encoding="utf-8")
    return path


def _python(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, cwd=cwd,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _run_built(path: Path, after: str = "") -> dict[str, object]:
    """Import the built module ``path`` (its ``value``), run ``after``, report its value and what loaded."""
    code = (
        "import json, sys\n"
        "import %s as built\n"
        "from spell_runtime.printer import pr_str\n"
        "report = {'value': pr_str(built.value), 'loaded': [m for m in %r if m in sys.modules]}\n"
        "%s\n"
        "print(json.dumps(report))\n" % (path.stem, UNUSED, after))
    return json.loads(_python(code, path.parent))  # type: ignore[no-any-return]


def test_a_built_module_names_the_modules_of_its_builtins(tmp_path: Path) -> None:
    source = _built(tmp_path, "(defn f [s] (strings/upper-case (str s (bit-and 6 3))))").read_text("utf-8")
    share = source[source.index("compiled_namespace(") + len("compiled_namespace("):source.index(")))")]
    names = {name.strip(" '\n(,") for name in share.split(",")} - {""}
    assert names == {"spell_runtime.core.bitwise", "spell_runtime.core.strings"}


def test_a_program_without_builtins_loads_no_library_module(tmp_path: Path) -> None:
    source = _built(tmp_path, "(def x 5) [x 'y]").read_text("utf-8")
    assert "compiled_namespace(())" in source


def test_a_built_program_runs_on_its_share_and_leaves_the_rest_unloaded(tmp_path: Path) -> None:
    report = _run_built(_built(tmp_path, "(reduce + (map inc (filter odd? [1 2 3 4 5])))"))
    assert report == {"value": "12", "loaded": []}


@pytest.mark.parametrize("text, value", [
    # evaluating new code: the compiler analyses it against the whole library
    ("(eval (quote (bit-xor 5 1)))", "4"),
    # a name the analyser could not resolve statically (a def of it may have run) read at run time
    # (no static reference to a bitwise builtin: the share is empty, and ``bit-and`` is looked up by name)
    ("(defn f [x] (if (> x 100) (def bit-and (fn [a b] :mine)) nil)) (f 1) [(bit-and 6 3) (count [1])]",
     "[2 1]"),
])
def test_what_the_share_left_out_loads_when_the_program_needs_it(tmp_path: Path, text: str, value: str) -> None:
    report = _run_built(_built(tmp_path, text))
    assert report["value"] == value


def test_an_unbound_name_is_still_unbound_once_the_whole_library_is_loaded(tmp_path: Path) -> None:
    report = _run_built(_built(tmp_path, "(def m (try (no-such-builtin 1) (catch e (:message e)))) m"),
                        "report['all'] = 'spell_runtime.core.quine' in sys.modules")
    assert report["value"] == '"Unbound symbol: no-such-builtin"'
    assert report["all"] is True  # it looked in the whole library before saying so


def test_the_compiler_in_the_same_process_sees_the_whole_library(tmp_path: Path) -> None:
    after = ("import spellc\n"
             "report['eval'] = spellc.eval_string('[(bit-and 12 10) (str (type 1))]')\n"
             "report['eval'] = pr_str(report['eval'])")
    report = _run_built(_built(tmp_path, "(+ 1 2)"), after)
    assert report["value"] == "3"
    assert report["loaded"] == []  # before the compiler ran
    assert report["eval"] == '[8 "number"]'  # as ``spellc eval`` prints it


def test_a_second_built_module_loads_its_own_share(tmp_path: Path) -> None:
    first = _built(tmp_path, "(+ 1 2)", "first")
    second = _built(tmp_path, "(bit-or 4 1)", "second")
    code = ("import json, sys\nimport %s, %s\nfrom spell_runtime.printer import pr_str\n"
            "print(json.dumps([pr_str(%s.value), pr_str(%s.value), 'spell_runtime.core.quine' in sys.modules]))\n"
            % (first.stem, second.stem, first.stem, second.stem))
    assert json.loads(_python(code, tmp_path)) == ["3", "5", False]


def test_bulk_fast_paths_fill_again_when_more_of_the_library_loads(tmp_path: Path) -> None:
    """``core.bulk``'s identity tables are filled from the registry as it is; loading more of the
    library (a new ``GENERATION``) fills them again, so a builtin that came later gets its fast path."""
    code = (
        "from spell_runtime.abi import compiled_namespace\n"
        "compiled_namespace(('spell_runtime.core.numbers',))\n"
        "from spell_runtime.core import bulk\n"
        "from spell_runtime.core.registry import BUILTINS\n"
        "from spell_runtime.data import Symbol\n"
        "from spell_runtime.library import GENERATION, load_rest\n"
        "assert bulk._ready()\n"
        "first = bulk._FILLED[0] == GENERATION[0]\n"
        "del bulk._PREDICATES[id(BUILTINS[Symbol('nil?')])]  # as if nil? had not been registered then\n"
        "more = load_rest()\n"
        "print(first, more, bulk._ready() and id(BUILTINS[Symbol('nil?')]) in bulk._PREDICATES, load_rest())\n")
    assert _python(code, tmp_path).split() == ["True", "True", "True", "False"]
