"""A profile's library namespaces (``{tally lib/tally}``), resolved from a source folder or an installed package.

packages.md §2: a profile names a library by a path symbol; ``lib/tally``
resolves to ``lib/tally.spl`` of the package folder, which is the nearest
folder at or above the profile holding ``spell-package.edn``. spellc's choice
where the spec is silent: a profile with no ``spell-package.edn`` above it
resolves library paths against its own folder, so a lone profile next to a
``lib/`` folder works too. References under ``stdlib/`` are effect namespaces
and stay with ``spellc.loop.namespaces``; every other path symbol is a library.

Where the maps come from is a ``LibrarySource`` carried by the profile: the
source folder (``SourceLibraries``, compiling now) or a built package
(``spellc.package.runtime.PackageLibraries``, precompiled). The names given to
libraries must not be core names (a library called ``strings`` would shadow
the core namespace the compiler references statically).
"""

from __future__ import annotations

import os
from typing import Any, Final, Optional, Protocol

from spell_runtime.data import Keyword, SpellMap, Symbol
from spell_runtime.errors import SpellError
from spell_runtime.printer import pr_str

from ..loop.prompts import K_DETAIL, K_SHORT, namespace_guide
from ..providers.registry import ProfileError
from .library import LibraryError, check_name, library_path, load_from_source, read_library

MANIFEST_NAME: Final = "spell-package.edn"
RESERVED: Final = frozenset({"strings", "math", "builtins", "skills", "io", "web", "globals", "patterns", "blocking"})


class LibrarySource(Protocol):
    """Gives the namespace map of library reference ``ref`` (``lib/tally``) under the name ``name``."""

    def namespace(self, name: str, ref: str) -> SpellMap: ...


class SourceLibraries:
    """Libraries compiled from ``.spl`` files under a package folder."""

    def __init__(self, root: str) -> None:
        self.root = root

    def namespace(self, name: str, ref: str) -> SpellMap:
        path = library_path(self.root, ref)
        if not os.path.isfile(path):
            raise LibraryError("Unknown namespace reference: %s (no file %s)" % (ref, path))
        library = read_library(path, name)
        try:
            return load_from_source(library, ref + ".spl")
        except SpellError as e:
            pos = e.position or (1, 0)
            raise LibraryError("%s:%d:%d: %s" % (path, pos[0], pos[1] + 1, e.message)) from None


def package_root(profile_path: Optional[str]) -> str:
    """The nearest folder at or above the profile that holds ``spell-package.edn``, else the profile's folder."""
    start = os.path.dirname(os.path.abspath(profile_path)) if profile_path else os.getcwd()
    here = start
    while True:
        if os.path.isfile(os.path.join(here, MANIFEST_NAME)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return start
        here = parent


PYTHON_PREFIX: Final = "python:"
K_PYTHON: Final = Keyword("python")


def library_ref(ref: Any) -> Optional[str]:
    """``lib/tally`` for a library reference, ``python:pkg.mod`` for ``{:python "pkg.mod"}``, else None."""
    if isinstance(ref, SpellMap) and len(ref) == 1 and isinstance(ref.get(K_PYTHON), str):
        return PYTHON_PREFIX + str(ref.get(K_PYTHON))
    if type(ref) is Symbol and ref.ns is not None:
        text = "%s/%s" % (ref.ns, ref.name)
    elif isinstance(ref, str) and "/" in ref and not ref.startswith(":"):
        text = ref
    else:
        return None
    if text.split("/", 1)[0] == "stdlib":
        return None
    return text


def split_namespaces(refs: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """(name → library reference, name → every other reference) of a profile's ``:namespaces``."""
    libraries: dict[str, str] = {}
    others: dict[str, Any] = {}
    for name, ref in refs.items():
        lib = library_ref(ref)
        if lib is None:
            others[name] = ref
        else:
            libraries[name] = lib
    return libraries, others


def resolve_libraries(refs: dict[str, str], source: LibrarySource) -> dict[str, SpellMap]:
    """Name → namespace map of each library reference (``ProfileError`` when one cannot be used)."""
    out: dict[str, SpellMap] = {}
    for name, ref in refs.items():
        try:
            if name in RESERVED:
                raise LibraryError("Library namespace %s would shadow a core or effect namespace" % name)
            check_name(name, "namespace %s" % pr_str(Symbol(name)))
            out[name] = python_module(ref[len(PYTHON_PREFIX):]) if ref.startswith(PYTHON_PREFIX) \
                else source.namespace(name, ref)
        except LibraryError as e:
            raise ProfileError(str(e), {"namespace": ref}) from None
    return out


def python_module(module_name: str) -> SpellMap:
    """A Python/Hy module as a namespace (``spell_runtime.interop.pyns``); ``LibraryError`` if it cannot load."""
    from spell_runtime.interop.pyns import python_namespace

    try:
        return python_namespace(module_name)
    except Exception as e:  # noqa: BLE001 - any import failure is the profile's problem, said in one line
        raise LibraryError("Cannot import Python module %s for a namespace: %s: %s"
                           % (module_name, type(e).__name__, e)) from None


def library_section(libraries: dict[str, SpellMap]) -> str:
    """``LIBRARIES`` for the system prompt: each library fn with its parameters and the first line of its doc."""
    header = ("LIBRARIES (pure Spell fns: usable in the body and in the trailing expression)\n"
              "Call them with qualified symbols, e.g. (%s/%s ...)." % _example(libraries))
    return namespace_guide(header, libraries, _LIBRARY_DOC_KEYS, _library_line)


_LIBRARY_DOC_KEYS: Final = frozenset({K_SHORT, K_DETAIL})


def _library_line(name: str, key: Keyword, first: str, member: Any) -> str:
    params = member.get(Keyword("params")) if isinstance(member, SpellMap) else None
    return "  (%s/%s%s)%s" % (name, key.name, "".join(" " + pr_str(p) for p in (params or ())),
                              ("  ; " + first) if first else "")


def _example(libraries: dict[str, SpellMap]) -> tuple[str, str]:
    for name, ns in libraries.items():
        for key in ns.keys():
            if type(key) is Keyword and key is not K_SHORT and key is not K_DETAIL:
                return name, key.name
    return "lib", "fn"
