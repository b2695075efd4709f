"""``spellc repl``: an interactive Spell session (the session itself is ``spellc.repl``).

Two modes, chosen by whether standard input is a terminal:

- terminal: prompts (``spell=> ``, ``  ...> `` while a form is open), line editing and history
  through the standard ``readline`` module (history kept in ``~/.spellc_history``, or the file
  named by ``SPELLC_HISTORY``; empty turns it off). ``readline`` was chosen over
  prompt_toolkit for start-up: importing it costs under a millisecond here, against the
  ~100 ms a prompt_toolkit session costs before the first prompt; Ctrl-C drops the current
  input, Ctrl-D ends the session;
- piped: no prompts and no echo; each complete input form prints exactly one line on stdout
  (its value), errors go to stderr, and the session ends at end of input.

Errors are Spell errors (``<repl>:LINE:COL: message`` plus the call path), and the session
goes on. Exit status 0 at the end of input.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

PROMPT = "spell=> "
CONTINUE = "  ...> "


@click.command("repl")
def repl_command() -> None:
    """Start an interactive session (environment kept between inputs; *1 *2 *3 *e)."""
    from .repl import ReplSession

    session = ReplSession()
    try:
        if sys.stdin.isatty():
            _interactive(session)
        else:
            _piped(session)
    finally:
        session.close()


def _show(outcomes: list[Any]) -> None:
    for outcome in outcomes:
        if outcome.error is not None:
            sys.stdout.flush()
            click.echo(outcome.error, err=True)
        else:
            click.echo((outcome.value + "\n").encode("utf-8", "backslashreplace"), nl=False)


def _piped(session: Any) -> None:
    for raw in sys.stdin.buffer:
        _show(session.feed(raw.decode("utf-8", "replace").rstrip("\r\n")))
    _show(session.finish())  # input that ends inside a form is a reader error, like a truncated file


def _history_file() -> str:
    return os.environ.get("SPELLC_HISTORY", os.path.join(os.path.expanduser("~"), ".spellc_history"))


def _interactive(session: Any) -> None:
    import readline

    history = _history_file()
    if history:
        try:
            readline.read_history_file(history)
        except OSError:
            pass
    readline.set_history_length(1000)
    click.echo("spellc repl — Ctrl-D to quit; *1 *2 *3 are the last values, *e the last error")
    try:
        while True:
            try:
                line = input(CONTINUE if session.continuing else PROMPT)
            except KeyboardInterrupt:
                session.cancel()
                click.echo("")
                continue
            except EOFError:
                click.echo("")
                break
            try:
                _show(session.feed(line))
            except KeyboardInterrupt:
                click.echo("interrupted", err=True)
    finally:
        if history:
            try:
                readline.write_history_file(history)
            except OSError:
                pass
