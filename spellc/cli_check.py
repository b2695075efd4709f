"""``spellc check FILE...``: read and analyze programs without running them (see ``spellc.checker``).

Prints one ``FILE:LINE:COL: message`` line per problem (lines and columns from 1) on stdout.
Exit status: 0 no problem, 1 problems (a reader error included), 2 usage (a missing file,
no FILE).
"""

from __future__ import annotations

import sys

import click


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
def check_command(files: tuple[str, ...]) -> None:
    """Report reader errors, unbound symbols, wrong argument counts and effects outside eval in FILES."""
    from .checker import Problem, check_text
    from .source_input import read_source_bytes

    found = 0
    for path in files:
        name, data = read_source_bytes(path)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            problems = [Problem(1, 1, "not UTF-8 text (%s at byte %d)" % (e.reason, e.start))]
        else:
            problems = check_text(text, name)
        for problem in problems:
            click.echo(problem.render(name).encode("utf-8", "backslashreplace") + b"\n", nl=False)
        found += len(problems)
    sys.exit(1 if found else 0)
