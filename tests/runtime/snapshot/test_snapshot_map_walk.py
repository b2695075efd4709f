"""A full map's remaining entries are omitted without measuring them, with the same result (issue 14).

``short_map`` skips an entry whose cheapest possible width already exceeds what is left
(``_MapWidth.least_with``); the property compares clipping with that shortcut against
clipping with it disabled, on maps whose entries vary from tiny to wider than the target,
so both a skipped entry and a small entry fitting after a rejected one are exercised.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data import Keyword, SpellMap, vec
from spell_runtime.snapshot.clip import shorten
from spell_runtime.snapshot.clip.core import render, snapshot

keys = st.one_of(st.integers(-10**9, 10**9), st.text(alphabet="ab\"\\", max_size=12),
                 st.builds(Keyword, st.text(alphabet="abcdefghij", min_size=1, max_size=30)),
                 st.builds(Keyword, st.text(alphabet="a b", min_size=1, max_size=5)))  # unreadable: not literal
values = st.one_of(st.integers(-10**30, 10**30), st.text(alphabet="xy\n\"", max_size=300), st.none(),
                   st.builds(Keyword, st.text(alphabet="kl", min_size=1, max_size=20)),
                   st.lists(st.integers(0, 9), max_size=40).map(vec))
maps = st.dictionaries(keys, values, max_size=120).map(lambda d: SpellMap.from_pairs(d.items()))


def _clip(value: Any, limit: int) -> tuple[str, bool]:
    result, truncated = snapshot(value, limit)
    return render(result), truncated


@settings(max_examples=150, deadline=None)
@given(maps, st.sampled_from([40, 120, 400, 1000]))
def test_skipping_unfit_entries_changes_nothing(m: SpellMap, limit: int) -> None:
    fast = _clip(m, limit)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(shorten._MapWidth, "least_with", lambda self, ctx, k, x: -1)
        slow = _clip(m, limit)
    assert fast == slow


def test_a_small_entry_still_fits_after_wide_ones() -> None:
    wide = [(Keyword("k%d" % i), "v" * 50) for i in range(40)]
    m = SpellMap.from_pairs([*wide, (Keyword("a"), 1)])
    text, truncated = _clip(m, 300)
    assert truncated and ":a 1" in text and ":spell/omitted" in text


def test_huge_map_omission_is_truthful() -> None:
    """Within pass 1's fuel (2 x 1200 units: 1000 entries of two atoms), the count is exact."""
    m = SpellMap.from_pairs((Keyword("k%d" % i), i) for i in range(1000))
    text, _ = _clip(m, 1000)
    shown = text.count(" :k") + text.startswith("(quote {:k")
    assert 50 < shown < 200
    assert text.endswith(":spell/omitted %d})" % (1000 - shown))
