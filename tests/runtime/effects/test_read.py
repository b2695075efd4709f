"""io/read-file, io/read-lines, io/slurp, io/slurp-bytes against real files (runtime.md §2.2.1-2.2.2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from effects_support import field, keys
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data import BigInt, Keyword, LineVector, spell_map
from spell_runtime.effects.selection import RANGE_MESSAGE, WINDOW_MESSAGE, char_window
from spell_runtime.errors import HostError, SpellArgumentError

Io = Callable[[str], Callable[..., Any]]
MIXED = "one\r\ntwo\rthree\n\nfive"
ASTRAL = "A\U0001F600BC\r\nD\U0001F603E\rF\n\nG"


def write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_bytes(text.encode("utf-8"))
    return name


def window(a: Any = None, b: Any = None) -> Any:
    pairs: list[Any] = []
    if a is not None:
        pairs += [Keyword("char-start"), a]
    if b is not None:
        pairs += [Keyword("char-end"), b]
    return spell_map(*pairs)


def rows(env: Any) -> tuple[list[str], int | None]:
    out = field(env, "out")
    assert isinstance(out, LineVector)
    assert len(out.segments) == 1
    return list(out), out.segments[0][0]


def test_read_file_whole_text_is_exact(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "p.txt", MIXED)
    env = io("read-file")(p)
    assert keys(env) == [":ok", ":out", ":err"]
    assert field(env, "out") == MIXED and field(env, "ok") is True


@pytest.mark.parametrize("start,end,expected", [
    (2, 4, "two\rthree\n"),
    (0, 3, "one\r\ntwo\r"),
    (5, None, "five"),
    (4, 2, ""),
    (9, 12, ""),
    (-5, None, MIXED),
])
def test_read_file_ranges_keep_terminators(tmp_path: Path, io: Io, start: int, end: int | None,
                                           expected: str) -> None:
    p = write(tmp_path, "p.txt", MIXED)
    assert field(io("read-file")(p, start, end), "out") == expected


def test_read_lines_numbered_rows(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "p.txt", MIXED)
    assert rows(io("read-lines")(p)) == (["one", "two", "three", "", "five"], 1)
    assert rows(io("read-lines")(p, 20, 21)) == ([], 20)
    assert rows(io("read-lines")(p, 4, 2)) == ([], 4)
    assert rows(io("read-lines")(p, -5, None)) == (["one", "two", "three", "", "five"], 1)
    assert rows(io("read-lines")(p, 2, 4)) == (["two", "three"], 2)
    assert rows(io("read-lines")(p, 1, 0)) == ([], 1)


@pytest.mark.parametrize("text,expected", [
    ("", []), ("\n", [""]), ("a\nb\n", ["a", "b"]), ("a\nb", ["a", "b"]), ("a\n\nb", ["a", "", "b"]),
    ("a\r\n\r\nb\r", ["a", "", "b"]), ("\r\r", ["", ""]),
])
def test_line_model_has_no_phantom_final_line(tmp_path: Path, io: Io, text: str, expected: list[str]) -> None:
    p = write(tmp_path, "f.txt", text)
    assert rows(io("read-lines")(p))[0] == expected


@pytest.mark.parametrize("a,b,expected", [
    (1, 3, ["\U0001F600", "\U0001F603"]),
    (2, 4, ["B", "E"]),
    (None, 2, ["A", "D"]),
    (3, None, ["BC", "E"]),
    (None, 0, ["", ""]),
    (99, None, ["", ""]),
])
def test_char_windows_never_split_a_surrogate_pair(tmp_path: Path, io: Io, a: int | None, b: int | None,
                                                   expected: list[str]) -> None:
    p = write(tmp_path, "q.txt", ASTRAL)
    assert rows(io("read-lines")(p, 1, 3, window(a, b)))[0] == expected


def test_read_file_window_keeps_terminators(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "q.txt", ASTRAL)
    assert field(io("read-file")(p, 1, 3, window(1, 3)), "out") == "\U0001F600\r\n\U0001F603\r"
    assert field(io("read-file")(p, 1, 3, window(None, 0)), "out") == "\r\n\r"


def test_window_alone_applies_to_every_line(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "a.txt", "alpha\nbeta\ngamma\n")
    assert rows(io("read-lines")(p, window(1, 3)))[0] == ["lp", "et", "am"]
    assert field(io("read-file")(p, window(0, 1)), "out") == "a\nb\ng\n"


def test_unknown_option_keys_are_ignored_and_end_nil_is_unlimited(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "a.txt", "alpha\n")
    opts = spell_map(Keyword("char-end"), None, Keyword("other"), 5)
    assert rows(io("read-lines")(p, opts))[0] == ["alpha"]


def test_bigint_bounds_are_integral(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "a.txt", "a\nb\n")
    assert rows(io("read-lines")(p, BigInt(2), BigInt(10**30)))[0] == ["b"]


@pytest.mark.parametrize("start,end", [(1.0, 3), (True, 3), (1, 2.5), (1, "3"), (None, 3), ("1", None)])
def test_bad_ranges_raise_before_opening(io: Io, start: Any, end: Any) -> None:
    with pytest.raises(SpellArgumentError) as info:
        io("read-lines")("does-not-exist.txt", start, end)
    assert info.value.message == RANGE_MESSAGE
    assert isinstance(info.value, HostError)


@pytest.mark.parametrize("opts", [
    window(-1, None), window(None, -1), window(3, 2), window(1.0, None),
    spell_map(Keyword("char-start"), None), spell_map(Keyword("char-end"), True), "not a map",
])
def test_bad_windows_raise_before_opening(io: Io, opts: Any) -> None:
    with pytest.raises(SpellArgumentError) as info:
        io("read-file")("does-not-exist.txt", opts)
    assert info.value.message == WINDOW_MESSAGE


def test_missing_file_is_a_failure_envelope(io: Io) -> None:
    for fn in ("read-file", "read-lines", "slurp", "slurp-bytes"):
        env = io(fn)("nope.txt")
        assert keys(env) == [":ok", ":out", ":err"]
        assert field(env, "ok") is False and field(env, "out") is None
        assert field(env, "err") == "File not found: nope.txt"


def test_directory_is_a_read_error_naming_the_path(tmp_path: Path, io: Io) -> None:
    (tmp_path / "d").mkdir()
    err = field(io("slurp")("d"), "err")
    assert err == "Error reading file: d (Is a directory)"


def test_non_string_path_is_an_argument_error(io: Io) -> None:
    with pytest.raises(SpellArgumentError, match="io/read-lines: path must be a string, got 42"):
        io("read-lines")(42)


def test_non_utf8_bytes_become_replacement_characters(tmp_path: Path, io: Io) -> None:
    (tmp_path / "bin.txt").write_bytes(b"ok\xff\xfeend\nz")
    assert field(io("slurp")("bin.txt"), "out") == "ok\ufffd\ufffdend\nz"
    assert rows(io("read-lines")("bin.txt"))[0] == ["ok\ufffd\ufffdend", "z"]
    assert field(io("slurp-bytes")("bin.txt"), "out") == b"ok\xff\xfeend\nz"


def test_large_range_read_stops_at_end(tmp_path: Path, io: Io) -> None:
    (tmp_path / "big.txt").write_text("".join(f"line {i}\n" for i in range(1, 200001)))
    assert rows(io("read-lines")("big.txt", 181, 184)) == (["line 181", "line 182", "line 183"], 181)
    assert field(io("read-file")("big.txt", 199999, None), "out") == "line 199999\nline 200000\n"


def test_results_never_carry_truncated(tmp_path: Path, io: Io) -> None:
    p = write(tmp_path, "a.txt", "abc\n")
    for env in (io("read-file")(p, 1, 2, window(0, 1)), io("read-lines")(p), io("slurp")(p)):
        assert ":truncated" not in keys(env)


def _reference_window(s: str, a: int, b: int | None) -> str:
    units = s.encode("utf-16-le", "surrogatepass")
    out, offset = [], 0
    for ch in s:
        w = len(ch.encode("utf-16-le", "surrogatepass")) // 2
        if a <= offset and (b is None or offset + w <= b):
            out.append(ch)
        offset += w
    assert offset * 2 == len(units)
    return "".join(out)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(["a", "b", "\u00e9", "\U0001F600", "\U00010348", "z"]), max_size=30),
       st.integers(0, 40), st.one_of(st.none(), st.integers(0, 40)))
def test_window_matches_a_utf16_model(s: str, a: int, b: int | None) -> None:
    if b is not None and b < a:
        a, b = b, a
    got = char_window(s, a, b)
    assert got == _reference_window(s, a, b)
    got_units = len(got.encode("utf-16-le", "surrogatepass")) // 2
    assert got_units <= (b if b is not None else 10**9) - a or got == ""
