"""Compatibility re-export: effect wiring lives in ``spell_runtime.program`` (built modules need it too)."""

from spell_runtime.program import DEFAULT_NAMESPACES, FUTURE_ONLY_HINT, configure_effects, describe_fn

__all__ = ["DEFAULT_NAMESPACES", "FUTURE_ONLY_HINT", "configure_effects", "describe_fn"]
