"""``workers/<name>``: the compiled agents a profile's ``:available-agents`` names (runtime.md §7.6, §11.4).

``:available-agents`` is a vector of agent-profile paths (relative to the
profile's directory; the worker's name is the profile's ``:agent-name``, else
its file name without ``.agent.edn``) or a map from worker name to such a
path. Each is compiled once when the run is prepared (a broken worker fails
``run`` before any model call, like the main profile) and becomes a
``CompiledAgent`` value under ``workers/<name>``, which ``agents/spawn`` and
``agents/spawn-ask`` accept in their agent position.

``resolve_worker`` is the *one* place a worker reference becomes a profile
path: installed packages' agents (packages.md) extend it, so that
``workers/<package-agent>`` resolves without the profile naming a file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol, is_vector

from ...providers.registry import ProfileError
from ..agent import Agent
from ..profiles import AgentProfile, items_of, load_agent_profile, name_of
from .lifecycle import CompiledAgent

BAD_AVAILABLE: Final = "Invalid :available-agents, expected a vector of agent profile paths or a map of name to path"
UNKNOWN_WORKER: Final = "Unknown available agent: %s"

WorkerResolver = Callable[[Any, str], "Optional[str | AgentProfile]"]
"""(reference, base directory) → profile path (or an already loaded profile: an installed package's
agent has no file), or None when this resolver does not know the reference."""

_RESOLVERS: list[WorkerResolver] = []


def register_worker_resolver(resolver: WorkerResolver) -> None:
    """Let another source of agents (installed packages) resolve worker references first."""
    _RESOLVERS.insert(0, resolver)


def resolve_worker(ref: Any, base_dir: str) -> str | AgentProfile:
    """The agent-profile path (or profile) a worker reference names (``ProfileError`` when nothing resolves it)."""
    for resolver in _RESOLVERS:
        found = resolver(ref, base_dir)
        if found is not None:
            return found
    text = ref if isinstance(ref, str) else name_of(ref) if type(ref) in (Keyword, Symbol) else None
    if text is None:
        raise ProfileError(BAD_AVAILABLE, {"available-agents": ref})
    path = text if os.path.isabs(text) else os.path.join(base_dir, text)
    if not os.path.exists(path) and os.path.exists(path + ".agent.edn"):
        path += ".agent.edn"
    if not os.path.exists(path):
        raise ProfileError(UNKNOWN_WORKER % text, {"available-agents": ref})
    return path


def worker_refs(profile: AgentProfile) -> list[tuple[Optional[str], Any]]:
    """(explicit name or None, reference) per available agent, in the profile's order."""
    value = profile.get("available-agents")
    if value is None or value is False:
        return []
    if is_vector(value) or isinstance(value, (list, tuple)):
        return [(None, ref) for ref in value]
    if isinstance(value, (SpellMap, dict)):
        return [(name_of(k), v) for k, v in items_of(value)]
    raise ProfileError(BAD_AVAILABLE, {"available-agents": value})


def compile_workers(profile: AgentProfile, compile_profile: Callable[[AgentProfile], Agent],
                    seen: frozenset[str] = frozenset()) -> dict[str, CompiledAgent]:
    """Name → compiled worker for every available agent of ``profile`` (a profile never includes itself)."""
    base_dir = os.path.dirname(os.path.abspath(profile.path)) if profile.path else os.getcwd()
    own = os.path.realpath(profile.path) if profile.path else ""
    out: dict[str, CompiledAgent] = {}
    for name, ref in worker_refs(profile):
        found = resolve_worker(ref, base_dir)
        if isinstance(found, AgentProfile):
            out[name or found.name] = CompiledAgent(name or found.name, compile_profile(found))
            continue
        path = found
        real = os.path.realpath(path)
        if real == own or real in seen:
            raise ProfileError("Agent profile :available-agents cycle: %s" % path, {"path": path})
        worker_profile = load_agent_profile(path)
        worker_name = name or worker_profile.name
        out[worker_name] = CompiledAgent(worker_name, compile_profile(worker_profile))
    return out


def workers_namespace(workers: dict[str, CompiledAgent]) -> SpellMap:
    """``workers/<name>`` values (plus a short guide listing them)."""
    pairs: list[tuple[Any, Any]] = [(Keyword(name), compiled) for name, compiled in workers.items()]
    names = " ".join("workers/%s" % name for name in workers)
    pairs.append((Keyword("short-docs"), "Compiled agents to spawn: %s" % names))
    return SpellMap.from_pairs(pairs)
