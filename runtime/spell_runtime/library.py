"""Loading the builtin library: importing each core module registers its builtins.

Kept out of ``spell_runtime.core.__init__`` so that a core module (or the printer)
can import ``core.registry`` without pulling in every other builtin module first.
"""

from __future__ import annotations

from importlib import import_module

_MODULES = (
    "numbers", "numcoerce", "compare", "bitwise", "mathns", "strings", "regex",
    "seqs", "colls", "types", "combinators", "exceptions", "printing", "quine", "evaluation",
)

_loaded = False


def load() -> None:
    """Register every builtin (idempotent)."""
    global _loaded
    if _loaded:
        return
    for name in _MODULES:
        try:
            import_module("spell_runtime.core." + name)
        except ModuleNotFoundError as e:  # only while the library is being written
            if e.name != "spell_runtime.core." + name:
                raise
    _loaded = True
