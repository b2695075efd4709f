"""The side table of vectors proven to hold only longs (``core/longvecs.py``) and how ``reduce``'s
sum uses it (``core/bulk.py``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from spell_runtime.core import bulk, longvecs
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data.atoms import LONG_MAX, LONG_MIN, Symbol
from spell_runtime.data.vector import vec
from spell_runtime.errors import SpellError
from spell_runtime.library import load

import spellc
from spellc.analyze import bound
from spellc.compiler import optimisations

load()
PLUS = BUILTINS[Symbol("+")]
N = longvecs.MIN_RECORDED


def test_long_vectors_are_recorded_and_forgotten_with_the_vector() -> None:
    v = longvecs.vec_of_longs(list(range(N)), True)
    w = longvecs.vec_of_longs([-1] * N, False)
    assert v == vec(range(N)) and longvecs.long_bounds(v) == (0, LONG_MAX)
    assert longvecs.long_bounds(w) == (LONG_MIN, LONG_MAX)
    assert longvecs.long_bounds(vec(range(N))) is None  # an equal vector is another value: nothing known
    assert longvecs.long_bounds(list(range(N))) is None
    before = len(longvecs._FACTS)
    del v, w
    gc.collect()
    assert len(longvecs._FACTS) == before - 2


def test_short_vectors_are_not_recorded() -> None:
    v = longvecs.vec_of_longs([1, 2, 3], True)
    assert v == vec([1, 2, 3]) and longvecs.long_bounds(v) is None


@pytest.fixture
def static_loop_names() -> Iterator[None]:
    """``<``, ``inc`` and ``conj`` static, as in a fresh process: which core names code has bound is
    process-wide compiler state (``spellc.analyze.bound``), and an earlier test may have bound one."""
    names = {Symbol("<"), Symbol("inc"), Symbol("conj")}
    was = names & bound.BOUND
    bound.BOUND.difference_update(names)
    yield
    bound.BOUND.update(was)


@pytest.mark.usefixtures("static_loop_names")
def test_a_compiled_loop_records_its_vector_only_with_optimisations_on() -> None:
    form = "(loop [i 0 v []] (if (< i %d) (recur (inc i) (conj v i)) v))" % N
    with optimisations(True):
        assert longvecs.long_bounds(spellc.eval_string(form)) == (0, LONG_MAX)
    with optimisations(False):
        assert longvecs.long_bounds(spellc.eval_string(form)) is None


def test_sum_trusts_the_facts_and_still_checks_the_range() -> None:
    ok = longvecs.vec_of_longs(list(range(N)), True)
    assert bulk.reduce_fast(PLUS, 0, ok) == sum(range(N))
    assert bulk.reduce1_fast(PLUS, ok) == sum(range(N))
    assert bulk.reduce_fast(PLUS, LONG_MAX, ok) is bulk.NO_FAST  # the total overflows: the loop raises it


def test_one_sign_needs_no_absolute_bound() -> None:
    big = [LONG_MAX // N] * N  # Σ|x| is near LONG_MAX, but all >= 0 and the total fits
    assert bulk.reduce_fast(PLUS, 0, vec(big)) == sum(big)
    neg = [LONG_MIN // N] * N
    assert bulk.reduce_fast(PLUS, 0, vec(neg)) == sum(neg)
    assert bulk.reduce_fast(PLUS, 1, vec(neg)) == sum(neg) + 1  # elements of one sign, acc of the other
    assert bulk.reduce_fast(PLUS, -1, vec(neg)) is bulk.NO_FAST  # one below LONG_MIN
    assert bulk.reduce_fast(PLUS, LONG_MIN, vec([0, -1])) is bulk.NO_FAST


def test_mixed_signs_fall_back_to_the_absolute_bound() -> None:
    assert bulk.reduce_fast(PLUS, 0, vec([5, -3] * N)) == 2 * N
    assert bulk.reduce_fast(PLUS, LONG_MAX, vec([1, -1])) is bulk.NO_FAST  # MAX + 1 overflows on the way
    facts = longvecs.vec_of_longs([LONG_MAX, 1, -1] * N, False)  # longs, sign unknown
    assert bulk.reduce_fast(PLUS, 0, facts) is bulk.NO_FAST


def test_range_map_and_filter_record_what_they_know() -> None:
    with optimisations(True):
        r = spellc.eval_string("(range 5 %d 3)" % (5 + 3 * N))
        assert longvecs.long_bounds(r) == (5, 5 + 3 * (N - 1))
        assert longvecs.long_bounds(spellc.eval_string("(range %d 0 -1)" % N)) == (1, N)
        m = spellc.eval_string("(map inc (range %d))" % N)
        assert longvecs.long_bounds(m) == (1, N)
        assert longvecs.long_bounds(spellc.eval_string("(map dec (range %d))" % N)) == (-1, N - 2)
        f = spellc.eval_string("(filter even? (map inc (range %d)))" % (2 * N))
        assert longvecs.long_bounds(f) == (1, 2 * N) and list(f) == list(range(2, 2 * N + 1, 2))
        assert list(spellc.eval_string("(remove odd? (range %d))" % N)) == list(range(0, N, 2))
        # at the top, inc cannot be unchecked: the fact is not passed on, and the error is exact
        top = spellc.eval_string("(range %d %d)" % (LONG_MAX - N, LONG_MAX))
        assert longvecs.long_bounds(top) == (LONG_MAX - N, LONG_MAX - 1)
        assert longvecs.long_bounds(spellc.eval_string("(map inc (range %d %d))" % (LONG_MAX - N, LONG_MAX))) \
            == (LONG_MAX - N + 1, LONG_MAX)
        with pytest.raises(SpellError, match="integer overflow"):  # the checked path finds the top
            spellc.eval_string("(map inc (map inc (range %d %d)))" % (LONG_MAX - N, LONG_MAX))
    with optimisations(False):
        assert longvecs.long_bounds(spellc.eval_string("(range %d)" % N)) is None


def test_known_bounds_spare_the_one_sign_test() -> None:
    mixed = longvecs.record(vec([5, -3] * N), -3, 5)  # n * max(|lo|, |hi|) is far below LONG_MAX
    assert bulk.reduce_fast(PLUS, 0, mixed) == 2 * N
    wide = longvecs.record(vec([LONG_MAX // 2, -(LONG_MAX // 2)] * N), -(LONG_MAX // 2), LONG_MAX // 2)
    assert bulk.reduce_fast(PLUS, 0, wide) is bulk.NO_FAST  # Σ|x| too big: the loop decides
