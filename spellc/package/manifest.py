"""``spell-package.edn``: the package manifest, read and checked before anything is built (packages.md §2).

Every problem is reported, one line each, as ``spell-package.edn: …``, so a user
fixes them all in one go; ``spellc package`` exits 2 on any of them. Keys:

- ``:name`` (required): lowercase kebab, becomes the import package
  ``spellpkg_<name with _>`` and the distribution ``spellpkg-<name>``;
- ``:version`` (required): a PEP 440 release such as ``0.1.0``, ``1.2rc1``, ``2.0.post1``;
- ``:description``: one line of text;
- ``:agents`` (required): a vector of agent names, each with ``agents/<name>.agent.edn``;
- ``:default-agent``: one of ``:agents`` (default: the first), what ``python -m`` runs;
- ``:console-script``: a command name to install for the default agent (spellc's reading
  of "a ``console_scripts`` entry when asked").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol, is_vector
from spell_runtime.printer import pr_str

MANIFEST: Final = "spell-package.edn"
KNOWN_KEYS: Final = ("name", "version", "description", "agents", "default-agent", "console-script")
NAME: Final = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
VERSION: Final = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$")
SCRIPT: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class ManifestError(Exception):
    """The manifest's problems, one per line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class Manifest:
    """A checked manifest."""

    name: str
    version: str
    description: str
    agents: list[str]
    default_agent: str
    console_script: Optional[str] = None
    root: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def import_name(self) -> str:
        return "spellpkg_" + self.name.replace("-", "_")

    def profile_path(self, agent: str) -> str:
        return os.path.join(self.root, "agents", agent + ".agent.edn")


def _text(v: Any) -> Optional[str]:
    if isinstance(v, str):
        return v
    if type(v) is Symbol and v.ns is None:
        return v.name
    return None


def read_manifest(root: str) -> Manifest:
    """The checked manifest of package folder ``root`` (``ManifestError`` listing every problem)."""
    from ..reader import ReaderError, read_strict

    path = os.path.join(root, MANIFEST)
    where = MANIFEST
    try:
        with open(path, encoding="utf-8") as fh:
            forms = read_strict(fh.read(), path)
    except OSError:
        raise ManifestError(["%s: not found in %s" % (where, root)]) from None
    except ReaderError as e:
        raise ManifestError(["%s:%d:%d: %s" % (where, e.line, e.column, e)]) from None
    if len(forms) != 1 or not isinstance(forms[0], SpellMap):
        raise ManifestError(["%s: must hold exactly one map" % where])
    data: dict[str, Any] = {}
    problems: list[str] = []
    for k, v in forms[0].items():
        if type(k) is not Keyword or k.ns is not None or k.name not in KNOWN_KEYS:
            problems.append("%s: unknown key %s (known: %s)" % (where, pr_str(k),
                                                               " ".join(":" + n for n in KNOWN_KEYS)))
            continue
        data[k.name] = v
    name = data.get("name")
    if name is None:
        problems.append("%s: missing :name" % where)
    elif not isinstance(name, str) or not NAME.match(name):
        problems.append("%s: :name must be a lowercase kebab string such as \"research-agent\", got %s"
                        % (where, pr_str(name)))
    version = data.get("version")
    if version is None:
        problems.append("%s: missing :version" % where)
    elif not isinstance(version, str) or not VERSION.match(version):
        problems.append("%s: bad :version %s (expected a release such as \"0.1.0\")" % (where, pr_str(version)))
    description = data.get("description", "")
    if not isinstance(description, str):
        problems.append("%s: :description must be a string" % where)
    agents_value = data.get("agents")
    agents: list[str] = []
    if agents_value is None:
        problems.append("%s: missing :agents (a vector of agent names)" % where)
    elif not is_vector(agents_value) or not agents_value:
        problems.append("%s: :agents must be a non-empty vector of agent names" % where)
    else:
        for a in agents_value:
            text = _text(a)
            if text is None or not NAME.match(text):
                problems.append("%s: bad agent name %s in :agents" % (where, pr_str(a)))
            elif text in agents:
                problems.append("%s: agent %s is listed twice" % (where, text))
            else:
                agents.append(text)
                if not os.path.isfile(os.path.join(root, "agents", text + ".agent.edn")):
                    problems.append("%s: agent %s is listed but agents/%s.agent.edn does not exist"
                                    % (where, text, text))
    default = _text(data.get("default-agent")) if "default-agent" in data else (agents[0] if agents else "")
    if agents and default not in agents:
        problems.append("%s: :default-agent %s is not one of :agents" % (where, pr_str(data.get("default-agent"))))
    script = data.get("console-script")
    if script is not None and (not isinstance(script, str) or not SCRIPT.match(script)):
        problems.append("%s: :console-script must be a command name string" % where)
    if problems:
        raise ManifestError(problems)
    return Manifest(str(name), str(version), str(description), agents, str(default), script, root)
