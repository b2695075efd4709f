"""Multi-agent coordination state of one run (runtime.md §11).

``coordinator`` holds agents, mailboxes, edges and capacity (``records`` has their shapes and
product strings); it never evaluates programs or calls models (that is the turn loop's job,
``spellc.loop.agents``), so a module written by ``spellc build`` can import it with the runtime alone.
"""

from .coordinator import Coordinator
from .records import (
    CLOSED,
    CoordinatorOptionsError,
    Edge,
    RequestOutcome,
    closed_error,
    edge_entry,
    edge_summary,
    targets_of,
    validate_coordinator_options,
)

__all__ = ["CLOSED", "Coordinator", "CoordinatorOptionsError", "Edge", "RequestOutcome", "closed_error", "edge_entry",
           "edge_summary", "targets_of", "validate_coordinator_options"]
