"""How ``spellc build`` splits a large module's functions into part files (``spell_runtime.built_parts``
says why, and how they run).

Only ``def``s move — fn bodies, and the units of top-level forms other than direct defs: they define
functions and run nothing, so all that matters is that every part is read before the module's first
statement that runs, which the main file ensures (the loader is its first statement after the
constants). Consecutive functions are grouped into parts of about ``PART_BYTES`` of text each; a
program whose functions fit in one part is written whole.
``PART_BYTES`` was measured on ``compile-300.spl`` (21 runs each of ``python built.py``, interleaved):
parts of 3, 5, 8 and 12 KB started the module alike, 3–4 ms sooner than one file. Larger parts keep
more of the cost: compiling the module's text in two pieces faulted 1,253 times, in eight 546, whole
1,951, as CPython's parser holds a whole file's tokens at a time.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Final

from spell_runtime.built_parts import PART_LINE_STEP

from ..emit.source import python_text
from ..emit.wrap import wrap_long_lines

PART_BYTES: Final = 8_000
"""About how much text of functions one part holds (a single larger function makes a larger part)."""

PARTS_SUFFIX: Final = ".parts"
"""The parts folder of ``prog.py`` is ``prog.parts``: a name no import can mistake for a package."""


def parts_folder(module_file: str) -> str:
    """The name of the folder beside ``module_file`` (``prog.py``) that holds its parts."""
    import os

    return os.path.splitext(os.path.basename(module_file))[0] + PARTS_SUFFIX


def group_bodies(functions: list[ast.stmt], part_bytes: int = PART_BYTES,
                 text_of: Callable[[ast.stmt], str] = python_text) -> list[list[ast.stmt]]:
    """``functions`` (the module's ``def``s, in order) as consecutive groups of about ``part_bytes`` of
    text each (``text_of``: a function's text; a build passes one that keeps it for ``part_text``);
    one group (no split) if they all fit in one."""
    groups: list[list[ast.stmt]] = [[]]
    size = 0
    for fn in functions:
        n = len(text_of(fn))
        if groups[-1] and size + n > part_bytes:
            groups.append([])
            size = 0
        groups[-1].append(fn)
        size += n
    return groups


def is_parts_folder(path: str) -> bool:
    """Whether the folder ``path`` holds nothing but what ``spellc build`` writes there (parts, their
    ``__pycache__``): only such a folder is replaced by a new build."""
    import os
    import re

    if not os.path.isdir(path) or os.path.islink(path):
        return False
    return all(name == "__pycache__" or re.fullmatch(r"fns-\d+\.py", name) for name in os.listdir(path))


def part_name(k: int) -> str:
    """The file name of part ``k`` (from 1): not a module name, as a part is never imported."""
    return "fns-%d.py" % k


def part_header(source_name: str, k: int, count: int) -> str:
    """The comment a part file starts with (a docstring would become the module's ``__doc__``: a part
    runs in its globals)."""
    return ("# Compiled from %s by spellc: functions, part %d of %d of the module beside this folder,\n"
            "# which reads it into its own globals (spell_runtime.built_parts). Not a module of its own.\n\n"
            % (source_name, k, count))


def part_text(group: list[ast.stmt], text_of: Callable[[ast.stmt], str] = python_text) -> str:
    """The Python text of one part's ``def``s (its lines must stay below ``PART_LINE_STEP``): their texts
    one blank line apart, as ``python_text`` writes a module of them."""
    text = wrap_long_lines("\n\n".join(text_of(fn) for fn in group)) + "\n"
    if text.count("\n") >= PART_LINE_STEP:
        raise ValueError("a part of %d lines: more than a built module's position table numbers" % text.count("\n"))
    return text


def loader_source(folder: str, names: list[str]) -> str:
    """The main file's statement that reads its parts (``built_parts.load_parts``)."""
    items = ", ".join(repr(name) for name in names)
    return ("# This module's functions are in the files of the folder %s beside it, run here in its globals\n"
            "# before any statement below (spell_runtime.built_parts).\n" % folder
            + wrap_long_lines("load_parts(globals(), %r, (%s%s))\n" % (folder, items, "," if len(names) == 1 else "")))


__all__ = ["PARTS_SUFFIX", "PART_BYTES", "group_bodies", "is_parts_folder", "loader_source", "part_header",
           "part_name", "part_text", "parts_folder"]
