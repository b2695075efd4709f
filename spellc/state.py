"""The compiler's state: everything it keeps from one compilation to the next, listed in one place.

(ClojureScript keeps its compiler state in ``cljs/env.cljc`` for the same reason; house review
change 5.) Everything here is process-wide and guarded by ``LOCK``. Nothing else in ``spellc`` keeps
state between compilations; per-compilation state lives on the ``Analyzer`` and the ``Emitter``
(constants, the call-form position table, temporaries counters, nesting budgets).

Slots, who writes them (W) and who reads them (R):

* ``LOCK`` — held while a form is analyzed, emitted and executed into a unit (``compiler``).
* ``BOUND`` — the core builtin names any compiled code has ever bound (W ``analyze.bound.note_bound``,
  R ``analyze.bound.is_static_builtin``): a builtin outside this set is referenced statically.
* ``EPOCH`` — ``spell_runtime.epoch.EPOCH``, bumped when ``BOUND`` grows (W ``analyze.bound``,
  R the emitter, which compiles it into function bodies' stale checks, and those bodies at run
  time, as ``_EPOCH``). It is part of every cache key below, so a grown ``BOUND`` selects other
  entries instead of reusing code that referenced a now-bound name statically.
* ``unit_cache`` — ``UnitKey`` → the unit of a top-level form (``compiler.compile_unit``): its compiled
  function, or for a ``def`` of a constant or a ``fn`` a ``spell_runtime.units`` object (``compiler.direct``).
  Keyed by the form's text (its exact source text when compiled incrementally, else its printed
  text), its place (source name, where its parts stand — ``compiler.places``: its span after exact
  source text, else every span in its tree —, and the compile options that change the code) and
  the epoch. The place is part of the key because positions are compiled into the unit.
* ``unit_forms`` — ``UnitKey`` → the form an incremental unit was compiled from: its constants are
  that form's very objects, which the turn loop's identity caches key on (issue 14), so an equal
  text read into other objects compiles again.
* ``sub_cache`` — ``(text, place, epoch)`` → the unit of one leading element of a long body sequence
  (``compiler.compile_subunit``, ``ir.SubUnits``); ``sub_by_form`` finds the same by the element's
  identity (``id(form)`` → ``(form, epoch, unit)``), bounded by ``SUB_BY_FORM_LIMIT``.
* ``fn_cache`` — ``(text, places, epoch)`` → the compiled body of a ``fn`` form: a function built as
  data, a user macro's expander, a body recompiled after the epoch moved (``compiler.compile_fn_form``).
  ``places`` (``compiler.places.places_of``): every span in the form's tree.
* ``expander_cache`` — ``id(expander)`` → ``(expander, wrapper fn)`` for user macros.
* ``source_index`` — the line index (``analyze.analyzer.SourceIndex``) of the last source text
  compiled form by form, which unit keys are cut from.
* ``base_namespace`` — the globals every compiled module starts from (built once from
  ``spell_runtime.abi``).

Run-time state on the runtime side, for completeness: ``spell_runtime.support._restaled`` (bodies
re-compiled after the epoch moved, keyed ``(code, epoch)``) and ``support._positions_cache`` (a code
object's instruction positions, for attributing host failures).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, NamedTuple, Optional

from spell_runtime.data import Symbol
from spell_runtime.epoch import EPOCH

Unit = Callable[[dict[Any, Any], list[Any]], Any]


class UnitKey(NamedTuple):
    """What a compiled unit depends on besides the compiler itself."""

    text: str
    source_name: str
    span: Any
    incremental: bool
    via_source: bool
    epoch: int


LOCK = threading.RLock()
BOUND: set[Symbol] = {Symbol("eval")}

unit_cache: dict[UnitKey, Unit] = {}
unit_forms: dict[UnitKey, Any] = {}
sub_cache: dict[tuple[str, Any, int], Unit] = {}
sub_by_form: dict[int, tuple[Any, int, Unit]] = {}
SUB_BY_FORM_LIMIT = 100_000
fn_cache: dict[tuple[str, Any, int], Callable[..., Any]] = {}
expander_cache: dict[int, tuple[Any, Any]] = {}

source_index: Any = None

_base: Optional[dict[str, Any]] = None


def base_namespace() -> dict[str, Any]:
    """The helpers every compiled module sees as globals (built once). Building them loads the whole
    builtin library, which the analyser consults: every path into the compiler calls this before it
    analyses anything, so a process where a built module loaded only its share of the library
    (``spell_runtime.library``) compiles against all of it."""
    global _base
    if _base is None:
        from spell_runtime.abi import compiled_namespace

        _base = compiled_namespace()
    return _base


def reset_caches() -> None:
    """Forget every compiled unit and function (tests; ``BOUND`` and ``EPOCH`` are kept, since code
    compiled earlier may still run and must keep seeing the epoch move)."""
    with LOCK:
        for cache in (unit_cache, unit_forms, sub_cache, sub_by_form, fn_cache, expander_cache):
            cache.clear()


__all__ = ["LOCK", "BOUND", "EPOCH", "UnitKey", "Unit", "unit_cache", "unit_forms", "sub_cache", "sub_by_form",
           "SUB_BY_FORM_LIMIT", "source_index", "fn_cache", "expander_cache", "base_namespace", "reset_caches"]
