"""The compiled clipping core and its pure-Python source give identical snapshots."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from snapshot_values import big_strings, envelope, values
from spell_runtime.data import LineVector, PList, PVector, SpellMap, SpellSet, keyword, vec
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
                         env={**os.environ, "SPELLC_PURE_SNAPSHOT": "1"}).stdout.split()
    assert out == ["False", "spell_runtime.snapshot._pureclip.core"]


_big_maps = st.builds(
    lambda n, big: SpellMap.from_pairs((keyword("k%d" % i), ("v" * (i % 5)) if big else i) for i in range(n)),
    st.integers(30, 400), st.booleans())
_holding_big_maps = st.recursive(
    _big_maps | values,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4).map(vec),
        st.lists(kids, max_size=4).map(SpellSet.from_items),
        st.tuples(kids, kids).map(lambda kv: SpellMap.from_pairs([kv, (keyword("z"), kv[0])])),
        st.builds(lambda out, extra: envelope(True, out, None, extra=extra), kids, kids),
    ),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(_holding_big_maps, st.sampled_from([128, 200, 300, 1000]))
def test_large_intermediate_maps_change_nothing(v: Any, limit: int) -> None:
    """Pass 1 keeps maps too large to show as plain entry lists; the output must be as if it had not."""
    normalize = sys.modules[backend.PURE + ".normalize"]
    with_large = texts(pure, v, limit)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(normalize, "_map_of", lambda p, pairs, large: p.ctx.new_map(pairs))
        without = texts(pure, v, limit)
    assert with_large == without
    result = pure.snapshot(v, limit)[0]
    assert "LargeMap" not in {type(x).__name__ for x in _walk(result)}


def _walk(v: Any) -> list[Any]:
    out = [v]
    if isinstance(v, SpellMap):
        for k, x in v.items():
            out += _walk(k) + _walk(x)
    elif isinstance(v, SpellSet) or type(v) in (PVector, PList, LineVector):
        for x in v:
            out += _walk(x)
    return out


def _fake_tree(root: Path, checkout: bool, source_time: float, built_time: float) -> Path:
    package = root / "runtime" / "spell_runtime" / "snapshot"
    clip = package / "clip"
    clip.mkdir(parents=True)
    if checkout:
        (root / "setup.py").write_text("")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in backend.MODULES:
        (clip / (name + ".py")).write_text("")
        (clip / (name + suffix)).write_bytes(b"")
        os.utime(clip / (name + ".py"), (source_time, source_time))
        os.utime(clip / (name + suffix), (built_time - 100, built_time - 100))  # shims are not relinked
    (clip / (backend.LIBRARY + suffix)).write_bytes(b"")
    os.utime(clip / (backend.LIBRARY + suffix), (built_time, built_time))
    return package


def test_a_checkout_never_runs_a_build_older_than_its_source(tmp_path: Path) -> None:
    assert backend.stale_extensions(_fake_tree(tmp_path / "fresh", True, 1000.0, 2000.0)) == []
    stale = _fake_tree(tmp_path / "edited", True, 3000.0, 2000.0)
    assert backend.stale_extensions(stale) == list(backend.MODULES)
    os.utime(stale / "clip" / "shapes.py", (1000.0, 1000.0))
    assert "shapes" not in backend.stale_extensions(stale)


def test_an_installed_wheel_is_not_checked(tmp_path: Path) -> None:
    assert backend.stale_extensions(_fake_tree(tmp_path, False, 3000.0, 2000.0)) == []
