"""Cost accounting from :costs (dollars per million tokens)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spellc.providers.costs import CostTable, TokenCounts
from spellc.providers.errors import ProfileError

COUNTS = TokenCounts(uncached_input=1_000_000, cached_input=1_000_000, cache_write_input=1_000_000,
                     output=1_000_000)


def test_no_costs_means_unknown() -> None:
    assert CostTable.from_profile(None) is None


def test_flat_pair_prices_every_model() -> None:
    table = CostTable.from_profile([2, 10])
    assert table is not None
    # input 2 + cached 0.2 + cache write 2.5 + output 10
    assert table.cost("anything", COUNTS) == pytest.approx(14.7)


def test_price_map_with_explicit_cache_prices() -> None:
    table = CostTable.from_profile({"input": 1, "output": 4, "cache-read-input": Fraction(1, 2),
                                    "cache-write-input": 3})
    assert table is not None
    assert table.cost("m", COUNTS) == pytest.approx(1 + 0.5 + 3 + 4)


def test_longest_prefix_wins_and_unknown_models_have_no_cost() -> None:
    table = CostTable.from_profile({"gpt-4o": [5, 15], "gpt-4o-mini": [0.15, 0.6], "cache-read-ratio": 0.5})
    assert table is not None
    only_input = TokenCounts(uncached_input=1_000_000)
    assert table.cost("gpt-4o-mini-2024", only_input) == pytest.approx(0.15)
    assert table.cost("gpt-4o-2024", only_input) == pytest.approx(5)
    assert table.cost("gpt-4o", TokenCounts(cached_input=1_000_000)) == pytest.approx(2.5)
    assert table.cost("claude", only_input) is None


def test_profile_level_cache_read_ratio() -> None:
    table = CostTable.from_profile([10, 10], 0.25)
    assert table is not None
    assert table.cost("m", TokenCounts(cached_input=1_000_000)) == pytest.approx(2.5)


@pytest.mark.parametrize("costs", [[1], [1, "2"], {"m": [1, -2]}, {"input": 1}, "cheap", {"m": True}, [True, 1]])
def test_invalid_costs(costs: object) -> None:
    with pytest.raises(ProfileError, match=":costs"):
        CostTable.from_profile(costs)


@given(st.integers(0, 10**7), st.integers(0, 10**7), st.integers(0, 10**7),
       st.floats(0, 100), st.floats(0, 100))
def test_cost_is_linear_and_non_negative(uncached: int, cached: int, output: int, inp: float, out: float) -> None:
    table = CostTable.from_profile([inp, out])
    assert table is not None
    counts = TokenCounts(uncached_input=uncached, cached_input=cached, output=output)
    doubled = TokenCounts(uncached_input=2 * uncached, cached_input=2 * cached, output=2 * output)
    cost = table.cost("m", counts)
    assert cost is not None and cost >= 0
    assert table.cost("m", doubled) == pytest.approx(2 * cost)
    assert counts.input_total == uncached + cached
