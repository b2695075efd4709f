"""Which of the compiler's own modules run compiled by mypyc, and when their build is not used (issue 12).

A cold compile is reading, analysis and emitting in Python, then CPython's ``compile()``; the first
three were two thirds of it. ``setup.py`` compiles the modules named in ``COMPILED_MODULES`` with
mypyc into one library (``LIBRARY``, group ``spellc.native``) plus one thin extension per module,
placed beside the sources; the import system then prefers each extension over its ``.py``. The
modules are the same typed source either way (``mypy --strict`` holds for both); what compiled code
changes is how fast it runs, measured on ``compile-300.spl``: reading, analysis and emitting ~35%
fewer machine instructions, the whole cold compile+run ~13% fewer (``benchmarks/backend.py``).

Left interpreted, each for a reason mypyc gives:

- ``analyze/ir.py``: its node classes take their per-field-count initialisers (``_init3``...) by
  rebinding ``__init__``, which native classes do not allow;
- ``emit/source.py``: it subclasses ``ast``'s interpreted unparser and uses its private state;
- ``reader/lexer.py``: its rarer regular expressions are compiled on first use by a module
  ``__getattr__`` (PEP 562), which mypyc's module initialisation trips over.

Compiled modules call each other's functions directly inside the library, so the group is used whole
or not at all: ``select`` (run by ``spellc/__init__.py`` before any of them is imported) makes every
one of them load from its source when ``SPELLC_PURE_COMPILER`` is set, when the library is missing,
or, in a source checkout, when any source is newer than its build (an edit or a checkout since the
last ``pip install -e .``: the old extension would silently run old code). Installed wheels are not
checked, as for the snapshot core (``spell_runtime.snapshot.backend``).

The compiled modules import each other at module level, never inside a function. A module of the
library taken out of ``sys.modules`` cannot be imported again (its shim hands back the library's one
module object, which the import system does not accept twice), and ``sys.modules`` snapshots such as
pytester's take out whatever was imported inside them: a pass imported on first use inside one
failed every later compile with ``KeyError: 'spellc.analyze.types'``. Imported with the compiler,
the shims cost little.

Nothing here imports ``spellc``: ``setup.py`` loads this file on its own to read the module list.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from types import ModuleType
from typing import Final, Optional

PACKAGE: Final = "spellc"
LIBRARY: Final = "native__mypyc"
"""The shared library mypyc builds for the group (``group_name="spellc.native"`` in setup.py)."""

COMPILED_MODULES: Final = (
    "reader.balance", "reader.build", "reader.chars", "reader.core_names", "reader.entry", "reader.errors",
    "reader.hosttext", "reader.literals", "reader.numbers", "reader.reader", "reader.resume",
    "reader.sanitize", "reader.syntax_quote", "reader.tags", "reader.tokens",
    "analyze.analyzer", "analyze.bound", "analyze.elements", "analyze.late", "analyze.linear",
    "analyze.native_ops", "analyze.privacy", "analyze.selfcalls", "analyze.types",
    "emit.base", "emit.bounds", "emit.calls", "emit.constants", "emit.emitter", "emit.fastpaths",
    "emit.late", "emit.natives", "emit.pipelines", "emit.published_calls", "emit.pyast", "emit.scopes",
    "emit.typed", "emit.values", "emit.wrap",
)
"""The modules of ``spellc`` (relative names) that setup.py compiles; the rest stay interpreted."""

# Plain ``os.path``: this runs at every start of ``spellc`` (``pathlib`` and ``importlib.util`` cost
# start-up where nothing else loads them; the source finder imports the latter when it is used).
_HERE: Final = os.path.dirname(os.path.abspath(__file__))


def _source(here: str, name: str) -> str:
    return os.path.join(here, *name.split(".")) + ".py"


def _built(stem: str) -> Optional[str]:
    """The extension built for the module at ``stem`` (its path without ``.py``), if any."""
    for suffix in EXTENSION_SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    return None


def stale_or_missing(here: str = _HERE) -> list[str]:
    """The compiled modules whose build cannot be used: missing, or in a source checkout older than
    the source. A module counts as built at the later of its own extension and the library (mypyc
    relinks only the library when only code changes). Empty when the library itself is missing
    (nothing was compiled: not a stale build) — ``compiled_build`` tells the two apart."""
    library = _built(os.path.join(here, LIBRARY))
    return [] if library is None else _unusable(here, library)


def compiled_build(here: str = _HERE) -> bool:
    """Whether ``here`` holds a usable compiled build of every module in ``COMPILED_MODULES``."""
    library = _built(os.path.join(here, LIBRARY))
    return library is not None and not _unusable(here, library)


def _unusable(here: str, library: str) -> list[str]:
    checkout = os.path.exists(os.path.join(os.path.dirname(here), "setup.py"))
    built_at = os.stat(library).st_mtime
    bad: list[str] = []
    for name in COMPILED_MODULES:
        source = _source(here, name)
        shim = _built(source[:-3])
        if shim is None:
            bad.append(name)
        elif checkout and os.stat(source).st_mtime > max(built_at, os.stat(shim).st_mtime):
            bad.append(name)
    return bad


class _SourceFinder:
    """A meta path finder that loads the compiled group's modules from their ``.py`` files."""

    def __init__(self, here: str) -> None:
        self.paths = {PACKAGE + "." + name: _source(here, name) for name in COMPILED_MODULES}

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[ModuleSpec]:
        source = self.paths.get(fullname)
        if source is None:
            return None
        from importlib.util import spec_from_file_location

        return spec_from_file_location(fullname, source)


COMPILED = [False]
"""Whether this process runs the compiled group (set by ``select``)."""


def select() -> bool:
    """Load the group compiled when its build is usable, else every module of it from source (see
    the module docstring). Runs before any of the modules is imported; returns ``COMPILED[0]``."""
    if any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return COMPILED[0]
    usable = not os.environ.get("SPELLC_PURE_COMPILER") and compiled_build()
    if not usable:
        sys.meta_path.insert(0, _SourceFinder(_HERE))
    COMPILED[0] = usable
    return usable


__all__ = ["COMPILED", "COMPILED_MODULES", "LIBRARY", "compiled_build", "select", "stale_or_missing"]
