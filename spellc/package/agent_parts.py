"""What packages add to an agent the turn loop builds: library namespaces, skills, their prompt sections.

Kept out of ``spellc.loop.run`` so the turn loop only asks for ``agent_parts(profile, cwd)`` and
applies the result in three places (the namespace references it still resolves, the system
prompt, the always-visible builtins). Libraries come from the profile's ``LibrarySource``
(source folder or installed package, ``namespaces``); skills from ``spell_runtime.skills``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from spell_runtime.data import SpellMap, Symbol
from spell_runtime.skills import Skill, catalog_text, skills_namespace
from spell_runtime.skills import discover as discover_skills


@dataclass
class AgentParts:
    """Library namespaces and skills of one agent, and the profile references left for the effect resolver."""

    libraries: dict[str, SpellMap] = field(default_factory=dict)
    skills: list[Skill] = field(default_factory=list)
    effect_refs: dict[str, Any] = field(default_factory=dict)

    def system_prompt(self, base: str) -> str:
        """``base`` plus the ``LIBRARIES`` and ``SKILLS`` sections when there are any (packages.md §1–§2)."""
        parts = [base]
        if self.libraries:
            from .namespaces import library_section

            parts.append(library_section(self.libraries))
        if self.skills:
            parts.append("SKILLS (guidance only: a skill grants no tools, permissions or namespaces; "
                         "(!describe skills :name) reads one)\n" + catalog_text(self.skills))
        return "\n\n".join(parts)

    def builtins(self) -> dict[Symbol, Any]:
        """Symbol → map for every library namespace, plus ``skills`` when there are skills."""
        out: dict[Symbol, Any] = {Symbol(name): ns for name, ns in self.libraries.items()}
        if self.skills:
            out[Symbol("skills")] = skills_namespace(self.skills)
        return out


def agent_parts(profile: Any, cwd: Optional[str]) -> AgentParts:
    """The parts of ``profile`` (a ``spellc.loop.profiles.AgentProfile``); ``ProfileError`` on a bad reference."""
    from .namespaces import SourceLibraries, package_root, resolve_libraries, split_namespaces

    register_installed_workers()
    library_refs, others = split_namespaces(profile.namespaces)
    libraries: dict[str, SpellMap] = {}
    if library_refs:
        source = profile.libraries if profile.libraries is not None else SourceLibraries(package_root(profile.path))
        libraries = resolve_libraries(library_refs, source)
    return AgentParts(libraries, discover_skills(cwd), others)


def installed_worker(ref: Any, base_dir: str) -> Optional[Any]:
    """``:available-agents`` naming an installed package's agent (``tally`` or ``tally-agent:tally``).

    A reference that names an existing profile file keeps meaning that file; anything else is looked
    up with ``find_agent`` and gives that agent's flattened profile, or None to let the path rules
    report the unknown reference.
    """
    import os

    from spell_runtime.data import Keyword

    text = ref if isinstance(ref, str) else ref.name if type(ref) in (Symbol, Keyword) and ref.ns is None else None
    if not text or "/" in text or text.endswith(".edn"):
        return None
    path = text if os.path.isabs(text) else os.path.join(base_dir, text)
    if os.path.exists(path) or os.path.exists(path + ".agent.edn"):
        return None
    from ..agents_registry import AgentNotFound, find_agent

    try:
        return find_agent(text).profile()
    except AgentNotFound:
        return None


_registered: list[bool] = []


def register_installed_workers() -> None:
    """Let ``workers/<name>`` resolve installed package agents (once per process)."""
    if not _registered:
        from ..loop.agents.workers import register_worker_resolver

        register_worker_resolver(installed_worker)
        _registered.append(True)
