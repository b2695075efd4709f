"""Directories, file manipulation and raw-valued io/ functions (runtime.md §2.2.4, §1.6)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from effects_support import field, keys
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.effects import EffectContext
from spell_runtime.errors import SpellArgumentError

Io = Callable[[str], Callable[..., Any]]


def test_exists_and_directory_are_raw_booleans(tmp_path: Path, io: Io) -> None:
    (tmp_path / "a.txt").write_text("x")
    (tmp_path / "d").mkdir()
    assert io("exists?")("a.txt") is True and io("exists?")("zz.txt") is False
    assert io("directory?")("d") is True and io("directory?")("a.txt") is False


def test_cwd_is_the_context_directory(tmp_path: Path, io: Io) -> None:
    assert io("cwd")() == str(tmp_path)


def test_cwd_defaults_to_process_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with EffectContext() as ctx:
        io = ctx.namespace("io")
        assert io.get(Keyword("cwd"))() == str(tmp_path)
        (tmp_path / "rel.txt").write_text("r")
        assert field(io.get(Keyword("slurp"))("rel.txt"), "out") == "r"


def test_ls_sorted_by_utf16_with_directory_slashes(tmp_path: Path, io: Io) -> None:
    (tmp_path / "b.txt").write_text("12345")
    (tmp_path / "sub").mkdir()
    (tmp_path / "\U0001F600.txt").write_text("")
    (tmp_path / "\uffee.txt").write_text("")
    (tmp_path / "A").write_text("")
    env = io("ls")(".")
    entries = [(e.get(Keyword("name")), e.get(Keyword("size"))) for e in field(env, "out")]
    names = [n for n, _ in entries]
    assert names == ["A", "b.txt", "sub/", "\U0001F600.txt", "\uffee.txt"]
    assert dict(entries)["b.txt"] == 5
    assert all(list(e.keys()) == [Keyword("name"), Keyword("size")] for e in field(env, "out"))


def test_ls_failures(tmp_path: Path, io: Io) -> None:
    (tmp_path / "f").write_text("")
    assert field(io("ls")("f"), "err") == "Not a directory: f"
    assert field(io("ls")("missing"), "err") == "Not a directory: missing"


def test_mkdir_and_mkdirs(tmp_path: Path, io: Io) -> None:
    assert field(io("mkdir")("d"), "out") == "d"
    assert field(io("mkdir")("d"), "err") == "Already exists: d"
    assert field(io("mkdir")("x/y"), "err") == "Failed to create directory: x/y"
    assert field(io("mkdirs")("x/y/z"), "out") == "x/y/z" and (tmp_path / "x/y/z").is_dir()
    assert field(io("mkdirs")("x/y/z"), "ok") is True
    (tmp_path / "file").write_text("")
    assert field(io("mkdirs")("file/sub"), "err") == "Failed to create directories: file/sub"


def test_delete(tmp_path: Path, io: Io) -> None:
    (tmp_path / "f").write_text("")
    (tmp_path / "full").mkdir()
    (tmp_path / "full/x").write_text("")
    (tmp_path / "empty").mkdir()
    assert field(io("delete")("f"), "out") == "f" and not (tmp_path / "f").exists()
    assert field(io("delete")("f"), "err") == "File not found: f"
    assert field(io("delete")("full"), "err") == "Failed to delete (directory not empty?): full"
    assert field(io("delete")("empty"), "ok") is True


def test_delete_removes_a_link_not_its_target(tmp_path: Path, io: Io) -> None:
    (tmp_path / "target").write_text("t")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert field(io("delete")("link"), "ok") is True
    assert (tmp_path / "target").read_text() == "t"


def test_copy_and_move_overwrite(tmp_path: Path, io: Io) -> None:
    (tmp_path / "a").write_text("A")
    (tmp_path / "b").write_text("B")
    os.chmod(tmp_path / "a", 0o750)
    assert field(io("copy")("a", "b"), "out") == "b"
    assert (tmp_path / "b").read_text() == "A" and (tmp_path / "a").exists()
    assert (tmp_path / "b").stat().st_mode & 0o777 == 0o750
    (tmp_path / "c").write_text("C")
    assert field(io("move")("c", "b"), "out") == "b"
    assert (tmp_path / "b").read_text() == "C" and not (tmp_path / "c").exists()


def test_copy_move_failures(tmp_path: Path, io: Io) -> None:
    assert field(io("copy")("none", "x"), "err") == "Source not found: none"
    assert field(io("move")("none", "x"), "err") == "Source not found: none"
    (tmp_path / "a").write_text("A")
    assert field(io("copy")("a", "no/such/dir/x"), "err").startswith("Error copying: ")
    assert field(io("move")("a", "no/such/dir/x"), "err").startswith("Error moving: ")
    (tmp_path / "d").mkdir()
    assert field(io("copy")("d", "e"), "err") == "Error copying: d (Is a directory)"


def test_stat(tmp_path: Path, io: Io) -> None:
    (tmp_path / "f").write_text("hello")
    env = io("stat")("f")
    out = field(env, "out")
    assert [str(k) for k in out.keys()] == [":size", ":modified", ":readable", ":writable", ":executable",
                                            ":directory"]
    assert out.get(Keyword("size")) == 5 and out.get(Keyword("directory")) is False
    assert abs(out.get(Keyword("modified")) - int((tmp_path / "f").stat().st_mtime * 1000)) <= 1
    assert type(out.get(Keyword("modified"))) is int
    assert field(io("stat")("."), "out").get(Keyword("directory")) is True
    assert field(io("stat")("nope"), "err") == "File not found: nope"


def test_temp_file(tmp_path: Path, io: Io) -> None:
    env = io("temp-file")()
    path = field(env, "out")
    assert os.path.isabs(path) and os.path.basename(path).startswith("spell") and path.endswith(".tmp")
    assert os.path.getsize(path) == 0
    os.unlink(path)
    path2 = field(io("temp-file")("pre-", ".txt"), "out")
    assert os.path.basename(path2).startswith("pre-") and path2.endswith(".txt")
    os.unlink(path2)
    with pytest.raises(SpellArgumentError):
        io("temp-file")("only-prefix")


def test_temp_file_failure_is_an_envelope(tmp_path: Path) -> None:
    with EffectContext(temp_dir=str(tmp_path / "missing")) as ctx:
        env = ctx.namespace("io").get(Keyword("temp-file"))()
        assert field(env, "ok") is False and field(env, "err").startswith("Error creating temp file: ")


def test_env(io: Io, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPELL_EFFECTS_TEST", "v1")
    assert io("env")("SPELL_EFFECTS_TEST") == "v1"
    assert io("env")("SPELL_EFFECTS_TEST_MISSING") is None
    everything = io("env")()
    assert isinstance(everything, SpellMap) and everything.get("SPELL_EFFECTS_TEST") == "v1"


def test_receipts_are_envelopes_without_truncated(tmp_path: Path, io: Io) -> None:
    (tmp_path / "a").write_text("")
    for env in (io("mkdir")("q"), io("copy")("a", "b"), io("stat")("a"), io("ls")(".")):
        assert keys(env) == [":ok", ":out", ":err"]
