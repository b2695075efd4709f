"""``spellc eval`` and ``spellc build``: evaluate Spell text, or compile a program to a Python module.

Errors are shown in Spell terms: ``FILE:LINE:COL: message`` (line and column of the
failing form, both from 1) followed by the Spell call path, innermost first — never
a Python traceback of the runtime. Exit status 0 ok, 1 a Spell error, 2 usage.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn, Optional

import click

from .cli_plain import MAX_PATH_LINES as MAX_PATH_LINES  # re-exported: callers import them from here
from .cli_plain import spell_error_text as spell_error_text


def _prettified(source: str, text: str, file: str) -> str:
    """``--pretty``: the module annotated by ``emit_pretty`` (libcst, the emit extra; exit 2 without it)."""
    import os

    try:
        from .emit_pretty import PrettyError, prettify
    except ImportError:
        _fail("--pretty needs the emit extra (libcst): pip install 'spellc[emit]'", 2)
    try:
        return prettify(source, read_all_with_spans_forms(text, file), os.path.basename(file))
    except PrettyError as e:
        _fail("%s: %s" % (file, e), 2)


def read_all_with_spans_forms(text: str, name: str) -> list[Any]:
    """The forms of ``text`` (with their spans recorded on them), for annotating a built module."""
    from .reader import read_all_with_spans

    return [form for form, _ in read_all_with_spans(text, source_name=name)]


def _fail(message: str, code: int = 1) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)


@click.command("eval")
@click.argument("expr")
@click.option("--eval-timeout", "eval_timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Fail with a Spell error when evaluating takes longer than this (default: no limit).")
@click.option("--no-opt", "no_opt", is_flag=True,
              help="Turn every optimisation off (as SPELLC_NO_OPT=1 does): the plain dynamic code shape.")
def eval_command(expr: str, eval_timeout: Optional[float], no_opt: bool = False) -> None:
    """Evaluate EXPR (one or more Spell forms) and print the value of the last one."""
    if no_opt:
        from spell_runtime.optimise import set_enabled

        set_enabled(False)
    from .cli_plain import eval_expr

    eval_expr(expr, eval_timeout)  # the body ``spellc eval EXPR`` runs without click (launch.py)


@click.command("build")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Where to write the module (FILE.py).")
@click.option("--emit", type=click.Choice(["py"]), default="py", show_default=True, help="What to write.")
@click.option("--pretty", is_flag=True,
              help="Annotate the module: a FILE:LINE:COL comment per statement, temporaries named after "
                   "the Spell names they hold (needs the emit extra: libcst).")
@click.option("--no-opt", "no_opt", is_flag=True,
              help="Turn every optimisation off (as SPELLC_NO_OPT=1 does): the plain dynamic code shape.")
def build_command(file: str, output: Optional[str], emit: str = "py", pretty: bool = False,
                  no_opt: bool = False) -> None:
    """Compile FILE to a Python module that imports only the Spell runtime.

    Running the module prints the program's value; importing it computes ``value`` and exports each
    top-level def/defn under its Hy-mangled name for Python and Hy callers (``__spell_names__``).
    ``--no-opt`` compiles the module without optimisations; the runtime's own fast paths follow
    ``SPELLC_NO_OPT`` of the process that runs it.
    """
    if no_opt:
        from spell_runtime.optimise import set_enabled

        set_enabled(False)
    import os
    import tempfile

    from spell_runtime.errors import SpellError

    from .compiler import build_module
    from .emit.constants import UnsupportedConstant
    from .interop_build import with_exports
    from .reader import read_all
    from .source_input import SourceDecodeError, read_source_text

    try:
        _, text = read_source_text(file)
    except SourceDecodeError as e:
        _fail(str(e))
    try:
        forms = read_all(text, source_name=file)
        source = with_exports(build_module(forms, os.path.basename(file)), forms)
        if pretty:
            source = _prettified(source, text, file)
    except SpellError as e:
        _fail(spell_error_text(e, file))
    except UnsupportedConstant as e:
        _fail("%s: cannot write a constant of this kind into a module: %s" % (file, e))
    out = output or os.path.splitext(file)[0] + ".py"
    folder = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".spellc-", suffix=".py", dir=folder)
    try:  # write beside the target, then rename: a failed build never leaves a half-written module
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(source)
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    click.echo(out)
