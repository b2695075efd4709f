"""The runtime's only doors into the compiler, opened lazily.

Compiled programs that never evaluate new code at run time import nothing from
``spellc``; ``eval``, ``spell-eval``, user macro expansion and functions built
from data (a ``{:spell/fn true ...}`` map that was never compiled) reach the
compiler through these functions, which import it on first use.
"""

from __future__ import annotations

from typing import Any, Callable


def compile_fn(fn: Any) -> Callable[..., Any]:
    """Compile a Spell function value's body (caching the result on ``fn.code``)."""
    from spellc.compiler import compile_spell_fn

    return compile_spell_fn(fn)


def eval_form(D: Any, form: Any) -> Any:
    """Evaluate ``form`` in the binding table ``D``; definitions it makes do not escape."""
    from spellc.compiler import eval_in

    return eval_in(D, form)
