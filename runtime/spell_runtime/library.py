"""Loading the builtin library: importing each core module registers its builtins.

Kept out of ``spell_runtime.core.__init__`` so that a core module (or the printer)
can import ``core.registry`` without pulling in every other builtin module first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_MODULES = (
    "numbers", "numcoerce", "compare", "bitwise", "mathns", "strings", "regex",
    "seqs", "reducing", "seqfns", "slicing", "colls", "types", "combinators", "exceptions", "printing", "quine", "evaluation",
    "spell_runtime.snapshot.serialize",
)
"""Modules under ``spell_runtime.core`` by short name; a dotted name is a full module path."""

_loaded = False


def load() -> None:
    """Register every builtin (idempotent)."""
    global _loaded
    if _loaded:
        return
    for name in _MODULES:
        full = name if "." in name else "spell_runtime.core." + name
        try:
            # ``__import__`` rather than ``importlib.import_module``: only the former goes through
            # the interpreter's import entry point, so ``-X importtime`` (benchmarks/startup_imports.py)
            # lists what each builtin module costs instead of hiding the whole library.
            __import__(full)
        except ModuleNotFoundError as e:  # only while the library is being written
            if e.name != full:
                raise
    _register_fast_paths()
    _loaded = True


def _register_fast_paths() -> None:
    from .core import numbers as num
    from .core.registry import BUILTINS, register_fast
    from .data.atoms import Symbol
    from .data.equality import spell_eq

    pairs: dict[str, tuple[int, Callable[..., Any]]] = {"+": (2, num.add), "-": (2, num.sub), "*": (2, num.mul), "<": (2, num.lt), ">": (2, num.gt),
             "<=": (2, num.le), ">=": (2, num.ge), "=": (2, spell_eq), "inc": (1, num.inc), "dec": (1, num.dec),
             "+'": (2, num.add_p), "*'": (2, num.mul_p)}
    for name, (arity, fn) in pairs.items():
        if Symbol(name) in BUILTINS:
            register_fast(name, arity, fn)
