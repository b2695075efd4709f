"""What a request's ``agent`` names, as ``spellc.run`` options: an agent profile file, or an installed agent.

The reference's ``agent`` is the path of an ``.agent.edn`` file; that keeps
working. A bare name means an *installed* (packaged) agent, which needs
``spellc.run(agent=...)`` from the packages work (issue 17 brief). Until that
exists this module is the one place that says so, with the agent's name, and
``installed_agent_options`` / ``agent_wheel`` are the two functions the packages
work fills in.
"""

from __future__ import annotations

import os
from typing import Any, Final, Optional

NOT_INSTALLABLE: Final = ("Agent %r is not an .agent.edn file, and this spellc cannot run installed agents "
                          "(spellc.run has no agent= option yet); pass the path of an .agent.edn file")


class AgentError(Exception):
    """A request's ``agent`` that cannot be run."""

    def __init__(self, message: str, agent: str) -> None:
        super().__init__(message)
        self.message = message
        self.agent = agent

    def __str__(self) -> str:
        return self.message


def is_profile_path(agent: str) -> bool:
    """An agent profile file rather than an installed agent's name."""
    return agent.endswith(".edn") or os.sep in agent or os.path.isfile(agent)


def agent_options(agent: Any) -> dict[str, Any]:
    """The ``spellc.run`` options that select ``agent`` (a profile path or an installed agent's name)."""
    if not isinstance(agent, str) or not agent:
        raise AgentError("agent must be a non-empty string, got %r" % (agent,), str(agent))
    if is_profile_path(agent):
        return {"agent-profile": agent}
    return installed_agent_options(agent)


def installed_agent_options(name: str) -> dict[str, Any]:
    """Run options for an installed agent; refused with its name while ``spellc.run`` cannot take one."""
    from ..loop.options import PUBLIC_KEYS

    if "agent" in PUBLIC_KEYS:  # the packages work has added spellc.run(agent=...)
        return {"agent": name}
    raise AgentError(NOT_INSTALLABLE % name, name)


def agent_wheel(name: str) -> Optional[str]:
    """The wheel of an installed agent's package, for shipping to cluster nodes; None when not known here."""
    del name  # installed agents have no wheel locator yet (see the module docstring)
    return None
