"""Built modules as Python and Hy libraries: mangled exports, dynamic scope, no hy/libcst on the run path (packages.md §5)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spellc.cli import main

REPO = Path(__file__).resolve().parents[2]
LIB = """\
(def limit 3)
(defn word-count [s] (count (strings/split s " ")))
(defn valid? [n] (and (> n 0) (< n limit)))
(defn _k0 [] "would clash with a module internal")
(defn fails [] (/ 1 0))
(word-count "a b")
"""


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "runtime"), out.get("PYTHONPATH", "")])
    return out


@pytest.fixture()
def built(tmp_path: Path) -> Path:
    (tmp_path / "mylib.spl").write_text(LIB)
    result = CliRunner().invoke(main, ["build", str(tmp_path / "mylib.spl"), "-o", str(tmp_path / "mylib.py")])
    assert result.exit_code == 0, result.output
    return tmp_path


def run_python(folder: Path, code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env(), capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_exports_use_hy_names_and_the_module_environment(built: Path) -> None:
    out = run_python(built, "import mylib\n"
                            "print(mylib.word_count('a b c'), mylib.hyx_validXquestion_markX(2),"
                            " mylib.hyx_validXquestion_markX(3), mylib.limit, mylib.value)\n"
                            "print(sorted(mylib.__spell_names__.items()))\n"
                            "print(getattr(mylib._k0, '__qualname__', None) == '_k0', 'hy' in __import__('sys').modules)")
    lines = out.splitlines()
    assert lines[0] == "3 True False 3 2"  # valid? reads `limit` from the module's environment
    assert lines[1] == str(sorted({"limit": "limit", "word-count": "word_count", "valid?": "hyx_validXquestion_markX",
                                   "fails": "fails"}.items()))
    assert lines[2] == "False False"


def test_spell_errors_reach_python_as_spell_errors(built: Path) -> None:
    out = run_python(built, "import mylib\nfrom spell_runtime.errors import SpellError\n"
                            "try:\n    mylib.fails()\nexcept SpellError as e:\n    print('SpellError', e)\n"
                            "try:\n    mylib.word_count()\nexcept Exception as e:\n    print(type(e).__name__, e)")
    first, second = out.splitlines()
    assert first.startswith("SpellError") and "Divide by zero" in first
    assert second == "HostError Wrong number of args: expected 1, got 0"


def test_a_hy_file_imports_a_built_spell_module(built: Path) -> None:
    pytest.importorskip("hy", reason="the hy extra (in dev)")
    (built / "use_mylib.hy").write_text('(import mylib)\n(print (mylib.valid? 2) (mylib.word-count "a b c d"))\n')
    assert run_python(built, "import hy\nimport use_mylib") == "True 4\n"


def test_neither_hy_nor_libcst_on_the_run_path(built: Path) -> None:
    check = "import sys\nprint(sorted(m for m in ('hy', 'libcst') if m in sys.modules))"
    assert run_python(built, "import spellc\n" + check) == "[]\n"
    assert run_python(built, "import mylib\n" + check) == "[]\n"
    code = ("import sys\nfrom spellc.cli import main\n"
            "try:\n    main(['run', 'mylib.spl'])\nexcept SystemExit:\n    pass\n" + check)
    assert run_python(built, code) == "2\n[]\n"
