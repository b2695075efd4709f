"""Dollar cost of a model call from the profile's ``:costs`` (prices per million tokens).

The run's budget (runtime.md §7.2) is only as good as this arithmetic, so it follows
the reference's pricing model: cached input is billed at a fraction of the input
price (``:cache-read-ratio``, default 0.10), cache writes at 1.25x, and reasoning
tokens as output. A model without a price has unknown cost (``None``), which never
trips the budget.

Accepted ``:costs`` shapes:

- ``[input output]`` or ``{:input i :output o ...}`` — one price for every model;
- ``{"model-prefix" [i o], "other" {:input i :output o :cache-read-input r :cache-write-input w}}``
  — a table looked up by the longest model-name prefix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional

from .errors import ProfileError

DEFAULT_CACHE_READ_RATIO = 0.10
CACHE_WRITE_MULTIPLIER = 1.25
_PRICE_KEYS = frozenset({"input", "output", "cache-read-input", "cache-write-input"})


def _cost_error(message: str) -> ProfileError:
    return ProfileError(f"Invalid model profile :costs: {message}", data={"key": "costs"})


def _price_number(value: Any, what: str) -> float:
    if type(value) is not bool and isinstance(value, (int, float, Fraction, Decimal)) and value >= 0:
        return float(value)
    raise _cost_error(f"{what} must be a non-negative number, got {value!r}")


@dataclass(frozen=True)
class TokenCounts:
    """What one call consumed, split the way providers bill it."""

    uncached_input: int = 0
    cached_input: int = 0
    cache_write_input: int = 0
    output: int = 0
    reasoning: int = 0
    """Reasoning tokens, already included in ``output``; kept for reporting."""

    @property
    def input_total(self) -> int:
        return self.uncached_input + self.cached_input + self.cache_write_input


@dataclass(frozen=True)
class Price:
    """Dollars per million tokens."""

    input: float
    output: float
    cache_read_input: float
    cache_write_input: float

    def cost(self, counts: TokenCounts) -> float:
        return (counts.uncached_input * self.input
                + counts.cached_input * self.cache_read_input
                + counts.cache_write_input * self.cache_write_input
                + counts.output * self.output) / 1_000_000.0


def _parse_price(spec: Any, ratio: float, where: str) -> Price:
    if isinstance(spec, (list, tuple)):
        if len(spec) != 2:
            raise _cost_error(f"{where} must be [input output], got {spec!r}")
        inp = _price_number(spec[0], f"{where} input price")
        out = _price_number(spec[1], f"{where} output price")
        return Price(inp, out, inp * ratio, inp * CACHE_WRITE_MULTIPLIER)
    if isinstance(spec, Mapping):
        if "input" not in spec or "output" not in spec:
            raise _cost_error(f"{where} needs :input and :output prices, got {spec!r}")
        inp = _price_number(spec["input"], f"{where} :input")
        out = _price_number(spec["output"], f"{where} :output")
        read = spec.get("cache-read-input")
        write = spec.get("cache-write-input")
        return Price(inp, out,
                     inp * ratio if read is None else _price_number(read, f"{where} :cache-read-input"),
                     inp * CACHE_WRITE_MULTIPLIER if write is None
                     else _price_number(write, f"{where} :cache-write-input"))
    raise _cost_error(f"{where} must be [input output] or a price map, got {spec!r}")


class CostTable:
    """Prices by model-name prefix (longest match wins), or one price for all models."""

    def __init__(self, by_prefix: Mapping[str, Price], flat: Optional[Price] = None) -> None:
        self.by_prefix = dict(by_prefix)
        self.flat = flat

    @classmethod
    def from_profile(cls, costs: Any, cache_read_ratio: Any = None) -> Optional[CostTable]:
        """Parse an already-normalised ``:costs`` value; ``None`` when the profile prices nothing."""
        if costs is None:
            return None
        ratio = DEFAULT_CACHE_READ_RATIO
        if isinstance(costs, Mapping) and costs.get("cache-read-ratio") is not None:
            ratio = _price_number(costs["cache-read-ratio"], ":cache-read-ratio")
        if cache_read_ratio is not None:
            ratio = _price_number(cache_read_ratio, ":cache-read-ratio")
        if isinstance(costs, (list, tuple)):
            return cls({}, _parse_price(costs, ratio, "price"))
        if not isinstance(costs, Mapping):
            raise _cost_error(f"expected a price or a map of model prefixes to prices, got {costs!r}")
        keys = {k for k in costs if k != "cache-read-ratio"}
        if keys and keys <= _PRICE_KEYS:
            return cls({}, _parse_price(costs, ratio, "price"))
        table: dict[str, Price] = {}
        for prefix in keys:
            if not isinstance(prefix, str):
                raise _cost_error(f"model prefixes must be strings, got {prefix!r}")
            table[prefix] = _parse_price(costs[prefix], ratio, f"price of {prefix!r}")
        return cls(table)

    def price_for(self, model: str) -> Optional[Price]:
        best: Optional[str] = None
        for prefix in self.by_prefix:
            if model.startswith(prefix) and (best is None or len(prefix) > len(best)):
                best = prefix
        if best is not None:
            return self.by_prefix[best]
        return self.flat

    def cost(self, model: str, counts: TokenCounts) -> Optional[float]:
        price = self.price_for(model)
        return None if price is None else price.cost(counts)
