"""Every ``SpellMap`` carries its entry reader ``_r`` (its dict, or its HAMT tier's ``TierReader``):
the compiled keyword read is ``m._r.get(k, _NO_ENTRY)[1]`` with no tier test (issue 12), so every
way of making a map — small, built whole, written into the HAMT tier, shrunk, sorted maps' plain
copies, a transient's freeze — must leave a reader that answers exactly as ``get`` does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data import Keyword
from spell_runtime.data.hashmap import NO_ENTRY, SMALL, SpellMap, TierReader
from spell_runtime.data.sorted import SortedMap
from spell_runtime.data.transient import TransientMap

KEYS = [Keyword("k%d" % i) for i in range(3 * SMALL)]


def _reads_agree(m: SpellMap) -> None:
    for k in KEYS:
        assert m._r.get(k, NO_ENTRY)[1] == m.get(k), k
        entry = m._r.get(k)
        assert entry == m.entry(k), k


ops = st.lists(st.tuples(st.sampled_from(["assoc", "dissoc"]), st.integers(0, len(KEYS) - 1),
                         st.integers(-5, 5)), max_size=120)


@settings(max_examples=60, deadline=None)
@given(ops, st.sampled_from(["empty", "small", "whole"]))
def test_the_reader_answers_as_get_through_any_sequence_of_writes(steps: list[tuple[str, int, int]], start: str) -> None:
    m = {"empty": SpellMap(),
         "small": SpellMap.from_pairs([(KEYS[0], 0), (KEYS[1], 1)]),
         "whole": SpellMap.from_pairs([(k, i) for i, k in enumerate(KEYS[:2 * SMALL])])}[start]
    _reads_agree(m)
    for op, i, v in steps:
        m = m.assoc(KEYS[i], v) if op == "assoc" else m.dissoc(KEYS[i])
        _reads_agree(m)


def test_the_hamt_tier_reads_through_its_tier_reader_and_other_makers_keep_one() -> None:
    m = SpellMap.from_pairs([(k, 1) for k in KEYS[:2 * SMALL]])
    assert m._r is m._d  # built whole: the dict itself
    written = m.assoc(KEYS[-1], 9)
    assert written._d is None and type(written._r) is TierReader
    _reads_agree(written)
    _reads_agree(written.dissoc(KEYS[0]))
    t = TransientMap(written)
    t.assoc(KEYS[1], 7)
    _reads_agree(t.freeze())
    import spell_runtime.core.compare  # noqa: F401 - installs the natural order sorted maps use

    sorted_map = SortedMap.build([(KEYS[2], 2), (KEYS[1], 1)])
    _reads_agree(sorted_map)
    _reads_agree(sorted_map._plain())
