"""Which clipping core runs: the mypyc-compiled extension when the build produced it, else the source.

``setup.py`` compiles the modules of ``spell_runtime.snapshot.clip`` with mypyc
(they are plain typed Python); an install without a C compiler or mypyc simply
keeps the ``.py`` files, and importing the package gives the interpreted core.
Setting ``SPELLC_PURE_SNAPSHOT=1`` forces the interpreted core, and an extension
older than its source is never used (see ``stale_extensions``).

``load_pure()`` loads the same source files a second time, as the package
``spell_runtime.snapshot._pureclip``, so that tests can run both cores in one
process and require identical output.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import types
import warnings
from pathlib import Path
from typing import Final

CLIP: Final = "spell_runtime.snapshot.clip"
PURE: Final = "spell_runtime.snapshot._pureclip"
MODULES: Final = ("text", "shapes", "batch", "render", "selection", "normalize", "shorten", "core")
"""The core's modules in dependency order."""

LIBRARY: Final = "native__mypyc"
"""The shared library mypyc builds for them (``group_name`` in setup.py)."""


def _compiled(module: types.ModuleType) -> bool:
    return not str(getattr(module, "__file__", "") or "").endswith(".py")


def load_compiled() -> types.ModuleType | None:
    """The compiled ``core`` module, or None when the core's modules are not all extensions."""
    try:
        modules = [importlib.import_module(CLIP + "." + name) for name in MODULES]
    except ImportError:
        return None
    if not all(_compiled(m) for m in modules):
        return None
    return modules[-1]


def load_pure() -> types.ModuleType:
    """The ``core`` module interpreted from the source files, whatever else is installed."""
    core = sys.modules.get(PURE + ".core")
    if core is not None:
        return core
    package = types.ModuleType(PURE)
    package.__path__ = []
    package.__package__ = PURE
    sys.modules[PURE] = package
    directory = Path(__file__).resolve().parent / "clip"
    module: types.ModuleType = package
    for name in MODULES:
        full = PURE + "." + name
        loader = importlib.machinery.SourceFileLoader(full, str(directory / (name + ".py")))
        spec = importlib.util.spec_from_loader(full, loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        loader.exec_module(module)
    return module


def _built(directory: Path, name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = directory / (name + suffix)
        if path.exists():
            return path
    return None


def stale_extensions(here: Path | None = None) -> list[str]:
    """Core modules whose source is newer than their build.

    In a source checkout (an editable install), the sources are compiled once;
    after an edit (or a checkout) the old extension would still win the import
    and silently run old code, so such a build is not used until it is rebuilt
    (``pip install -e .``). Installed wheels are not checked: installing writes
    every file afresh, in no meaningful time order. mypyc
    puts the compiled code of all modules in one library (``LIBRARY``) and gives
    each module a thin shim that is not relinked when only the code changes, so
    a module counts as built at the later of the two.
    """
    if here is None:
        here = Path(__file__).resolve().parent
    if not (here.parents[2] / "setup.py").exists():
        return []  # an installed wheel: sources and extensions were installed together
    directory = here / "clip"
    library = _built(directory, LIBRARY)
    built_at = library.stat().st_mtime if library is not None else 0.0
    stale: list[str] = []
    for name in MODULES:
        shim = _built(directory, name)
        source = directory / (name + ".py")
        if shim is not None and source.exists() and source.stat().st_mtime > max(built_at, shim.stat().st_mtime):
            stale.append(name)
    return stale


def _select() -> tuple[types.ModuleType, bool]:
    if os.environ.get("SPELLC_PURE_SNAPSHOT"):
        return load_pure(), False
    stale = stale_extensions()
    if stale:
        warnings.warn("spell_runtime.snapshot: the compiled core is older than its source (%s); running the "
                      "source instead — rebuild with `pip install -e .`" % ", ".join(stale), RuntimeWarning,
                      stacklevel=2)
        return load_pure(), False
    try:
        modules = [importlib.import_module(CLIP + "." + name) for name in MODULES]
    except ImportError:  # a broken or foreign extension: the source still works
        return load_pure(), False
    return modules[-1], all(_compiled(m) for m in modules)


core, COMPILED = _select()
"""The core in use, and whether it is the compiled one."""
