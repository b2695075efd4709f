"""Build hook: compile the snapshot clipping core and the compiler's hot modules with mypyc when the
build can (architecture.md §4, §5).

Everything else is declared in pyproject.toml. Two groups of plain typed Python are compiled, each
into one library plus a thin extension per module beside its source:

- the snapshot clipping core (``spell_runtime/snapshot/clip``): compiled, it runs the snapshot
  algorithm several times faster (``spell_runtime.snapshot.backend`` picks the core);
- the compiler's reader, analyzer and emitter (``spellc.native.COMPILED_MODULES``): a cold compile
  is mostly these in Python (``spellc.native`` says what it buys and when a build is not used).

Compilation is optional at every step: without mypyc (``SPELLC_NO_MYPYC=1`` also turns it off),
when mypyc rejects the code, or when no C compiler is found, the build still succeeds and the
package runs the same modules interpreted.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any

from setuptools import setup

CORE_MODULES = ("text", "render", "shapes", "batch", "selection", "normalize", "shorten", "core")
CORE_DIR = "runtime/spell_runtime/snapshot/clip"


def _warn(what: str, message: str) -> None:
    print("spellc: %s; %s stays interpreted" % (message, what), file=sys.stderr)


def _compiler_modules() -> list[str]:
    """The compiler modules to compile, read from ``spellc/native.py`` (loaded alone: the build
    environment need not be able to import ``spellc``)."""
    spec = importlib.util.spec_from_file_location("_spellc_native_list", "spellc/native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return ["spellc/" + name.replace(".", "/") + ".py" for name in module.COMPILED_MODULES]


def _group(what: str, paths: list[str], group: str) -> list[Any]:
    """The mypyc extensions of one group, or none when they cannot be built."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn(what, "mypyc is not installed")
        return []
    try:
        built = mypycify(["--follow-imports=silent", *paths], group_name=group, opt_level="3")
    except (Exception, SystemExit) as e:  # mypy reports type errors by exiting
        _warn(what, "mypyc could not compile it (%s)" % e)
        return []
    for ext in built:
        ext.optional = True  # a failing C compiler only skips the extension
    return list(built)


def extensions() -> list[Any]:
    if os.environ.get("SPELLC_NO_MYPYC"):
        return []
    core = [CORE_DIR + "/" + name + ".py" for name in CORE_MODULES]
    return (_group("the snapshot core", core, "spell_runtime.snapshot.clip.native")
            + _group("the compiler", _compiler_modules(), "spellc.native"))


setup(ext_modules=extensions())
