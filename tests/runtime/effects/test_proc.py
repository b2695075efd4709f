"""io/sh, io/exec, io/grep, io/glob, io/git, io/sh-test with real subprocesses (runtime.md §1.4-1.5, §2.2.5)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from effects_support import field, keys
from spell_runtime.data import Keyword, SpellFn, Symbol, spell_map, vec
from spell_runtime.effects import EffectContext
from spell_runtime.effects.io_proc import default_timeout, shell_argv, sort_lines
from spell_runtime.errors import SpellArgumentError

Io = Callable[[str], Callable[..., Any]]


def timeout(v: Any) -> Any:
    return spell_map(Keyword("timeout"), v)


def test_sh_success_keeps_exact_output(io: Io) -> None:
    env = io("sh")("printf ' a \\n\\n'")
    assert keys(env) == [":ok", ":exit", ":out", ":err"]
    assert field(env, "ok") is True and field(env, "exit") == 0
    assert field(env, "out") == " a \n\n" and field(env, "err") is None


def test_sh_concatenates_parts_and_keeps_stderr_on_success(io: Io) -> None:
    env = io("sh")("echo ", "hi", "; echo oops 1>&2")
    assert field(env, "out") == "hi\n" and field(env, "err") == "oops\n" and field(env, "ok") is True


def test_sh_nonzero_exit_keeps_stdout(io: Io) -> None:
    env = io("sh")("echo partial; exit 3")
    assert field(env, "ok") is False and field(env, "exit") == 3 and field(env, "out") == "partial\n"
    assert field(env, "err") is None


def test_sh_runs_in_context_directory_with_empty_stdin(tmp_path: Path, io: Io) -> None:
    assert field(io("sh")("pwd"), "out") == f"{tmp_path}\n"
    start = time.monotonic()
    env = io("sh")("cat; echo done")
    assert field(env, "out") == "done\n" and time.monotonic() - start < 5


def test_sh_timeout_kills_the_process_group(tmp_path: Path, io: Io) -> None:
    start = time.monotonic()
    env = io("sh")("echo early; sleep 30 & sleep 30; echo late", timeout(Fraction(1, 2)))
    elapsed = time.monotonic() - start
    assert keys(env) == [":ok", ":exit", ":out", ":err"]
    assert field(env, "ok") is False and field(env, "exit") == -1 and field(env, "out") == ""
    assert field(env, "err") == "Command timed out after 1 seconds"
    assert elapsed < 10


def test_default_timeout_from_context_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPELL_SH_TIMEOUT", raising=False)
    assert default_timeout(EffectContext()) == 30
    monkeypatch.setenv("SPELL_SH_TIMEOUT", "7")
    assert default_timeout(EffectContext()) == 7
    assert default_timeout(EffectContext(sh_timeout=2.5)) == 3
    assert default_timeout(EffectContext(sh_timeout=0)) is None


def test_context_timeout_applies_to_exec(tmp_path: Path) -> None:
    with EffectContext(cwd=str(tmp_path), sh_timeout=1) as ctx:
        env = ctx.namespace("io").get(Keyword("exec"))(vec(["sleep", "20"]))
        assert field(env, "exit") == -1 and field(env, "err") == "Command timed out after 1 seconds"


@pytest.mark.parametrize("value", [None, 0])
def test_timeout_nil_or_zero_disables(io: Io, value: Any) -> None:
    assert field(io("sh")("echo x", timeout(value)), "out") == "x\n"


@pytest.mark.parametrize("value,message", [
    ("60", "sh: :timeout must be numeric"),
    (True, "sh: :timeout must be numeric"),
    (-1, "sh: :timeout must be >= 0"),
    (float("nan"), "sh: :timeout must be numeric"),
])
def test_bad_timeouts_raise(io: Io, value: Any, message: str) -> None:
    with pytest.raises(SpellArgumentError) as info:
        io("sh")("echo x", timeout(value))
    assert info.value.message == message
    assert info.value.data.get(Keyword("timeout")) is value


def test_non_string_segment_raises_with_args_data(io: Io) -> None:
    with pytest.raises(SpellArgumentError) as info:
        io("sh")("make", Keyword("timeout"), 60)
    assert info.value.message == ("io/sh: all command segments must be strings, got :timeout. "
                                  "For options, pass a map as the last argument: {:timeout 60}")
    assert list(info.value.data.get(Keyword("args"))) == ["make", Keyword("timeout"), 60]


def test_exec_runs_without_shell(io: Io) -> None:
    env = io("exec")(vec(["printf", "%s|", "a b", "$HOME"]))
    assert field(env, "out") == "a b|$HOME|" and field(env, "exit") == 0


def test_exec_launch_failure_has_exit_nil(io: Io) -> None:
    env = io("exec")(vec(["definitely-not-a-program-xyz"]))
    assert keys(env) == [":ok", ":exit", ":out", ":err"]
    assert field(env, "ok") is False and field(env, "exit") is None and field(env, "out") == ""
    assert "definitely-not-a-program-xyz" in field(env, "err")


def test_exec_bad_argv_raises(io: Io) -> None:
    with pytest.raises(SpellArgumentError, match="io/exec: all argv entries must be strings, got 1"):
        io("exec")(vec(["echo", 1]))


def test_process_output_is_decoded_with_replacement(io: Io) -> None:
    assert field(io("sh")("printf 'a\\377b'"), "out") == "a\ufffdb"


def test_signal_exit_is_reported_like_a_shell(io: Io) -> None:
    env = io("exec")(vec(["sh", "-c", "kill -9 $$"]))
    assert field(env, "exit") == 137 and field(env, "ok") is False


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.py").write_text("def handle():\n    return 1\n")
    (tmp_path / "src/b.txt").write_text("handle it\nHANDLE upper\n")
    (tmp_path / "src/deep").mkdir()
    (tmp_path / "src/deep/c.py").write_text("x = 'handle'\n")
    return tmp_path


def test_grep_matches_with_names_and_numbers(tree: Path, io: Io) -> None:
    env = io("grep")("def handle", "src")
    assert field(env, "ok") is True and field(env, "exit") == 0
    assert field(env, "out") == "src/a.py:1:def handle():\n"


def test_grep_no_match_is_success_with_exit_1(tree: Path, io: Io) -> None:
    env = io("grep")("nothing-here", "src")
    assert keys(env) == [":ok", ":exit", ":out", ":err"]
    assert field(env, "ok") is True and field(env, "exit") == 1
    assert field(env, "out") == "" and field(env, "err") is None


def test_grep_error_stays_a_failure(tree: Path, io: Io) -> None:
    env = io("grep")("(", "src")
    assert field(env, "ok") is False and field(env, "exit") == 2 and field(env, "err")
    env = io("grep")("x", "missing-dir")
    assert field(env, "ok") is False and field(env, "exit") == 2


def test_grep_options_and_pattern_collections(tree: Path, io: Io) -> None:
    opts = spell_map(Keyword("ignore-case"), True, Keyword("include"), "*.txt")
    out = field(io("grep")("handle", "src", opts), "out")
    assert sorted(out.splitlines()) == ["src/b.txt:1:handle it", "src/b.txt:2:HANDLE upper"]
    out = field(io("grep")(vec(["^def", "= 'h"]), "src"), "out")
    assert sorted(out.splitlines()) == ["src/a.py:1:def handle():", "src/deep/c.py:1:x = 'handle'"]
    out = field(io("grep")("handle", "src/b.txt", spell_map(Keyword("max-count"), "1")), "out")
    assert out == "src/b.txt:1:handle it\n"
    out = field(io("grep")("return", "src/a.py", spell_map(Keyword("context"), 1)), "out")
    assert out == "src/a.py-1-def handle():\nsrc/a.py:2:    return 1\n"


def test_grep_quotes_hostile_patterns(tree: Path, io: Io) -> None:
    env = io("grep")("'; touch pwned; echo '", "src")
    assert field(env, "ok") is True and field(env, "exit") == 1
    assert not (tree / "pwned").exists()


@pytest.mark.parametrize("pattern,path,opts,message", [
    (vec([]), "src", None, "io/grep: pattern collection must not be empty"),
    (vec(["a", 1]), "src", None, "io/grep: every pattern in the collection must be a string"),
    (5, "src", None, "io/grep: pattern must be a string or a non-empty collection of strings"),
    ("a", 5, None, "io/grep: path must be strings, got 5"),
    ("a", "src", spell_map(Keyword("include"), 5), "io/grep: :include must be strings, got 5"),
    ("a", "src", spell_map(Keyword("context"), -1), "io/grep: :context must be a non-negative integer, got -1"),
    ("a", "src", spell_map(Keyword("max-count"), "x"),
     'io/grep: :max-count must be a non-negative integer, got "x"'),
    ("a", "src", spell_map(Keyword("context"), 1.5), "io/grep: :context must be a non-negative integer, got 1.5"),
])
def test_grep_argument_errors(io: Io, pattern: Any, path: Any, opts: Any, message: str) -> None:
    with pytest.raises(SpellArgumentError) as info:
        if opts is None:
            io("grep")(pattern, path)
        else:
            io("grep")(pattern, path, opts)
    assert info.value.message == message


def test_glob_sorted_output(tree: Path, io: Io) -> None:
    env = io("glob")("*.py", "src")
    assert field(env, "ok") is True and field(env, "out") == "src/a.py\nsrc/deep/c.py\n"
    env = io("glob")("*", "src", spell_map(Keyword("max-depth"), 1, Keyword("type"), "f"))
    assert field(env, "out") == "src/a.py\nsrc/b.txt\n"
    env = io("glob")("*.none")
    assert field(env, "ok") is True and field(env, "out") == ""
    with pytest.raises(SpellArgumentError, match="io/glob: :max-depth must be a non-negative integer, got -2"):
        io("glob")("*", ".", spell_map(Keyword("max-depth"), -2))


def test_glob_failure_keeps_status_and_stderr(io: Io) -> None:
    env = io("glob")("*", "missing-dir")
    assert field(env, "ok") is False and field(env, "exit") == 1 and "missing-dir" in field(env, "err")


def test_sort_lines_rule() -> None:
    assert sort_lines("b\na\n") == "a\nb\n"
    assert sort_lines("b\r\n\na") == "\na\nb\r\n"
    assert sort_lines("\uffee\n\U0001F600\n") == "\U0001F600\n\uffee\n"


def test_git_allowlist_and_run(tmp_path: Path, io: Io) -> None:
    env = io("git")("push", "origin")
    assert keys(env) == [":ok", ":out", ":err"]
    assert field(env, "ok") is False and field(env, "out") is None
    assert field(env, "err") == ('git subcommand not allowed: "push". '
                                 "Allowed: blame, diff, log, rev-parse, show, status")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    env = io("git")("rev-parse", "--is-inside-work-tree")
    assert field(env, "ok") is True and field(env, "out") == "true\n"
    env = io("git")("log", "-1")
    assert field(env, "ok") is False and field(env, "exit") == 128


def test_sh_test_builds_a_spell_function(io: Io) -> None:
    fn = io("sh-test")("make test")
    assert isinstance(fn, SpellFn) and fn.arity == 0 and len(fn.params) == 0
    (form,) = list(fn.body)
    head, bindings, result = list(form)
    assert head is Symbol("let")
    assert bindings[0] is Symbol("r")
    assert list(bindings[1]) == [Symbol("sh", "io"), "make test"]
    assert [str(k) for k in result.keys()] == [":pass", ":output"]
    output = list(result.get(Keyword("output")))
    assert output[0] is Symbol("str") and output[1:3] == ["COMMAND: ", "make test"]
    with pytest.raises(SpellArgumentError):
        io("sh-test")(5)


def test_shell_argv_uses_shell_or_docker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPELL_DOCKER_CONTAINER", raising=False)
    monkeypatch.setenv("SHELL", "/bin/sh")
    assert shell_argv("ls") == ["/bin/sh", "-c", "ls"]
    monkeypatch.delenv("SHELL")
    assert shell_argv("ls") == ["bash", "-c", "ls"]
    monkeypatch.setenv("SPELL_DOCKER_CONTAINER", "box")
    monkeypatch.setenv("SPELL_DOCKER_WORKDIR", "/w")
    assert shell_argv("ls") == ["docker", "exec", "-i", "-w", "/w", "box", "bash", "-c", "ls"]
