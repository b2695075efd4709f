"""Large maps clipped in C-speed batches give the reference result byte for byte (issue 14, item 5).

The reference is the same core with ``normalize.LAZY_TOP_MAPS``, ``normalize.BULK_WALKS`` and
``shorten.SHORTCUTS`` off: pass 1 walks every map eagerly, entry by entry, until its fuel runs
out, and ``short_map`` measures every entry pass 1 kept, one by one (the greedy fill of runtime.md §4.5.3, as the reference
implementation does). The maps here are built from runs of entries of one kind (what the
batches decide at once) mixed with everything that must fall back to the entry-by-entry
walk: narrow entries after wide ones, strings with escapes and astral characters, huge and
negative integers, unreadable keywords, marker keys and ``:spell/fn``, nested values, keys
pass 1 drops, removed entries (tombstones in the map's order vector); they are taken as
top-level values (the lazy walk) and inside vectors, at budgets from tiny to larger than
the map. Where the mypyc-compiled core is built, it is held to the same reference.
"""

from __future__ import annotations

import sys
from typing import Any

from eager_clip import clip as _clip
from eager_clip import core
from eager_clip import reference_clip as _reference
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data import Keyword, SpellMap, vec
from spell_runtime.data.atoms import K_SPELL_FN
from spell_runtime.snapshot import backend

batch = sys.modules[backend.PURE + ".batch"]

KINDS = ("keyword-int", "keyword-string", "string-int", "int-keyword", "keyword-bool", "int-nil", "mixed")


def _value(kind: str, i: int, width: int) -> Any:
    if kind in ("keyword-int", "string-int"):
        return (i * 7919) % (10 ** max(1, width)) - (5 if i % 11 == 0 else 0)
    if kind == "keyword-string":
        return ("x" * width + ("\"\\\n\t" if i % 5 == 0 else "") + ("\U0001f600" if i % 7 == 0 else ""))
    if kind == "int-keyword":
        return Keyword("v" * max(1, width))
    if kind == "keyword-bool":
        return i % 3 == 0
    if kind == "int-nil":
        return None
    specials: list[Any] = [10 ** 20 + i, -(10 ** 18), Keyword("a b"), vec(range(width)), 2.5,
                           SpellMap.from_pairs([(Keyword("n"), i)]), "q" * (width * 9), True, i]
    return specials[i % len(specials)]


def _key(kind: str, i: int, width: int) -> Any:
    if kind.startswith("keyword") or kind == "mixed" and i % 4:
        return Keyword("k%d-%s" % (i, "w" * width))
    if kind == "string-int":
        return "s%d%s" % (i, "\"" if i % 9 == 0 else "")
    return i if kind != "mixed" else 10 ** 19 + i


runs = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(1, 400), st.integers(0, 12)), min_size=1, max_size=8)
extras = st.lists(st.tuples(st.integers(0, 3000),
                            st.sampled_from([(Keyword("a"), 1), (0, 0), ("", 0), (Keyword("omitted", "spell"), 3),
                                             (Keyword("omitted-1", "spell"), "user"), (K_SPELL_FN, False),
                                             (Keyword("x b"), 1), (object(), 1), (Keyword("z"), None)])),
                  max_size=6)


def _build(spec: list[tuple[str, int, int]], inserted: list[tuple[int, tuple[Any, Any]]], removed: int) -> SpellMap:
    entries: list[tuple[Any, Any]] = []
    for kind, count, width in spec:
        start = len(entries)
        entries.extend((_key(kind, start + j, width), _value(kind, start + j, width)) for j in range(count))
    for at, entry in inserted:
        entries.insert(min(at, len(entries)), entry)
    m = SpellMap.from_pairs(entries)
    for k, _ in entries[1::max(2, removed)] if removed else []:
        m = m.dissoc(k)  # leaves tombstones in a large map's order vector
    return m


maps = st.builds(_build, runs, extras, st.sampled_from([0, 0, 3, 50]))
limits = st.sampled_from([8, 40, 128, 300, 1000, 4000, 20000])




def _cores() -> list[Any]:
    return [core, backend.core] if backend.COMPILED else [core]


@settings(max_examples=120, deadline=None)
@given(maps, limits)
def test_a_large_map_clips_as_the_reference_does(m: SpellMap, limit: int) -> None:
    expected = _reference(m, limit)
    for snapshot_core in _cores():
        assert _clip(m, limit, snapshot_core) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(maps, maps, st.integers(), st.text(max_size=5), st.builds(object)), min_size=1, max_size=6),
       limits)
def test_vectors_of_large_maps_clip_as_the_reference_does(ms: list[Any], limit: int) -> None:
    """Past the first large map the fuel is spent: the elements after it become diagnostics in bulk."""
    v = vec(ms)
    expected = _reference(v, limit)
    for snapshot_core in _cores():
        assert _clip(v, limit, snapshot_core) == expected


def test_a_narrow_entry_deep_in_a_huge_map_is_still_shown() -> None:
    wide = [(Keyword("key-%06d" % i), 100000 + i) for i in range(200_000)]
    m = SpellMap.from_pairs([*wide[:900], (Keyword("a"), 1), *wide[900:]])  # pass 1 keeps 1200 entries
    text, truncated = _clip(m, 1000, core)
    assert truncated and ":a 1 :spell/omitted :unknown})" in text
    assert (text, truncated) == _reference(m, 1000)


def test_counts_stay_exact_within_the_fuel_and_unknown_past_it() -> None:
    within = SpellMap.from_pairs((Keyword("k%d" % i), i) for i in range(3000))
    text, _ = _clip(within, 4000, core)
    shown = text.count(" :k") + text.startswith("(quote {:k")
    assert text.endswith(":spell/omitted %d})" % (3000 - shown))
    past = SpellMap.from_pairs((Keyword("k%d" % i), i) for i in range(30000))
    assert _clip(past, 4000, core)[0].endswith(":spell/omitted :unknown})")


def test_a_user_marker_key_past_the_shown_entries_keeps_its_weight() -> None:
    entries: list[tuple[Any, Any]] = [(Keyword("k%d" % i), i) for i in range(500)]
    entries.insert(400, (Keyword("omitted", "spell"), 7))  # counts as 7 omitted entries (runtime.md §4.4)
    m = SpellMap.from_pairs(entries)
    text, _ = _clip(m, 1000, core)  # pass 1 keeps 1200 entries: all of them
    shown = text.count(" :k") + text.startswith("(quote {:k")
    assert 50 < shown < 200 and text.endswith(":spell/omitted %d})" % (500 - shown + 7))
    assert (text, True) == _reference(m, 1000)


def test_run_bounds_are_lower_bounds_of_each_atom() -> None:
    runs_of_atoms: list[list[tuple[Any, int]]] = [  # (atom, width of its text)
        [(Keyword("a"), 2), (Keyword("bcd"), 4), (Keyword("é"), 2)], [(5, 1), (120, 3), (0, 1)],
        [(-3, 2), (-40, 3)], [("", 2), ("ab", 4), ("\n", 4)], [(True, 4), (False, 5)], [(None, 3), (None, 3)],
        [(10 ** 17, 18), (3, 1)]]
    for run in runs_of_atoms:
        xs = [x for x, _ in run]
        least = batch.least_width(xs)
        total = batch.total_width(xs)
        if least != batch.NOT_SIMPLE:
            assert least <= min(w for _, w in run)
        if total != batch.NOT_SIMPLE:
            assert total <= sum(w for _, w in run)
    assert batch.least_width([1, "a"]) == batch.NOT_SIMPLE
    assert batch.least_width([Keyword("omitted", "spell")]) == batch.NOT_SIMPLE
    assert batch.total_width([10 ** 17, 3]) == batch.NOT_SIMPLE


def test_an_entry_exactly_as_wide_as_the_room_left_is_taken_from_a_run() -> None:
    """Entries 8 to 11 units wide, in runs: across these limits the room left after the first ones
    equals every such width somewhere, and the entry that fills it exactly must still be shown."""
    m = SpellMap.from_pairs((Keyword("k%06d" % i), 10 ** ((i * 7919) % 4)) for i in range(5000))
    for limit in range(120, 180):
        assert _clip(m, limit, core) == _reference(m, limit), limit
        if backend.COMPILED:
            assert _clip(m, limit, backend.core) == _reference(m, limit), limit


def test_a_run_is_too_wide_only_when_its_narrowest_entry_is() -> None:
    part = [(Keyword("k%03d" % i), 10 ** (i % 3)) for i in range(64)]  # keys 5 units, values 1 to 3
    assert batch.too_wide(part, 5) and not batch.too_wide(part, 6)  # narrowest: 5 + 1 units
    strings = [("s%d" % i, "x" * (i % 5)) for i in range(64)]  # keys 4 or 5 units, values 2 to 6
    assert batch.too_wide(strings, 5) and not batch.too_wide(strings, 6)
    mixed = [*part[:10], (Keyword("a"), "zz"), *part[10:]]
    assert not batch.too_wide(mixed, 5)
    assert not batch.too_wide([(Keyword("omitted", "spell"), 3), *part], 0)  # weighs 3: never decided in a run
    assert not batch.too_wide([(Keyword("k"), 2.5)], 0)  # not an atom pass 1 keeps without a call


render = sys.modules[backend.PURE + ".render"]
shapes = sys.modules[backend.PURE + ".shapes"]

plain_values = st.one_of(st.integers(-(10 ** 16), 10 ** 16), st.text(alphabet="a\"é", max_size=50), st.booleans(),
                         st.none(), st.builds(Keyword, st.text(alphabet="kv", min_size=1, max_size=70)))
plain_keys = st.one_of(st.builds(Keyword, st.text(alphabet="abc", min_size=1, max_size=12)),
                       st.sampled_from([Keyword("omitted", "spell"), Keyword("a b"), 7, "s"]))


def _exactly_wide(k: Any, x: Any, least: int) -> bool:
    """The bound the batches claim: a keyword key outside ``spell`` the reader reads back, at its
    exact width, and a value at its narrowest after any shortening (a string counted without its
    escapes, which only widen it)."""
    if type(k) is not Keyword or k.ns == "spell" or not render.reader_keyword(k):
        return False
    if type(x) is Keyword and not render.reader_keyword(x):
        return False
    floor = shapes.STRING_FLOOR if type(x) is str else shapes.ATOM_FLOOR
    width = 2 + len(x) if type(x) is str else render.data_len(x, -1)
    assert width <= render.data_len(x, -1)
    return bool(render.data_len(k, -1) + min(width, floor) > least)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(plain_keys, plain_values), min_size=1, max_size=40), st.integers(0, 19))
def test_the_native_prefix_is_the_run_of_entries_too_wide_for_the_room(part: list[tuple[Any, Any]],
                                                                        least: int) -> None:
    expected = 0
    for k, x in part:
        if not _exactly_wide(k, x, least):
            break
        expected += 1
    assert batch.wide_prefix(part, 0, len(part), least) == expected
    if backend.COMPILED:
        compiled_batch = sys.modules[backend.CLIP + ".batch"]
        assert compiled_batch.wide_prefix(part, 0, len(part), least) == expected
