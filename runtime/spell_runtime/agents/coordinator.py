"""The coordinator of one run: agents, mailboxes, edges and their slots (runtime.md §11.1–§11.4).

Why one lock: every transition of the reference's coordinator commits
obligations, mailboxes and notifications *together* (a compare-and-set on one
immutable map). Here each public method runs under one ``threading.Condition``
(re-entrant lock) and does the whole transition before it returns, so a
thread-interleaving can never observe a slot filled without its report queued,
a batch drained without its slots claimed, or an edge admitted past capacity.
Work that must not run under the lock — starting a lifecycle thread, resolving
a ``blocking/request`` token whose waiter may run Spell code — is collected
while the lock is held and performed after it is released (``_after``).

Nothing here evaluates programs or calls a model: the turn loop
(``spellc.loop.agents``) owns lifecycles and tells the coordinator what
happened (``finish``); the coordinator tells the loop when a dormant agent
must start its next lifecycle (the ``launcher`` callback).

Decisions where §11 is silent are marked "(choice)".
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
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


def _not_registered(handle: Any) -> SpellArgumentError:
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


class Coordinator:
    """All coordination state of one run; every method is one atomic transition."""

    def __init__(self, max_edges: int = DEFAULT_MAX_EDGES,
                 launcher: Optional[Callable[[Any], None]] = None,
                 warn: Optional[Callable[[str, SpellMap], None]] = None) -> None:
        self.max_edges = max_edges
        self.launcher = launcher
        """Called (outside the lock) with a handle whose next lifecycle must start."""
        self.warn = warn
        self._cond = threading.Condition(threading.RLock())
        self._agents: dict[Any, AgentEntry] = {}
        self._edges: dict[int, Edge] = {}
        self._external: dict[object, tuple[Any, int]] = {}
        self._next_edge_id = 1
        self._next_seq = 1
        self._after: list[Callable[[], None]] = []
        self.closed = False
        self.edge_log: Optional[list[SpellMap]] = None
        """When a list (traced runs), every edge's creation and end, in commit order."""

    # -- plumbing ------------------------------------------------------------------------------------
    def _flush(self) -> None:
        """Run the actions a transition deferred until the lock is released."""
        while True:
            with self._cond:
                if not self._after:
                    return
                actions, self._after = self._after, []
            for action in actions:
                action()

    def _open(self) -> None:
        if self.closed:
            raise closed_error()

    def _agent(self, handle: Any) -> AgentEntry:
        entry = self._agents.get(handle) if _hashable(handle) else None
        if entry is None:
            raise _not_registered(handle)
        return entry

    def _enqueue(self, handle: Any, message: SpellMap, request_edge: Optional[int] = None) -> None:
        """Queue ``message``; a finished agent wakes into its next lifecycle (generation + 1)."""
        entry = self._agent(handle)
        entry.mailbox.append((message, request_edge))
        if entry.status is FINISHED and not entry.retired:
            entry.status = AWAKE
            entry.generation += 1
            launcher = self.launcher
            if launcher is not None:
                self._after.append(lambda: launcher(handle))
        elif entry.status is ASLEEP or entry.status is EXTERNAL_WAIT:
            entry.status = AWAKE
        self._cond.notify_all()

    def _outgoing(self, handle: Any) -> list[Edge]:
        # Token edges (``blocking/request``) count too, as in the reference: a computation's pending
        # request is an obligation that lets its agent sleep (and its completion re-checks that sleep).
        return sorted((e for e in self._edges.values() if e.source == handle), key=lambda e: e.created_seq)

    def _incoming(self, handle: Any) -> list[Edge]:
        return sorted((e for e in self._edges.values()
                       if handle in e.slots and e.slots[handle].status is PENDING), key=lambda e: e.created_seq)

    def _sleep_allowed(self, handle: Any) -> bool:
        """The ordering rule (§11.4): the newest pending outgoing edge is newer than every pending incoming one."""
        out = self._outgoing(handle)
        inc = self._incoming(handle)
        return bool(out) and (not inc or out[-1].created_seq > inc[-1].created_seq)

    def _wake_if_invalid_wait(self, handle: Any) -> None:
        """A completed token edge may have been what made a sleeper's wait legal: wake it to decide again.

        (As the reference.) The wake is an ordinary message, ``{:from :coordinator :body :wait-obligation-changed}``.
        """
        entry = self._agents.get(handle)
        if entry is None or not (entry.status is ASLEEP or entry.status is EXTERNAL_WAIT):
            return
        if not self._sleep_allowed(handle) and (entry.status is ASLEEP or self._incoming(handle)):
            self._enqueue(handle, SpellMap.from_pairs([(K_FROM, Keyword("coordinator")),
                                                       (K_BODY, Keyword("wait-obligation-changed"))]))

    def _refusal(self, text: str, handle: Any) -> SpellArgumentError:
        data = SpellMap.from_pairs([
            (K_TYPE, Keyword("sleep-refused")), (K_HANDLE, handle),
            (K_OUT_EDGES, vec(edge_entry(e) for e in self._outgoing(handle))),
            (K_IN_EDGES, vec(edge_entry(e) for e in self._incoming(handle)))])
        return SpellArgumentError(text, data)

    def _log(self, event: str, edge: Edge) -> None:
        if self.edge_log is not None:
            self.edge_log.append(SpellMap.from_pairs([(Keyword("event"), Keyword(event)), *edge_summary(edge).items()]))

    def log_snapshot(self) -> Any:
        with self._cond:
            return vec(self.edge_log or ())

    def _capacity_error(self) -> ControlError:
        """The typed refusal of §11.3: capacity counts pending edges, not slots."""
        return ControlError(CAPACITY_TEXT, SpellMap.from_pairs([
            (K_TYPE, Keyword("coordinator-capacity")), (K_MAX_EDGES, self.max_edges),
            (K_ACTIVE_EDGES, len(self._edges))]))

    def _add_edge(self, source: Any, targets: Sequence[Any], claimed_by: Optional[int] = None) -> Edge:
        self._open()
        self._agent(source)
        hashable = all(_hashable(t) for t in targets)
        if not targets or not hashable or len(set(targets)) != len(targets) or source in targets:
            raise SpellArgumentError(BAD_TARGETS, SpellMap.from_pairs([(K_SOURCE, source),
                                                                        (K_TARGETS, vec(targets))]))
        for t in targets:
            self._agent(t)
        if len(self._edges) >= self.max_edges:
            raise self._capacity_error()
        edge = Edge(self._next_edge_id, source, tuple(targets), self._next_seq,
                    {t: Slot(generation=claimed_by) for t in targets})
        self._next_edge_id += 1
        self._next_seq += 1
        self._edges[edge.id] = edge
        self._log("created", edge)
        return edge

    def _fill(self, edge_id: Any, target: Any, value: Any, suppress_singleton: bool = False) -> bool:
        edge = self._edges.get(edge_id) if _hashable(edge_id) else None
        slot = edge.slots.get(target) if edge is not None and _hashable(target) else None
        if edge is None or slot is None or slot.status is not PENDING:
            return False
        slot.status = FILLED
        slot.value = value
        if all(s.status is FILLED for s in edge.slots.values()):
            del self._edges[edge.id]
            edge.status = COMPLETED
            self._log("completed", edge)
            if edge.token is not None:
                self._after.append(_resolver(edge.token, RequestOutcome("completed", report(edge).get(K_BODY), edge.id)))
                self._wake_if_invalid_wait(edge.source)
            elif not (suppress_singleton and len(edge.targets) == 1) and edge.source in self._agents:
                self._enqueue(edge.source, report(edge))
        return True

    # -- agents --------------------------------------------------------------------------------------
    def register(self, handle: Any, parent: Any = None, *, finished: bool = False,
                 checkpoint: Any = None) -> AgentEntry:
        """A new handle (``:awake`` and about to start, or ``:finished`` and dormant until its first message)."""
        with self._cond:
            self._open()
            if not _hashable(handle) or handle in self._agents:
                raise SpellArgumentError(ALREADY_REGISTERED, SpellMap.from_pairs([(K_HANDLE, handle)]))
            entry = AgentEntry(handle, parent, FINISHED if finished else AWAKE, checkpoint=checkpoint)
            self._agents[handle] = entry
            return entry

    def entry(self, handle: Any) -> AgentEntry:
        with self._cond:
            return self._agent(handle)

    def is_registered(self, handle: Any) -> bool:
        with self._cond:
            return _hashable(handle) and handle in self._agents

    def set_runner(self, handle: Any, runner: Optional[int]) -> None:
        with self._cond:
            self._agent(handle).runner = runner

    def acquire(self, handle: Any, generation: int, runner: int) -> None:
        """A scheduled lifecycle takes its handle; refused when that lifecycle is no longer current."""
        with self._cond:
            self._open()
            entry = self._agent(handle)
            if entry.generation != generation or entry.status is FINISHED or entry.retired:
                raise ControlError(STALE_LIFECYCLE, SpellMap.from_pairs([
                    (K_TYPE, Keyword("stale-agent-lifecycle")), (K_HANDLE, handle)]))
            entry.runner = runner

    def is_runner(self, thread_id: int) -> bool:
        """True when ``thread_id`` runs some agent's current lifecycle."""
        with self._cond:
            return any(a.runner == thread_id for a in self._agents.values())

    def set_checkpoint(self, handle: Any, checkpoint: Any) -> None:
        with self._cond:
            entry = self._agents.get(handle)
            if entry is not None:
                entry.checkpoint = checkpoint

    def generation(self, handle: Any) -> int:
        with self._cond:
            return self._agent(handle).generation

    def status(self, handle: Any) -> SpellMap:
        with self._cond:
            self._open()
            entry = self._agent(handle)
            return SpellMap.from_pairs([(K_STATUS, entry.status), (K_GENERATION, entry.generation),
                                        (K_HANDLE, handle)])

    def graph(self) -> SpellMap:
        with self._cond:
            self._open()
            nodes = SpellMap.from_pairs([
                (h, SpellMap.from_pairs([(K_STATUS, a.status), (K_GENERATION, a.generation), (K_PARENT, a.parent)]))
                for h, a in self._agents.items()])
            edges = SpellMap.from_pairs([(i, edge_summary(e)) for i, e in sorted(self._edges.items())])
            return SpellMap.from_pairs([(K_NODES, nodes), (K_EDGES, edges)])

    def out_edges(self, handle: Any) -> Any:
        with self._cond:
            self._open()
            return vec(edge_summary(e) for e in self._outgoing(handle))

    def in_edges(self, handle: Any) -> Any:
        """Edges naming ``handle`` as a target, filled slots included while the edge is pending (as the reference)."""
        with self._cond:
            self._open()
            return vec(edge_summary(e) for e in sorted(self._edges.values(), key=lambda e: e.created_seq)
                       if handle in e.slots)

    def parent(self, handle: Any) -> Any:
        with self._cond:
            return self._agent(handle).parent

    # -- messages ------------------------------------------------------------------------------------
    def send(self, target: Any, message: SpellMap) -> None:
        with self._cond:
            self._open()
            self._enqueue(target, message)
        self._flush()

    def has_messages(self, handle: Any) -> bool:
        with self._cond:
            entry = self._agents.get(handle)
            return entry is not None and bool(entry.mailbox)

    def drain(self, handle: Any) -> list[SpellMap]:
        """Take the whole mailbox batch and claim its request slots for the current lifecycle (§11.5)."""
        with self._cond:
            self._open()
            entry = self._agent(handle)
            batch, entry.mailbox = entry.mailbox, []
            for _message, edge_id in batch:
                edge = self._edges.get(edge_id) if edge_id is not None else None
                slot = edge.slots.get(handle) if edge is not None else None
                if slot is not None and slot.status is PENDING and slot.generation is None:
                    slot.generation = entry.generation
            return [m for m, _ in batch]

    # -- edges ---------------------------------------------------------------------------------------
    def request(self, source: Any, targets: Sequence[Any], supplied: bool, value: Any,
                token: Optional[Future[RequestOutcome]] = None,
                lifecycle: Optional[int] = None) -> int:
        """Create an edge and deliver one request per target, atomically; the edge id.

        ``lifecycle`` (a source generation) is given by computations: a request made on behalf of a
        lifecycle that has ended is refused (``:stale-computation-lifecycle``, §11.6).
        """
        with self._cond:
            self._open()
            entry = self._agent(source)
            if lifecycle is not None and (entry.generation != lifecycle or entry.status is FINISHED):
                raise ControlError(STALE_COMPUTATION, SpellMap.from_pairs([
                    (K_TYPE, Keyword("stale-computation-lifecycle")), (K_HANDLE, source)]))
            edge = self._add_edge(source, targets)
            edge.token = token
            for t in edge.targets:
                self._enqueue(t, request_message(source, edge.id, supplied, value), edge.id)
        self._flush()
        return edge.id

    def spawn_request(self, source: Any, children: Sequence[tuple[Any, Any]], checkpoint: Any = None) -> int:
        """Register every ``(handle, parent)`` child and one edge to them, with slots claimed by generation 1."""
        with self._cond:
            self._open()
            seen: set[Any] = set()
            for handle, _parent in children:
                if not _hashable(handle) or handle in self._agents or handle in seen:
                    raise SpellArgumentError(ALREADY_REGISTERED, SpellMap.from_pairs([(K_HANDLE, handle)]))
                seen.add(handle)
            # Capacity and target checks run before anything is registered, so a refusal changes nothing.
            self._agent(source)
            if len(self._edges) >= self.max_edges:
                raise self._capacity_error()
            for handle, parent in children:
                self._agents[handle] = AgentEntry(handle, parent, checkpoint=checkpoint)
            return self._add_edge(source, [h for h, _ in children], claimed_by=1).id

    def fill(self, edge_id: Any, target: Any, value: Any) -> bool:
        """Fill ``target``'s slot of ``edge_id`` if it is still pending (later fills are no-ops)."""
        with self._cond:
            self._open()
            filled = self._fill(edge_id, target, value)
        self._flush()
        return filled

    def reply_request(self, source: Any, message: SpellMap, value: Any) -> int:
        """``!reply-ask``: fill the incoming slot and send the reverse request in one step (§11.4)."""
        with self._cond:
            self._open()
            target = message.get(K_FROM)
            expects = message.get(K_EXPECTS) is True
            edge_id = message.get(K_EDGE_ID)
            if expects:
                edge = self._edges.get(edge_id) if _hashable(edge_id) else None
                slot = edge.slots.get(source) if edge is not None else None
                if slot is None or slot.status is not PENDING:
                    raise SpellArgumentError(STALE_REPLY, SpellMap.from_pairs([(K_EDGE_ID, edge_id)]))
            self._agent(target)
            if not _hashable(target) or target == source:
                self._add_edge(source, [target])  # raises the ordinary target refusal, nothing changed yet
            completes = expects and all(s.status is FILLED for t, s in self._edges[edge_id].slots.items()
                                        if t != source)
            if len(self._edges) - (1 if completes else 0) >= self.max_edges:
                raise self._capacity_error()
            if expects:
                self._fill(edge_id, source, value, suppress_singleton=True)
            edge = self._add_edge(source, [target])
            self._enqueue(target, request_message(source, edge.id, True, value), edge.id)
        self._flush()
        return edge.id

    def cancel(self, source: Any, edge_id: Any) -> SpellMap:
        with self._cond:
            self._open()
            edge = self._edges.get(edge_id) if _hashable(edge_id) else None
            if edge is None or edge.source != source:
                raise SpellArgumentError(NOT_OWNER, SpellMap.from_pairs([(K_HANDLE, source), (K_EDGE_ID, edge_id)]))
            del self._edges[edge.id]
            edge.status = CANCELLED
            self._log("cancelled", edge)
            if edge.token is not None:
                self._after.append(_resolver(edge.token, RequestOutcome("cancelled", None, edge.id)))
            entry = self._agent(source)
            if entry.status is ASLEEP or entry.status is EXTERNAL_WAIT:
                self._enqueue(source, SpellMap.from_pairs([(K_EDGE_ID, edge.id), (K_FROM, vec(edge.targets)),
                                                           (K_CANCELLED, True)]))
            summary = edge_summary(edge)
        self._flush()
        return summary

    # -- waiting -------------------------------------------------------------------------------------
    def wait(self, handle: Any) -> str:
        """``"ready"`` (messages queued), ``"idle"`` (no obligations) or ``"waiting"`` (now asleep); else refuse."""
        with self._cond:
            self._open()
            entry = self._agent(handle)
            if entry.mailbox:
                return "ready"
            if not self._outgoing(handle) and not self._incoming(handle):
                return "idle"
            if self._sleep_allowed(handle):
                entry.status = ASLEEP
                return "waiting"
            raise self._refusal(SLEEP_REFUSED, handle)

    def await_message(self, handle: Any, timeout: Optional[float] = None) -> None:
        """Block until ``handle`` has a message (or the run closes: ``Coordinator is closed``)."""
        with self._cond:
            while True:
                self._open()
                entry = self._agent(handle)
                if entry.mailbox:
                    entry.status = AWAKE
                    return
                if not self._cond.wait(timeout):
                    return

    def begin_external_wait(self, handle: Any) -> object:
        """``!ask-await``: register a wait for a computation; refused like a sleep when obligations are newer."""
        with self._cond:
            self._open()
            entry = self._agent(handle)
            if not entry.mailbox and self._incoming(handle) and not self._sleep_allowed(handle):
                raise self._refusal(AWAIT_REFUSED, handle)
            token = object()
            self._external[token] = (handle, entry.generation)
            if not entry.mailbox:
                entry.status = EXTERNAL_WAIT
            return token

    def complete_external_wait(self, token: object, value: Any) -> bool:
        """Deliver a computation's outcome as ``{:from :future :body v}``; dropped once its lifecycle ended."""
        with self._cond:
            found = self._external.pop(token, None)
            if found is None or self.closed:
                return False
            handle, generation = found
            entry = self._agents.get(handle)
            if entry is None or entry.generation != generation or entry.status is FINISHED:
                return False
            self._enqueue(handle, SpellMap.from_pairs([(K_FROM, FUTURE_HANDLE), (K_BODY, value)]))
        self._flush()
        return True

    # -- lifecycles ----------------------------------------------------------------------------------
    def finish(self, handle: Any, generation: int, value: Any, *, retire: bool = False) -> list[Edge]:
        """End lifecycle ``generation`` of ``handle`` with ``value`` (§11.2); the outgoing edges it abandoned.

        Fills every slot this lifecycle claimed, cancels its pending outgoing edges (their targets
        keep running), drops its external waits, and — unless retired — wakes the next lifecycle at
        once when requests are already queued.
        """
        with self._cond:
            entry = self._agents.get(handle)
            if self.closed or entry is None or entry.generation != generation or entry.status is FINISHED:
                return []
            for edge in self._incoming(handle):
                if edge.slots[handle].generation == generation:
                    self._fill(edge.id, handle, value)
            abandoned = [e for e in self._edges.values() if e.source == handle]
            for edge in abandoned:
                del self._edges[edge.id]
                edge.status = CANCELLED
                self._log("abandoned", edge)
                if edge.token is not None:
                    self._after.append(_resolver(edge.token, RequestOutcome("cancelled", None, edge.id)))
            for wait_token in [t for t, (h, _g) in self._external.items() if h == handle]:
                del self._external[wait_token]
            entry.status = FINISHED
            entry.runner = None
            entry.retired = retire
            if entry.mailbox and not retire:
                entry.status = AWAKE
                entry.generation += 1
                launcher = self.launcher
                if launcher is not None:
                    self._after.append(lambda: launcher(handle))
            warn = self.warn
            if abandoned and warn is not None:
                data = SpellMap.from_pairs([(K_HANDLE, handle), (Keyword("detached-edges"), vec(
                    SpellMap.from_pairs([(K_ID, e.id), (K_TARGETS, vec(e.targets))]) for e in abandoned))])
                self._after.append(lambda: warn(
                    "Agent %s finished with unfinished outgoing edges; result collection abandoned." % handle, data))
        self._flush()
        return abandoned

    def close(self) -> None:
        """Close the run (§11.1): later operations raise ``Coordinator is closed``; sleepers and tokens unwind."""
        with self._cond:
            if self.closed:
                return
            self.closed = True
            tokens = [e.token for e in self._edges.values() if e.token is not None]
            self._edges.clear()
            self._external.clear()
            self._cond.notify_all()
            self._after = []
        for token in tokens:
            _resolve(token, CLOSED)

    def active_edges(self) -> int:
        with self._cond:
            return len(self._edges)

    def handles(self) -> list[Any]:
        with self._cond:
            return list(self._agents)


def _resolver(token: Future[RequestOutcome], outcome: RequestOutcome) -> Callable[[], None]:
    """The deferred action that resolves ``token`` once the coordinator's lock is released."""
    return lambda: _resolve(token, outcome)


def _resolve(token: Future[RequestOutcome], outcome: RequestOutcome) -> None:
    if not token.done():
        try:
            token.set_result(outcome)
        except Exception:  # noqa: BLE001 - already resolved by a racing transition: the first outcome stands
            pass


def _hashable(value: Any) -> bool:
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

