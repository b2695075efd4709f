"""The README's "Scripted runs" example works as written, through ``spellc run`` and ``spellc batch``."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[3] / "README.md"


def section_blocks() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Scripted runs", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, flags=re.S)


def run_command(line: str, cwd: Path) -> tuple[str, str]:
    """Run a README ``spellc ...`` line with this spellc; (stdout, the comment after #)."""
    command, _, comment = line.partition("#")
    args = shlex.split(command)
    assert args[0] == "spellc"
    done = subprocess.run([sys.executable, "-m", "spellc", *args[1:]], cwd=cwd, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout, comment.strip()


def test_the_scripted_runs_example(tmp_path: Path) -> None:
    blocks = section_blocks()
    assert [kind for kind, _ in blocks] == ["json", "sh", "jsonl", "sh"]
    (tmp_path / "turns.json").write_text(blocks[0][1], encoding="utf-8")
    stdout, comment = run_command(blocks[1][1].strip(), tmp_path)
    assert comment == "prints 30" and stdout == "30\n"

    (tmp_path / "requests.jsonl").write_text(blocks[2][1], encoding="utf-8")
    request = json.loads(blocks[2][1])
    assert request["responses"] == json.loads(blocks[0][1])  # the same script both ways
    _, comment = run_command(blocks[3][1].strip(), tmp_path)
    [result] = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert result["id"] == "add" and result["ok"] is True and result["result"] == "30"
    assert '"result": "30"' in comment
