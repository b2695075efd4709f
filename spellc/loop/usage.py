"""Token and cost accounting across a run, and the budget check (runtime.md §7.2 ``:budget``).

A tracker may outlive a run (``:usage-tracker`` lets callers add several runs
into one), so it is its own small object rather than part of the run state.
"""

from __future__ import annotations

import threading
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, spell_map
from spell_runtime.errors import ControlError

from ..providers.base import Usage

BUDGET_EXCEEDED: Final = "Budget exceeded: $%.4f spent (limit $%.4f)"
DEFAULT_BUDGET: Final = 1.00


class UsageTracker:
    """Total and per-model usage; thread-safe because agents may call models from futures."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = Usage()
        self.by_model: dict[str, Usage] = {}

    def add(self, model: Optional[str], usage: Usage) -> None:
        with self._lock:
            self.total.add(usage)
            self.by_model.setdefault(model or "default", Usage()).add(usage)

    @property
    def cost(self) -> Optional[float]:
        """Dollars spent so far, or None when no call had known pricing."""
        return self.total.cost

    def as_dict(self) -> dict[str, Any]:
        with self._lock:
            return {"calls": self.total.calls, "input_tokens": self.total.input_tokens,
                    "output_tokens": self.total.output_tokens, "cost": self.total.cost,
                    "by_model": {k: vars(v).copy() for k, v in self.by_model.items()}}

    def __repr__(self) -> str:
        return "UsageTracker(%r)" % self.as_dict()


def effective_budget(run_value: Any, has_run_value: bool, profile_default: Any) -> Optional[float]:
    """``:budget``: nil → the agent's ``:default-budget``, else 1.00; 0 → unlimited (None)."""
    value = run_value if has_run_value and run_value is not None else profile_default
    if value is None:
        value = DEFAULT_BUDGET
    if type(value) is bool or not isinstance(value, (int, float)):
        raise ValueError("budget must be a number")
    return None if value == 0 else float(value)


def check_budget(tracker: UsageTracker, budget: Optional[float]) -> None:
    """Raise the typed ``:budget-exceeded`` once known spending passes the budget."""
    cost = tracker.cost
    if budget is None or cost is None or cost <= budget:
        return
    raise ControlError(BUDGET_EXCEEDED % (cost, budget),
                       spell_map(Keyword("type"), Keyword("budget-exceeded"), Keyword("cost"), cost,
                                 Keyword("budget"), budget))
