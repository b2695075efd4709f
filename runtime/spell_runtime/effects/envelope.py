"""The one builder of result envelopes (runtime.md §1).

Every operational effect answers with the same Spell map so that programs, the
snapshot renderer and recovery can treat all effects alike. Building them in one
place is what guarantees the invariants the spec checks everywhere:

* the canonical key order ``:ok :exit :status :out :err`` then any extras
  (decision D5: rendering order is observable, so it must not depend on which
  effect built the map);
* ``:ok`` is always a real boolean and ``:err`` is ``nil`` on success unless a
  process wrote to stderr;
* ``:exit`` / ``:status`` appear only when the effect has them (a process that
  could not be launched has ``:exit nil``, which is different from no ``:exit``);
* a raw envelope never carries ``:truncated`` — only a display boundary adds it
  (§1.2), so asking for it here is a programming error.
"""

from __future__ import annotations

from typing import Any, Final

from ..data.atoms import Keyword
from ..data.hashmap import SpellMap

K_OK: Final = Keyword("ok")
K_EXIT: Final = Keyword("exit")
K_STATUS: Final = Keyword("status")
K_OUT: Final = Keyword("out")
K_ERR: Final = Keyword("err")

ABSENT: Final[Any] = object()
"""Marks an envelope key that must not appear at all (``nil`` is a value)."""

_FORBIDDEN: Final = frozenset({"ok", "out", "err", "truncated"})


def envelope(ok: bool, out: Any, err: Any, /, *, exit: Any = ABSENT, status: Any = ABSENT,
             **extra: Any) -> SpellMap:
    """An envelope with exactly the given fields, in canonical order.

    ``extra`` keyword names become keywords with ``_`` spelled ``-``; they follow
    the canonical keys in the order given.
    """
    pairs: list[tuple[Any, Any]] = [(K_OK, ok is True)]
    if exit is not ABSENT:
        pairs.append((K_EXIT, exit))
    if status is not ABSENT:
        pairs.append((K_STATUS, status))
    pairs.append((K_OUT, out))
    pairs.append((K_ERR, err))
    for name, value in extra.items():
        key = name.replace("_", "-")
        if key in _FORBIDDEN or key in ("exit", "status"):
            raise ValueError(f"envelope extra may not be named {key!r}")
        pairs.append((Keyword(key), value))
    return SpellMap.from_pairs(pairs)


def ok(out: Any, /, *, err: Any = None, **extra: Any) -> SpellMap:
    """``{:ok true :out out :err nil}`` (``err`` is only for a process's stderr)."""
    return envelope(True, out, err, **extra)


def fail(err: str, /, out: Any = None, **extra: Any) -> SpellMap:
    """``{:ok false :out available :err explanation}``."""
    return envelope(False, out, err, **extra)
