"""The coordinator under thread interleavings (runtime.md §11.3): atomic admission, fills at most once.

The switch interval is lowered so that the interpreter preempts threads every few
bytecodes; each test is bounded by thread joins with a timeout.
"""

from __future__ import annotations

import random
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from spell_runtime.agents import Coordinator
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.errors import ControlError

K = Keyword
MAIN = K("main")
JOIN_SECONDS = 60


@pytest.fixture(autouse=True)
def frequent_switches() -> Iterator[None]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def run_threads(workers: list[Callable[[], None]]) -> None:
    start = threading.Barrier(len(workers))
    errors: list[BaseException] = []

    def wrap(work: Callable[[], None]) -> Callable[[], None]:
        def go() -> None:
            start.wait()
            try:
                work()
            except BaseException as e:  # noqa: BLE001 - reported by the test
                errors.append(e)
        return go

    threads = [threading.Thread(target=wrap(w)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_SECONDS)
        assert not t.is_alive(), "a worker thread did not finish in time"
    assert errors == []


def test_capacity_admission_is_atomic_under_contention() -> None:
    coord = Coordinator(25)
    coord.register(MAIN)
    targets = [K("t%d" % i) for i in range(8)]
    for t in targets:
        coord.register(t, MAIN)
    admitted: list[int] = []
    refused: list[ControlError] = []
    lock = threading.Lock()

    def worker(target: Keyword) -> Callable[[], None]:
        def go() -> None:
            for _ in range(20):
                try:
                    edge = coord.request(MAIN, [target], True, 1)
                except ControlError as e:
                    with lock:
                        refused.append(e)
                else:
                    with lock:
                        admitted.append(edge)
        return go

    run_threads([worker(t) for t in targets])
    assert len(admitted) == 25 and len(set(admitted)) == 25
    assert sorted(admitted) == list(range(1, 26))  # ids increase strictly, none skipped
    assert len(refused) == 8 * 20 - 25
    assert all(e.data.get(K("active-edges")) == 25 and e.data.get(K("max-edges")) == 25 for e in refused)
    assert coord.active_edges() == 25


def test_no_lost_or_doubled_slot_fill() -> None:
    coord = Coordinator()
    coord.register(MAIN)
    targets = [K("a"), K("b"), K("c")]
    for t in targets:
        coord.register(t, MAIN)
    edges = [coord.request(MAIN, targets, True, i) for i in range(200)]
    wins: Counter[tuple[int, Keyword]] = Counter()
    winners: dict[tuple[int, Keyword], int] = {}
    lock = threading.Lock()

    def filler(me: int) -> Callable[[], None]:
        order = [(e, t) for e in edges for t in targets]
        random.Random(me).shuffle(order)

        def go() -> None:
            for edge, target in order:
                if coord.fill(edge, target, me):
                    with lock:
                        wins[(edge, target)] += 1
                        winners[(edge, target)] = me
        return go

    run_threads([filler(i) for i in range(6)])
    assert len(wins) == 200 * 3 and set(wins.values()) == {1}  # every slot filled exactly once
    reports = coord.drain(MAIN)
    assert sorted(r.get(K("edge-id")) for r in reports) == edges  # one report per edge, none lost
    for report in reports:
        bodies = list(report.get(K("body")))
        assert [b.get(K("from")) for b in bodies] == targets  # target order whatever the fill order
        assert [b.get(K("body")) for b in bodies] == [winners[(report.get(K("edge-id")), t)] for t in targets]
    assert coord.active_edges() == 0


def test_requests_racing_a_lifecycle_end_are_answered_or_kept_for_the_next() -> None:
    launched: list[Keyword] = []
    coord = Coordinator(launcher=launched.append)
    coord.register(MAIN)
    worker = K("w")
    coord.register(worker, MAIN)
    sent: list[int] = []

    def asker() -> None:
        for i in range(300):
            sent.append(coord.request(MAIN, [worker], True, i))

    def lifecycle() -> None:
        for _ in range(50):
            coord.drain(worker)

    run_threads([asker, lifecycle])
    coord.finish(worker, 1, K("done"))
    answered = {r.get(K("edge-id")) for r in coord.drain(MAIN)}
    queued = coord.drain(worker)  # the next lifecycle's batch (claimed by generation 2)
    pending = {m.get(K("edge-id")) for m in queued}
    assert answered | pending == set(sent) and not answered & pending  # none lost, none answered twice
    if pending:
        assert launched == [worker]
        coord.finish(worker, 2, K("later"))
        assert {r.get(K("edge-id")) for r in coord.drain(MAIN)} == pending


def test_many_agents_message_each_other_without_loss() -> None:
    coord = Coordinator()
    coord.register(MAIN)
    handles = [K("agent-%d" % i) for i in range(60)]

    def register_and_send(i: int) -> Callable[[], None]:
        def go() -> None:
            coord.register(handles[i], MAIN)
            for j in range(60):
                while not coord.is_registered(handles[j]):
                    pass
                coord.send(handles[j], SpellMap.from_pairs([(K("from"), handles[i]), (K("body"), i)]))
        return go

    run_threads([register_and_send(i) for i in range(60)])
    for h in handles:
        batch = coord.drain(h)
        assert sorted(m.get(K("body")) for m in batch) == list(range(60))
