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
  ``spellc.analyze.bound`` (a name no code ever binds cannot be shadowed);
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
* large maps frozen from a transient indexed by a plain dict until first written —
  ``spell_runtime.data.hashmap`` (``_index``);
* ``(get m :k)`` reading a small map's dict inline — ``spellc.emit.natives._small_map_get``;
* the whole-vector fast paths of ``reduce``/``map``/``filter`` — ``spell_runtime.core.bulk``, with
  the long facts (element bounds) of ``range`` and of its own results — ``spell_runtime.core.longvecs``;
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
