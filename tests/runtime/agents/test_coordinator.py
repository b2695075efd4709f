"""The run coordinator's transitions (runtime.md §11.1–§11.4), single-threaded facts first."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Any

import pytest
from spell_runtime.agents import CLOSED, Coordinator, CoordinatorOptionsError, RequestOutcome
from spell_runtime.agents import validate_coordinator_options as validate
from spell_runtime.data import Keyword, SpellMap, vec
from spell_runtime.errors import ControlError, SpellArgumentError
from spell_runtime.printer import pr_str

K = Keyword
MAIN, A, B, C = K("main"), K("a"), K("b"), K("c")


def coordinator(*handles: Keyword, max_edges: int = 10000) -> tuple[Coordinator, list[Any]]:
    launched: list[Any] = []
    coord = Coordinator(max_edges, launcher=launched.append)
    coord.register(MAIN)
    for h in handles:
        coord.register(h, MAIN)
    return coord, launched


def messages(coord: Coordinator, handle: Keyword) -> list[str]:
    return [pr_str(m) for m in coord.drain(handle)]


def test_options_validation() -> None:
    assert validate(None) == 10000
    assert validate({"max-edges": 3}) == 3
    assert validate(SpellMap.from_pairs([(K("max-edges"), 7)])) == 7
    for bad in ({"max-edges": 0}, {"max-edges": -1}, {"max-edges": 1.5}, {"max-edges": True}, {"other": 1}, 5):
        with pytest.raises(CoordinatorOptionsError) as info:
            validate(bad)
        assert info.value.message == "Coordinator options require positive integer :max-edges"


def test_edge_ids_start_at_one_and_increase() -> None:
    coord, _ = coordinator(A, B)
    assert coord.request(MAIN, [A], True, 1) == 1
    assert coord.request(MAIN, [A, B], False, None) == 2
    assert coord.request(A, [B], True, 2) == 3


@pytest.mark.parametrize("targets", [[], [A, A], [MAIN], [A, MAIN]])
def test_bad_targets_are_refused_with_the_reference_text(targets: list[Any]) -> None:
    coord, _ = coordinator(A)
    with pytest.raises(SpellArgumentError) as info:
        coord.request(MAIN, targets, True, 1)
    assert info.value.message == "Wait targets must be nonempty, distinct, and exclude their source"
    assert coord.active_edges() == 0


def test_unregistered_target() -> None:
    coord, _ = coordinator(A)
    with pytest.raises(SpellArgumentError) as info:
        coord.request(MAIN, [A, K("ghost")], True, 1)
    assert info.value.message == "Handle not registered"
    assert coord.active_edges() == 0
    assert coord.drain(A) == []  # nothing was delivered to the registered target either


def test_request_envelopes_bodyless_and_with_body() -> None:
    coord, _ = coordinator(A)
    coord.request(MAIN, [A], True, None)
    coord.request(MAIN, [A], False, None)
    assert messages(coord, A) == ["{:from :main, :expects-response true, :edge-id 1, :body nil}",
                                  "{:from :main, :expects-response true, :edge-id 2}"]


def test_slot_fills_once_and_single_report() -> None:
    coord, _ = coordinator(A)
    edge = coord.request(MAIN, [A], True, 1)
    assert coord.fill(edge, A, None) is True
    assert coord.fill(edge, A, K("late")) is False
    assert messages(coord, MAIN) == ["{:from :a, :edge-id 1, :body nil}"]
    assert coord.active_edges() == 0


def test_multi_target_report_in_target_order() -> None:
    coord, _ = coordinator(A, B, C)
    edge = coord.request(MAIN, [C, A, B], True, 1)
    coord.fill(edge, B, 2)
    coord.fill(edge, A, 1)
    assert coord.drain(MAIN) == []  # one report, only when every slot is filled
    coord.fill(edge, C, 3)
    assert messages(coord, MAIN) == [
        "{:from [:c :a :b], :edge-id 1, :body [{:from :c, :body 3} {:from :a, :body 1} {:from :b, :body 2}]}"]


def test_drain_claims_and_finish_fills_only_claimed_slots() -> None:
    coord, launched = coordinator(A)
    first = coord.request(MAIN, [A], True, K("x"))
    assert len(coord.drain(A)) == 1  # claimed by generation 1
    second = coord.request(MAIN, [A], True, K("y"))  # queued, not drained: belongs to the next lifecycle
    coord.finish(A, 1, K("answer"))
    assert messages(coord, MAIN) == ["{:from :a, :edge-id 1, :body :answer}"]
    assert coord.status(A).get(K("generation")) == 2  # the undrained request woke lifecycle 2 at once
    assert launched == [A]
    assert first != second and coord.active_edges() == 1


def test_finish_cancels_outgoing_edges_and_warns() -> None:
    warnings: list[str] = []
    coord = Coordinator(10, warn=lambda text, data: warnings.append(text))
    coord.register(MAIN)
    coord.register(A, MAIN)
    coord.register(B, MAIN)
    coord.request(A, [B], True, 1)
    coord.finish(A, 1, None)
    assert coord.active_edges() == 0
    assert warnings == ["Agent :a finished with unfinished outgoing edges; result collection abandoned."]
    assert coord.finish(A, 1, None) == []  # a second finish of the same lifecycle is a no-op


def test_finished_agent_wakes_into_next_generation_on_message() -> None:
    coord, launched = coordinator(A)
    coord.finish(A, 1, None)
    assert coord.status(A).get(K("status")) == K("finished")
    coord.send(A, SpellMap.from_pairs([(K("from"), MAIN), (K("body"), 1)]))
    assert launched == [A]
    assert coord.status(A).get(K("generation")) == 2
    assert coord.status(A).get(K("status")) == K("awake")


def test_wait_outcomes_and_ordering_rule() -> None:
    coord, _ = coordinator(A)
    assert coord.wait(MAIN) == "idle"  # no obligations
    coord.request(MAIN, [A], True, 1)  # edge 1: main → a
    coord.request(A, [MAIN], True, 2)  # edge 2: a → main (newer incoming for main)
    assert coord.wait(MAIN) == "ready"  # its request is queued: continue now
    coord.drain(MAIN)
    with pytest.raises(SpellArgumentError) as info:
        coord.wait(MAIN)
    error = info.value
    assert error.message == "Cannot sleep without an outgoing edge newer than every pending incoming edge"
    assert pr_str(error.data) == (
        "{:type :sleep-refused, :handle :main, "
        ":out-edges [{:id 1, :source :main, :targets [:a], :created-seq 1}], "
        ":in-edges [{:id 2, :source :a, :targets [:main], :created-seq 2}]}")
    assert coord.status(MAIN).get(K("status")) == K("awake")  # a refusal changes nothing
    assert coord.wait(A) == "ready"  # a has the request queued
    coord.drain(A)
    assert coord.wait(A) == "waiting"  # a's outgoing edge 2 is newer than its incoming edge 1


def test_cancel_detaches_and_notifies_a_sleeper() -> None:
    coord, _ = coordinator(A)
    edge = coord.request(MAIN, [A], True, 1)
    assert coord.wait(MAIN) == "waiting"
    summary = coord.cancel(MAIN, edge)
    assert summary.get(K("status")) == K("cancelled")
    assert summary.get(K("targets")) == vec([A])
    assert messages(coord, MAIN) == ["{:edge-id 1, :from [:a], :cancelled true}"]
    assert coord.fill(edge, A, 1) is False  # targets keep running; their answer goes nowhere
    with pytest.raises(SpellArgumentError, match="No outgoing edge owned by caller"):
        coord.cancel(MAIN, edge)
    other = coord.request(MAIN, [A], True, 1)
    with pytest.raises(SpellArgumentError, match="No outgoing edge owned by caller"):
        coord.cancel(A, other)


def test_reply_request_replaces_the_singleton_report() -> None:
    coord, _ = coordinator(A)
    coord.request(MAIN, [A], True, K("q"))
    (request,) = coord.drain(A)
    reverse = coord.reply_request(A, request, K("answer"))
    assert reverse == 2
    assert coord.drain(MAIN) == [SpellMap.from_pairs([(K("from"), A), (K("expects-response"), True),
                                                      (K("edge-id"), 2), (K("body"), K("answer"))])]
    with pytest.raises(SpellArgumentError) as info:  # the slot is filled now: a stale request
        coord.reply_request(A, request, K("again"))
    assert info.value.message == "Incoming request slot is no longer pending"
    assert coord.active_edges() == 1  # refused with no change


def test_capacity_counts_pending_edges_and_is_released() -> None:
    coord, _ = coordinator(A, B, max_edges=2)
    e1 = coord.request(MAIN, [A, B], True, 1)  # one edge, two slots
    e2 = coord.request(MAIN, [A], True, 1)
    with pytest.raises(ControlError) as info:
        coord.request(MAIN, [B], True, 1)
    assert info.value.message == "Coordinator edge capacity exceeded"
    assert pr_str(info.value.data) == "{:type :coordinator-capacity, :max-edges 2, :active-edges 2}"
    coord.fill(e2, A, 1)  # completed: released
    e3 = coord.request(MAIN, [B], True, 1)
    coord.cancel(MAIN, e3)  # cancelled: released
    coord.request(MAIN, [B], True, 1)
    assert e1 == 1 and coord.active_edges() == 2


def test_spawn_request_refused_at_capacity_registers_nobody() -> None:
    coord, _ = coordinator(A, max_edges=1)
    coord.request(MAIN, [A], True, 1)
    with pytest.raises(ControlError, match="Coordinator edge capacity exceeded"):
        coord.spawn_request(MAIN, [(B, MAIN)])
    assert not coord.is_registered(B)


def test_external_wait_delivers_and_is_dropped_after_the_lifecycle() -> None:
    coord, _ = coordinator(A)
    token = coord.begin_external_wait(A)
    assert coord.status(A).get(K("status")) == K("external-wait")
    assert coord.complete_external_wait(token, 42) is True
    assert messages(coord, A) == ["{:from :future, :body 42}"]
    late = coord.begin_external_wait(A)
    coord.finish(A, 1, None)
    assert coord.complete_external_wait(late, 1) is False


def test_external_wait_refused_by_newer_incoming_request() -> None:
    coord, _ = coordinator(A)
    coord.request(MAIN, [A], True, 1)
    coord.drain(A)
    with pytest.raises(SpellArgumentError) as info:
        coord.begin_external_wait(A)
    assert info.value.message == "Cannot await computation while newer incoming obligations require attention"
    assert info.value.data.get(K("type")) == K("sleep-refused")


def test_request_tokens_resolve_completed_cancelled_and_closed() -> None:
    coord, _ = coordinator(A)
    done: Future[RequestOutcome] = Future()
    edge = coord.request(MAIN, [A], True, 1, token=done)
    coord.fill(edge, A, K("v"))
    assert done.result(1).kind == "completed" and done.result(1).value == K("v")
    assert coord.drain(MAIN) == []  # a token edge reports to its token, not the mailbox
    cancelled: Future[RequestOutcome] = Future()
    coord.cancel(MAIN, coord.request(MAIN, [A], True, 1, token=cancelled))
    assert cancelled.result(1).kind == "cancelled"
    pending: Future[RequestOutcome] = Future()
    coord.request(MAIN, [A], True, 1, token=pending)
    coord.close()
    assert pending.result(1) is CLOSED


def test_stale_computation_lifecycle() -> None:
    coord, _ = coordinator(A)
    coord.finish(A, 1, None)
    with pytest.raises(ControlError) as info:
        coord.request(A, [MAIN], True, 1, token=Future(), lifecycle=1)
    assert info.value.message == "Computation belongs to a completed agent lifecycle"
    assert info.value.data.get(K("type")) == K("stale-computation-lifecycle")


def test_closed_coordinator_refuses_everything_and_wakes_sleepers() -> None:
    coord, _ = coordinator(A)
    coord.request(MAIN, [A], True, 1)
    assert coord.wait(MAIN) == "waiting"
    woke: list[str] = []

    def sleeper() -> None:
        try:
            coord.await_message(MAIN)
        except ControlError as e:
            woke.append(e.message)

    thread = threading.Thread(target=sleeper)
    thread.start()
    coord.close()
    thread.join(5)
    assert woke == ["Coordinator is closed"]
    for operation in (lambda: coord.send(A, SpellMap()), lambda: coord.request(MAIN, [A], True, 1),
                      lambda: coord.drain(A), lambda: coord.wait(A), lambda: coord.status(A),
                      lambda: coord.register(B), lambda: coord.fill(1, A, 1)):
        with pytest.raises(ControlError) as info:
            operation()
        assert info.value.data.get(K("type")) == K("coordinator-closed")


def test_a_completed_token_edge_wakes_a_sleeper_whose_wait_became_illegal() -> None:
    coord, _ = coordinator(A)
    token: Future[RequestOutcome] = Future()
    edge = coord.request(MAIN, [A], True, 1, token=token)  # a computation's request counts as outgoing
    assert coord.wait(MAIN) == "waiting"
    coord.fill(edge, A, K("v"))
    assert token.result(1).value == K("v")
    assert messages(coord, MAIN) == ["{:from :coordinator, :body :wait-obligation-changed}"]
    assert coord.status(MAIN).get(K("status")) == K("awake")


def test_a_sleeper_that_may_still_sleep_is_not_woken_by_a_token() -> None:
    coord, _ = coordinator(A)
    token: Future[RequestOutcome] = Future()
    edge = coord.request(MAIN, [A], True, 1, token=token)
    coord.request(MAIN, [A], True, 2)  # a newer mailbox edge keeps the sleep legal
    assert coord.wait(MAIN) == "waiting"
    coord.fill(edge, A, K("v"))
    assert coord.drain(MAIN) == []


def test_a_superseded_lifecycle_cannot_acquire_its_handle() -> None:
    coord, _ = coordinator(A)
    coord.acquire(A, 1, 101)
    coord.finish(A, 1, None)
    with pytest.raises(ControlError) as info:
        coord.acquire(A, 1, 102)
    assert info.value.message == "Scheduled execution belongs to a completed agent lifecycle"
    assert info.value.data.get(K("type")) == K("stale-agent-lifecycle")
