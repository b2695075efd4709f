"""The whole shared scenario suite, run both ways: the prompts must be byte-identical (issue 14).

Each scenario of ``../shared/scenarios`` runs through that suite's own runner
(``run_isolated``: a forked child per run, so both runs start from the same process
state, gensym counter included) once with ``SPELLC_FULL_TURNS=1`` — every turn
rendered, read and evaluated in full — and once incrementally, with every resumed
read also checked against the full read (``SPELLC_CHECK_INCREMENTAL=1``, set for the
suite in tests/conftest.py). The requests each run sent to the model and the outcome
must agree. The cases stay in the shared suite; nothing of them is copied here.

Multi-agent scenarios answer by rules on threads, so their requests may interleave
differently from run to run: those are compared as multisets.

Speed: a forked child that starts from a process which never ran a session pays
the first session's one-time costs (lazy imports, first compilations) — about 1.5 s
per run, minutes for the suite. The module first runs one scenario in this process
(``warm_parent``), so every child starts warm (about 0.1 s a run). Both runs of a
pair still fork from the same parent state, so the comparison is as strict as before.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SUITE = Path(__file__).resolve().parents[3].parent / "shared" / "scenarios"


def _runner() -> ModuleType | None:
    path = SUITE / "run.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("shared_scenarios_run", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNER = _runner()
SCENARIOS: list[dict[str, Any]] = RUNNER.load_scenarios([str(SUITE / "cases")])[0] if RUNNER is not None else []


def _outcome(scenario: dict[str, Any], full: bool) -> dict[str, Any]:
    assert RUNNER is not None
    previous = os.environ.get("SPELLC_FULL_TURNS")
    if full:
        os.environ["SPELLC_FULL_TURNS"] = "1"
    else:
        os.environ.pop("SPELLC_FULL_TURNS", None)
    try:
        return dict(RUNNER.run_isolated(scenario, 20.0))
    finally:
        if previous is None:
            os.environ.pop("SPELLC_FULL_TURNS", None)
        else:
            os.environ["SPELLC_FULL_TURNS"] = previous


@pytest.fixture(scope="module", autouse=True)
def warm_parent() -> Iterator[None]:
    """Run the first scenario once in this process before any child is forked (module docstring)."""
    if RUNNER is not None and SCENARIOS:
        cwd = os.getcwd()
        workdir = tempfile.mkdtemp(prefix="spellc-warm-")
        try:
            RUNNER.execute(SCENARIOS[0], workdir)
        finally:
            os.chdir(cwd)
            shutil.rmtree(workdir, ignore_errors=True)
    yield


def _summary(outcome: dict[str, Any]) -> tuple[Any, ...]:
    return outcome.get("kind"), outcome.get("printed"), outcome.get("error")


@pytest.mark.skipif(RUNNER is None, reason="the shared scenario suite (../shared/scenarios) is not checked out")
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_scenario_prompts_identical_both_ways(scenario: dict[str, Any]) -> None:
    full = _outcome(scenario, full=True)
    incremental = _outcome(scenario, full=False)
    assert "IncrementalMismatch" not in str(incremental.get("error")), incremental.get("error")
    if scenario.get("rules") is not None:
        assert sorted(incremental.get("requests") or []) == sorted(full.get("requests") or [])
        return
    assert incremental.get("requests") == full.get("requests")
    assert _summary(incremental) == _summary(full)
