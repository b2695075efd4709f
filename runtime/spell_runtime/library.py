"""Loading the builtin library: importing each core module registers its builtins.

Kept out of ``spell_runtime.core.__init__`` so that a core module (or the printer)
can import ``core.registry`` without pulling in every other builtin module first.

A built module loads only its share (issue 12.4): the modules that register the builtins its code
refers to (``spellc build`` writes their names, from ``registry.OWNERS``). The rest loads on the first
question only the whole library can answer, each of which calls ``load_rest`` first:

- a symbol that is neither bound nor a loaded builtin (``context.Context.builtin``, through which
  ``support.miss``, ``support.ns_path`` and ``effects.patterns`` read builtins by name): it may name a
  builtin of a module not loaded yet;
- whether a binding shadows a core name (``support.mark_core``);
- evaluating new code (``eval``'s table, ``core.evaluation``; and the compiler, whose
  ``state.base_namespace`` loads the whole library before it analyses anything).

Builtins are looked up through one table (``registry.BUILTINS``, which the context of a fresh
environment shares rather than copies), so what loads later is seen by every environment at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Optional

_MODULES = (
    "numbers", "numcoerce", "compare", "bitwise", "mathns", "strings", "regex",
    "seqs", "reducing", "seqfns", "slicing", "colls", "types", "combinators", "exceptions", "printing", "quine", "evaluation",
    "spell_runtime.snapshot.serialize",
)
"""Modules under ``spell_runtime.core`` by short name; a dotted name is a full module path."""

_loaded = False
"""Every module of the library is registered."""
_some = False
"""A built module's share is registered (``load(modules)``); the rest loads on demand."""

GENERATION = [0]
"""Bumped whenever modules are added to the registry: tables derived from it (``core.bulk``) refill."""


def load(modules: Optional[Iterable[str]] = None) -> None:
    """Register every builtin (idempotent); with ``modules`` (full module names, a built module's share),
    only the builtins those modules register."""
    global _loaded, _some
    if _loaded:
        return
    if modules is None:
        modules = [name if "." in name else "spell_runtime.core." + name for name in _MODULES]
        whole = True
    else:
        whole = False
    for full in modules:
        try:
            # ``__import__`` rather than ``importlib.import_module``: only the former goes through
            # the interpreter's import entry point, so ``-X importtime`` (benchmarks/startup_imports.py)
            # lists what each builtin module costs instead of hiding the whole library.
            __import__(full)
        except ModuleNotFoundError as e:  # only while the library is being written
            if e.name != full or not whole:
                raise
    _register_fast_paths()
    GENERATION[0] += 1
    if whole:
        _loaded = True
    else:
        _some = True


def load_rest() -> bool:
    """Load what a built module's share left out; True when that registered more (look again)."""
    if _loaded:
        return False
    load()
    return True


def loaded_any() -> bool:
    """Some of the library is registered: all of it, or a built module's share."""
    return _loaded or _some


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
