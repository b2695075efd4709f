"""The runtime's only doors into the compiler, opened lazily.

Compiled programs that never evaluate new code at run time import nothing from
``spellc``; ``eval``, ``spell-eval``, user macro expansion and functions built
from data (a ``{:spell/fn true ...}`` map that was never compiled) reach the
compiler through these functions, which import it on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .built_spans import restore_pending
from .callpath import BUILT_TABLES

# Every door below that compiles forms first gives built modules' forms their spans back
# (``built_spans``): forms a built module rebuilt are compiled at run time with their positions.


def compile_fn(fn: Any) -> Callable[..., Any]:
    """Compile a Spell function value's body (caching the result on ``fn.code``)."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import compile_spell_fn

    return compile_spell_fn(fn)


def eval_form(D: Any, form: Any) -> Any:
    """Evaluate ``form`` in the binding table ``D``; definitions it makes do not escape."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import eval_in

    return eval_in(D, form)


def expand_user_macro(D: Any, macro: Any, form: Any, name: str) -> Any:
    """Run a user macro's expander on the unevaluated arguments of ``form`` (a failure of the expansion,
    ``Macro expansion too deep``, is placed by ``form``'s span: given back first)."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import expand_user_macro as expand

    return expand(D, macro, form, name)


def apply_macro(D: Any, macro: Any, forms: tuple[Any, ...]) -> Any:
    """``(apply-macro m form...)``: a macro's expansion of ``forms``, not evaluated."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import apply_macro as expand

    return expand(D, macro, forms)


def eval_expansion(D: Any, expansion: Any) -> Any:
    """Evaluate a macro expansion in ``D``; returns (value, undo list of escaping defs)."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import run_form

    return run_form(D, expansion)


def read_all(text: str) -> Any:
    """The reader's ``read_all`` (the reader lives in the compiler package)."""
    from spellc.reader import read_all as read

    return read(text)


def compile_fn_form(form: Any) -> Callable[..., Any]:
    """Compile a ``(fn params body...)`` form's body afresh (used when compiled code went stale)."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import compile_fn_form as compile_form

    return compile_form(form)


def subunit(form: Any, key: Any) -> Callable[..., Any]:
    """The cached unit for one element of a long body sequence."""
    if BUILT_TABLES:
        restore_pending(BUILT_TABLES)
    from spellc.compiler import compile_subunit

    return compile_subunit(form, key)


def read_strict(text: str, source_name: Any = None) -> Any:
    """The reader's ``read_strict``: forms exactly as written, for data files (module definitions)."""
    from spellc.reader import read_strict as read

    return read(text, source_name)


def note_bound(names: tuple[Any, ...]) -> None:
    """Tell the compiler that code binds core builtin names ``names`` (a built module's unit that
    defines one, ``units.BindsBuiltins``): the binding epoch moves if one is new, as when the unit's
    form was analyzed in this process, and bodies compiled from now on look the names up."""
    from spellc.analyze.bound import note_bound as note

    note(names)
