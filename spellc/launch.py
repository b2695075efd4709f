"""The ``spellc`` command's entry point: the two commonest commands skip click (issue 12.4).

``spellc eval EXPR`` and ``spellc run FILE`` with no options are answered by ``cli_plain``
directly; every other command line — options, ``--help``, other commands, anything that click
would check or word differently — goes to the click group in ``cli.py`` unchanged. Importing
click and its type modules costs about as much as the whole compiler does, and these two
commands are what agents and scripts run in loops.

What counts as "no options" is deliberately narrow: exactly two arguments, the second not
starting with ``-`` (click would read it as an option), and for ``run`` a path that is ``-`` or a
readable regular file (click's ``Path`` check refuses directories and unreadable files with its
own usage text). ``KeyboardInterrupt`` and a closed stdout end the process as click's
standalone mode does: ``Aborted!`` and status 1.

Whichever way a command ends (value, error, usage, ``sys.exit`` from click), the objects alive then
are frozen out of CPython's exit-time collections (``spell_runtime.gcpolicy.skip_exit_collection``:
about 17 ms of a ``spellc eval``); on the plain path, automatic collection is also off while the
compiler and the builtin library load (``gcpolicy.pause_for_startup``, a few ms).
"""

from __future__ import annotations

import os
import sys
from typing import Optional


def _fast_command(argv: list[str]) -> Optional[tuple[str, str]]:
    """(command, argument) when ``argv`` is a plain ``eval EXPR`` or ``run FILE``; else None."""
    if len(argv) != 2 or argv[1].startswith("-") and argv[1] != "-":
        return None
    command, argument = argv
    if command == "eval" and argument != "-":
        return command, argument
    if command == "run" and (argument == "-" or (os.path.isfile(argument) and os.access(argument, os.R_OK))):
        return command, argument
    return None


def main() -> None:
    try:
        _dispatch()
    finally:
        from spell_runtime.gcpolicy import skip_exit_collection

        skip_exit_collection()


def _dispatch() -> None:
    fast = _fast_command(sys.argv[1:])
    if fast is None:
        from .cli import main as click_main

        click_main()
        return
    from spell_runtime.gcpolicy import pause_for_startup

    pause_for_startup()  # until the library is loaded: cli_plain.loaded
    from . import cli_plain

    command, argument = fast
    try:
        if command == "eval":
            cli_plain.eval_expr(argument)
        else:
            cli_plain.run_program(argument)
    except (EOFError, KeyboardInterrupt):
        sys.stderr.write("\nAborted!\n")
        sys.exit(1)
    except BrokenPipeError:
        # As click does: quietly stop writing to the closed stream and fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    sys.exit(0)
