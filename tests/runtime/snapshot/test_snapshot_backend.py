"""The compiled clipping core and its pure-Python source give identical snapshots."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snapshot_values import big_strings, values
from spell_runtime.snapshot import backend
from spell_runtime.snapshot.clip import core as clip_core

pure = backend.load_pure()

requires_compiled = pytest.mark.skipif(not backend.COMPILED, reason="the mypyc extension was not built")


def texts(core: Any, v: Any, limit: int) -> tuple[str, bool]:
    result, truncated = core.snapshot(v, limit)
    return core.render(result), truncated


def test_pure_core_is_interpreted_source() -> None:
    assert pure.__name__ == "spell_runtime.snapshot._pureclip.core"
    assert str(pure.__file__).endswith("core.py")
    assert texts(pure, "x" * 152, 128)[0].count("omitted 69 UTF-16") == 1


@requires_compiled
def test_compiled_core_is_an_extension() -> None:
    assert backend.core is clip_core
    assert not str(clip_core.__file__).endswith(".py")


@requires_compiled
@settings(max_examples=400, deadline=None)
@given(values | big_strings, st.sampled_from([128, 129, 200, 300, 1000, 10000]))
def test_compiled_and_pure_agree(v: Any, limit: int) -> None:
    assert texts(backend.core, v, limit) == texts(pure, v, limit)


def test_environment_switch_forces_the_interpreted_core() -> None:
    code = "from spell_runtime.snapshot import backend; print(backend.COMPILED, backend.core.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"SPELLC_PURE_SNAPSHOT": "1", "PATH": ""}).stdout.split()
    assert out == ["False", "spell_runtime.snapshot._pureclip.core"]
