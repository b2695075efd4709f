"""Every test here compiles as a fresh process would: only ``eval`` among the core names is bound.

Which core names code has bound is process-wide compiler state (``spellc.analyze.bound``): a test
that rebinds ``inc`` or ``count`` turns their static references into global reads for every later
test of the process, with other code, other position-table entries and other built modules. Tests
that need another set set it themselves inside. The set and the compile caches (units compiled under
another set must not be reused) are put back afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from spell_runtime.data import Symbol

from spellc import state


@pytest.fixture(autouse=True)
def core_names_as_in_a_fresh_process() -> Iterator[None]:
    saved = set(state.BOUND)
    state.BOUND.clear()
    state.BOUND.add(Symbol("eval"))
    state.reset_caches()
    yield
    state.reset_caches()
    state.BOUND.clear()
    state.BOUND.update(saved)
