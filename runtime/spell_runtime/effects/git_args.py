"""Which arguments ``io/git`` passes to git (issue 16.4).

Only read-only subcommands are allowed (runtime.md §2.2.5), but git's *options* can
still write or escape: ``diff --output=FILE`` writes anywhere, ``diff --no-index A B``
reads any two files, ``--ext-diff``/``--textconv`` run configured programs, and
``-c``/``--git-dir``/``--work-tree``/``--exec-path`` re-point git itself. So every
argument that starts with ``-`` must be an option listed here for its subcommand;
anything else is refused with an envelope naming it. Arguments that are not
options (revisions, paths) are confined like every ``io/`` path by the caller, and
everything after a ``--`` the program wrote is a path.

The lists keep what reading a repository needs (formats, limits, diff shapes);
an option takes its value either attached (``--format=%h``, ``-n5``, ``-U3``) or
as the next argument (``-n 5``, ``-L 1,9``), and that next argument is checked
like any other non-option.
"""

from __future__ import annotations

import re
from typing import Final, Optional

_DIFF_SHAPE: Final = frozenset({
    "-p", "--patch", "-s", "--no-patch", "--raw", "--stat", "--numstat", "--shortstat", "--summary",
    "--name-only", "--name-status", "--no-color", "-w", "--ignore-all-space", "-b", "--ignore-space-change",
    "--ignore-blank-lines", "--word-diff", "--patience", "--histogram", "--minimal", "-R", "-M", "--find-renames",
    "--no-renames", "--full-index", "--abbrev", "--check", "--text", "-a", "--no-ext-diff", "--no-textconv",
})
_DIFF_VALUED: Final = ("--unified=", "--stat=", "--diff-filter=", "--color=", "--word-diff=", "--abbrev=",
                       "--find-renames=", "--relative=", "--inter-hunk-context=")
_LOG_SHAPE: Final = frozenset({
    "--oneline", "--graph", "--decorate", "--no-decorate", "--all", "--reverse", "--follow", "--no-merges",
    "--merges", "--first-parent", "--abbrev-commit", "--no-abbrev-commit", "-i", "--regexp-ignore-case",
    "--date-order", "--topo-order", "--source", "--pretty", "--name-only", "--left-right", "--cherry-pick",
    "--branches", "--tags", "--remotes", "-E", "--extended-regexp", "-F", "--fixed-strings",
})
_LOG_VALUED: Final = ("--max-count=", "--skip=", "--since=", "--until=", "--after=", "--before=", "--author=",
                      "--committer=", "--grep=", "--format=", "--pretty=", "--date=", "--decorate=",
                      "--max-parents=", "--min-parents=")

EXACT: Final[dict[str, frozenset[str]]] = {
    "log": _DIFF_SHAPE | _LOG_SHAPE,
    "show": _DIFF_SHAPE | _LOG_SHAPE,
    "diff": _DIFF_SHAPE | frozenset({"--cached", "--staged", "--merge-base", "--exit-code", "--quiet"}),
    "blame": frozenset({"-w", "-M", "-C", "-e", "--show-email", "-s", "-l", "-t", "-f", "--show-name", "-n",
                        "--show-number", "-p", "--porcelain", "--line-porcelain", "--root", "--incremental",
                        "-c", "--abbrev", "--reverse", "--first-parent"}),
    "rev-parse": frozenset({"--abbrev-ref", "--short", "--verify", "-q", "--quiet", "--show-toplevel",
                            "--is-inside-work-tree", "--show-prefix", "--show-cdup", "--symbolic",
                            "--symbolic-full-name", "--all", "--branches", "--tags"}),
    "status": frozenset({"-s", "--short", "-b", "--branch", "--porcelain", "--long", "-v", "--verbose",
                         "-u", "--ignored", "--no-renames", "--renames", "--show-stash", "--ahead-behind",
                         "--no-ahead-behind", "-z"}),
}
"""Options taken exactly as written, per subcommand."""

VALUED: Final[dict[str, tuple[str, ...]]] = {
    "log": _DIFF_VALUED + _LOG_VALUED,
    "show": _DIFF_VALUED + _LOG_VALUED,
    "diff": _DIFF_VALUED,
    "blame": ("--date=", "--abbrev=", "-L"),
    "rev-parse": ("--short=", "--abbrev-ref="),
    "status": ("--porcelain=", "--untracked-files=", "--ignored=", "--column=", "-u"),
}
"""Option prefixes whose value is attached (``--format=%h``; ``-L10,20`` for blame)."""

_SHORT_NUMERIC: Final = re.compile(r"-(?:[0-9]+|n[0-9]*|U[0-9]*)")
"""``-5``, ``-n``/``-n5``, ``-U``/``-U3`` (log/show/diff; a bare ``-n``/``-U`` takes the next argument)."""

TAKES_NEXT: Final[dict[str, frozenset[str]]] = {
    "log": frozenset({"-n", "-U"}), "show": frozenset({"-n", "-U"}), "diff": frozenset({"-U"}),
    "blame": frozenset({"-L"}),
}
"""Options whose value may be the following argument."""

FORBIDDEN_MESSAGE: Final = "io/git: option not allowed for git %s: %s"


def option_refused(sub: str, arg: str) -> bool:
    """True when the option ``arg`` (it starts with ``-``) is not on ``sub``'s list."""
    if arg in EXACT.get(sub, frozenset()):
        return False
    if any(arg.startswith(prefix) and len(arg) > len(prefix) for prefix in VALUED.get(sub, ())):
        return False
    if sub in ("log", "show", "diff") and _SHORT_NUMERIC.fullmatch(arg):
        return sub == "diff" and arg.startswith("-n")
    if arg in TAKES_NEXT.get(sub, frozenset()):
        return False
    return True


def split_args(sub: str, args: list[str]) -> tuple[Optional[str], list[str], list[str]]:
    """(first refused option or None, options and values, paths/revisions to confine).

    The returned option list keeps the program's order; values that follow a
    ``TAKES_NEXT`` option are kept with it (and are not confined: they are numbers
    or line ranges). Everything after ``--`` is a path.
    """
    plain: list[str] = []
    taking = TAKES_NEXT.get(sub, frozenset())
    after_separator = False
    expect_value = False
    for arg in args:
        if after_separator:
            plain.append(arg)
        elif expect_value:
            expect_value = False
        elif arg == "--":
            after_separator = True
        elif arg.startswith("-"):
            if option_refused(sub, arg):
                return arg, [], []
            expect_value = arg in taking
        else:
            plain.append(arg)
    return None, args, plain
