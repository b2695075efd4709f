"""The records the coordinator keeps (runtime.md §11.2–§11.4): agents, edges, slots, and their Spell shapes.

Also the product strings and the ``:coordinator`` option check that ``run`` performs. Kept apart
from ``coordinator`` so that the transitions there read as transitions.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from ..data.atoms import Keyword
from ..data.hashmap import SpellMap
from ..data.vector import vec
from ..errors import ControlError, SpellArgumentError

CLOSED_TEXT: Final = "Coordinator is closed"
CAPACITY_TEXT: Final = "Coordinator edge capacity exceeded"
OPTIONS_TEXT: Final = "Coordinator options require positive integer :max-edges"
NOT_REGISTERED: Final = "Handle not registered"
ALREADY_REGISTERED: Final = "Handle already registered"
BAD_TARGETS: Final = "Wait targets must be nonempty, distinct, and exclude their source"
SLEEP_REFUSED: Final = "Cannot sleep without an outgoing edge newer than every pending incoming edge"
AWAIT_REFUSED: Final = "Cannot await computation while newer incoming obligations require attention"
STALE_REPLY: Final = "Incoming request slot is no longer pending"
NOT_OWNER: Final = "No outgoing edge owned by caller"
STALE_LIFECYCLE: Final = "Scheduled execution belongs to a completed agent lifecycle"
STALE_COMPUTATION: Final = "Computation belongs to a completed agent lifecycle"
DEFAULT_MAX_EDGES: Final = 10000

AWAKE: Final = Keyword("awake")
ASLEEP: Final = Keyword("asleep")
EXTERNAL_WAIT: Final = Keyword("external-wait")
FINISHED: Final = Keyword("finished")
PENDING: Final = Keyword("pending")
FILLED: Final = Keyword("filled")
CANCELLED: Final = Keyword("cancelled")
COMPLETED: Final = Keyword("completed")

K_TYPE: Final = Keyword("type")
K_HANDLE: Final = Keyword("handle")
K_FROM: Final = Keyword("from")
K_BODY: Final = Keyword("body")
K_EDGE_ID: Final = Keyword("edge-id")
K_EXPECTS: Final = Keyword("expects-response")
K_CANCELLED: Final = Keyword("cancelled")
K_ID: Final = Keyword("id")
K_SOURCE: Final = Keyword("source")
K_TARGETS: Final = Keyword("targets")
K_STATUS: Final = Keyword("status")
K_CREATED_SEQ: Final = Keyword("created-seq")
K_SLOTS: Final = Keyword("slots")
K_GENERATION: Final = Keyword("generation")
K_MAX_EDGES: Final = Keyword("max-edges")
K_ACTIVE_EDGES: Final = Keyword("active-edges")
K_OUT_EDGES: Final = Keyword("out-edges")
K_IN_EDGES: Final = Keyword("in-edges")
K_OPTIONS: Final = Keyword("options")
K_NODES: Final = Keyword("nodes")
K_EDGES: Final = Keyword("edges")
K_PARENT: Final = Keyword("parent-handle")
FUTURE_HANDLE: Final = Keyword("future")


class CoordinatorOptionsError(ValueError):
    """``:coordinator`` run option rejected (raised by ``run`` before any model call, §11.3)."""

    def __init__(self, data: SpellMap) -> None:
        super().__init__(OPTIONS_TEXT)
        self.message = OPTIONS_TEXT
        self.data = data


def validate_coordinator_options(options: Any) -> int:
    """The ``:max-edges`` of a ``:coordinator`` option map (None: the default)."""
    if options is None:
        return DEFAULT_MAX_EDGES
    pairs: list[tuple[Any, Any]]
    if isinstance(options, SpellMap):
        pairs = list(options.items())
    elif isinstance(options, dict):
        pairs = [(Keyword(k) if isinstance(k, str) else k, v) for k, v in options.items()]
    else:
        raise CoordinatorOptionsError(SpellMap.from_pairs([(K_OPTIONS, options)]))
    value = dict(pairs).get(K_MAX_EDGES, DEFAULT_MAX_EDGES)
    if any(k is not K_MAX_EDGES for k, _ in pairs) or type(value) is not int or value <= 0:
        raise CoordinatorOptionsError(SpellMap.from_pairs([(K_OPTIONS, SpellMap.from_pairs(pairs))]))
    return value


def closed_error() -> ControlError:
    return ControlError(CLOSED_TEXT, SpellMap.from_pairs([(K_TYPE, Keyword("coordinator-closed"))]))


def not_registered(handle: Any) -> SpellArgumentError:
    return SpellArgumentError(NOT_REGISTERED, SpellMap.from_pairs([(K_HANDLE, handle)]))


@dataclass
class Slot:
    """One target's answer to an edge: filled at most once (§11.3)."""

    status: Keyword = PENDING
    generation: Optional[int] = None
    """The target lifecycle that claimed the slot (None: not claimed yet)."""
    value: Any = None


class RequestOutcome:
    """What a ``blocking/request`` token resolves to: a value, a cancellation or a closed run."""

    __slots__ = ("kind", "value", "edge_id")

    def __init__(self, kind: str, value: Any = None, edge_id: int = 0) -> None:
        self.kind = kind
        self.value = value
        self.edge_id = edge_id


CLOSED: Final = RequestOutcome("closed")


@dataclass
class Edge:
    """An obligation from ``source`` to ``targets`` (§11.3); present in the coordinator while pending."""

    id: int
    source: Keyword
    targets: tuple[Any, ...]
    created_seq: int
    slots: dict[Any, Slot]
    token: Optional[Future[RequestOutcome]] = None
    """Set for ``blocking/request`` edges: the value goes to the token instead of a report."""
    status: Keyword = PENDING


@dataclass
class AgentEntry:
    """One handle: mailbox, status and generation (its lifecycle count, from 1)."""

    handle: Any
    parent: Any
    status: Keyword = AWAKE
    generation: int = 1
    mailbox: list[tuple[SpellMap, Optional[int]]] = field(default_factory=list)
    runner: Optional[int] = None
    """Thread id of the running lifecycle (None while finished)."""
    checkpoint: Any = None
    """The newest resumable program (opaque here; the turn loop stores and reads it, §11.5)."""
    retired: bool = False


def edge_entry(edge: Edge) -> SpellMap:
    """``{:id :source :targets :created-seq}``: an edge as the sleep-refusal data lists it (§11.4)."""
    return SpellMap.from_pairs([(K_ID, edge.id), (K_SOURCE, edge.source), (K_TARGETS, vec(edge.targets)),
                                (K_CREATED_SEQ, edge.created_seq)])


def edge_summary(edge: Edge) -> SpellMap:
    """The edge as ``out-edges``/``in-edges``/``graph``/``cancel`` show it."""
    slots = SpellMap.from_pairs([
        (t, SpellMap.from_pairs([(K_STATUS, s.status), (K_GENERATION, s.generation)])) for t, s in edge.slots.items()])
    return SpellMap.from_pairs([(K_ID, edge.id), (K_SOURCE, edge.source), (K_TARGETS, vec(edge.targets)),
                                (K_STATUS, edge.status), (K_CREATED_SEQ, edge.created_seq), (K_SLOTS, slots)])


def report(edge: Edge) -> SpellMap:
    """The one message the source receives when every slot is filled, in target order (§11.3)."""
    if len(edge.targets) == 1:
        t = edge.targets[0]
        return SpellMap.from_pairs([(K_FROM, t), (K_EDGE_ID, edge.id), (K_BODY, edge.slots[t].value)])
    bodies = vec(SpellMap.from_pairs([(K_FROM, t), (K_BODY, edge.slots[t].value)]) for t in edge.targets)
    return SpellMap.from_pairs([(K_FROM, vec(edge.targets)), (K_EDGE_ID, edge.id), (K_BODY, bodies)])


def request_message(source: Any, edge_id: int, supplied: bool, value: Any) -> SpellMap:
    """``{:from s :expects-response true :edge-id id :body v}``; bodyless requests have no ``:body``."""
    pairs: list[tuple[Any, Any]] = [(K_FROM, source), (K_EXPECTS, True), (K_EDGE_ID, edge_id)]
    if supplied:
        pairs.append((K_BODY, value))
    return SpellMap.from_pairs(pairs)


def is_hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def targets_of(value: Any) -> list[Any]:
    """A target argument: one handle, or a sequential collection of them."""
    from ..data.plist import PList
    from ..data.vector import is_vector

    if is_vector(value) or type(value) is PList or isinstance(value, (list, tuple)):
        return list(value)
    return [value]

