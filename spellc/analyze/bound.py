"""Which core builtin names code has ever bound — the basis of static builtin references.

A reference to ``count`` can be compiled as a direct reference to the builtin
function (and ``(+ a b)`` as native Python arithmetic) only if no binding of
``count`` (``+``) can be in the env when that code runs. Every binding site is
compiled by this compiler, so the compiler records, process-wide, each builtin
name that any compiled code binds (``def``, ``let``, parameters, destructuring,
``catch``, an env passed in through the API...). A name in that set is always
resolved dynamically from then on.

Code compiled before a name joined the set may hold a stale static reference.
Compiled function bodies guard against that: each records the ``epoch`` it was
compiled in and recompiles when the set has grown since (one integer compare
per call). Top-level units are cached by their text plus the subset of this set
that concerns them, so a changed set simply selects another cache entry.

The entry check covers every binding made before an activation starts, and a callee's
bindings are undone when it returns. What it cannot cover is a binding made in the running
activation's own frame by code compiled after it started (a user macro's expansion, a caught
failure's env, sub-units): ``analyze.late`` finds the static references that may run after one,
and the emitted code guards them with the activation's flag (``emit.late``).

The set and the epoch are compiler state (``spellc.state``); this module holds the rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import Symbol
from spell_runtime.epoch import bump

from ..state import BOUND, EPOCH, LOCK

__all__ = ["BOUND", "EPOCH", "is_static_builtin", "note_bound"]


def is_static_builtin(sym: Symbol) -> bool:
    """True when ``sym`` names a core builtin that no code has bound."""
    return sym.ns is None and sym in BUILTINS and sym not in BOUND


def note_bound(names: Iterable[Symbol]) -> bool:
    """Record bound names; returns True (and bumps the epoch) if a builtin name is new."""
    new = [s for s in names if type(s) is Symbol and s not in BOUND and s in BUILTINS]
    if not new:
        return False
    with LOCK:
        BOUND.update(new)
        bump()
    return True
