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
from typing import Any, Optional

from ..data.atoms import Keyword
from ..data.hashmap import SpellMap
from ..data.vector import vec
from ..errors import ControlError, SpellArgumentError
from .records import (
    ALREADY_REGISTERED,
    ASLEEP,
    AWAIT_REFUSED,
    AWAKE,
    BAD_TARGETS,
    CANCELLED,
    CAPACITY_TEXT,
    CLOSED,
    COMPLETED,
    DEFAULT_MAX_EDGES,
    EXTERNAL_WAIT,
    FILLED,
    FINISHED,
    FUTURE_HANDLE,
    K_ACTIVE_EDGES,
    K_BODY,
    K_CANCELLED,
    K_EDGE_ID,
    K_EDGES,
    K_EXPECTS,
    K_FROM,
    K_GENERATION,
    K_HANDLE,
    K_ID,
    K_IN_EDGES,
    K_MAX_EDGES,
    K_NODES,
    K_OUT_EDGES,
    K_PARENT,
    K_SOURCE,
    K_STATUS,
    K_TARGETS,
    K_TYPE,
    NOT_OWNER,
    PENDING,
    SLEEP_REFUSED,
    STALE_COMPUTATION,
    STALE_LIFECYCLE,
    STALE_REPLY,
    AgentEntry,
    Edge,
    RequestOutcome,
    Slot,
    closed_error,
    edge_entry,
    edge_summary,
    is_hashable,
    not_registered,
    report,
    request_message,
)


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
        entry = self._agents.get(handle) if is_hashable(handle) else None
        if entry is None:
            raise not_registered(handle)
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
        hashable = all(is_hashable(t) for t in targets)
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
        edge = self._edges.get(edge_id) if is_hashable(edge_id) else None
        slot = edge.slots.get(target) if edge is not None and is_hashable(target) else None
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
            if not is_hashable(handle) or handle in self._agents:
                raise SpellArgumentError(ALREADY_REGISTERED, SpellMap.from_pairs([(K_HANDLE, handle)]))
            entry = AgentEntry(handle, parent, FINISHED if finished else AWAKE, checkpoint=checkpoint)
            self._agents[handle] = entry
            return entry

    def entry(self, handle: Any) -> AgentEntry:
        with self._cond:
            return self._agent(handle)

    def is_registered(self, handle: Any) -> bool:
        with self._cond:
            return is_hashable(handle) and handle in self._agents

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
                if not is_hashable(handle) or handle in self._agents or handle in seen:
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
                edge = self._edges.get(edge_id) if is_hashable(edge_id) else None
                slot = edge.slots.get(source) if edge is not None else None
                if slot is None or slot.status is not PENDING:
                    raise SpellArgumentError(STALE_REPLY, SpellMap.from_pairs([(K_EDGE_ID, edge_id)]))
            self._agent(target)
            if not is_hashable(target) or target == source:
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
            edge = self._edges.get(edge_id) if is_hashable(edge_id) else None
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
