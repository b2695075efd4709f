"""Issue 16.6 (files): every command reads program files the same careful way.

Non-UTF-8 bytes are a one-line error naming the file and the byte offset, never a
Python traceback; a leading byte-order mark is skipped instead of becoming an
invisible first symbol. The README's error example is what the tool prints.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from spellc.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", [["build"], ["read"], ["run"]])
def test_non_utf8_file_is_a_clear_error(tmp_path: Path, command: list[str]) -> None:
    prog = tmp_path / "latin1.spl"
    prog.write_bytes(b'(str "caf\xe9")')
    code, out, err = _invoke(*command, str(prog))
    assert code == 1 and out == ""
    assert err == "%s: not UTF-8 text (invalid continuation byte at byte 9)\n" % prog
    assert not (tmp_path / "latin1.py").exists()


@pytest.mark.parametrize("command, expected", [
    (["read"], "(+ 1 2)\n"), (["run"], "3\n"),
])
def test_byte_order_mark_is_skipped(tmp_path: Path, command: list[str], expected: str) -> None:
    prog = tmp_path / "bom.spl"
    prog.write_bytes("\ufeff(+ 1 2)".encode())
    assert _invoke(*command, str(prog)) == (0, expected, "")


def test_byte_order_mark_in_build(tmp_path: Path) -> None:
    import subprocess
    import sys

    prog = tmp_path / "bom.spl"
    prog.write_bytes("\ufeff(+ 1 2)".encode())
    code, out, _ = _invoke("build", str(prog))
    assert code == 0
    ran = subprocess.run([sys.executable, str(tmp_path / "bom.py")], capture_output=True, text=True, timeout=60)
    assert ran.stdout == "3\n"


def test_readme_error_example_matches_the_tool() -> None:
    m = re.search(r"\$ spellc eval '([^']*)'\n(.*)\n", README.read_text(encoding="utf-8"))
    assert m is not None
    code, _, err = _invoke("eval", m.group(1))
    assert code == 1 and err == m.group(2) + "\n"


def test_profiles_with_a_byte_order_mark_load(tmp_path: Path) -> None:
    agent = tmp_path / "a.agent.edn"
    agent.write_bytes("\ufeff{:namespaces {} :system-prompt {:file \"sys.txt\"}}".encode())
    (tmp_path / "sys.txt").write_bytes("\ufeffBe brief.".encode())
    model = tmp_path / "m.edn"
    model.write_bytes("\ufeff{:provider :test :response \"(def x 1))\"}".encode())
    code, out, err = _invoke("run", "-q", "--prompt", "hi", "--model-profile", str(model),
                             "--agent-profile", str(agent))
    assert (code, out, err) == (0, "1\n", "")


def test_non_utf8_system_prompt_is_a_usage_error(tmp_path: Path) -> None:
    agent = tmp_path / "a.agent.edn"
    agent.write_text("{:namespaces {} :system-prompt {:file \"sys.txt\"}}")
    (tmp_path / "sys.txt").write_bytes(b"caf\xe9")
    model = tmp_path / "m.edn"
    model.write_text("{:provider :test :response \"(def x 1))\"}")
    code, _, err = _invoke("run", "-q", "--prompt", "hi", "--model-profile", str(model), "--agent-profile", str(agent))
    assert code == 2 and err.startswith("error: Failed to read system prompt file: ") and "Traceback" not in err
