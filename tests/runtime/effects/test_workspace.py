"""Workspace confinement: '..', absolute paths and symlinks that leave the root are refused."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from effects_support import field
from spell_runtime.data import Keyword, vec
from spell_runtime.effects import EffectContext

Member = Callable[..., Any]


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (root / "inside.txt").write_text("inside")
    (root / "sub").mkdir()
    (root / "escape").symlink_to(outside)
    (root / "escape-file").symlink_to(outside / "secret.txt")
    (root / "ok-link").symlink_to(root / "inside.txt")
    return root, outside


@pytest.fixture
def wio(layout: tuple[Path, Path]) -> Iterator[Callable[[str], Member]]:
    root, _ = layout
    with EffectContext(workspace=str(root)) as ctx:
        ns = ctx.namespace("io")
        yield lambda name: ns.get(Keyword(name))


def refused(env: Any, path: str) -> bool:
    return field(env, "ok") is False and field(env, "err") == f"Path outside workspace: {path}"


def test_paths_inside_are_allowed(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert field(wio("slurp")("inside.txt"), "out") == "inside"
    assert field(wio("slurp")("sub/../inside.txt"), "out") == "inside"
    assert field(wio("slurp")(str(root / "inside.txt")), "out") == "inside"
    assert field(wio("slurp")("ok-link"), "out") == "inside"
    assert wio("cwd")() == str(root)


@pytest.mark.parametrize("path", ["../outside/secret.txt", "sub/../../outside/secret.txt", "escape/secret.txt",
                                  "escape-file"])
def test_escapes_are_refused_for_reads(wio: Callable[[str], Member], path: str) -> None:
    for fn in ("slurp", "read-file", "read-lines", "slurp-bytes", "stat", "ls"):
        assert refused(wio(fn)(path), path), fn
    assert wio("exists?")(path) is False
    assert wio("directory?")(path) is False


def test_absolute_path_outside_is_refused(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    _, outside = layout
    secret = str(outside / "secret.txt")
    assert refused(wio("slurp")(secret), secret)
    assert refused(wio("read-lines")("/etc/passwd"), "/etc/passwd")


def test_escapes_are_refused_for_writes(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    _, outside = layout
    assert refused(wio("write-file")("../outside/new.txt", "x"), "../outside/new.txt")
    assert refused(wio("write-file")("escape/new.txt", "x"), "escape/new.txt")
    assert refused(wio("spit")("escape-file", "x"), "escape-file")
    assert refused(wio("str-replace")("escape-file", "secret", "gone"), "escape-file")
    assert refused(wio("replace-lines")("escape-file", 1, 2, "gone"), "escape-file")
    assert refused(wio("mkdirs")("../outside/d"), "../outside/d")
    assert refused(wio("copy")("inside.txt", "../outside/copy.txt"), "../outside/copy.txt")
    assert refused(wio("copy")("escape-file", "stolen.txt"), "escape-file")
    assert refused(wio("move")("inside.txt", "escape/moved.txt"), "escape/moved.txt")
    assert refused(wio("delete")("../outside/secret.txt"), "../outside/secret.txt")
    assert sorted(os.listdir(outside)) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == "secret"


def test_deleting_an_escaping_link_removes_only_the_link(wio: Callable[[str], Member],
                                                         layout: tuple[Path, Path]) -> None:
    root, outside = layout
    assert field(wio("delete")("escape-file"), "ok") is True
    assert not (root / "escape-file").exists() and (outside / "secret.txt").exists()


def test_writes_inside_work(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert field(wio("write-file")("new/dir/f.txt", "v"), "ok") is True
    assert (root / "new/dir/f.txt").read_text() == "v"


def test_process_search_paths_are_confined(wio: Callable[[str], Member]) -> None:
    env = wio("grep")("secret", "../outside")
    assert field(env, "ok") is False and field(env, "exit") is None and field(env, "out") == ""
    assert field(env, "err") == "Path outside workspace: ../outside"
    env = wio("glob")("*.txt", "escape")
    assert field(env, "err") == "Path outside workspace: escape"
    assert field(wio("grep")("inside", "."), "out") == "./inside.txt:1:inside\n"


def test_processes_start_in_the_workspace(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert field(wio("exec")(vec(["pwd"])), "out") == f"{root}\n"


def test_temp_files_are_made_inside(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    root, _ = layout
    path = field(wio("temp-file")(), "out")
    assert os.path.dirname(path) == str(root)


def test_workspace_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        EffectContext(workspace=str(tmp_path / "nope"))


def test_unresolvable_paths_fail_cleanly(wio: Callable[[str], Member], layout: tuple[Path, Path]) -> None:
    root, _ = layout
    assert field(wio("slurp")("a\0b"), "err") == "Invalid path: embedded null byte"
    (root / "loop").symlink_to(root / "loop")
    assert field(wio("slurp")("loop"), "err") == "Error reading file: loop (Too many levels of symbolic links)"
    assert wio("exists?")("a\0b") is False
