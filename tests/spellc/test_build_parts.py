"""``spellc build`` of a large program: fn bodies in part files beside the module (spell_runtime.built_parts)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spellc.cli import main
from spellc.compiler import build_module, build_program
from spellc.compiler.parts import group_bodies, is_parts_folder, part_text
from spellc.reader import read_all

# Six fns, each calling the one before: a failure in the last part passes through every other one.
PROGRAM = "".join("(defn f%d [x] (f%d (+ x %d)))\n" % (i, i - 1, i) for i in range(1, 6)).replace(
    "(f0 (+ x 1))", "(nth [1 2 3] x)") + "(defn label [n] (str \"n=\" (f5 n)))\n"


def _build(tmp_path: Path, program: str, *args: str, module: str = "prog.py") -> Path:
    src = tmp_path / "prog.spl"
    src.write_text(program, encoding="utf-8")
    out = tmp_path / module
    result = CliRunner().invoke(main, ["build", str(src), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def _run(module: Path, bytecode: bool = False) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run([sys.executable, "-W", "ignore", str(module)], capture_output=True, text=True,
                          cwd=module.parent, env=env, timeout=120)


def _python_beside(tmp_path: Path, code: str) -> str:
    """The output of ``code`` run by a new interpreter with ``tmp_path`` first on its path (stderr on failure)."""
    ran = subprocess.run([sys.executable, "-W", "ignore", "-c", "import sys; sys.path.insert(0, %r)\n%s"
                          % (str(tmp_path), code)], capture_output=True, text=True, timeout=120)
    return ran.stdout or ran.stderr


def test_each_fn_body_in_a_part_of_its_own_runs_as_the_whole_module(tmp_path: Path) -> None:
    split = _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    parts = sorted(p.name for p in (tmp_path / "prog.parts").iterdir())
    assert parts == ["fns-%d.py" % k for k in range(1, 8)]  # six fn bodies and the unit of (label -14)
    assert "def " not in split.read_text(encoding="utf-8").split("def run():")[0]  # every function moved out
    ran = _run(split)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, '"n=1"\n', "")


def test_a_failure_in_a_part_names_the_spell_position_and_call_path_of_the_whole_module(tmp_path: Path) -> None:
    whole = _run(_build(tmp_path, PROGRAM + "(label 0)\n", "--part-bytes", "0", module="whole.py"))
    assert whole.returncode == 1
    assert whole.stderr.splitlines()[0].startswith("prog.spl:1:14: Function call failed: nth")
    split = _run(_build(tmp_path, PROGRAM + "(label 0)\n", "--part-bytes", "1", module="split.py"))
    assert (tmp_path / "split.parts").is_dir() and not (tmp_path / "whole.parts").exists()
    assert (split.returncode, split.stderr) == (1, whole.stderr)
    assert len(whole.stderr.splitlines()) > 3  # a call path through the fns of several parts


def test_a_small_program_is_written_whole_and_a_rebuild_takes_away_the_parts_it_no_longer_uses(
        tmp_path: Path) -> None:
    _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    assert (tmp_path / "prog.parts").is_dir()
    out = _build(tmp_path, "(+ 1 2)\n")
    assert not (tmp_path / "prog.parts").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prog.py", "prog.spl"]
    assert _run(out).stdout == "3\n"


def test_a_folder_of_that_name_that_spellc_did_not_write_is_left_alone(tmp_path: Path) -> None:
    mine = tmp_path / "prog.parts"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "prog.spl").write_text(PROGRAM + "(label -14)\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path / "prog.spl"), "-o", str(tmp_path / "prog.py"),
                                       "--part-bytes", "1"])
    assert result.exit_code == 1
    assert "is not a folder of parts spellc build wrote" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prog.parts", "prog.spl"]  # nothing staged is left
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_a_rebuild_replaces_the_parts_of_the_earlier_one(tmp_path: Path) -> None:
    _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    out = _build(tmp_path, "(defn g [x] (* x 2))\n(defn h [x] (g (g x)))\n(h 5)\n", "--part-bytes", "1")
    assert sorted(p.name for p in (tmp_path / "prog.parts").iterdir()) == ["fns-1.py", "fns-2.py", "fns-3.py"]
    assert _run(out).stdout == "20\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".spellc-")]


def test_a_build_that_fails_while_writing_leaves_the_earlier_module_and_parts(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    out = _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    before = {p.name: p.read_bytes() for p in [out, *(tmp_path / "prog.parts").iterdir()]}

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)  # the module's own rename, the last step
    (tmp_path / "prog.spl").write_text("(defn g [x] x)\n(defn h [x] (g x))\n(h 1)\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(tmp_path / "prog.spl"), "-o", str(out), "--part-bytes", "1"])
    assert result.exit_code != 0
    monkeypatch.undo()
    after = {p.name: p.read_bytes() for p in [out, *(tmp_path / "prog.parts").iterdir()]}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prog.parts", "prog.py", "prog.spl"]
    assert _run(out).stdout == '"n=1"\n'


def test_a_module_run_without_its_parts_says_so_and_an_import_raises(tmp_path: Path) -> None:
    out = _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    (tmp_path / "prog.parts" / "fns-3.py").unlink()
    ran = _run(out)
    assert ran.returncode == 1 and "Traceback" not in ran.stderr
    assert "its part prog.parts/fns-3.py cannot be read" in ran.stderr
    assert "copy or move the two together" in ran.stderr
    imported = _python_beside(tmp_path, "from spell_runtime.built_parts import MissingPartError\n"
                                        "try:\n    import prog\nexcept MissingPartError as e:\n"
                                        "    print('missing', 'fns-3.py' in str(e))\n")
    assert imported == "missing True\n"


def test_a_split_module_run_from_its_text_alone_says_where_its_parts_are(tmp_path: Path) -> None:
    out = _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    script = "exec(compile(open(%r).read(), 'prog', 'exec'), {'__name__': '__main__'})" % str(out)
    ran = subprocess.run([sys.executable, "-W", "ignore", "-c", script], capture_output=True, text=True)
    assert ran.returncode == 1 and "Traceback" not in ran.stderr
    assert "without a file name" in ran.stderr and "prog.parts" in ran.stderr


def test_parts_keep_their_bytecode_when_bytecode_is_written(tmp_path: Path) -> None:
    out = _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    cache = tmp_path / "prog.parts" / "__pycache__"
    assert _run(out).stdout == '"n=1"\n' and not cache.exists()  # bytecode writing off: nothing written
    assert _run(out, bytecode=True).stdout == '"n=1"\n'
    cached = sorted(p.name.split(".")[0] for p in cache.iterdir())
    assert cached == ["fns-%d" % k for k in range(1, 8)]
    assert _run(out, bytecode=True).stdout == '"n=1"\n'  # and a second run reads them


def test_an_imported_split_module_computes_its_value_and_exports_its_definitions(tmp_path: Path) -> None:
    _build(tmp_path, PROGRAM + "(label -14)\n", "--part-bytes", "1")
    imported = _python_beside(tmp_path, "import prog\nfrom spell_runtime.printer import pr_str\n"
                                        "print(pr_str(prog.value), pr_str(prog.label(-14)),"
                                        " prog.__doc__.startswith('Compiled from prog.spl'))")
    assert imported == '"n=1" "n=1" True\n'


def test_the_split_module_and_its_parts_hold_the_text_of_the_whole_one() -> None:
    forms = read_all(PROGRAM + "(label -14)\n", source_name="prog.spl")
    whole = build_module(forms, "prog.spl")
    split = build_program(read_all(PROGRAM + "(label -14)\n", source_name="prog.spl"), "prog.spl", "prog.parts", 1)
    assert split.folder == "prog.parts"
    assert [name for name, _ in split.parts] == ["fns-%d.py" % k for k in range(1, 8)]
    for _, text in split.parts:
        body = text.split("\n\n", 1)[1]  # after the part's comment
        assert body.startswith(("def _fn", "def _unit")) and body.strip() in whole
    assert build_program(forms, "prog.spl").parts == []  # no folder: whole


def test_only_a_folder_of_parts_and_their_bytecode_counts_as_one(tmp_path: Path) -> None:
    folder = tmp_path / "x.parts"
    assert not is_parts_folder(str(folder))  # absent
    folder.mkdir()
    assert is_parts_folder(str(folder))
    (folder / "fns-1.py").write_text("", encoding="utf-8")
    (folder / "__pycache__").mkdir()
    assert is_parts_folder(str(folder))
    (folder / "fns-x.py").write_text("", encoding="utf-8")
    assert not is_parts_folder(str(folder))


def test_bodies_are_grouped_in_order_up_to_the_part_size() -> None:
    import ast

    fns = ast.parse("def a():\n return 1\ndef b():\n return 2\ndef c():\n return 3\n").body
    assert [[f.name for f in g] for g in group_bodies(fns, 40)] == [["a", "b"], ["c"]]  # type: ignore[attr-defined]
    assert [[f.name for f in g] for g in group_bodies(fns, 1)] == [["a"], ["b"], ["c"]]  # type: ignore[attr-defined]
    assert len(group_bodies(fns, 10_000)) == 1
    assert part_text(fns[:1]) == "def a():\n return 1\n"
