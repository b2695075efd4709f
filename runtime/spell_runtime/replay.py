"""Environment checkpoints after the leading pure run of a long body sequence (issue 14, item 3).

Turn N+1's program is turn N's plus a form or two, and it is evaluated again from
a fresh environment (runtime.md §5.1). ``support.subunits`` evaluates the leading
elements of long body sequences one by one; this module remembers, for the longest
leading run of elements that ``purity.facts`` calls replayable, what evaluating
them did — the final value of every name they bound and the undo entries they
left — keyed by the very element objects (the incremental reader hands the same
objects back every turn). When a later sequence starts with the same objects, the
checkpoint is applied (``D.update`` and one ``extend``) instead of evaluating them.

Why this is exact. A replayable run reads nothing but literals, names it defined
itself and deterministic core functions, and binds only names; so its bindings
are a function of its forms alone, provided the environment it starts from binds
none of the core functions it uses or the names it defines (else the lookups or
the undo entries would differ) and resolves those functions to the same objects.
Both are checked when a run is recorded and again before it is replayed. Each
bound value must be plain data (or a Spell function built from plain data): the
same immutable objects are then handed to every later turn, which no program can
tell from fresh copies.
"""

from __future__ import annotations

import operator
import os
import threading
from typing import Any, Final, Optional

from .context import CTX_KEY
from .data.fn import SpellFn
from .purity import Facts, facts
from .rendercache import is_plain_data

FULL_TURNS_VAR: Final = "SPELLC_FULL_TURNS"

KEEP: Final = 8
"""Checkpoints kept: several lengths of one growing program, so a ``prune`` still finds a shorter one."""

_lock = threading.Lock()
_store: list[Checkpoint] = []


class Checkpoint:
    """The effect of evaluating ``forms`` (in order) from an environment that binds none of ``names``."""

    __slots__ = ("forms", "bindings", "undo", "names", "builtins", "defined")

    def __init__(self, forms: list[Any], bindings: dict[Any, Any], undo: list[Any], names: frozenset[Any],
                 builtins: dict[Any, Any], defined: frozenset[Any]) -> None:
        self.forms = forms
        self.bindings = bindings
        self.undo = undo
        self.names = names
        self.builtins = builtins
        self.defined = defined


def _applicable(cp: Checkpoint, D: dict[Any, Any], elems: tuple[Any, ...]) -> bool:
    if len(cp.forms) > len(elems) or not all(map(operator.is_, cp.forms, elems)):
        return False
    if not cp.names.isdisjoint(D):
        return False
    builtins = D[CTX_KEY].builtins
    return all(builtins.get(sym) is value for sym, value in cp.builtins.items())


def enabled() -> bool:
    """False under ``SPELLC_FULL_TURNS=1``: every turn evaluated in full (spellc.loop.incremental.switches)."""
    return os.environ.get(FULL_TURNS_VAR, "") in ("", "0")


def replay(D: dict[Any, Any], elems: tuple[Any, ...]) -> Optional[Checkpoint]:
    """Apply the longest stored checkpoint whose forms begin ``elems``; the checkpoint, or None."""
    with _lock:
        candidates = sorted(_store, key=lambda cp: len(cp.forms), reverse=True)
    for cp in candidates:
        if cp.forms and _applicable(cp, D, elems):
            D.update(cp.bindings)
            return cp
    return None


class Recorder:
    """Follows a sequence's evaluation from where a checkpoint (or nothing) left it, extending
    the pure run element by element, and stores the longer checkpoint when the run ends."""

    __slots__ = ("base", "forms", "bindings", "undo", "names", "builtins", "defined", "open")

    def __init__(self, base: Optional[Checkpoint]) -> None:
        self.base = base
        self.forms: list[Any] = []
        self.bindings: dict[Any, Any] = {}
        self.undo: list[Any] = []
        self.names: set[Any] = set()
        self.builtins: dict[Any, Any] = {}
        self.defined: set[Any] = set(base.defined) if base is not None else set()
        self.open = True

    def eligible(self, form: Any, D: dict[Any, Any]) -> Optional[Facts]:
        """The facts of ``form`` when it may extend the run from the current environment, else None
        (which ends the run: a replayed prefix must be contiguous)."""
        if not self.open:
            return None
        found = facts(form)
        if found is None or not found.needs.issubset(self.defined):
            self.open = False
            return None
        for sym in found.uses:
            if sym in D:
                self.open = False
                return None
        for sym in found.defines:
            if sym in D and sym not in self.defined:
                self.open = False
                return None
        for sym in found.data_args:
            if sym in found.defines or not is_plain_data(D.get(sym)):
                self.open = False
                return None
        return found

    def add(self, form: Any, found: Facts, own: list[Any], D: dict[Any, Any]) -> None:
        """``form`` evaluated without error, leaving undo entries ``own``: extend the run if its
        bindings are what the facts promised and their values are immutable."""
        bound = {entry[0] for entry in own}
        if bound != set(found.defines) or not all(_immutable(D[sym]) for sym in bound):
            self.open = False
            return
        builtins = D[CTX_KEY].builtins
        for sym in found.uses:
            self.builtins[sym] = builtins.get(sym)
        self.forms.append(form)
        for sym, _ in own:
            self.bindings[sym] = D[sym]
        self.undo.extend(own)
        self.names.update(found.uses)
        self.names.update(found.defines)
        self.defined.update(found.defines)

    def stop(self) -> None:
        self.open = False

    def finish(self) -> None:
        """Store the run reached, when it grew past the checkpoint it started from."""
        if not self.forms:
            return
        base = self.base
        if base is not None:
            forms = base.forms + self.forms
            bindings = dict(base.bindings)
            bindings.update(self.bindings)
            undo = base.undo + self.undo
            names = base.names | self.names
            builtins = dict(base.builtins)
            builtins.update(self.builtins)
        else:
            forms, bindings, undo = list(self.forms), dict(self.bindings), list(self.undo)
            names, builtins = frozenset(self.names), dict(self.builtins)
        cp = Checkpoint(forms, bindings, undo, frozenset(names), builtins, frozenset(self.defined))
        with _lock:
            _store.append(cp)
            if len(_store) > KEEP:
                del _store[0]


def _immutable(value: Any) -> bool:
    if type(value) is SpellFn:
        return is_plain_data(value.params) and is_plain_data(value.body)
    return is_plain_data(value)


def clear() -> None:
    """Forget every checkpoint (tests)."""
    with _lock:
        _store.clear()
