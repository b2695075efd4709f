"""Wires effects into a fresh evaluation context: the effect gate of language.md §12.4.

Outside ``eval`` the configured effect namespaces are simply absent from the
builtins, and ``Context.gated`` supplies the hint that an unresolved ``io``
(or ``io/read-file``) reports instead of ``Unbound symbol``. While ``eval`` runs,
``Context.options["install_effects"]`` adds the namespace maps and the effect
builtins to the builtins table it evaluates with (see
``spell_runtime.core.evaluation``).
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.context import Context
from spell_runtime.data import Keyword, Symbol
from spell_runtime.data.lookup import get
from spell_runtime.effects import EffectContext, effect_namespaces

DEFAULT_NAMESPACES = ("io", "web", "globals")
FUTURE_ONLY_HINT = "blocking/ is only available inside (future ...) blocks"
K_DOCS = Keyword("docs")
K_GUIDE = Keyword("guide")
K_DETAIL = Keyword("detail")


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
    gated = {n: "%s/ is an effect namespace - use it in the trailing expression via eval" % n for n in namespaces}
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
