"""Top-level definitions of a built module as Python attributes (packages.md §5).

A module written by ``spellc build`` evaluates its program at import; with exports it keeps the
program's environment open for the module's lifetime and binds every top-level ``def``/``defn``
under Hy's mangled name (``word-count`` → ``word_count``, ``valid?`` →
``hyx_validXquestion_markX``), plus ``__spell_names__`` (Spell name → attribute) and
``__spell_env__`` (the environment). A fn export is a plain Python callable that runs the Spell
fn with that environment as the caller's scope — Spell fns are dynamically scoped, so a fn that
uses another top-level definition by name finds it there — and it converts nothing: Python values
go in as they are (``int``, ``str``), Spell values come out as they are.

A definition whose mangled name is already a module internal beginning with ``_`` (``_k0``,
``_unit0``) is not exported; ``run`` and ``value`` may be shadowed by a definition of that name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..data import Symbol
from ..data.fn import as_spell_fn, is_spell_fn
from .mangle import mangle


def exported_fn(D: dict[Any, Any], fn: Any, name: str) -> Callable[..., Any]:
    """A Python callable running Spell fn ``fn`` in environment ``D``; Spell errors propagate as ``SpellError``."""
    spell_fn = as_spell_fn(fn)

    def call(*args: Any) -> Any:
        from ..invoke import arity_error

        if spell_fn.arity != len(args) and spell_fn.arity >= 0:
            raise arity_error(spell_fn.arity, len(args))
        code = spell_fn.code
        if code is None:
            from ..hooks import compile_fn

            code = compile_fn(spell_fn)
        return code(D, None, *args)

    call.__name__ = call.__qualname__ = mangle(name)
    call.__doc__ = "Spell fn %s %s (dynamic scope: the module's environment)." % (name, spell_fn.params)
    return call


def export_program(namespace: dict[str, Any], units: Iterable[Callable[..., Any]], names: Iterable[str]) -> Any:
    """Run the program's ``units`` in a fresh environment kept open, export ``names``; the program's value."""
    from ..program import fresh_env

    D = fresh_env()
    value: Any = None
    for unit in units:
        value = unit(D, [])
    spell_names: dict[str, str] = {}
    for name in names:
        sym = Symbol(name)
        if sym not in D:
            continue
        attr = mangle(name)
        if "." in attr or (attr.startswith("_") and attr in namespace):
            continue
        bound = D[sym]
        namespace[attr] = exported_fn(D, bound, name) if is_spell_fn(bound) else bound
        spell_names[name] = attr
    namespace["__spell_names__"] = spell_names
    namespace["__spell_env__"] = D
    return value
