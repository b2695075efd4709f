"""Deadlines keep working in a forked child (``spellc batch`` forks every item from a warmed-up process).

The watchdog thread of ``spell_runtime.limits`` holds its lock for a moment each time it wakes up. A
child forked at such a moment inherited the lock taken, by a thread it does not have, and hung at
its first deadline: half of eight parallel ``spellc batch`` runs hung so under load (the batch
resume tests "timed out"). These tests hold that lock on purpose while forking, so the moment is
not left to chance.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from spell_runtime import limits
from spell_runtime.errors import SpellError

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")

HANG_BOUND_SEC = 120.0
"""How long a child may take before it counts as hung (it needs milliseconds)."""


@contextmanager
def held_by_another_thread(block: Callable[[], AbstractContextManager[Any]]) -> Iterator[None]:
    """``block()`` entered by another thread and left only after the ``with`` body."""
    entered, leave = threading.Event(), threading.Event()

    def hold() -> None:
        with block():
            entered.set()
            leave.wait()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert entered.wait(HANG_BOUND_SEC)
    try:
        yield
    finally:
        leave.set()
        holder.join()


def watchdog_lock_held() -> AbstractContextManager[None]:
    """The watchdog's lock held by another thread for the duration, as when it has just woken up."""
    return held_by_another_thread(lambda: limits._WATCHDOG._cond)


def fork_child(body: Callable[[], int]) -> int:
    """Fork; the child runs ``body`` and exits with its result (70 if it raised). The parent gets the pid."""
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        status = 70
        try:
            status = body()
        finally:
            os._exit(status)
    return pid


def exit_status(pid: int) -> int:
    """The child's exit status; a child still running after ``HANG_BOUND_SEC`` is killed and reported as hung."""
    deadline = time.monotonic() + HANG_BOUND_SEC
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        time.sleep(0.01)


def times_out(seconds: float) -> bool:
    """Does a busy loop under ``limits.deadline(seconds)`` end with the Spell timeout error?"""
    try:
        with limits.deadline(seconds):
            while True:
                pass
    except SpellError as e:
        return "timed out" in e.message
    return False


def test_a_child_forked_while_the_watchdog_holds_its_lock_can_arm_and_fire_a_deadline() -> None:
    with limits.deadline(60):  # the watchdog thread exists in this process
        pass
    with watchdog_lock_held():
        pid = fork_child(lambda: 0 if times_out(0.2) else 1)
    assert exit_status(pid) == 0


def test_a_deadline_running_when_the_process_forks_still_bounds_the_child() -> None:
    pid = -1
    try:
        with limits.deadline(5):
            with watchdog_lock_held():
                pid = os.fork()
                if pid == 0:  # the child spins inside the inherited deadline until it fires
                    while True:
                        pass
    except SpellError as e:
        if pid == 0:
            os._exit(0 if "timed out" in e.message else 1)
        raise
    finally:
        if pid == 0:
            os._exit(2)
    assert exit_status(pid) == 0


def test_the_child_keeps_only_the_forking_thread_s_deadlines() -> None:
    with held_by_another_thread(lambda: limits.deadline(60)):  # another thread's running deadline
        me = threading.get_ident()
        pid = fork_child(lambda: 0 if all(w.thread_id == me for w in limits._WATCHDOG._watches) else 1)
    assert exit_status(pid) == 0
