"""The side table of vectors proven to hold only longs (``core/longvecs.py``) and how ``reduce``'s
sum uses it (``core/bulk.py``)."""

from __future__ import annotations

import gc

from spell_runtime.core import bulk, longvecs
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data.atoms import LONG_MAX, LONG_MIN, Symbol
from spell_runtime.data.vector import vec
from spell_runtime.library import load

import spellc
from spellc.compiler import optimisations

load()
PLUS = BUILTINS[Symbol("+")]
N = longvecs.MIN_RECORDED


def test_long_vectors_are_recorded_and_forgotten_with_the_vector() -> None:
    v = longvecs.vec_of_longs(list(range(N)), True)
    w = longvecs.vec_of_longs([-1] * N, False)
    assert v == vec(range(N)) and longvecs.long_facts(v) is True and longvecs.long_facts(w) is False
    assert longvecs.long_facts(vec(range(N))) is None  # an equal vector is another value: nothing known
    assert longvecs.long_facts(list(range(N))) is None
    before = len(longvecs._FACTS)
    del v, w
    gc.collect()
    assert len(longvecs._FACTS) == before - 2


def test_short_vectors_are_not_recorded() -> None:
    v = longvecs.vec_of_longs([1, 2, 3], True)
    assert v == vec([1, 2, 3]) and longvecs.long_facts(v) is None


def test_a_compiled_loop_records_its_vector_only_with_optimisations_on() -> None:
    form = "(loop [i 0 v []] (if (< i %d) (recur (inc i) (conj v i)) v))" % N
    with optimisations(True):
        assert longvecs.long_facts(spellc.eval_string(form)) is True
    with optimisations(False):
        assert longvecs.long_facts(spellc.eval_string(form)) is None


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
