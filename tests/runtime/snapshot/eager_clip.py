"""The clipping core as the reference walks a map, for property tests of the faster walks.

The reference result is the interpreted core with the lazy top-level map walk
(``normalize.LAZY_TOP_MAPS``), the bulk walks (``normalize.BULK_WALKS``) and the exact
shortcuts (``shorten.SHORTCUTS``) all off: eager, entry by entry. The interpreted core is
used even where the mypyc-compiled one is installed, because those switches are module
globals that compiled code does not read back from its module's dictionary.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from spell_runtime.snapshot import backend

core = backend.load_pure()
normalize = sys.modules[backend.PURE + ".normalize"]
shorten = sys.modules[backend.PURE + ".shorten"]


def clip(value: Any, limit: int, snapshot_core: Any = core) -> tuple[str, bool]:
    """(rendered text, truncated?) of ``value`` clipped to ``limit`` characters by ``snapshot_core``."""
    result, truncated = snapshot_core.snapshot(value, limit)
    return core.render(result), truncated


def reference_clip(value: Any, limit: int) -> tuple[str, bool]:
    """``clip`` with every faster walk switched off."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(normalize, "LAZY_TOP_MAPS", False)
        mp.setattr(shorten, "SHORTCUTS", False)
        mp.setattr(normalize, "BULK_WALKS", False)
        return clip(value, limit)


__all__ = ["core", "normalize", "shorten", "clip", "reference_clip"]
