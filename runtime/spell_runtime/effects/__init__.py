"""Effects: the ``io/``, ``web/`` and ``globals/`` namespaces and their result envelopes.

Effects are what a Spell program does to the world, so they are available only
inside ``eval`` (runtime.md §3). This package builds the namespace maps for one
run (``namespace_maps.effect_namespaces``) and the envelope every operational effect
answers with (``envelope.ok`` / ``envelope.fail``); it never decides *when*
effects are allowed — that is the evaluator's gate.

The names below are imported from their modules on first use, not with the package: every
program's start makes an ``EffectContext`` (``spell_runtime.program``), while the envelope, the
globals store and the effect implementations are needed only by programs that use an effect
(issue 12). ``EffectContext`` comes through ``namespace_maps``, which registers the namespace
builders a context consults (``context.BUILDERS``) when it loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .context import EffectContext
    from .envelope import envelope, fail, ok
    from .globals import GlobalsStore
    from .namespace_maps import EFFECT_NAMESPACES, effect_hint, effect_namespaces, gated_message

_PACKAGE_NAMES = globals()
"""This package's namespace, kept now: once ``.globals`` loads, ``globals`` here names that module."""

_HOMES = {
    "EffectContext": "namespace_maps", "EFFECT_NAMESPACES": "namespace_maps", "effect_hint": "namespace_maps",
    "effect_namespaces": "namespace_maps", "gated_message": "namespace_maps",
    "envelope": "envelope", "fail": "envelope", "ok": "envelope", "GlobalsStore": "globals",
}


def __getattr__(name: str) -> Any:
    """One of the package's names, imported from its module on first use (see the module docstring)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from importlib import import_module

    value = getattr(import_module(__name__ + "." + home), name)
    _PACKAGE_NAMES[name] = value
    return value


__all__ = ["EFFECT_NAMESPACES", "EffectContext", "effect_hint", "GlobalsStore", "effect_namespaces", "envelope", "fail",
           "gated_message", "ok"]
