"""Builders and hypothesis strategies of Spell values for the snapshot tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st
from spell_runtime.data import LineVector, SpellMap, SpellSet, keyword, plist, symbol, vec
from spell_runtime.data.atoms import BigInt, Char, Keyword
from spell_runtime.snapshot import register_lazy_type


def kw(name: str, ns: str | None = None) -> Keyword:
    return keyword(name, ns)


def smap(*kvs: Any) -> SpellMap:
    return SpellMap.from_pairs(list(zip(kvs[::2], kvs[1::2])))


def units(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def envelope(ok: bool, out: Any, err: Any, **extra: Any) -> SpellMap:
    """An envelope with optional ``exit``/``status`` and extras, in the order given."""
    pairs: list[tuple[Any, Any]] = [(kw("ok"), ok)]
    for name in ("exit", "status"):
        if name in extra:
            pairs.append((kw(name), extra.pop(name)))
    pairs += [(kw("out"), out), (kw("err"), err)]
    pairs += [(kw(k.replace("_", "-")), v) for k, v in extra.items()]
    return SpellMap.from_pairs(pairs)


def lines(rows: list[Any], first: int | None = 1) -> LineVector:
    return LineVector(vec(rows), ((first, len(rows)),))


class Naturals:
    """An infinite lazy sequence 0, 1, 2, ... that counts how many items were pulled."""

    def __init__(self) -> None:
        self.pulled = 0

    def __iter__(self) -> Iterator[int]:
        for n in itertools.count():
            self.pulled += 1
            yield n


class Finite:
    """A lazy sequence of ``range(n)`` that must not be asked for its length."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.n))

    def __len__(self) -> int:
        raise AssertionError("a lazy sequence was counted")


register_lazy_type(Naturals)
register_lazy_type(Finite)


class Opaque:
    """A host object with no Spell representation."""


# -- strategies ---------------------------------------------------------------------------------

_text = st.text(
    alphabet=st.sampled_from(list('ab "\\\n\t\r\f\bé€😀𝄞xyz')) | st.characters(codec="utf-8"),
    max_size=40,
)
_names = st.sampled_from(["a", "b", "k", "x-y", "a b", "1x", "nil", "omitted", "omitted-1", "é", "😀", "ns/x"])
_keywords = st.builds(keyword, _names, st.sampled_from([None, None, "spell", "user"]))
_symbols = st.builds(symbol, _names, st.sampled_from([None, None, "user"]))
_numbers = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-(10**30), 10**30).map(BigInt),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(max_denominator=50).filter(lambda f: f.denominator != 1).map(Fraction),
)
atoms = st.one_of(st.none(), st.booleans(), _text, _numbers, _keywords, _symbols,
                  st.sampled_from([Char("a"), Char("\n"), Char(" ")]))


def _markers(w: st.SearchStrategy[Any]) -> st.SearchStrategy[SpellMap]:
    return st.builds(lambda n: smap(kw("omitted", "spell"), n), st.integers(0, 10**6) | st.just(kw("unknown")))


def _containers(children: st.SearchStrategy[Any], keys: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    small = st.lists(children, max_size=12)
    return st.one_of(
        small.map(vec),
        small.map(plist),
        small.map(SpellSet.from_items),
        st.lists(st.tuples(keys, children), max_size=10).map(lambda kv: SpellMap.from_pairs(kv)),
        _markers(children),
        st.builds(lambda out, err, n: envelope(True, out, err, exit=n), children, st.none() | _text,
                  st.integers(-1, 3) | st.none()),
        st.lists(_text, max_size=30).map(lambda rows: lines(rows, 7)),
    )


values = st.recursive(atoms | st.just(Opaque()), lambda kids: _containers(kids, atoms), max_leaves=60)
"""Spell values (and a few host objects) of every kind a snapshot meets."""

_data_atoms = atoms.filter(lambda x: x == x)
data_values = st.recursive(_data_atoms, lambda kids: _containers(kids, _data_atoms), max_leaves=60)
"""Plain Spell data only (no host objects, no NaN)."""

big_strings = st.builds(
    lambda head, body, tail, reps: head + body * reps + tail,
    _text, st.sampled_from(["x", "😀", '"', "\\", "\n", "ab😀", "é\t"]), _text, st.integers(0, 3000),
)
