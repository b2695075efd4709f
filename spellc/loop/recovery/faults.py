"""Fault verdicts, reason codes and the recovery gate (runtime.md §9, project extension).

The point of classifying is to re-prompt the model only for failures that are
provably its own: re-emitting code cannot fix a crashed provider, a full disk or
a spellc bug, and spending the model's error budget on them would only produce
confused repairs. A ``Fault`` is therefore decided once, where the failure
originates, and carried unchanged (``:spell/fault``/``:spell/reason``) as the
failure propagates; ``with_fault`` refuses to overwrite an existing verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Optional

from spell_runtime.data import Keyword, SpellMap

from .vocab import K_FAULT, K_REASON_QUALIFIED

Verdict = Literal["document", "environment", "unknown"]

DOCUMENT: Final = "document"
ENVIRONMENT: Final = "environment"
UNKNOWN: Final = "unknown"
VERDICTS: Final = frozenset({DOCUMENT, ENVIRONMENT, UNKNOWN})

REASON_VERDICTS: Final[Mapping[str, Verdict]] = {
    "reader-error": "document",
    "unbound-symbol": "document",
    "namespace-lookup": "document",
    "effect-outside-eval": "document",
    "future-only": "document",
    "arity": "document",
    "macro-expansion": "document",
    "invalid-argument": "document",
    "thrown": "document",
    "expression-runtime": "document",
    "format": "document",
    # Issue 16.3 (project extension): a limit the program ran into — an evaluation past its
    # deadline, a collection or macro expansion past its cap. The program chose to loop or
    # to build that much, so re-emitting different code can fix it: a document fault.
    "timeout": "document",
    "resource-limit": "document",
    "provider": "environment",
    "host-function": "environment",
    "budget-exceeded": "environment",
    "depth-exceeded": "environment",
    "interrupted": "environment",
    "coordinator-capacity": "environment",
    "agent-misuse": "document",
    "internal": "unknown",
    "unclassified": "unknown",
}
"""§9.2: the verdict each reason implies. ``recovery-exhausted`` is absent on purpose: its verdict
is that of the last counted failure, so it must be given explicitly."""

RECOVERY_EXHAUSTED: Final = "recovery-exhausted"


@dataclass(frozen=True)
class Fault:
    """Whose fault a failure is (``verdict``) and why (``reason``, a §9.2 code without the colon).

    ``terminal`` marks typed control exceptions (§6.12): whatever their verdict,
    they bypass recovery.
    """

    verdict: Verdict
    reason: str
    terminal: bool = False

    @property
    def verdict_keyword(self) -> Keyword:
        return Keyword(self.verdict)

    @property
    def reason_keyword(self) -> Keyword:
        return Keyword(self.reason)


def fault_for(reason: str, verdict: Optional[str] = None, *, terminal: bool = False) -> Fault:
    """The fault of a reason code; an explicit ``verdict`` wins (needed for ``recovery-exhausted``)."""
    v = verdict if verdict in VERDICTS else REASON_VERDICTS.get(reason, UNKNOWN)
    return Fault(v, reason, terminal)  # type: ignore[arg-type]


def should_recover(fault: Fault, recover_unknown: bool, already_retried_unknown: bool) -> bool:
    """§9.3: may this failure be sent back to the model (and counted)?

    Document faults always; environment faults never; unknown faults only with
    the profile's ``:recover-unknown true`` and only as the first failure of a
    streak (pass ``already_retried_unknown = counter.count > 0`` taken *before*
    recording this failure). Typed control exceptions never.
    """
    if fault.terminal:
        return False
    if fault.verdict == DOCUMENT:
        return True
    if fault.verdict == UNKNOWN:
        return recover_unknown and not already_retried_unknown
    return False


def fault_from_data(data: Any) -> Optional[Fault]:
    """The verdict already stamped on an error result map or exception data, if any."""
    if not isinstance(data, SpellMap):
        return None
    reason = data.get(K_REASON_QUALIFIED)
    if type(reason) is not Keyword:
        return None
    verdict = data.get(K_FAULT)
    return fault_for(reason.name, verdict.name if type(verdict) is Keyword else None)


def with_fault(data: Optional[SpellMap], fault: Fault) -> SpellMap:
    """``data`` plus ``:spell/fault``/``:spell/reason``; an existing verdict is kept (a wrapper never reclassifies)."""
    base = data if data is not None else SpellMap()
    if base.get(K_REASON_QUALIFIED) is not None:
        return base
    return base.assoc(K_FAULT, fault.verdict_keyword).assoc(K_REASON_QUALIFIED, fault.reason_keyword)
