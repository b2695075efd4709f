"""The evaluation context: the binding table ``D`` and what hangs off it.

How dynamic scoping is compiled (read this before touching the emitter)
-----------------------------------------------------------------------
Spell functions run in their *caller's* environment (language.md §8.3), and the
reference threads an immutable env map through evaluation. spellc instead keeps
ONE mutable dict per evaluation thread, ``D``, holding the *current* value of
every bound symbol — shallow binding. A construct that binds names (a function
call, ``let``, ``loop``, ``for``, ``catch``) saves the old values of the names it
binds in Python locals and restores them when it exits (``finally``), so a callee
sees exactly the caller's bindings plus its parameters, at the cost of one dict
store and one restore per binding (architecture.md §2.3 measured ×1.32 on fib
for this shape against ×6 for searching a chain of frames).

``def`` escapes some constructs and not others (§6.4). A ``def`` records the old
value of its name in the *undo list* of its innermost enclosing scope (a Python
local of the compiled code, ``None`` until the first def); the scope replays the
list backwards when it exits. Code compiled at run time (a user macro's
expansion) cannot see the enclosing scope's locals, so it returns its own undo
list to the compiled call site, which merges it into the scope's list.

The env map that the reference exposes (error results, ``spell_eval``) is a
snapshot of ``D`` taken when it is needed: ``snapshot(D)``.

``D`` also holds, under the non-symbol key ``CTX_KEY``, the ``Context``: the
current builtins table (effect namespaces are added to it only while ``eval``
runs), the per-run effect state and the options that affect evaluation.
"""

from __future__ import annotations

from typing import Any, Optional

from .data.atoms import Symbol
from .library import load_rest


class _CtxKey:
    """The key under which ``D`` stores its ``Context``; never a Spell value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<context>"


CTX_KEY: Any = _CtxKey()


class Context:
    """Per-evaluation state reachable from ``D``."""

    __slots__ = ("builtins", "gated", "effects", "eval_depth", "options", "future_ns")

    builtins: dict[Symbol, Any]
    gated: dict[str, str]
    effects: Any
    eval_depth: int
    options: dict[str, Any]
    future_ns: Optional[Any]

    def __init__(self, builtins: dict[Symbol, Any], gated: Optional[dict[str, str]] = None,
                 effects: Any = None, options: Optional[dict[str, Any]] = None) -> None:
        self.builtins = builtins
        self.gated = gated if gated is not None else {}
        self.effects = effects
        self.eval_depth = 0
        self.options = options if options is not None else {}
        self.future_ns = None

    def builtin(self, sym: Symbol, default: Any = None) -> Any:
        """The builtin named ``sym``, else ``default``. A name the table lacks may belong to a module a
        built module's share of the library left out (``spell_runtime.library``): the rest of the
        library is loaded and the table read again before the answer is no."""
        v = self.builtins.get(sym, default)
        if v is default and load_rest():
            v = self.builtins.get(sym, default)
        return v

    def copy(self) -> Context:
        c = Context(self.builtins, self.gated, self.effects, self.options)
        c.eval_depth = self.eval_depth
        c.future_ns = self.future_ns
        return c


def context_of(D: dict[Any, Any]) -> Context:
    """The context stored in a binding table."""
    ctx: Context = D[CTX_KEY]
    return ctx


def snapshot(D: dict[Any, Any]) -> dict[Any, Any]:
    """The env as a plain dict (symbol → value) at this moment."""
    env = dict(D)
    env.pop(CTX_KEY, None)
    return env


def new_table(ctx: Context, env: Optional[dict[Any, Any]] = None) -> dict[Any, Any]:
    """A fresh binding table with ``env``'s bindings."""
    D: dict[Any, Any] = dict(env) if env else {}
    D[CTX_KEY] = ctx
    return D
