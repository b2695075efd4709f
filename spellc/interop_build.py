"""``spellc build`` for Python and Hy callers: a built module that exports its top-level definitions (packages.md §5).

The compiler's ``build_module`` writes a module that runs its program at import in an environment
it then closes. This module adapts that text in one place: the import-time branch instead calls
``spell_runtime.interop.exports.export_program``, which runs the same units in an environment kept
open and binds each top-level ``def``/``defn`` under its Hy-mangled name. Should the built-module
format change so that the import-time line is not found, the build fails loudly rather than
writing a module without its exports.
"""

from __future__ import annotations

from typing import Any, Final

from spell_runtime.data import Symbol
from spell_runtime.data.plist import PList

from .emit.wrap import wrap_long_lines

IMPORT_BRANCH: Final = "else:\n    value = run()\n"
DEFINERS: Final = frozenset({Symbol("def"), Symbol("defn")})


class ExportError(Exception):
    """The built module's text no longer has the shape exports are added to."""


def defined_names(forms: list[Any]) -> list[str]:
    """Names of the top-level ``(def name …)``/``(defn name …)`` forms, in order, without repeats."""
    names: list[str] = []
    for form in forms:
        if type(form) is PList and len(form) >= 2 and form[0] in DEFINERS:
            name = form[1]
            if type(name) is Symbol and name.ns is None and name.name not in names:
                names.append(name.name)
    return names


def with_exports(source: str, forms: list[Any]) -> str:
    """``source`` (from ``build_module(forms)``) with its definitions exported at import."""
    if not source.endswith(IMPORT_BRANCH):
        raise ExportError("the built module does not end with the import-time run this step replaces")
    units = ", ".join("_unit%d" % i for i in range(len(forms)))
    branch = ("else:\n"
              "    from spell_runtime.interop.exports import export_program as _export_program\n\n"
              "    value = _export_program(globals(), (%s%s), %r)\n"
              % (units, "," if len(forms) == 1 else "", defined_names(forms)))
    return source[: -len(IMPORT_BRANCH)] + wrap_long_lines(branch)
