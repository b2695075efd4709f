"""The parts of a module ``spellc build`` wrote: its functions, in files beside it, run into its globals.

Why a built module is split (issue 12.5). CPython parses a whole file before it compiles any of it,
and its parser holds every token and memo entry of the file until the end: ~7 MB for the 79 KB that
``compile-300.spl`` becomes, touched page by page (~1,900 page faults). The same text parsed in files
of a few kilobytes each reuses that memory: the module faulted ~1,000 times fewer and started 3–6 ms
sooner out of ~72 (``perf stat``; ``benchmarks/backend.py``), running the same instructions. A second
gain comes with it: ``python prog.py`` never caches the bytecode of the script it runs, but the parts
are read through ``importlib``'s ``SourceFileLoader``, which keeps their bytecode in ``__pycache__`` as
it does for any imported module (unless bytecode writing is off), so a second run compiles only the
main file.

What a split module looks like. ``prog.py`` keeps the imports, the constants, the statements that run
(the direct defs' units, the position table, ``run()``); its ``def``s — fn bodies, and the units of
top-level forms that are not direct defs — are in ``prog.parts/fns-1.py``, …: plain Python, but not
modules of their own. Each runs in ``prog``'s globals (``load_parts``), where the constants, the
runtime helpers and the other parts' functions are, exactly as if its text stood in ``prog.py``. A
small program's functions fit in one part and it is written whole, with no folder
(``spellc.compiler.parts``).

Positions. A failing instruction is attributed through the module's one position table
(``support.SpanTable``). Its spans for part ``k`` are numbered from ``k * PART_LINE_STEP``, and the
loader records that base for the part's file name (``callpath.LINE_BASES``), which
``callpath.table_position`` adds before a table is read. Python tracebacks and ``linecache`` read the
part files themselves, which are on disk.
"""

from __future__ import annotations

import os
from typing import Any, Final, NoReturn

from .callpath import LINE_BASES

PART_LINE_STEP: Final = 1 << 20
"""Part ``k``'s lines are numbered from ``k * PART_LINE_STEP`` in its module's position table (the
module's own lines come first, below the step; a part of more lines than that is refused at build)."""


class MissingPartError(ImportError):
    """A split built module was run without its parts folder beside it (or with one of its files gone)."""


def load_parts(namespace: dict[str, Any], folder: str, names: tuple[str, ...]) -> None:
    """Run the parts ``names`` of a built module, files of the folder ``folder`` beside the module's
    file (its ``__file__``), in its globals ``namespace``, in order. A part that cannot be read fails
    the import with ``MissingPartError``, or, run as a script, exits 1 with its message."""
    from importlib.machinery import SourceFileLoader

    module_file = namespace.get("__file__")
    if not isinstance(module_file, str):
        _missing(namespace, "a built module run without a file name (%s) cannot find its parts, which are in "
                            "the folder %s beside its file: run or import the file itself." % (namespace.get("__name__"), folder))
    directory = os.path.join(os.path.dirname(os.path.abspath(module_file)), folder)
    for k, name in enumerate(names, 1):
        path = os.path.join(directory, name)
        try:
            code = SourceFileLoader(name, path).get_code(name)
        except OSError as e:
            _missing(namespace, "%s: its part %s/%s cannot be read (%s). spellc build writes a module's parts in "
                                "the folder %s beside it: copy or move the two together."
                                % (module_file, folder, name, e.strerror or e, folder))
        assert code is not None  # a source loader's code: None is only for modules without one
        LINE_BASES[code.co_filename] = k * PART_LINE_STEP
        exec(code, namespace)


def _missing(namespace: dict[str, Any], message: str) -> NoReturn:
    """Fail the module's import with ``message``; run as a script (``python prog.py``), print it and
    exit 1 instead, as a built module reports a Spell error, without a Python traceback."""
    if namespace.get("__name__") == "__main__":
        import sys

        print(message, file=sys.stderr)
        raise SystemExit(1)
    raise MissingPartError(message)


__all__ = ["PART_LINE_STEP", "MissingPartError", "load_parts"]
