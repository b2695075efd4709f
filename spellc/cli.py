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


_COMMAND_MODULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cli_run", ("run_command",)),                                    # the turn loop
    ("cli_compile", ("eval_command", "build_command")),               # compiler imported when run
    ("cli_test", ("test_command",)),                                  # Spell tests under pytest
    ("cli_check", ("check_command",)),
    ("cli_repl", ("repl_command",)),
    ("cli_batch", ("benchmark_api_command", "batch_command")),         # issue 17
    ("cli_package", ("package_command", "agents_group")),             # packages.md §3
)
"""Each command lives in its own module, which imports only click and the standard library at module
level (everything heavy is imported when the command runs), so registering them all costs little."""


def _add_commands() -> None:
    from importlib import import_module

    for module_name, attributes in _COMMAND_MODULES:
        module = import_module("." + module_name, __package__)
        for attribute in attributes:
            main.add_command(getattr(module, attribute))


_add_commands()
