"""Library namespaces: a ``.spl`` file of ``defn`` forms seen by programs as ``tally/score`` (packages.md §1–§2).

This lives in the runtime, not the compiler, because a precompiled agent
package builds its namespace maps at import time from functions whose code is
already compiled, with nothing but the runtime loaded. The source path (the
compiler evaluating the ``defn`` forms) builds the very same map through
``library_namespace``, so a profile behaves identically from its source folder
and from an installed wheel.

Shape of the map (the reference's library namespaces, e.g. ``context-folding``):
one entry per fn, keyed by the fn's name as a keyword, plus ``:short-docs``
(one line for the system prompt) and ``:detail`` (name → doc, what
``(describe-fn tally :score)`` and the prompt's per-item line read). Spell's
``defn`` takes no docstring (language.md Q23), so a fn's doc is the run of
``;;`` comment lines directly above its ``defn`` (``docs_above``).

The fns are plain ``SpellFn`` values. The reference attaches ``:requires``
to library fns; spellc leaves it off because a ``SpellFn`` with an extra key
would stop being the compiled value (it would become a plain map and be
recompiled at first call), and ``:requires`` is only ever checked for
installable modules (``patterns/call``), never for library fns.

Error positions (packages.md §3: errors read ``lib/folding.spl:12:3``). A library's code is
compiled under a file name of its own (the ``.spl`` path from a source folder, the generated
module inside a package), which the loader registers here (``register_library_file``). The
first compiled frame that handles an error (``support.conv``) calls ``claim``: when that frame
is library code, the error names the library file (``SpellError.source_name``) and its Spell
position there. Code compiled from the source carries Spell positions itself; a package's
generated module does not (its positions are the module's), so its loader supplies a
``locate`` function that finds the failing form in the shipped ``.spl``, read only then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, Final, Optional

from .data import Keyword, SpellMap

K_SHORT_DOCS: Final = Keyword("short-docs")
K_DETAIL: Final = Keyword("detail")
DOC_PREFIX: Final = ";;"


def docs_above(lines: list[str], line: int) -> str:
    """The ``;;`` comment lines directly above 1-based ``line``, without their markers, in order."""
    out: list[str] = []
    i = line - 2
    while i >= 0:
        text = lines[i].strip()
        if not text.startswith(DOC_PREFIX):
            break
        out.append(text.lstrip(";").strip())
        i -= 1
    out.reverse()
    return "\n".join(out).strip()


def library_namespace(name: str, fns: Mapping[str, Any], docs: Mapping[str, str], origin: str) -> SpellMap:
    """The namespace map of library ``name``: its fns (in source order), ``:short-docs`` and ``:detail``."""
    pairs: list[tuple[Any, Any]] = [(Keyword(fn_name), fn) for fn_name, fn in fns.items()]
    detail = SpellMap.from_pairs((Keyword(k), v) for k, v in docs.items() if v)
    short = "Library %s (%s): pure Spell fns, usable in the body and in the trailing expression." % (name, origin)
    pairs.append((K_SHORT_DOCS, short))
    pairs.append((K_DETAIL, detail))
    return SpellMap.from_pairs(pairs)


def fn_names(namespace: SpellMap) -> Iterable[str]:
    """The fn names of a library namespace map (its keyword keys other than the doc keys)."""
    for key in namespace.keys():
        if type(key) is Keyword and key is not K_SHORT_DOCS and key is not K_DETAIL:
            yield key.name


class LazyTable(dict[Any, Any]):
    """A compiled library's position table, imported on the first lookup (the first error inside the library).

    Built modules attribute host failures through a table from code position to Spell form; for a
    library it is several times larger than the code itself, so a package ships it as a separate
    module (``<module>_pos``) and only an error pays for loading it. Compiled code only ever calls
    ``get`` on the table.
    """

    def __init__(self, module_name: str) -> None:
        super().__init__()
        self.module_name = module_name
        self.loaded = False

    def get(self, key: Any, default: Any = None) -> Any:
        if not self.loaded:
            import importlib

            self.loaded = True
            self.update(importlib.import_module(self.module_name).TABLE)
        return super().get(key, default)


Span = tuple[int, int, int, int]


class LibraryFile:
    """How errors in one compiled library file are reported.

    A plain slotted class rather than a ``@dataclass``: ``dataclasses`` imports ``inspect``, start-up
    that every ``spellc eval`` would pay for this one record (issue 12.4).
    """

    __slots__ = ("display", "locate")

    display: str
    """The name errors give (``lib/tally.spl``)."""
    locate: Optional[Callable[[Any, Any], Optional[Span]]]
    """(failing form, code object) → its span in the ``.spl``; None when the code carries Spell positions."""

    def __init__(self, display: str, locate: Optional[Callable[[Any, Any], Optional[Span]]] = None) -> None:
        self.display = display
        self.locate = locate

    def __repr__(self) -> str:
        return "LibraryFile(display=%r, locate=%r)" % (self.display, self.locate)


_FILES: dict[str, LibraryFile] = {}


def register_library_file(filename: str, display: str,
                          locate: Optional[Callable[[Any, Any], Optional[Span]]] = None) -> None:
    """Errors first handled in code compiled under ``filename`` name ``display`` (see the module doc)."""
    _FILES[filename] = LibraryFile(display, locate)


def claim(err: Any, tb: Optional[TracebackType]) -> None:
    """Give ``err`` its library file and position when ``tb``'s first frame is registered library code."""
    if not _FILES or tb is None or getattr(err, "source_name", None) is not None:
        return
    code = tb.tb_frame.f_code
    entry = _FILES.get(code.co_filename)
    if entry is None:
        return
    if entry.locate is None:
        if err.position is None:
            from .data.positions import span_of

            err.position = span_of(err.expr)
    else:
        try:
            err.position = entry.locate(err.expr, code)
        except Exception:  # noqa: BLE001 - a position we cannot find is left out, never a new failure
            err.position = None
    err.source_name = entry.display
