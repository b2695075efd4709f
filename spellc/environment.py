"""``new_env``: the binding table a fresh Spell program starts from, for every driver of the compiler.

The public API (``api.py``), the turn loop (``loop/agent.py``), packages, the REPL and the test
runner all start programs this way: the core builtins and namespaces plus ``eval`` bound in the
environment (language.md §6.1, A17), with names the caller binds recorded for the compiler's
static builtin references (``analyze/bound.py``). It lives below both the API and the loop so
that neither imports the other to get it (house-review.md §4: ``api`` is the façade on top of the
loop, never underneath it).
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.data import Symbol
from spell_runtime.program import fresh_env

from .analyze import bound
from .compiler import base_namespace


def new_env(env: Optional[dict[Any, Any]] = None, options: Optional[dict[str, Any]] = None,
            **program_options: Any) -> dict[Any, Any]:
    """A binding table for a fresh program (see ``spell_runtime.program.fresh_env``).

    Names bound by ``env`` are recorded as bound for the compiler's static builtin references.
    """
    base_namespace()
    if env:
        bound.note_bound(k for k in env if type(k) is Symbol)
    return fresh_env(env, options, **program_options)
