"""io/write-file, io/spit, io/str-replace, io/replace-lines (runtime.md §2.2.3), including atomicity."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from effects_support import field, keys
from spell_runtime.data import Keyword, plist, spell_map, vec
from spell_runtime.effects.io_write import apply_edits, split_lines
from spell_runtime.errors import SpellArgumentError

Io = Callable[[str], Callable[..., Any]]


def test_write_file_creates_parents_and_returns_receipt(tmp_path: Path, io: Io) -> None:
    env = io("write-file")("out/deep/n.txt", "p\nq")
    assert keys(env) == [":ok", ":out", ":err"]
    assert field(env, "out") == "out/deep/n.txt" and field(env, "ok") is True
    assert (tmp_path / "out/deep/n.txt").read_bytes() == b"p\nq"
    assert list(field(io("read-lines")("out/deep/n.txt"), "out")) == ["p", "q"]


def test_write_file_stringifies_content_like_str(tmp_path: Path, io: Io) -> None:
    io("write-file")("n.txt", 42)
    assert (tmp_path / "n.txt").read_text() == "42"
    io("write-file")("nil.txt", None)
    assert (tmp_path / "nil.txt").read_text() == ""


def test_spit_overwrites_or_appends(tmp_path: Path, io: Io) -> None:
    io("spit")("log.txt", "a\n")
    io("spit")("log.txt", "b\n", spell_map(Keyword("append"), True))
    assert (tmp_path / "log.txt").read_text() == "a\nb\n"
    assert field(io("spit")("log.txt", "c"), "out") == "log.txt"
    assert (tmp_path / "log.txt").read_text() == "c"


def test_write_keeps_permissions_and_writes_through_symlinks(tmp_path: Path, io: Io) -> None:
    target = tmp_path / "script.sh"
    target.write_text("old")
    target.chmod(0o755)
    (tmp_path / "link.sh").symlink_to(target)
    assert field(io("write-file")("link.sh", "new"), "ok") is True
    assert (tmp_path / "link.sh").is_symlink()
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755


def test_failed_write_leaves_old_content_and_no_temp_file(tmp_path: Path, io: Io,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "keep.txt").write_text("precious")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    env = io("write-file")("keep.txt", "replacement that never lands")
    assert field(env, "ok") is False
    assert field(env, "err").startswith("Error writing file: ")
    assert "No space left on device" in field(env, "err")
    assert (tmp_path / "keep.txt").read_text() == "precious"
    assert sorted(os.listdir(tmp_path)) == ["keep.txt"]


def test_write_to_a_directory_fails_with_envelope(tmp_path: Path, io: Io) -> None:
    (tmp_path / "d").mkdir()
    assert field(io("write-file")("d", "x"), "err") == "Error writing file: d (Is a directory)"


def test_write_non_string_path_raises(io: Io) -> None:
    with pytest.raises(SpellArgumentError):
        io("write-file")(Keyword("a"), "x")


def test_str_replace_unique_occurrence(tmp_path: Path, io: Io) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta $1 \\n\ngamma\n")
    env = io("str-replace")("a.txt", "beta $1 \\n", "B$2\\t")
    assert field(env, "ok") is True and field(env, "out") == "a.txt"
    assert (tmp_path / "a.txt").read_text() == "alpha\nB$2\\t\ngamma\n"


@pytest.mark.parametrize("old,new,err", [
    (None, "x", "old-str cannot be nil"),
    ("a", None, "new-str cannot be nil"),
    ("", "x", "old-str cannot be empty"),
    ("zzz", "q", 'String not found in file: "zzz"'),
    ("a", "q", 'String appears 3 times (must be unique): "a"'),
    ('"\n', "q", 'String not found in file: "\\"\\n"'),
])
def test_str_replace_failures(tmp_path: Path, io: Io, old: Any, new: Any, err: str) -> None:
    (tmp_path / "a.txt").write_text("banana")
    env = io("str-replace")("a.txt", old, new)
    assert field(env, "ok") is False and field(env, "out") is None and field(env, "err") == err
    assert (tmp_path / "a.txt").read_text() == "banana"


def test_str_replace_all_and_missing_file(tmp_path: Path, io: Io) -> None:
    (tmp_path / "a.txt").write_text("aaaa")
    io("str-replace")("a.txt", "aa", "b", spell_map(Keyword("all"), True))
    assert (tmp_path / "a.txt").read_text() == "bb"
    assert field(io("str-replace")("nope.txt", "a", "b"), "err") == "File not found: nope.txt"


def test_str_replace_preserves_undecodable_bytes_elsewhere(tmp_path: Path, io: Io) -> None:
    (tmp_path / "l1.txt").write_bytes(b"caf\xe9 = 1\nx = 2\n")
    assert field(io("str-replace")("l1.txt", "x = 2", "x = 3"), "ok") is True
    assert (tmp_path / "l1.txt").read_bytes() == b"caf\xe9 = 1\nx = 3\n"


def test_str_replace_wrong_type_raises(tmp_path: Path, io: Io) -> None:
    (tmp_path / "a.txt").write_text("a")
    with pytest.raises(SpellArgumentError, match="old-str must be a string"):
        io("str-replace")("a.txt", 1, "x")


@pytest.mark.parametrize("text,edits,expected", [
    ("aaa\nbbb\nccc\n", [(2, 3, "BBB")], "aaa\nBBB\nccc\n"),
    ("aaa\nccc\n", [(2, 2, "bbb")], "aaa\nbbb\nccc\n"),
    ("".join(f"{i}\n" for i in range(1, 11)), [(2, 4, "two-three"), (7, 10, "A\nB\nC\nD")],
     "1\ntwo-three\n4\n5\n6\nA\nB\nC\nD\n10\n"),
    ("a\nb\nc\nd\n", [(1, 3, "AB"), (3, 5, "CD")], "AB\nCD\n"),
    ("a\r\nb\r\nc", [(2, 3, "")], "a\nc"),
    ("", [(1, 2, "x")], "x"),
    ("a\nb\n", [(3, 3, "c\n")], "a\nb\nc\n"),
])
def test_replace_lines_examples(tmp_path: Path, io: Io, text: str, edits: list[tuple[int, int, str]],
                                expected: str) -> None:
    (tmp_path / "f.txt").write_text(text, newline="")
    if len(edits) == 1:
        env = io("replace-lines")("f.txt", *edits[0])
    else:
        env = io("replace-lines")("f.txt", vec(vec(e) for e in edits))
    assert field(env, "ok") is True and field(env, "out") == "f.txt"
    assert (tmp_path / "f.txt").read_bytes().decode() == expected


@pytest.mark.parametrize("edits,err", [
    ([(0, 1, "x")], "Start line 0 out of range (file has 3 lines)"),
    ([(5, 5, "x")], "Start line 5 out of range (file has 3 lines)"),
    ([(2, 1, "x")], "End line 1 out of range (start=2, file has 3 lines)"),
    ([(2, 5, "x")], "End line 5 out of range (start=2, file has 3 lines)"),
    ([(1, 3, "x"), (2, 4, "y")], "Edits have overlapping line ranges"),
    ([(3, 4, "x"), (1, 2, "y"), (2, 4, "z")], "Edits have overlapping line ranges"),
])
def test_replace_lines_validation(tmp_path: Path, io: Io, edits: list[tuple[int, int, str]], err: str) -> None:
    (tmp_path / "f.txt").write_text("a\nb\nc\n")
    env = io("replace-lines")("f.txt", vec(vec(e) for e in edits))
    assert field(env, "ok") is False and field(env, "err") == err
    assert (tmp_path / "f.txt").read_text() == "a\nb\nc\n"


def test_replace_lines_accepts_lists_and_reports_missing_file(io: Io) -> None:
    env = io("replace-lines")("nope.txt", plist([vec([1, 1, "x"])]))
    assert field(env, "err") == "File not found: nope.txt"


@pytest.mark.parametrize("args", [(vec([1, 2]),), (vec([vec([1.0, 2, "x"])]),), (1, 2), (1, 2, 3), (5,)])
def test_replace_lines_bad_shapes_raise(tmp_path: Path, io: Io, args: tuple[Any, ...]) -> None:
    (tmp_path / "f.txt").write_text("a\n")
    with pytest.raises(SpellArgumentError):
        io("replace-lines")("f.txt", *args)


def test_split_lines_semantics() -> None:
    assert split_lines("") == [""]
    assert split_lines("\n\n") == []
    assert split_lines("a\r\nb\n\n") == ["a", "b"]
    assert split_lines("a\rb") == ["a\rb"]


def test_same_start_edits_apply_in_given_order() -> None:
    err, text = apply_edits("a\nb\nc\n", [(2, 2, "x"), (2, 3, "y")])
    assert err is None and text == "a\nx\ny\nc\n"
