"""The ``spellc`` command line.

Start-up time matters for a command people run constantly, so this module
imports only click and the reader at module level; each command imports what
else it needs (the printer, the compiler, the runtime) when it runs. New
commands go on the ``main`` group below, one function each.

Exit status: 0 on success, 1 when the Spell text is wrong (a reader error,
reported as ``FILE:LINE:COL: message`` on stderr), 2 for usage errors (click's).
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from . import __version__
from .reader import ReaderError, read_all_with_spans
from .source_input import SourceDecodeError, read_source_text


def _read_source(path: str) -> tuple[str, str]:
    """(display name, text) of ``path``, ``-`` meaning stdin; newlines are kept exactly as written."""
    try:
        return read_source_text(path)
    except SourceDecodeError as e:
        _fail(str(e))


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(1)


def _out(line: str) -> None:
    # Strings may hold lone surrogates (Spell strings are UTF-16); show them escaped rather than crash.
    click.echo((line + "\n").encode("utf-8", "backslashreplace"), nl=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="spellc", message="%(prog)s %(version)s")
def main() -> None:
    """Compile and run Spell programs."""


@main.command("read")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--positions",
    is_flag=True,
    help="Prefix each form with its span LINE:COL-END_LINE:END_COL (lines from 1, columns from 0, end exclusive).",
)
def read_command(file: str, positions: bool) -> None:
    """Read FILE (or - for stdin) and print each form back, one per line."""
    from spell_runtime.printer import pr_str

    name, text = _read_source(file)
    try:
        forms: list[tuple[Any, Any]] = read_all_with_spans(text, source_name=name)
    except ReaderError as e:
        _fail(f"{name}:{e.line}:{e.column}: {e}")
    for form, span in forms:
        printed = pr_str(form)
        if positions:
            printed = "%d:%d-%d:%d %s" % (*span, printed)
        _out(printed)


def _add_run_command() -> None:
    """``spellc run`` lives in ``cli_run`` (the turn loop's command); it imports only click at module level."""
    from .cli_run import run_command

    main.add_command(run_command)


_add_run_command()


def _add_compile_commands() -> None:
    """``spellc eval`` and ``spellc build`` live in ``cli_compile`` (they import the compiler only when run)."""
    from .cli_compile import build_command, eval_command

    main.add_command(eval_command)
    main.add_command(build_command)


_add_compile_commands()


def _add_tooling_commands() -> None:
    """``spellc test``, ``check`` and ``repl`` live in their own modules (click only at module level)."""
    from .cli_check import check_command
    from .cli_repl import repl_command
    from .cli_test import test_command

    main.add_command(test_command)
    main.add_command(check_command)
    main.add_command(repl_command)


_add_tooling_commands()


def _add_batch_commands() -> None:
    """``spellc benchmark-api`` and ``spellc batch`` live in ``cli_batch`` (issue 17; they import ``spellc.batch`` when run)."""
    from .cli_batch import batch_command, benchmark_api_command

    main.add_command(benchmark_api_command)
    main.add_command(batch_command)


_add_batch_commands()


def _add_package_commands() -> None:
    """``spellc package`` and ``spellc agents`` live in ``cli_package`` (packages.md §3)."""
    from .cli_package import agents_group, package_command

    main.add_command(package_command)
    main.add_command(agents_group)


_add_package_commands()
