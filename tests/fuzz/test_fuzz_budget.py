"""A short fuzz campaign on every test run (issue 16.8); ``fuzz_spell.py`` runs the long ones.

The budget is small (a few hundred inputs from each generator); what it asserts is
absolute: no input makes spellc raise anything but a ``SpellError``, crash or hang.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz_spell  # noqa: E402


def test_short_campaign_has_no_escapes_crashes_or_hangs() -> None:
    report = fuzz_spell.campaign(600, seed=16, workers=2, max_depth=400, eval_timeout=2.0, hang_seconds=60,
                                 budget_seconds=120)
    assert report.inputs >= 200
    # inputs end in each mode that can refuse them; the compiler defers its errors to evaluation
    # (a bad form fails only if it runs), so ``spell-error@compile`` is rare or absent
    assert {"ok", "spell-error@read", "spell-error@eval"} <= set(report.outcomes)
    assert report.bad == 0, "\n".join("#%(index)d %(generator)s %(outcome)s: %(input).200r" % f
                                      for f in report.failures)


def test_inputs_are_reproducible() -> None:
    assert fuzz_spell.input_for(3, 41, 100) == fuzz_spell.input_for(3, 41, 100)
    names = {fuzz_spell.input_for(3, i, 100)[0] for i in range(10)}
    assert names == {name for name, _ in fuzz_spell.GENERATORS}


def test_a_crashing_child_is_counted_and_the_campaign_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPELLC_FUZZ_CRASH_AT", "3")
    report = fuzz_spell.campaign(8, seed=5, workers=1, max_depth=50, budget_seconds=60)
    assert report.outcomes["crash:exit -6"] == 1
    assert report.inputs == 8  # the inputs after the crash ran in a fresh child
    assert [f["index"] for f in report.failures] == [3]


def test_number_literals_cover_the_digit_limit() -> None:
    import random

    rng = random.Random(7)
    lengths = {len(fuzz_spell.gen_number_literal(rng)) for _ in range(400)}
    assert max(lengths) > 4300
