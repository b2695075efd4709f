"""Effects: the ``io/``, ``web/`` and ``globals/`` namespaces and their result envelopes.

Effects are what a Spell program does to the world, so they are available only
inside ``eval`` (runtime.md §3). This package builds the namespace maps for one
run (``namespace_maps.effect_namespaces``) and the envelope every operational effect
answers with (``envelope.ok`` / ``envelope.fail``); it never decides *when*
effects are allowed — that is the evaluator's gate.
"""

from .context import EffectContext
from .envelope import envelope, fail, ok
from .globals import GlobalsStore
from .namespace_maps import EFFECT_NAMESPACES, effect_hint, effect_namespaces, gated_message

__all__ = ["EFFECT_NAMESPACES", "EffectContext", "effect_hint", "GlobalsStore", "effect_namespaces", "envelope", "fail",
           "gated_message", "ok"]
