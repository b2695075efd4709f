"""``eval_string`` reads and compiles the whole program under the evaluation GC policy
(``spell_runtime.gcpolicy``), not only while each form runs, and restores the thresholds after."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from spell_runtime.gcpolicy import GEN0

import spellc
from spellc import api, compiler


def test_reading_and_compiling_run_with_the_raised_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    real_read, real_analyze = api.read_all, compiler.analyze_form

    def read_all(text: str) -> Any:
        seen.append(gc.get_threshold()[0])
        return real_read(text)

    def analyze_form(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_threshold()[0])
        return real_analyze(*args, **kwargs)

    monkeypatch.setattr(api, "read_all", read_all)
    monkeypatch.setattr(compiler, "analyze_form", analyze_form)
    before = gc.get_threshold()
    assert spellc.eval_string("(def unique-gc-test-name 41)\n(inc unique-gc-test-name)") == 42
    assert gc.get_threshold() == before
    assert len(seen) == 3 and all(t >= GEN0 for t in seen)


def test_thresholds_come_back_after_a_failing_program() -> None:
    before = gc.get_threshold()
    with pytest.raises(spellc.SpellError):
        spellc.eval_string("(+ 1 :a)")
    assert gc.get_threshold() == before
