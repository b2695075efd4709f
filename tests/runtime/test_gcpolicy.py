"""evaluation_gc raises the young threshold inside an evaluation and restores the caller's."""

from __future__ import annotations

import gc
import threading

import pytest
from spell_runtime import gcpolicy
from spell_runtime.gcpolicy import GEN0, evaluation_gc


def test_threshold_is_raised_inside_and_restored_after_nesting_and_errors() -> None:
    saved = gc.get_threshold()
    try:
        gc.set_threshold(123, 4, 5)
        with evaluation_gc():
            assert gc.get_threshold() == (GEN0, 4, 5)
            with pytest.raises(ValueError), evaluation_gc():
                raise ValueError("inner evaluation failed")
            assert gc.get_threshold() == (GEN0, 4, 5)  # the outer evaluation still runs
        assert gc.get_threshold() == (123, 4, 5)
        gc.set_threshold(90_000, 4, 5)
        with evaluation_gc():
            assert gc.get_threshold() == (90_000, 4, 5)  # never lowers a caller's higher setting
    finally:
        gc.set_threshold(*saved)


def test_overlapping_evaluations_on_threads_restore_once_all_have_left() -> None:
    saved = gc.get_threshold()
    inside = threading.Barrier(3)
    leave = threading.Event()

    def evaluate() -> None:
        with evaluation_gc():
            inside.wait(timeout=10)
            leave.wait(timeout=10)

    try:
        gc.set_threshold(321, 10, 10)
        threads = [threading.Thread(target=evaluate) for _ in range(2)]
        for t in threads:
            t.start()
        inside.wait(timeout=10)
        assert gc.get_threshold()[0] == GEN0
        leave.set()
        for t in threads:
            t.join(timeout=10)
        assert gc.get_threshold() == (321, 10, 10)
    finally:
        gc.set_threshold(*saved)


def test_startup_pause_turns_collection_off_then_freezes_and_resumes() -> None:
    assert gc.isenabled()
    try:
        gcpolicy.pause_for_startup()
        assert not gc.isenabled()
        gcpolicy.resume_after_startup()
        assert gc.isenabled() and gc.get_freeze_count() > 0
        gcpolicy.resume_after_startup()  # a second resume changes nothing
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_startup_pause_leaves_a_disabled_collector_to_its_owner() -> None:
    gc.disable()
    try:
        gcpolicy.pause_for_startup()
        gcpolicy.resume_after_startup()
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_exit_freeze_leaves_collection_on() -> None:
    try:
        gcpolicy.skip_exit_collection()
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_resuming_a_paused_start_up_freezes_what_it_built_then_collects_again() -> None:
    gc.disable()  # as a built module run as a script does before it imports the runtime
    try:
        gcpolicy.resume_paused()
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
