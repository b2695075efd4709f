"""The budget ledger of a batch: dollars spent by finished items, and whether another item may start.

Spend is what each response's ``usage.total.cost`` says (providers without
pricing, like ``test``, report none and cost nothing). A running item cannot be
stopped half-way for money without losing its work, so the ledger is checked
only before starting an item: once spent reaches the budget, no new item starts
and the unstarted ids get no result line (``--resume`` with a larger budget runs
them later). Results already in the file count when resuming: the file is the
ledger's memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional


def response_cost(response: Mapping[str, Any]) -> float:
    """Dollars a response reports spending (0 when unknown)."""
    usage = response.get("usage")
    total = usage.get("total") if isinstance(usage, Mapping) else None
    cost = total.get("cost") if isinstance(total, Mapping) else None
    return float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else 0.0


class BudgetLedger:
    """Spend so far against an optional budget in dollars."""

    def __init__(self, budget: Optional[float], earlier: Iterable[Mapping[str, Any]] = ()) -> None:
        self.budget = budget
        self.spent = sum(response_cost(r) for r in earlier)

    def record(self, response: Mapping[str, Any]) -> None:
        self.spent += response_cost(response)

    @property
    def exhausted(self) -> bool:
        return self.budget is not None and self.spent >= self.budget
