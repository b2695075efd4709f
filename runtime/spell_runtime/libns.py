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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

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
