"""Installed agent packages' entry points, read once per process (packages.md §3).

``importlib.metadata.entry_points`` opens every installed distribution's metadata on each call;
skills discovery, module discovery and ``find_agent`` all ask for a group, so the answer is cached.
A process that installs a package while running will not see it: no run does that.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata


@cache
def entry_points(group: str) -> tuple[metadata.EntryPoint, ...]:
    """The entry points of ``group``, sorted by name then value (a deterministic order)."""
    return tuple(sorted(metadata.entry_points(group=group), key=lambda e: (e.name, e.value)))


def refresh() -> None:
    """Forget the cached answers (tests that install packages into the running process)."""
    entry_points.cache_clear()
