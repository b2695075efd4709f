"""The data a snapshot is made of: omission markers, diagnostics, envelopes (runtime.md §4.4, §4.5.1).

Everything a snapshot leaves out is replaced by ordinary Spell data whose shape
is a product format, so that the next turn can read — and a later snapshot can
re-count — what is missing. Weights make the counts truthful across repeated
clipping (decision D1): a marker already standing for 9,988 elements counts as
9,988 when it is itself omitted, never as 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from operator import itemgetter
from typing import Any, Final, Optional

from ...data.atoms import BigInt, Keyword
from ...data.hashmap import SpellMap
from .text import escapes

K_OMITTED: Final = Keyword("omitted", "spell")
K_UNKNOWN: Final = Keyword("unknown")
K_UNAVAILABLE: Final = Keyword("representation-unavailable", "spell")
K_TYPE: Final = Keyword("type")
K_REASON: Final = Keyword("reason")

K_OK: Final = Keyword("ok")
K_EXIT: Final = Keyword("exit")
K_STATUS: Final = Keyword("status")
K_OUT: Final = Keyword("out")
K_ERR: Final = Keyword("err")
K_TRUNCATED: Final = Keyword("truncated")

CONTROL_KEYS: Final = (K_OK, K_EXIT, K_STATUS, K_TRUNCATED)

BOUNDED: Final = "bounded traversal"
UNREADABLE_NUMBER: Final = "unreadable number"
SOURCE_UNAVAILABLE: Final = "source unavailable"
CONVERSION_FAILED: Final = "conversion failed"
UNSUPPORTED: Final = "unsupported host value"
EXCEEDS: Final = "representation exceeds target"

_GAP_ROW: Final = re.compile(r"\.\.\. \[omitted ([0-9]+) rows; source ([0-9]+|unknown)\.\.([0-9]+|unknown)\] \.\.\.")

# A weight is a non-negative count, or UNKNOWN when some omitted count is not known.
UNKNOWN: Final = -1


def type_name(v: Any) -> str:
    """The diagnostic ``:type``: ``"nil"`` or the Python class's qualified name (decision D14)."""
    if v is None:
        return "nil"
    t = type(v)
    module = t.__module__
    if module == "builtins":
        return t.__qualname__
    return module + "." + t.__qualname__


def diagnostic(v: Any, reason: str) -> SpellMap:
    """``{:spell/representation-unavailable true :type "<type>" :reason "<reason>"}``."""
    return SpellMap.from_pairs([(K_UNAVAILABLE, True), (K_TYPE, type_name(v)), (K_REASON, reason)])


_DIAGNOSTIC_FRAME: Final = len("(quote {:spell/representation-unavailable true :type  :reason })")


def diagnostic_width(v: Any, reason: str) -> int:
    """``len(R(value_form(diagnostic(v, reason))))`` without building it (type names and reasons are BMP)."""
    name = type_name(v)
    return _DIAGNOSTIC_FRAME + 2 + len(name) + escapes(name) + 2 + len(reason)


def failure() -> SpellMap:
    """The whole-snapshot failure value (no ``:type``)."""
    return SpellMap.from_pairs([(K_UNAVAILABLE, True), (K_REASON, CONVERSION_FAILED)])


def count_value(w: int) -> Any:
    """A weight as Spell data: the count, or ``:unknown``."""
    return K_UNKNOWN if w == UNKNOWN else w


def marker(w: int) -> SpellMap:
    """The omission element ``{:spell/omitted N}`` / ``{:spell/omitted :unknown}``."""
    return SpellMap.from_pairs([(K_OMITTED, count_value(w))])


def marker_count(x: Any) -> Optional[int]:
    """The weight a marker value states (a non-negative integer or ``:unknown``), else None."""
    if x is K_UNKNOWN:
        return UNKNOWN
    t = type(x)
    if (t is int or t is BigInt) and x >= 0:
        return int(x)
    return None


def is_marker(x: Any) -> bool:
    """An omission marker: a map whose only key is ``:spell/omitted`` with a count or ``:unknown``."""
    return isinstance(x, SpellMap) and len(x) == 1 and marker_count(x.get(K_OMITTED, False)) is not None


def element_weight(x: Any) -> int:
    """How many original elements ``x`` stands for: a marker's count, else 1."""
    if isinstance(x, SpellMap) and len(x) == 1:
        w = marker_count(x.get(K_OMITTED, False))
        if w is not None:
            return w
    return 1


def is_marker_key(k: Any) -> bool:
    """``:spell/omitted`` or ``:spell/omitted-N`` (N ≥ 1)."""
    if type(k) is not Keyword or k.ns != "spell":
        return False
    name = k.name
    if name == "omitted":
        return True
    if not name.startswith("omitted-"):
        return False
    digits = name[8:]
    return digits.isascii() and digits.isdigit() and not digits.startswith("0")


def entry_weight(k: Any, v: Any) -> int:
    """How many original entries a map entry stands for (a marker entry's count, else 1)."""
    if is_marker_key(k):
        w = marker_count(v)
        if w is not None:
            return w
    return 1


STRING_FLOOR: Final = len('"... [omitted 1 UTF-16; 0..1 of 1] ..."')
"""No clipped string, written as data or a value form, is narrower than this."""
ATOM_FLOOR: Final = len('{:spell/representation-unavailable true :type "" :reason ""}')
"""No diagnostic, written inside quoted data, is narrower than its frame."""


def add_weight(a: int, b: int) -> int:
    if a == UNKNOWN or b == UNKNOWN:
        return UNKNOWN
    return a + b


def with_marker(pairs: list[tuple[Any, Any]], w: int) -> list[tuple[Any, Any]]:
    """``pairs`` plus ``<first unused marker key> N``: user data under a marker key is never overwritten.

    Marker keys are keywords of the ``spell`` namespace, so only those keys are looked at.
    """
    return [*pairs, marker_entry(pairs, w)]


def marker_entry(pairs: list[tuple[Any, Any]], w: int) -> tuple[Any, Any]:
    """The entry ``with_marker`` adds to ``pairs``."""
    return marker_entry_among(map(_KEY, pairs), w)


def marker_entry_among(keys: Iterable[Any], w: int) -> tuple[Any, Any]:
    """The marker entry for a map whose keys include every marker key among ``keys`` (a walk that
    kept track of its ``spell``-namespace keys passes only those, issue 14).

    Keywords are interned, so a marker key is among the keys exactly when the same object is:
    the keys are compared by identity, in one C loop over their ids."""
    ids = set(map(id, keys))
    key = K_OMITTED
    i = 0
    while id(key) in ids:
        i += 1
        key = Keyword("omitted-" + str(i), "spell")
    return (key, count_value(w))


_KEY: Final = itemgetter(0)


def gap_row(w: int, first: Optional[int], last: Optional[int]) -> str:
    """The numbered-vector gap row ``... [omitted W rows; source A..B] ...``."""
    a = "unknown" if first is None else str(first)
    b = "unknown" if last is None else str(last)
    return "... [omitted " + str(w) + " rows; source " + a + ".." + b + "] ..."


def parse_gap_row(x: Any) -> Optional[tuple[int, Optional[int], Optional[int]]]:
    """(W, A, B) of a gap-row string, or None when ``x`` is not one."""
    if type(x) is not str:
        return None
    m = _GAP_ROW.fullmatch(x)
    if m is None:
        return None
    a = m.group(2)
    b = m.group(3)
    return (int(m.group(1)), None if a == "unknown" else int(a), None if b == "unknown" else int(b))


def row_weight(x: Any) -> int:
    """Weight of a row without a source position: a gap row's count, else 1."""
    parsed = parse_gap_row(x)
    return 1 if parsed is None else parsed[0]


# -- envelopes --------------------------------------------------------------------------------

def int_or_nil(x: Any) -> bool:
    t = type(x)
    return x is None or t is int or t is BigInt


def is_envelope(v: Any) -> bool:
    """Structural envelope recognition (runtime.md §4.5.1, A-12)."""
    if not isinstance(v, SpellMap):
        return False
    if type(v.get(K_OK)) is not bool:
        return False
    if not v.contains(K_OUT) or not v.contains(K_ERR):
        return False
    if v.contains(K_TRUNCATED) and type(v.get(K_TRUNCATED)) is not bool:
        return False
    if v.contains(K_EXIT) and not int_or_nil(v.get(K_EXIT)):
        return False
    if v.contains(K_STATUS) and not int_or_nil(v.get(K_STATUS)):
        return False
    return True


def is_envelope_key(k: Any) -> bool:
    return k is K_OK or k is K_EXIT or k is K_STATUS or k is K_TRUNCATED or k is K_OUT or k is K_ERR


def controls(v: SpellMap) -> list[tuple[Any, Any]]:
    """The control entries ``v`` has (``:ok :exit :status :truncated``), in canonical order."""
    return [(k, v.get(k)) for k in CONTROL_KEYS if v.contains(k)]


def extra_entries(v: SpellMap) -> list[tuple[Any, Any]]:
    """The entries of ``v`` that are not envelope keys, in order."""
    return [(k, x) for k, x in v.items() if not is_envelope_key(k)]


def build_envelope(ctrl: list[tuple[Any, Any]], out: Any, err: Any, truncated: bool,
                   extras: Optional[SpellMap]) -> SpellMap:
    """An envelope in canonical order (decision D5): ``:ok :exit :status :out :err :truncated`` then extras."""
    pairs: list[tuple[Any, Any]] = []
    for k, x in ctrl:
        if k is not K_TRUNCATED:
            pairs.append((k, x))
    pairs.append((K_OUT, out))
    pairs.append((K_ERR, err))
    pairs.append((K_TRUNCATED, truncated))
    if extras is not None:
        for k, x in extras.items():
            pairs.append((k, x))
    return SpellMap.from_pairs(pairs)
