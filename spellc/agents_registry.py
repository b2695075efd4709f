"""Installed package agents by name: the ``spellc.agents`` entry points (packages.md §3).

``find_agent(name)`` is the one lookup every caller uses (``spellc run --agent``,
``spellc.run(agent=...)``, ``python -m spellpkg_<name>``, other agents' ``workers/<name>``).
A name is an agent name (``researcher``) or, when two packages ship the same
agent name, ``package:agent`` (``research-agent:researcher``); an ambiguous
bare name is an error listing the qualified names rather than a silent pick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

ENTRY_GROUP: Final = "spellc.agents"


class AgentNotFound(LookupError):
    """No installed agent (or more than one) answers to the name."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


PACKAGE_PREFIX: Final = "spellpkg_"


@dataclass(frozen=True)
class AgentEntry:
    """One ``spellc.agents`` entry point, not yet loaded."""

    name: str
    package: str
    """The distribution name without the ``spellpkg-`` prefix (the manifest's ``:name``)."""
    entry_point: Any

    @property
    def version(self) -> str:
        """The distribution's version (reads its metadata: only ``spellc agents list`` asks)."""
        dist = self.entry_point.dist
        return str(dist.version) if dist is not None else ""

    @property
    def qualified(self) -> str:
        return "%s:%s" % (self.package, self.name)

    def load(self) -> Any:
        """The ``spellc.package.installed.PackagedAgent``."""
        return self.entry_point.load()


def installed_agents() -> list[AgentEntry]:
    """Every installed package agent, sorted by name then package."""
    from spell_runtime.entrypoints import entry_points

    out = []
    for ep in entry_points(ENTRY_GROUP):
        out.append(AgentEntry(ep.name, _package_name(ep), ep))
    return sorted(out, key=lambda e: (e.name, e.package))


def _package_name(ep: Any) -> str:
    """The manifest's ``:name`` of the package ``ep`` belongs to.

    Packages ``spellc package`` builds are imported as ``spellpkg_`` + the name with ``-`` as ``_``,
    and names are lowercase kebab (no ``_``), so the import name gives it back without reading the
    distribution's metadata: that parse (``email.parser``) would cost every ``spellc run --agent``
    start time and memory. Other distributions fall back to their metadata name.
    """
    module = str(ep.value).split(":", 1)[0].strip().split(".", 1)[0]
    if module.startswith(PACKAGE_PREFIX):
        return module[len(PACKAGE_PREFIX):].replace("_", "-")
    dist = ep.dist
    name = str(dist.name) if dist is not None else module
    return name.replace("_", "-")


def find_agent(name: str) -> Any:
    """The installed agent called ``name`` (or ``package:agent``); ``AgentNotFound`` otherwise."""
    package, _, agent = name.rpartition(":")
    matches = [e for e in installed_agents() if e.name == agent and (not package or e.package == package)]
    if not matches:
        known = ", ".join(e.qualified for e in installed_agents()) or "none installed"
        raise AgentNotFound("Unknown agent: %s (installed agents: %s)" % (name, known))
    if len(matches) > 1:
        raise AgentNotFound("Agent name %s is ambiguous; use one of: %s"
                            % (name, ", ".join(e.qualified for e in matches)))
    return matches[0].load()
