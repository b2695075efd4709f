"""Fixtures for the effect tests: a fresh effect context rooted in a temporary directory."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from spell_runtime.data import Keyword
from spell_runtime.effects import EffectContext, effect_namespaces


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[EffectContext]:
    with EffectContext(cwd=str(tmp_path)) as c:
        yield c


Member = Callable[..., Any]


@pytest.fixture
def io(ctx: EffectContext) -> Callable[[str], Member]:
    """``io("read-file")`` → the member function of the context's io namespace."""
    ns = effect_namespaces(ctx, ("io",))["io"]

    def member(name: str) -> Member:
        fn = ns.get(Keyword(name))
        assert fn is not None, name
        return fn  # type: ignore[no-any-return]

    return member
