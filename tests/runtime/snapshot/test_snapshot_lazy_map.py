"""The snapshot's own large map is walked lazily and clipped with exact shortcuts (issue 14):
the result is the reference algorithm's, with omission counts exactly as before.

The reference is the same core with ``normalize.LAZY_TOP_MAPS`` (and ``BULK_WALKS``) and ``shorten.SHORTCUTS``
off: pass 1 walks the map until its fuel (twice the grace) runs out, and ``short_map``
looks at every entry pass 1 kept. The maps here are large against small limits, so the
fuel runs out inside them (the :unknown marker), and their keys include marker keys,
a ``:spell/fn`` key, keys pass 1 drops (host objects) and keys narrow enough to fit after
wide ones were refused.
"""

from __future__ import annotations

import pytest
from eager_clip import clip as _clip
from eager_clip import reference_clip as _reference
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data import Keyword, SpellMap, vec
from spell_runtime.data.atoms import K_SPELL_FN

atoms = st.one_of(st.integers(-10**20, 10**20), st.text(alphabet="ab\"", max_size=30),
                  st.builds(Keyword, st.text(alphabet="abcdefgh", min_size=1, max_size=14)))
keys = st.one_of(atoms, atoms, atoms,
                 st.sampled_from([Keyword("omitted", "spell"), Keyword("omitted-2", "spell"), K_SPELL_FN,
                                  Keyword("a b")]),
                 st.builds(object))  # a host object: pass 1 drops the entry
values = st.one_of(atoms, atoms, st.none(), st.booleans(), st.sampled_from([-1, 3]),
                   st.lists(st.integers(0, 9), max_size=30).map(vec),
                   st.dictionaries(st.builds(Keyword, st.text(alphabet="xy", min_size=1, max_size=3)),
                                   st.integers(0, 9), max_size=4).map(lambda d: SpellMap.from_pairs(d.items())))
maps = st.lists(st.tuples(keys, values), min_size=18, max_size=400).map(SpellMap.from_pairs)


# Entries from one unit to well past the budget, so that maps fill up to a few units short of it
# and a narrow entry later on may still fit, or the closing :unknown marker entry may fit after
# wide entries were left out (its count then shows how many were).
narrow_or_wide = st.lists(
    st.tuples(st.one_of(st.sampled_from([Keyword(c) for c in "abcdefg"] + list(range(10))),
                        st.builds(lambda n: Keyword("long-key-" + "x" * n), st.integers(0, 40))),
              st.one_of(st.integers(0, 9), st.text(alphabet="z", max_size=40))),
    min_size=18, max_size=300).map(SpellMap.from_pairs)




@settings(max_examples=300, deadline=None)
@given(maps, st.sampled_from([8, 24, 40, 64, 120, 300]))
def test_lazy_walk_and_shortcuts_give_the_reference_result(m: SpellMap, limit: int) -> None:
    assert _clip(m, limit) == _reference(m, limit)


@settings(max_examples=400, deadline=None)
@given(narrow_or_wide, st.sampled_from([8, 16, 24, 40, 64, 100]))
def test_narrow_and_wide_entries_give_the_reference_result(m: SpellMap, limit: int) -> None:
    assert _clip(m, limit) == _reference(m, limit)


def test_the_closing_marker_entry_can_fit_after_wide_entries() -> None:
    wide = [(Keyword("k%d-%s" % (i, "w" * 60)), i) for i in range(200)]
    text, _ = _clip(SpellMap.from_pairs(wide), 100)
    assert ":spell/omitted :unknown" in text and ":spell/omitted-1" in text
    assert (text, True) == _reference(SpellMap.from_pairs(wide), 100)


@pytest.mark.parametrize("n", [500, 3000, 200_000])
def test_a_map_beyond_the_fuel_ends_with_an_unknown_count(n: int) -> None:
    m = SpellMap.from_pairs((Keyword("k%d" % i), i) for i in range(n))
    text, truncated = _clip(m, 100)
    assert truncated and text.endswith(":spell/omitted :unknown})")
    assert (text, truncated) == _reference(m, 100)


def test_a_narrow_entry_after_the_shown_ones_still_fits() -> None:
    wide = [(Keyword("key-number-%d" % i), "v" * 12) for i in range(300)]
    m = SpellMap.from_pairs([*wide[:40], (Keyword("a"), 1), *wide[40:]])
    text, _ = _clip(m, 200)
    assert ":a 1" in text
    assert _clip(m, 200) == _reference(m, 200)


def test_counts_within_the_fuel_stay_exact() -> None:
    m = SpellMap.from_pairs((Keyword("k%d" % i), i) for i in range(1000))
    text, _ = _clip(m, 1000)
    shown = text.count(" :k") + text.startswith("(quote {:k")
    assert text.endswith(":spell/omitted %d})" % (1000 - shown))
    assert (text, True) == _reference(m, 1000)


def test_a_nearly_full_map_still_takes_a_narrow_entry_after_wide_ones() -> None:
    narrow = [(Keyword("k%d" % (10 + i)), 0) for i in range(8)]
    wide = [(Keyword("wide-%d-%s" % (i, "w" * 20)), 0) for i in range(300)]
    m = SpellMap.from_pairs([*narrow, *wide[:100], (Keyword("a"), 1), *wide[100:]])
    text, _ = _clip(m, 103)
    assert text.startswith("(quote {:k10 0") and ":a 1 :spell/omitted :unknown})" in text
    assert (text, True) == _reference(m, 103)
