"""``spellc eval EXPR`` and ``spellc run FILE`` (a program that needs no model), without click.

These two commands are what people and agents run most, so their bodies live here, in a module
that imports neither click nor the turn loop: ``launch.py`` calls them straight from the command
line when the arguments are that simple (issue 12.4: click and its type modules cost more start-up
than the whole compiler), and the click commands in ``cli_compile.py``/``cli_run.py`` call the same
functions, so both ways behave alike.

Output follows ``click.echo``, which the rest of the CLI uses: values go to stdout as UTF-8 bytes
(lone surrogates escaped), messages to stderr with ANSI escape sequences removed when stderr is
not a terminal. Errors are Spell errors with Spell positions (``FILE:LINE:COL: message`` and the
call path); exit status 0 ok, 1 a Spell error, 2 usage.
"""

from __future__ import annotations

import re
import sys
from typing import Any, NoReturn, Optional

MAX_PATH_LINES = 8  # kept equal to spell_runtime.callpath.MAX_PATH_LINES (not imported: start-up)
EXIT_ERROR = 1
EXIT_USAGE = 2

# click's strip_ansi pattern (click/_compat.py), so messages read the same either way.
_ANSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")


def echo_value(text: str) -> None:
    """One line of program output on stdout (``click.echo`` of UTF-8 bytes)."""
    sys.stdout.flush()
    out = sys.stdout.buffer
    out.write((text + "\n").encode("utf-8", "backslashreplace"))
    out.flush()


def echo_error(message: str) -> None:
    """One message on stderr (``click.echo(message, err=True)``)."""
    text = message + "\n"
    if not sys.stderr.isatty():
        text = _ANSI.sub("", text)
    sys.stderr.write(text)
    sys.stderr.flush()


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    echo_error(message)
    sys.exit(code)


def usage(message: str) -> NoReturn:
    fail("error: " + message, EXIT_USAGE)


def spell_error_text(e: Any, name: str) -> str:
    """The user-facing report of a Spell error: the location line, then at most MAX_PATH_LINES lines of
    call path with each call's site (recursion folded; ``spell_runtime.callpath``, shared with built
    modules)."""
    from spell_runtime.callpath import error_report

    name = getattr(e, "source_name", None) or name  # library code names its own file (packages.md §3)
    return error_report(e, name)


def loaded() -> None:
    """Start-up is over: the compiler is imported and the builtin library loaded here, while
    automatic collection is still paused (``launch`` paused it), then collection resumes
    (``spell_runtime.gcpolicy``) before the program is read and evaluated."""
    from spell_runtime.gcpolicy import resume_after_startup

    from .state import base_namespace

    base_namespace()
    resume_after_startup()


def eval_expr(expr: str, eval_timeout: Optional[float] = None) -> None:
    """``spellc eval``: evaluate EXPR (one or more forms) and print the value of the last one."""
    from spell_runtime.errors import SpellError
    from spell_runtime.printer import pr_str

    from .api import eval_string

    loaded()
    try:  # on a large stack: ``eval_string`` moves there itself (``spell_runtime.bigstack.on_large_stack``)
        value = eval_string(expr, "<eval>", eval_timeout_sec=eval_timeout)
    except SpellError as e:
        fail(spell_error_text(e, "<eval>"))
    echo_value(pr_str(value))


def checked_source(path: str) -> str:
    """The program text, refused up front (exit 1) when it cannot even be read as Spell."""
    return checked_program(path)[0]


def checked_program(path: str) -> tuple[str, list[Any]]:
    """(text, forms) of the program, refused up front (exit 1) when it cannot even be read as Spell."""
    from .reader import ReaderError, read_all
    from .source_input import SourceDecodeError, read_source_text

    try:
        name, text = read_source_text(path)
    except OSError as e:
        usage("cannot read %s: %s" % (path, e.strerror))
    except SourceDecodeError as e:
        fail(str(e))
    try:
        return text, read_all(text, source_name=name)
    except ReaderError as e:
        fail("%s:%d:%d: %s" % (name, e.line, e.column, e))


def run_program(path: str, eval_timeout: Optional[float] = None, workspace: Optional[str] = None) -> None:
    """``spellc run FILE`` of a program that needs no model; on failure ``FILE:LINE:COL: message`` and the call path."""
    from spell_runtime.errors import SpellError
    from spell_runtime.gcpolicy import evaluation_gc
    from spell_runtime.printer import pr_str

    from .api import eval_forms

    loaded()
    with evaluation_gc():  # reading is part of the evaluation, as in eval_string (api.eval_forms)
        text, forms = checked_program(path)  # read once: these forms are the ones evaluated
    name = "<stdin>" if path == "-" else path
    try:  # on a large stack, as ``eval_expr`` evaluates
        value = eval_forms(forms, text, name, eval_timeout_sec=eval_timeout, workspace=workspace)
    except SpellError as e:
        report = spell_error_text(e, name)
        if "!llm-self" in str(e) or "leaf-llm" in str(e):
            report += "\n(this program calls the model: pass --model-profile, or --provider with --model)"
        fail(report)
    echo_value(pr_str(value))
