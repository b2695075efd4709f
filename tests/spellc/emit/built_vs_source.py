"""Run a program from source (``spellc run``) and as a built module (``python built.py``) and check
that both report the same failure: shared by the tests of positions in built modules (issue 12.1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spellc.cli import main


def assert_built_fails_as_the_source(tmp_path: Path, program: str, first: str) -> None:
    """Both runs fail; the source run's first line is ``first``; the built module's stderr is the
    source run's whole output (message, position, call path)."""
    src = tmp_path / "prog.spl"
    src.write_text(program, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:  # in the source's folder: both name it "prog.spl"
        mp.chdir(tmp_path)
        source_run = CliRunner().invoke(main, ["run", "prog.spl"])
    assert source_run.exit_code == 1
    assert source_run.output.splitlines()[0] == first
    # written whole, and split with each fn body in a part file of its own (spell_runtime.built_parts):
    # the position table numbers the parts' lines apart from the module's own
    for name, part_bytes in (("prog_whole.py", "0"), ("prog_split.py", "1")):
        out = tmp_path / name
        with pytest.MonkeyPatch.context() as mp:
            mp.chdir(tmp_path)
            built = CliRunner().invoke(main, ["build", "prog.spl", "-o", str(out), "--part-bytes", part_bytes])
        assert built.exit_code == 0, built.output
        run = subprocess.run([sys.executable, "-W", "ignore", str(out)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120)
        assert run.returncode == 1, (name, run.stderr)
        assert run.stderr.strip().splitlines() == source_run.output.strip().splitlines(), name
