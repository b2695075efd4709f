"""Issue 16.4: io/ confinement is reachable (run option, profile key, CLI) and holds.

Attacks tried: reading outside the workspace; ``find`` fed a path that reads as an
expression (``-delete``) through ``io/glob`` and ``io/grep :include``; git options that
write or read anywhere; a path component swapped for a symlink between the check and
the use, for reads, writes, appends, deletes and moves.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from spell_runtime.data import Keyword
from spell_runtime.effects import EffectContext, paths

import spellc
from spellc.cli import main

K = Keyword


def _io(ctx: EffectContext, name: str) -> Callable[..., Any]:
    fn = ctx.namespace("io").get(K(name))
    assert fn is not None
    return fn  # type: ignore[no-any-return]


def _field(env: Any, name: str) -> Any:
    return env.get(K(name))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A workspace with files, a nested folder and a .git directory, next to a secret outside it."""
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    (ws / ".git").mkdir()
    (ws / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (ws / "a.x").write_text("alpha\n")
    (ws / "sub" / "b.x").write_text("beta\n")
    (tmp_path / "secret.txt").write_text("TOP SECRET\n")
    return ws


def _all_files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


# -- reachable ----------------------------------------------------------------------------------


def test_run_option_confines_io(tree: Path) -> None:
    provider = spellc.TestProvider(responses=["(def r (eval '(io/read-file \"../secret.txt\"))))"])
    out = spellc.run(prompt="read", model_profile=provider, workspace=str(tree))
    assert out["result"].get(K("ok")) is False
    assert out["result"].get(K("err")) == "Path outside workspace: ../secret.txt"


def test_profile_key_confines_io(tree: Path) -> None:
    profile = {"namespaces": {"io": spellc.symbol("stdlib/io")}, "workspace": str(tree)}
    provider = spellc.TestProvider(responses=["(def r (eval '(io/read-file \"a.x\"))))"])
    out = spellc.run(prompt="read", model_profile=provider, agent_profile=profile)
    assert out["result"].get(K("out")) == "alpha\n"  # relative paths start in the workspace


def test_cli_workspace_flag(tree: Path) -> None:
    prog = tree / "p.spl"
    prog.write_text("(eval '[(io/read-file \"/etc/hostname\") (io/read-file \"a.x\")])")
    result = CliRunner().invoke(main, ["run", "--workspace", str(tree), str(prog)])
    assert result.exit_code == 0, result.output
    assert '"Path outside workspace: /etc/hostname"' in result.stdout and '"alpha\\n"' in result.stdout


def test_eval_string_workspace(tree: Path) -> None:
    value = spellc.eval_string("(eval '(io/slurp \"/etc/passwd\"))", workspace=str(tree))
    assert value.get(K("err")) == "Path outside workspace: /etc/passwd"


# -- find never sees an option ---------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda io: io("glob")("*.x", "-delete"),
    lambda io: io("glob")("*", "-delete", spellc.read_string("{:type \"f\"}")),
    lambda io: io("grep")("alpha", "-delete", spellc.read_string("{:include \"*.x\"}")),
    lambda io: io("grep")("alpha", "-fprint", spellc.read_string("{:include \"*.x\"}")),
])
def test_dash_paths_never_reach_find_as_expressions(tree: Path, call: Callable[..., Any]) -> None:
    before = _all_files(tree)
    with EffectContext(workspace=str(tree)) as ctx:
        env = call(lambda name: _io(ctx, name))
    assert _field(env, "ok") is False and "No such file or directory" in _field(env, "err")
    assert _all_files(tree) == before


def test_a_real_dash_directory_is_searched(tree: Path) -> None:
    (tree / "-delete").mkdir()
    (tree / "-delete" / "c.x").write_text("gamma\n")
    with EffectContext(workspace=str(tree)) as ctx:
        env = _io(ctx, "glob")("*.x", "-delete")
    assert _field(env, "out") == "./-delete/c.x\n"
    assert (tree / "a.x").exists()


# -- git ---------------------------------------------------------------------------------------


@pytest.fixture
def repo(tree: Path) -> Path:
    import shutil

    shutil.rmtree(tree / ".git")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    for argv in (["git", "init", "-q"], ["git", "add", "a.x"], ["git", "commit", "-qm", "first"]):
        subprocess.run(argv, cwd=tree, check=True, env=env, capture_output=True)
    return tree


@pytest.mark.parametrize("sub, args", [
    ("diff", ["--output=../pwned"]), ("diff", ["HEAD", "--output", "../pwned"]), ("log", ["-o", "../pwned"]),
    ("diff", ["--no-index", "../secret.txt", "a.x"]), ("diff", ["--ext-diff"]), ("log", ["--textconv"]),
    ("show", ["--exec=touch ../pwned"]), ("log", ["-c", "core.pager=touch ../pwned"]),
    ("status", ["--git-dir=.."]), ("log", ["--work-tree=.."]), ("blame", ["--contents", "../secret.txt", "a.x"]),
    ("rev-parse", ["--git-path", "x"]), ("diff", ["-O../secret.txt"]),
])
def test_git_options_outside_the_allow_list_are_refused(repo: Path, sub: str, args: list[str]) -> None:
    with EffectContext(workspace=str(repo)) as ctx:
        env = _io(ctx, "git")(sub, *args)
    assert _field(env, "ok") is False and _field(env, "exit") is None
    assert _field(env, "err").startswith("io/git: option not allowed for git %s: " % sub)
    assert not (repo.parent / "pwned").exists()


def test_git_paths_are_confined(repo: Path) -> None:
    with EffectContext(workspace=str(repo)) as ctx:
        outside = _io(ctx, "git")("diff", "../secret.txt", "a.x")
        after_separator = _io(ctx, "git")("log", "--", "/etc/passwd")
    assert _field(outside, "err") == "Path outside workspace: ../secret.txt"
    assert _field(after_separator, "err") == "Path outside workspace: /etc/passwd"


def test_allowed_git_reads_still_work(repo: Path) -> None:
    with EffectContext(workspace=str(repo)) as ctx:
        git = _io(ctx, "git")
        log = git("log", "--oneline", "-n", "1")
        fmt = git("log", "-1", "--format=%s")
        status = git("status", "--porcelain")
        diff = git("diff", "--stat", "HEAD", "--", "a.x")
    assert _field(log, "ok") is True and _field(log, "out").endswith(" first\n")
    assert _field(fmt, "out") == "first\n"
    assert _field(status, "ok") is True and "sub/" in _field(status, "out")
    assert _field(diff, "ok") is True and _field(diff, "out") == ""


# -- no symlink-swap window ------------------------------------------------------------------


@pytest.fixture
def swapping(tree: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``resolve`` checks a path under ``sub`` while it is a real directory; right after the check
    ``sub`` becomes a link to a directory outside the workspace."""
    real_resolve = paths.resolve
    outside = tree.parent / "outside"
    outside.mkdir()
    (outside / "b.x").write_text("OUTSIDE\n")

    def resolve_then_swap(ctx: EffectContext, path: str, *, follow: bool = True) -> str:
        checked = real_resolve(ctx, path, follow=follow)
        if path.startswith("sub/") and not (tree / "sub").is_symlink():
            (tree / "sub").rename(tree / "sub-moved")
            (tree / "sub").symlink_to(outside)
        return checked

    for module in ("io_read", "io_write", "io_fs"):
        monkeypatch.setattr("spell_runtime.effects.%s.resolve" % module, resolve_then_swap)
    return outside


def test_swapped_read_is_refused(tree: Path, swapping: Path) -> None:
    with EffectContext(workspace=str(tree)) as ctx:
        env = _io(ctx, "read-file")("sub/b.x")
    assert _field(env, "ok") is False and _field(env, "err") == "Path outside workspace: sub/b.x"


@pytest.mark.parametrize("call", [
    lambda io: io("write-file")("sub/b.x", "PWNED"),
    lambda io: io("spit")("sub/b.x", "PWNED", spellc.read_string("{:append true}")),
    lambda io: io("delete")("sub/b.x"),
    lambda io: io("move")("a.x", "sub/b.x"),
    lambda io: io("copy")("a.x", "sub/b.x"),
    lambda io: io("str-replace")("sub/b.x", "OUTSIDE", "PWNED"),
])
def test_swapped_writes_never_touch_the_outside(tree: Path, swapping: Path, call: Callable[..., Any]) -> None:
    with EffectContext(workspace=str(tree)) as ctx:
        env = call(lambda name: _io(ctx, name))
    assert _field(env, "ok") is False and "Path outside workspace" in _field(env, "err")
    assert (swapping / "b.x").read_text() == "OUTSIDE\n"
    assert sorted(p.name for p in swapping.iterdir()) == ["b.x"]


def test_unswapped_writes_work(tree: Path) -> None:
    with EffectContext(workspace=str(tree)) as ctx:
        io = lambda name: _io(ctx, name)  # noqa: E731
        assert _field(io("write-file")("sub/new.txt", "one\n"), "ok") is True
        assert _field(io("spit")("sub/new.txt", "two\n", spellc.read_string("{:append true}")), "ok") is True
        assert _field(io("move")("sub/new.txt", "moved.txt"), "ok") is True
        assert _field(io("copy")("moved.txt", "sub/copy.txt"), "ok") is True
        assert _field(io("delete")("moved.txt"), "ok") is True
    assert (tree / "sub" / "copy.txt").read_text() == "one\ntwo\n"
    assert not (tree / "moved.txt").exists()
