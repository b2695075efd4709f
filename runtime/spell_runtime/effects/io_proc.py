"""Processes: ``io/sh``, ``io/exec``, ``io/grep``, ``io/glob``, ``io/git``, ``io/sh-test`` (runtime.md §1.4–1.5, §2.2.5).

Every outcome of a child process is an envelope (§1.4): exit 0 is ``:ok true``,
another exit keeps stdout as ``:out``, a launch failure is ``:exit nil``, a
timeout is ``:exit -1`` with ``:out ""``. stdout/stderr are decoded as UTF-8
with replacement and never trimmed; an empty stderr is ``:err nil``.

Children get an empty stdin (D9: a command that reads stdin must not hang until
the timeout) and their own session, so a timeout can kill the whole process
group — a shell's grandchildren would otherwise keep the output pipes open and
the call would hang past its timeout. A child killed by a signal reports
``128 + signal`` as a shell does (Python would say ``-signal``).

``grep``, ``glob`` and ``git`` run through the same shell path as ``io/sh``
with every argument quoted, as the reference does, so the Docker redirection of
``SPELL_DOCKER_CONTAINER`` applies to them too.
"""

from __future__ import annotations

import math
import os
import shlex
import signal
import subprocess
from typing import TYPE_CHECKING, Any, Optional

from ..data.atoms import Keyword, Symbol
from ..data.fn import SpellFn, is_truthy
from ..data.hashmap import SpellMap
from ..data.plist import plist
from ..data.vector import vec
from ..limits import bounded_wait
from .args import (
    K_ARGS,
    NO_ARG,
    is_number,
    items_of,
    natural_option,
    reject,
    require_map,
    require_strings,
)
from .envelope import envelope, fail
from .git_args import FORBIDDEN_MESSAGE, split_args
from .paths import PathRefused, base_dir, resolve
from .render import pr, string_literal, text

if TYPE_CHECKING:
    from .context import EffectContext

K_TIMEOUT = Keyword("timeout")
K_IGNORE_CASE = Keyword("ignore-case")
K_CONTEXT = Keyword("context")
K_MAX_COUNT = Keyword("max-count")
K_INCLUDE = Keyword("include")
K_MAX_DEPTH = Keyword("max-depth")
K_TYPE = Keyword("type")

DEFAULT_TIMEOUT = 30
GIT_ALLOWED = ("blame", "diff", "log", "rev-parse", "show", "status")
GIT_PREFIX = ("git", "--no-pager", "-c", "core.fsmonitor=false")
"""No pager, and no fsmonitor hook (a repository's config could name a program to run on ``status``)."""
GIT_SAFE_OPTIONS = {sub: ("--no-ext-diff", "--no-textconv") for sub in ("diff", "log", "show")}
"""Never run an external diff or text-conversion program a repository's config names."""


def default_timeout(ctx: EffectContext) -> Optional[int]:
    """Seconds before a process is killed, or None for no limit (the context, then ``SPELL_SH_TIMEOUT``, then 30)."""
    if ctx.sh_timeout is not None:
        seconds: float = ctx.sh_timeout
    else:
        raw = os.environ.get("SPELL_SH_TIMEOUT")
        try:
            seconds = int(raw) if raw is not None else DEFAULT_TIMEOUT
        except ValueError:
            seconds = DEFAULT_TIMEOUT
    return None if seconds <= 0 else math.ceil(seconds)


def timeout_option(value: Any) -> Optional[int]:
    """A per-call ``:timeout``: nil or 0 disables it, a positive number is rounded up to whole seconds."""
    if value is None:
        return None
    if not is_number(value):
        reject("sh: :timeout must be numeric", SpellMap.from_pairs([(K_TIMEOUT, value)]))
    if value != value:  # NaN is a number that names no duration
        reject("sh: :timeout must be numeric", SpellMap.from_pairs([(K_TIMEOUT, value)]))
    if value < 0:
        reject("sh: :timeout must be >= 0", SpellMap.from_pairs([(K_TIMEOUT, value)]))
    if value == 0 or value == math.inf:
        return None
    return int(math.ceil(value))


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def run(ctx: EffectContext, argv: list[str], timeout: Optional[int]) -> SpellMap:
    """Run ``argv`` to completion (or until ``timeout`` seconds) and describe the outcome as an envelope."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=base_dir(ctx), start_new_session=True)
    except OSError as e:
        reason = e.strerror or str(e)
        message = f'Cannot run program "{argv[0]}": error={e.errno}, {reason}' if e.errno else \
            f'Cannot run program "{argv[0]}": {reason}'
        return envelope(False, "", message, exit=None)
    except Exception as e:  # noqa: BLE001 - e.g. an embedded NUL byte in an argument
        return envelope(False, "", f'Cannot run program "{argv[0]}": {e}', exit=None)
    wait = bounded_wait(timeout)  # the evaluation's own deadline (spell_runtime.limits) also bounds the wait
    try:
        out, err = proc.communicate(timeout=wait)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        shown = timeout if wait == timeout else math.ceil(wait or 0)
        return envelope(False, "", f"Command timed out after {shown or 0} seconds", exit=-1)
    except BaseException:
        _kill_group(proc)
        raise
    code = proc.returncode
    if code < 0:
        code = 128 - code
    stderr = _decode(err)
    return envelope(code == 0, _decode(out), stderr if stderr else None, exit=code)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()
    try:
        proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        # A grandchild escaped the group and still holds the pipes; stop waiting for it.
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        proc.wait()


def shell_argv(command: str) -> list[str]:
    """How a command line is started: ``$SHELL -c`` (or inside the configured Docker container)."""
    container = os.environ.get("SPELL_DOCKER_CONTAINER")
    if container:
        argv = ["docker", "exec", "-i"]
        workdir = os.environ.get("SPELL_DOCKER_WORKDIR")
        if workdir:
            argv += ["-w", workdir]
        return argv + [container, "bash", "-c", command]
    return [os.environ.get("SHELL") or "bash", "-c", command]


def sh(ctx: EffectContext, command: Any, *more: Any) -> SpellMap:
    """``(io/sh part ... [opts])``: concatenate the string parts and run them through the shell."""
    opts: Optional[SpellMap] = None
    parts = [command, *more]
    if len(parts) > 1 and isinstance(parts[-1], SpellMap):
        opts = parts.pop()
    require_strings("io/sh: all command segments", parts,
                    ". For options, pass a map as the last argument: {:timeout 60}")
    if opts is not None and opts.contains(K_TIMEOUT):
        timeout = timeout_option(opts.get(K_TIMEOUT))
    else:
        timeout = default_timeout(ctx)
    return run(ctx, shell_argv("".join(parts)), timeout)


def exec_argv(ctx: EffectContext, argv: Any) -> SpellMap:
    """``(io/exec [cmd arg ...])``: run without a shell, with the default timeout."""
    items = items_of(argv)
    if items is None:
        reject(f"io/exec: argv must be a vector of strings, got {pr(argv)}")
    require_strings("io/exec: all argv entries", items)
    if not items:
        return envelope(False, "", "Cannot run program \"\": empty argv", exit=None)
    return run(ctx, items, default_timeout(ctx))


def _grep_patterns(pattern: Any) -> list[str]:
    if type(pattern) is str:
        return [pattern]
    items = items_of(pattern)
    if items is None:
        reject("io/grep: pattern must be a string or a non-empty collection of strings")
    if not items:
        reject("io/grep: pattern collection must not be empty")
    if any(type(p) is not str for p in items):
        reject("io/grep: every pattern in the collection must be a string")
    return items


def _refused(e: PathRefused) -> SpellMap:
    return envelope(False, "", e.message, exit=None)


def grep(ctx: EffectContext, pattern: Any, path: Any, opts: Any = NO_ARG) -> SpellMap:
    """``(io/grep pattern path [opts])``: recursive POSIX ERE search with file names and line numbers.

    Exit 1 with an empty stderr means "no match" and is a success (§1.5).
    """
    patterns = _grep_patterns(pattern)
    if type(path) is not str:
        reject(f"io/grep: path must be strings, got {pr(path)}", SpellMap.from_pairs([(K_ARGS, vec([path]))]))
    options = require_map("io/grep", None if opts is NO_ARG else opts)
    include = options.get(K_INCLUDE)
    if include is not None and type(include) is not str:
        reject(f"io/grep: :include must be strings, got {pr(include)}",
               SpellMap.from_pairs([(K_ARGS, vec([include]))]))
    flags = ["-rnHE"]
    if is_truthy(options.get(K_IGNORE_CASE)):
        flags.append("-i")
    if options.contains(K_CONTEXT):
        flags.append("-C" + natural_option("io/grep: :context", options.get(K_CONTEXT)))
    if options.contains(K_MAX_COUNT):
        flags.append("-m" + natural_option("io/grep: :max-count", options.get(K_MAX_COUNT)))
    try:
        resolve(ctx, path)
    except PathRefused as e:
        return _refused(e)
    grep_argv = ["grep", *flags]
    for p in patterns:
        grep_argv += ["-e", p]
    if include is not None:
        argv = ["find", not_an_option(path), "-type", "f", "-name", include, "-exec", *grep_argv, "{}", "+"]
    else:
        argv = [*grep_argv, "--", path]
    result = sh(ctx, shlex.join(argv))
    if result.get(Keyword("exit")) == 1 and result.get(Keyword("err")) is None:
        return envelope(True, result.get(Keyword("out")), None, exit=1)
    return result


def not_an_option(path: str) -> str:
    """``path`` spelled so that ``find`` cannot read it as an expression (issue 16.4).

    ``find`` has no ``--`` for its starting points: ``(io/glob "*.x" "-delete")``
    would otherwise run ``find -delete …`` and delete the whole tree. ``./-delete``
    names the same relative path and is never an option.
    """
    return "./" + path if path.startswith("-") else path


def sort_lines(out: str) -> str:
    """``find`` output in a stable order: lines sorted by UTF-16 code units, one final newline."""
    body = out[:-1] if out.endswith("\n") else out
    lines = body.split("\n")
    lines.sort(key=lambda s: s.encode("utf-16-be", "surrogatepass"))
    return "\n".join(lines) + "\n"


def glob(ctx: EffectContext, pattern: Any, path: Any = NO_ARG, opts: Any = NO_ARG) -> SpellMap:
    """``(io/glob pattern [path] [opts])``: files whose names match ``pattern``, sorted, via ``find``."""
    where = "." if path is NO_ARG else path
    require_strings("io/glob: pattern and path", [pattern, where])
    options = require_map("io/glob", None if opts is NO_ARG else opts)
    argv = ["find", not_an_option(where)]
    if options.contains(K_MAX_DEPTH):
        argv += ["-maxdepth", natural_option("io/glob: :max-depth", options.get(K_MAX_DEPTH))]
    kind = options.get(K_TYPE)
    if kind is not None:
        argv += ["-type", text(kind)]
    argv += ["-name", pattern, "-print"]
    try:
        resolve(ctx, where)
    except PathRefused as e:
        return _refused(e)
    result = sh(ctx, shlex.join(argv))
    out = result.get(Keyword("out"))
    if type(out) is str and out:
        return result.assoc(Keyword("out"), sort_lines(out))
    return result


def git(ctx: EffectContext, subcommand: Any, *args: Any) -> SpellMap:
    """``(io/git sub & args)``: one of the read-only subcommands, run like ``io/sh``."""
    sub = text(subcommand)
    if sub not in GIT_ALLOWED:
        return fail(f"git subcommand not allowed: {string_literal(sub)}. Allowed: {', '.join(GIT_ALLOWED)}")
    given = [text(a) for a in args]
    refused, _, plain = split_args(sub, given)
    if refused is not None:
        return envelope(False, "", FORBIDDEN_MESSAGE % (sub, string_literal(refused)), exit=None)
    try:
        for p in plain:  # revisions and paths: whatever could name a file must lie in the workspace
            resolve(ctx, p)
    except PathRefused as e:
        return _refused(e)
    return sh(ctx, shlex.join([*GIT_PREFIX, sub, *GIT_SAFE_OPTIONS.get(sub, ()), *given]))


def sh_test(ctx: EffectContext, command: Any) -> SpellFn:
    """``(io/sh-test command)``: a zero-argument Spell function that runs the command and reports pass/output.

    It is Spell data (a function map) rather than a host closure so that it
    prints, serializes and re-evaluates like any function the model wrote; its
    body calls ``io/sh`` when invoked, so it only works inside ``eval``.
    """
    require_strings("io/sh-test: command", [command])
    r = Symbol("r")

    def kw_of(name: str) -> Any:
        return plist([Keyword(name), r])

    body = plist([Symbol("let"), vec([r, plist([Symbol("sh", "io"), command])]),
                  SpellMap.from_pairs([
                      (Keyword("pass"), plist([Symbol("="), 0, kw_of("exit")])),
                      (Keyword("output"), plist([Symbol("str"), "COMMAND: ", command, "\nEXIT: ", kw_of("exit"),
                                                 "\nOUT:\n", kw_of("out"), "\nERR:\n", kw_of("err")])),
                  ])])
    return SpellFn(vec(), plist([body]))
