"""``spellc eval`` and ``spellc build``: evaluate Spell text, or compile a program to a Python module.

Errors are shown in Spell terms: ``FILE:LINE:COL: message`` (line and column of the
failing form, both from 1) followed by the Spell call path, innermost first — never
a Python traceback of the runtime. Exit status 0 ok, 1 a Spell error, 2 usage.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import click

from .cli_plain import MAX_PATH_LINES as MAX_PATH_LINES  # re-exported: callers import them from here
from .cli_plain import spell_error_text as spell_error_text

if TYPE_CHECKING:
    from .compiler import BuiltProgram


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
@click.option("--part-bytes", "part_bytes", type=click.IntRange(min=0), default=None, metavar="BYTES",
              help="Write the functions of a large program in files of about BYTES each, in the folder "
                   "FILE.parts beside the module (default 8000); 0 writes one self-contained file.")
@click.option("--no-opt", "no_opt", is_flag=True,
              help="Turn every optimisation off (as SPELLC_NO_OPT=1 does): the plain dynamic code shape.")
def build_command(file: str, output: Optional[str], emit: str = "py", pretty: bool = False,
                  part_bytes: Optional[int] = None, no_opt: bool = False) -> None:
    """Compile FILE to a Python module that imports only the Spell runtime.

    Running the module prints the program's value; importing it computes ``value`` and exports each
    top-level def/defn under its Hy-mangled name for Python and Hy callers (``__spell_names__``).
    A large program's functions go to files in a folder beside the module, which reads them (keep
    the two together); CPython starts such a module sooner and caches those files' bytecode.
    ``--no-opt`` compiles the module without optimisations; the runtime's own fast paths follow
    ``SPELLC_NO_OPT`` of the process that runs it.
    """
    if no_opt:
        from spell_runtime.optimise import set_enabled

        set_enabled(False)
    import os

    from spell_runtime.errors import SpellError

    from .compiler import build_program
    from .compiler.parts import PART_BYTES, parts_folder
    from .emit.constants import UnsupportedConstant
    from .interop_build import with_exports
    from .reader import read_all
    from .source_input import SourceDecodeError, read_source_text

    try:
        _, text = read_source_text(file)
    except SourceDecodeError as e:
        _fail(str(e))
    out = output or os.path.splitext(file)[0] + ".py"
    try:
        forms = read_all(text, source_name=file)
        # --pretty annotates one file: its module is written whole
        whole = pretty or part_bytes == 0
        built = build_program(forms, os.path.basename(file), None if whole else parts_folder(out),
                              PART_BYTES if part_bytes is None else part_bytes)
        source = with_exports(built.module, forms)
        if pretty:
            source = _prettified(source, text, file)
    except SpellError as e:
        _fail(spell_error_text(e, file))
    except UnsupportedConstant as e:
        _fail("%s: cannot write a constant of this kind into a module: %s" % (file, e))
    _write_built(out, source, built)
    click.echo(out)


def _write_built(out: str, source: str, built: BuiltProgram) -> None:
    """Write the module ``source`` to ``out`` and its parts (if any) to their folder beside it, and
    take away a parts folder an earlier build of ``out`` left that this one does not use.

    Everything is written beside its target first and renamed into place, the parts before the
    module that reads them; the earlier parts are moved aside and removed only once the new module
    is in place. A build that fails on the way leaves what was there: no half-written module or part.
    """
    import os
    import shutil
    import tempfile

    from .compiler.parts import is_parts_folder, parts_folder

    directory = os.path.dirname(os.path.abspath(out))
    parts_dir = os.path.join(directory, parts_folder(out))
    staged: list[str] = []
    old: Optional[str] = None
    moved_in = False
    try:
        mask = os.umask(0)
        os.umask(mask)
        if built.parts:
            staged.append(tempfile.mkdtemp(prefix=".spellc-", dir=directory))
            os.chmod(staged[0], 0o777 & ~mask)  # as a folder made by hand (mkdtemp's own is private)
            for name, text in built.parts:
                with open(os.path.join(staged[0], name), "w", encoding="utf-8") as fh:
                    fh.write(text)
        fd, tmp = tempfile.mkstemp(prefix=".spellc-", suffix=".py", dir=directory)
        staged.append(tmp)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(source)
        os.chmod(tmp, 0o666 & ~mask)  # as a file written by hand (mkstemp's own is private)
        if os.path.lexists(parts_dir):
            if not is_parts_folder(parts_dir):  # not ours to replace: nothing is written over it
                _fail("%s: exists and is not a folder of parts spellc build wrote; move it away, or build "
                      "with --part-bytes 0 to another name" % parts_dir)
            aside = tempfile.mkdtemp(prefix=".spellc-old-", dir=directory)
            os.rmdir(aside)  # a fresh name to move the folder to
            os.rename(parts_dir, aside)
            old = aside
        if built.parts:
            os.rename(staged[0], parts_dir)
            moved_in = True
        os.replace(tmp, out)
    except BaseException:
        for path in staged:
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            elif os.path.exists(path):
                os.unlink(path)
        if moved_in:
            shutil.rmtree(parts_dir, ignore_errors=True)
        if old is not None:
            os.rename(old, parts_dir)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
