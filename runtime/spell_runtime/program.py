"""A program's starting point: a fresh binding table with ``eval``, the builtins and the effect gate.

This is in the runtime (not the compiler) because modules written by
``spellc build`` start programs too, importing nothing but the runtime.

The effect gate (language.md §12.4): outside ``eval`` the configured effect
namespaces are simply absent from the builtins, and ``Context.gated`` supplies the
hint that an unresolved ``io`` (or ``io/read-file``) reports instead of
``Unbound symbol``. While ``eval`` runs, ``Context.options["install_effects"]``
adds the namespace maps and the effect builtins to the builtins table it
evaluates with (see ``spell_runtime.core.evaluation``).
"""

from __future__ import annotations

from typing import Any, Optional

from .context import Context, context_of, new_table
from .core.evaluation import EVAL
from .core.registry import BUILTINS
from .data.atoms import Keyword, Symbol
from .data.lookup import get
from .effects.context import EffectContext
from .effects.namespace_maps import effect_hint, effect_namespaces
from .library import load, loaded_any
from .support import set_recursion_limit

DEFAULT_NAMESPACES = ("io", "web", "globals")
FUTURE_ONLY_HINT = "blocking/ is only available inside (future ...) blocks"
K_DOCS = Keyword("docs")
K_GUIDE = Keyword("guide")
K_DETAIL = Keyword("detail")
S_EVAL = Symbol("eval")


def describe_fn(ns: Any, k: Any = None) -> Any:
    """``(describe-fn ns)`` / ``(describe-fn ns k)`` (language.md §12.6)."""
    if k is None:
        guide = get(get(ns, K_DOCS), K_GUIDE)
        return guide if guide is not None else get(ns, K_DOCS)
    found = get(get(ns, K_DETAIL), k)
    if found is None:
        found = get(get(ns, K_DOCS), k)
    if found is None:
        found = get(ns, k)
    return found


def configure_effects(ctx: Context, effects: Optional[EffectContext] = None,
                      namespaces: tuple[str, ...] = DEFAULT_NAMESPACES,
                      extra_builtins: Optional[dict[Symbol, Any]] = None) -> EffectContext:
    """Give ``ctx`` its effect context, gate hints and the installer ``eval`` uses."""
    eff = effects if effects is not None else EffectContext()
    ctx.effects = eff
    gated = {n: effect_hint(n) for n in namespaces}
    gated["blocking"] = FUTURE_ONLY_HINT
    ctx.gated = gated

    def install(c: Context, table: dict[Symbol, Any]) -> None:
        for name, m in effect_namespaces(eff, namespaces).items():
            table[Symbol(name)] = m
        table[Symbol("describe-fn")] = describe_fn
        if extra_builtins:
            table.update(extra_builtins)

    ctx.options["install_effects"] = install
    return eff


def fresh_env(env: Optional[dict[Any, Any]] = None, options: Optional[dict[str, Any]] = None,
              effects: Optional[EffectContext] = None, namespaces: tuple[str, ...] = DEFAULT_NAMESPACES,
              extra_builtins: Optional[dict[Symbol, Any]] = None,
              library: Optional[dict[Symbol, Any]] = None) -> dict[Any, Any]:
    """A binding table for a fresh program: ``eval`` in the env (A17) plus ``env``'s bindings.

    ``library`` adds always-visible builtins (library namespaces, ``spell_runtime.libns``): unlike the
    effect namespaces they are pure code, so they are not gated behind ``eval``.
    """
    if library or not loaded_any():
        load()  # a copy of the table (``library``) would not see modules loaded later: all of it now
    set_recursion_limit()
    # the context shares the table: builtins a built module's share left out are seen once they load
    ctx = Context({**BUILTINS, **library} if library else BUILTINS, options=dict(options or {}))
    configure_effects(ctx, effects, namespaces, extra_builtins)
    D = new_table(ctx)
    D[S_EVAL] = EVAL
    if env:
        D.update(env)
    return D


def close_env(D: dict[Any, Any]) -> None:
    """End the program's effects (watchers, registered members)."""
    eff = context_of(D).effects
    if eff is not None:
        eff.close(wait=0)
