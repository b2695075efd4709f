"""The switch that turns every optimisation off (issue 13 item 5), and where each one is justified.

Why a switch: each optimisation below claims that no Spell program can tell it is
there. The claim is tested, not just argued: ``tests/spellc/optimise/`` generates
programs and requires identical values, error messages, error envs and traces with
the switch on and off. Off, the compiler emits the plain dynamic shape of
``spell_runtime.context`` for everything: every symbol is looked up in ``D`` (then
the builtins), every call goes through the generic call path, every binding is
published to ``D``, and the runtime's whole-collection fast paths are skipped.

How to turn it off:

* environment: ``SPELLC_NO_OPT=1`` (read once, when this module is first imported);
* command line: ``spellc eval --no-opt``, ``spellc build --no-opt``;
* Python: ``spellc.compiler.optimisations(False)`` (a context manager) or ``set_enabled``.

Compiled code is cached per setting (the compiler's cache keys carry ``variant()``),
so flipping the switch never reuses code compiled under the other setting.

The transformations, each with its legality argument written where it is done:

* static builtin references, native operators and direct builtin calls —
  ``spellc.analyze.bound`` (a name no code ever binds cannot be shadowed); where one may run after a
  binding made at run time in its own activation's frame (a user macro's expansion, a caught
  failure's env, sub-units), its static code guarded by the activation's flag with the dynamic
  evaluation of its form as the other branch — ``spellc.analyze.late`` (which argues why these are
  the only such bindings) and ``spellc.emit.late``;
* private ``let``/``loop``/``fn`` bindings held in Python locals —
  ``spellc.analyze.privacy``;
* parameters published only around call sites, direct calls of the caller's own compiled
  body — ``spellc.analyze.privacy.publishable`` and ``spell_runtime.published``;
* a second body for closed self-recursive fns, entered from a verified self-call (no head
  lookup, macro test, epoch check or undo list inside; over longs, no operand type or
  recur-request tests either) — ``spellc.analyze.selfcalls``;
* overflow tests dropped where an ``if`` comparing a long parameter or loop variable with a
  literal proves the result stays in range — ``spellc.emit.bounds``;
* types of loop variables, and the type tests they make dead — ``spellc.analyze.types``;
* one-sided overflow tests for ``+``/``-`` with a literal long — ``spellc.emit.natives._range_test``;
* loop vectors built in a Python list — ``spellc.analyze.linear``; such a list proven to hold only
  longs (perhaps only longs ``>= 0``) frozen with that fact recorded for ``reduce`` —
  ``spellc.analyze.elements`` and ``spell_runtime.core.longvecs``;
* ``reduce`` with a literal function as a loop in the caller, maps built in a transient —
  ``spellc.emit.fastpaths``; ``map``/``filter``/``remove``/``keep``/``keep-indexed``/
  ``map-indexed``/``mapcat`` stages with pure functions fused into one loop under ``reduce`` with
  a literal fn, ``into``, ``some``, ``every?``, ``group-by`` (these three also over a collection
  alone), or as the value, and ``reduce-kv`` with a literal fn as a loop in the caller —
  ``spellc.emit.pipelines``;
* large maps built whole (a transient's freeze, ``from_pairs``...) kept as the builder's dict,
  their HAMT tier built only at the first persistent write — ``spell_runtime.data.hashmap``
  (``adopt``, ``_tier``); a transient's new entries are the pair tuples themselves —
  ``spell_runtime.data.transient`` (``assoc_all``);
* ``(get m :k)``, ``(:k m)`` and ``(:k m default)`` reading a dict-holding map inline —
  ``spellc.emit.natives`` (``_keyword_read``, ``keyword_lookup``);
* ``(assoc m :a x :b y ...)`` with literal keyword keys written into one copy of a small map's
  dict — ``spell_runtime.keyword_assoc``;
* the whole-vector fast paths of ``reduce``/``map``/``filter`` — ``spell_runtime.core.bulk``, with
  the long facts (element bounds) of ``range`` and of its own results — ``spell_runtime.core.longvecs``;
* top-level ``def``s of a constant or a ``fn`` run without a unit function (the binding, undo
  entry and value ``support.define`` gives, under the same handler) — ``spellc.compiler.direct``
  and ``spell_runtime.units``;
* the evaluation GC threshold (not a transformation: no value can depend on it) —
  ``spell_runtime.gcpolicy``, applied by the compiler's ``run_form``.
"""

from __future__ import annotations

import os

ENABLED: list[bool] = [os.environ.get("SPELLC_NO_OPT", "").strip() in ("", "0")]
"""``ENABLED[0]``: optimisations on (a one-element list so readers see changes without re-importing)."""


def enabled() -> bool:
    return ENABLED[0]


def set_enabled(on: bool) -> bool:
    """Turn every optimisation on or off for code compiled from now on; returns the previous setting."""
    previous = ENABLED[0]
    ENABLED[0] = bool(on)
    return previous


def variant() -> str:
    """A suffix for compile-cache keys: code compiled with and without optimisations never mixes."""
    return "" if ENABLED[0] else " -O0"


__all__ = ["ENABLED", "enabled", "set_enabled", "variant"]
