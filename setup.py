"""Build hook: compile the snapshot clipping core with mypyc when the build can (architecture.md §4).

Everything else is declared in pyproject.toml. The clipping core
(``spell_runtime/snapshot/clip``) is plain typed Python; compiled, it runs the
snapshot algorithm several times faster. Compilation is optional at every step:
without mypyc (``SPELLC_NO_MYPYC=1`` also turns it off), when mypyc rejects the
code, or when no C compiler is found, the build still succeeds and the package
runs the same modules interpreted (``spell_runtime.snapshot.backend``).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

CORE_MODULES = ("text", "render", "shapes", "batch", "selection", "normalize", "shorten", "core")
CORE_DIR = "runtime/spell_runtime/snapshot/clip"


def _warn(message: str) -> None:
    print("spellc: " + message + "; the snapshot core stays interpreted", file=sys.stderr)


def extensions() -> list[Any]:
    """The mypyc extensions of the clipping core, or none when they cannot be built."""
    if os.environ.get("SPELLC_NO_MYPYC"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    paths = [CORE_DIR + "/" + name + ".py" for name in CORE_MODULES]
    try:
        built = mypycify(["--follow-imports=silent", *paths], group_name="spell_runtime.snapshot.clip.native",
                         opt_level="3")
    except (Exception, SystemExit) as e:  # mypy reports type errors by exiting
        _warn("mypyc could not compile it (%s)" % e)
        return []
    for ext in built:
        ext.optional = True  # a failing C compiler only skips the extension
    return list(built)


setup(ext_modules=extensions())
