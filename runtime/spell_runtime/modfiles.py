"""Installable module definition files: where they are found and how they are read (packages.md §1).

Discovery order, first match wins per module name:

1. ``<project>/.spell/modules/<name>.spl`` — project = the nearest ancestor of the
   working directory holding ``.git``, else the working directory itself;
2. ``~/.spell/modules/<name>.spl``;
3. installed agent packages: the ``spellc.modules`` entry points, whose name is
   the module name and whose value is the package's import name; the text is the
   package data file ``modules/<name>.spl`` (read with ``importlib.resources``,
   so it works from a zipped wheel too);
4. modules bundled with spellc (``spell_runtime/bundled_modules/``).

Reading is strict: the text is read without the reader's textual repairs, must
hold exactly one form, and that form must be a valid definition map. A malformed
file that was *selected* fails with its path; it never falls back to a copy of
lower priority, because silently running a different definition than the one
the user edited is worse than an error.

Module files are data, never compiled or run here: ``:source`` stays a form
until ``patterns/call`` evaluates it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Optional

from .data import Keyword, SpellMap, Symbol
from .data.plist import PList
from .data.vector import is_vector

MODULE_NAME: Final = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ENTRY_GROUP: Final = "spellc.modules"
INVALID_NAME: Final = "Invalid module filename"
BAD_DEFINITION: Final = "Module definition requires :doc string and :functions map"
BAD_FUNCTION: Final = ("Module function requires a keyword, :doc string, :requires namespace-symbol vector, "
                       "and :source (fn [params] body...)")
NOT_ONE_MAP: Final = "Module file must contain one unquoted definition map"

K_DOC: Final = Keyword("doc")
K_FUNCTIONS: Final = Keyword("functions")
K_REQUIRES: Final = Keyword("requires")
K_SOURCE: Final = Keyword("source")
K_KIND: Final = Keyword("kind")
K_PATH: Final = Keyword("path")
K_PACKAGE: Final = Keyword("package")
S_FN: Final = Symbol("fn")


class ModuleFileError(Exception):
    """A module file or definition that cannot be used; ``str(e)`` names the file when there is one."""

    def __init__(self, message: str, path: Optional[str] = None) -> None:
        super().__init__("%s: %s" % (path, message) if path else message)
        self.message = message
        self.path = path


@dataclass(frozen=True)
class ModuleFile:
    """One discovered module file: its name, display path, origin map and a way to get its text."""

    name: str
    path: str
    origin: SpellMap
    read_text: Callable[[], str]


def project_root(cwd: Optional[str] = None) -> str:
    """The nearest ancestor of ``cwd`` holding ``.git``, else ``cwd``."""
    start = os.path.abspath(cwd or os.getcwd())
    here = start
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return start
        here = parent


def _file_reader(path: str) -> Callable[[], str]:
    def read() -> str:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    return read


def _folder_modules(folder: str, kind: str) -> Iterator[ModuleFile]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return
    for entry in names:
        if entry.endswith(".spl") and os.path.isfile(os.path.join(folder, entry)):
            path = os.path.join(folder, entry)
            origin = SpellMap.from_pairs([(K_KIND, Keyword(kind)), (K_PATH, path)])
            yield ModuleFile(entry[:-4], path, origin, _file_reader(path))


def _package_modules() -> Iterator[ModuleFile]:
    from importlib import resources

    from .entrypoints import entry_points

    for ep in entry_points(ENTRY_GROUP):
        package = ep.value.split(":", 1)[0].strip()
        dist = ep.dist.name if ep.dist is not None else package
        resource = resources.files(package).joinpath("modules", ep.name + ".spl")

        def read(resource: Any = resource) -> str:
            return str(resource.read_text(encoding="utf-8"))

        origin = SpellMap.from_pairs([(K_KIND, Keyword("package")), (K_PACKAGE, _display_package(dist))])
        yield ModuleFile(ep.name, "%s:modules/%s.spl" % (package, ep.name), origin, read)


def _display_package(dist: str) -> str:
    name = dist.replace("_", "-")
    return name[len("spellpkg-"):] if name.startswith("spellpkg-") else name


BUNDLED_DIR: Final = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundled_modules")


def discovered(cwd: Optional[str] = None, home: Optional[str] = None,
               bundled_dir: str = BUNDLED_DIR) -> dict[str, ModuleFile]:
    """Every discoverable module, name → the file that wins (discovery order above)."""
    home_dir = home if home is not None else os.path.expanduser("~")
    sources: list[Iterator[ModuleFile]] = [
        _folder_modules(os.path.join(project_root(cwd), ".spell", "modules"), "project"),
        _folder_modules(os.path.join(home_dir, ".spell", "modules"), "user"),
        _package_modules(),
        _folder_modules(bundled_dir, "bundled"),
    ]
    out: dict[str, ModuleFile] = {}
    for source in sources:
        for found in source:
            out.setdefault(found.name, found)
    return out


def read_definition(found: ModuleFile) -> SpellMap:
    """The checked definition map of a discovered file (``ModuleFileError`` naming the file)."""
    if not MODULE_NAME.match(found.name):
        raise ModuleFileError(INVALID_NAME, found.path)
    try:
        text = found.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise ModuleFileError("cannot read module file: %s" % e, found.path) from None
    from .hooks import read_strict

    try:
        forms = read_strict(text, found.path)
    except Exception as e:  # noqa: BLE001 - a reader error of any kind: the file is malformed
        raise ModuleFileError(str(e), found.path) from None
    if len(forms) != 1 or not isinstance(forms[0], SpellMap):
        raise ModuleFileError(NOT_ONE_MAP, found.path)
    try:
        return check_definition(forms[0])
    except ModuleFileError as e:
        raise ModuleFileError(e.message, found.path) from None


def check_definition(definition: Any) -> SpellMap:
    """``definition`` itself when it is a valid module definition map, else ``ModuleFileError``."""
    if not isinstance(definition, SpellMap) or type(definition.get(K_DOC)) is not str \
            or not isinstance(definition.get(K_FUNCTIONS), SpellMap):
        raise ModuleFileError(BAD_DEFINITION)
    for key, entry in definition.get(K_FUNCTIONS).items():
        if type(key) is not Keyword or not isinstance(entry, SpellMap) or type(entry.get(K_DOC)) is not str:
            raise ModuleFileError(BAD_FUNCTION)
        requires = entry.get(K_REQUIRES)
        if not is_vector(requires) or not all(type(r) is Symbol and r.ns is None for r in requires):
            raise ModuleFileError(BAD_FUNCTION)
        if not is_fn_form(entry.get(K_SOURCE)):
            raise ModuleFileError(BAD_FUNCTION)
    return definition


def is_fn_form(source: Any) -> bool:
    """A single-arity ``(fn [params] body…)`` form with at least one body form."""
    if type(source) is not PList:
        return False
    items = list(source)
    return len(items) >= 3 and items[0] == S_FN and is_vector(items[1])


def fn_params(source: Any) -> Any:
    """The parameter vector of a ``(fn [params] …)`` form."""
    return list(source)[1]
