"""Library ``.spl`` files: read and check them, load them from source, compile them for a package (packages.md §1–§3).

A library file holds only ``(defn name [params] body…)`` forms; anything else
is refused with its position (``lib/tally.spl:3:1: …``) because a library is
loaded, never run: a top-level ``(io/write-file …)`` would otherwise run at
every agent start. Fns call each other qualified (``tally/helper``), as in the
reference's libraries, because a Spell fn body runs in its caller's scope
(dynamic scope) where the bare sibling name is not bound.

Two loaders produce the same namespace map (``spell_runtime.libns``):
``load_from_source`` evaluates the forms now (what ``spellc run --agent-profile``
does from the source folder); ``compiled_module_source`` writes a Python module
whose import builds the map with every fn already compiled (what a package
ships). The latter is the only place the package builder touches the compiler's
build entry point, so a change to the built-module format stays here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Optional

from spell_runtime.data import PList, SpellMap, Symbol, is_vector
from spell_runtime.data.positions import span_of
from spell_runtime.libns import docs_above, library_namespace

from ..reader import ReaderError, read_all_with_spans

LIBRARY_NAME: Final = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
S_DEFN: Final = Symbol("defn")


class LibraryError(Exception):
    """A library file that cannot be used: ``str(e)`` is ``path:line:col: message``."""


@dataclass
class Library:
    """One library file read: its namespace name, defn forms (source order) and docs."""

    name: str
    path: str
    text: str
    forms: list[Any]
    fn_names: list[str]
    docs: dict[str, str]


def read_library(path: str, name: str) -> Library:
    """Read and check ``path`` as library ``name`` (``LibraryError`` on any problem)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise LibraryError("%s: cannot read library: %s" % (path, e.strerror)) from None
    return parse_library(text, path, name)


def parse_library(text: str, path: str, name: str) -> Library:
    """Check library text: only ``defn`` forms with a symbol name and a parameter vector, no duplicates."""
    try:
        spanned = read_all_with_spans(text, source_name=path)
    except ReaderError as e:
        raise LibraryError("%s:%d:%d: %s" % (path, e.line, e.column, e)) from None
    lines = text.splitlines()
    forms: list[Any] = []
    names: list[str] = []
    docs: dict[str, str] = {}
    for form, span in spanned:
        where = "%s:%d:%d" % (path, span[0], span[1] + 1)
        items = list(form) if _is_list(form) else []
        if len(items) < 3 or items[0] != S_DEFN:
            raise LibraryError("%s: a library file holds only (defn name [params] body...) forms" % where)
        fn_name, params = items[1], items[2]
        if type(fn_name) is not Symbol or fn_name.ns is not None:
            raise LibraryError("%s: defn needs a plain symbol name" % where)
        if not is_vector(params):
            raise LibraryError("%s: (defn %s ...) needs a parameter vector" % (where, fn_name.name))
        if fn_name.name in docs:
            raise LibraryError("%s: %s is defined twice" % (where, fn_name.name))
        forms.append(form)
        names.append(fn_name.name)
        docs[fn_name.name] = docs_above(lines, span[0])
    return Library(name, path, text, forms, names, docs)


def _is_list(form: Any) -> bool:
    from spell_runtime.data.plist import PList

    return type(form) is PList


def check_name(name: str, where: str) -> None:
    """Library namespace names are lowercase kebab, like module names."""
    if not LIBRARY_NAME.match(name):
        raise LibraryError("%s: invalid library namespace name %r (lowercase kebab expected)" % (where, name))


def load_from_source(library: Library, origin: str) -> SpellMap:
    """Evaluate the defn forms in a fresh program and build the namespace map (fn bodies compile now)."""
    from spell_runtime.libns import register_library_file
    from spell_runtime.program import close_env

    from ..compiler import run_form
    from ..environment import new_env

    register_library_file(library.path, origin)  # errors in its fns read origin:L:C (code has Spell positions)
    D = new_env()
    try:
        fns: dict[str, Any] = {}
        for form in library.forms:
            value, _ = run_form(D, form, library.path, library.text)
            fns[str(form[1].name)] = value
    finally:
        close_env(D)
    return library_namespace(library.name, fns, library.docs, origin)


POSITIONS_SUFFIX: Final = "_pos"
TABLE_LINE: Final = "_T = {"


@dataclass
class CompiledLibrary:
    """The Python modules of one compiled library: the code, and its position table (or None)."""

    source: str
    positions: Optional[str]


def compiled_module_source(library: Library, source_name: str, module_name: str) -> CompiledLibrary:
    """The module exporting ``FNS`` (name → compiled fn, source order) and ``DOCS``, and its position table.

    The defns are built with the compiler's ``build_module`` followed by one form collecting them
    into a map: importing that module evaluates the defns, compiling nothing, and
    ``spell_runtime.libns.library_namespace`` turns ``FNS``/``DOCS`` into the namespace map. The
    built module's position table (``_T = {...}``, used only to attribute host failures) is moved
    to ``<module_name>_pos`` behind a ``LazyTable``: it is most of the text, and only an error needs
    it. Should the built-module format no longer have that line, the module is kept whole.
    """
    from ..compiler import build_module

    collect = SpellMap.from_pairs((_kw(n), Symbol(n)) for n in library.fn_names)
    body = build_module([*library.forms, collect], source_name)
    tail = ("\n\n# -- spellc package: the library's fns in source order, and their docs --\n"
            "FNS = {_n: value.get(Keyword(_n)) for _n in %r}\nDOCS = %r\n" % (library.fn_names, library.docs))
    lines = body.split("\n")
    at = [i for i, line in enumerate(lines) if line.startswith(TABLE_LINE)]
    if len(at) != 1:
        return CompiledLibrary(body + tail, None)
    table = lines[at[0]]
    # One line replaces one line: positions of the code above and below must not move.
    lines[at[0]] = "from spell_runtime.libns import LazyTable as _LazyTable; _T = _LazyTable(__name__ + %r)" % (
        POSITIONS_SUFFIX)
    positions = ('"""Position table of %s (imported on the first error inside the library)."""\n\n'
                 "import sys as _sys\n\n"
                 "globals().update({_k: _v for _k, _v in vars(_sys.modules[__name__[:-%d]]).items()\n"
                 "                  if not _k.startswith('__')})\n\n%s\nTABLE = _T\n"
                 % (module_name, len(POSITIONS_SUFFIX), table))
    return CompiledLibrary("\n".join(lines) + tail, positions)


def source_locator(read_text: Callable[[], str], display: str, name: str,
                   fns: Mapping[str, Any]) -> Callable[[Any, Any], Optional[tuple[int, int, int, int]]]:
    """Where a failing form of a packaged library stands in its shipped ``.spl`` (``libns.LibraryFile.locate``).

    A package's compiled module carries the generated module's positions, not the source's, and its
    constant forms have no spans; so the form is looked up in the source, read on the first error:
    inside the ``defn`` whose compiled body the failing frame runs (``fns``: name → fn, whose code
    object identifies it), else in the whole file; the first equal sub-form in source order wins.
    """
    parsed: list[Library] = []

    def locate(expr: Any, code: Any) -> Optional[tuple[int, int, int, int]]:
        if expr is None:
            return None
        if not parsed:
            parsed.append(parse_library(read_text(), display, name))
        library = parsed[0]
        owner = next((n for n, fn in fns.items() if getattr(getattr(fn, "code", None), "__code__", None) is code), None)
        forms = [f for f in library.forms if owner is None or str(f[1].name) == owner]
        for form in forms:
            span = _find(form, span_of(form), expr)
            if span is not None:
                return span
        return None

    return locate


def _find(form: Any, span: Any, expr: Any) -> Optional[tuple[int, int, int, int]]:
    """The span of the first sub-form of ``form`` (itself at ``span``) equal to ``expr``, depth first."""
    from spell_runtime.data.positions import child_spans_of

    if type(form) is type(expr) and form == expr:
        return span  # type: ignore[no-any-return]
    if type(form) is PList or is_vector(form):
        kids = child_spans_of(form) or ()
        for i, kid in enumerate(form):
            found = _find(kid, kids[i] if i < len(kids) else None, expr)
            if found is not None:
                return found
    return None


def _kw(name: str) -> Any:
    from spell_runtime.data import Keyword

    return Keyword(name)


def library_path(root: str, ref: str) -> str:
    """``lib/tally`` → ``<root>/lib/tally.spl``."""
    return os.path.join(root, *ref.split("/")) + ".spl"


__all__ = ["Library", "LibraryError", "read_library", "parse_library", "load_from_source",
           "compiled_module_source", "library_path", "check_name"]
