"""EDN agent and model profiles, with ``:base`` inheritance (runtime.md §7.5–§7.6).

Profiles are Spell data read with the Spell reader (EDN is a subset of what it
reads). Inheritance is resolved here, once, into a flat Python dict keyed by
keyword name, so the rest of the loop never walks a chain of files: a key the
child states — even as ``nil`` — replaces the parent's; ``:namespaces`` and
``:mcp-servers`` merge entry by entry, child winning. A ``{:file "..."}``
system prompt is read relative to the file that states it, before merging,
because a child inheriting it cannot know where its parent lived.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol
from spell_runtime.printer import pr_str

from ..providers.registry import ProfileError

AGENT_SUFFIX: Final = ".agent.edn"
MERGED_KEYS: Final = frozenset({"namespaces", "mcp-servers"})
FAILED_READ: Final = "Failed to read agent file: %s"
INVALID_SYSTEM: Final = "Invalid :system value, expected string or {:file path}"

DEFAULT_NAMESPACES: Final[dict[str, Any]] = {
    "io": Symbol("io", "stdlib"), "web": Symbol("web", "stdlib"), "globals": Symbol("globals", "stdlib"),
}


@dataclass
class AgentProfile:
    """A resolved agent profile: every key after inheritance, plus where it came from."""

    values: dict[str, Any] = field(default_factory=dict)
    path: Optional[str] = None
    libraries: Any = None
    """Where library namespaces (``{tally lib/tally}``) come from: a ``spellc.package.namespaces.LibrarySource``;
    None means the package folder of ``path`` (compiled from source)."""

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def has(self, key: str) -> bool:
        return key in self.values

    @property
    def name(self) -> str:
        given = self.values.get("agent-name")
        if isinstance(given, str):
            return given
        if self.path is None:
            return "main"
        base = os.path.basename(self.path)
        return base[: -len(AGENT_SUFFIX)] if base.endswith(AGENT_SUFFIX) else os.path.splitext(base)[0]

    @property
    def namespaces(self) -> dict[str, Any]:
        """Symbol name the program uses → namespace reference."""
        ns = self.values.get("namespaces")
        if ns is None:
            return {}
        return {name_of(k): v for k, v in items_of(ns)}


def default_agent_profile() -> AgentProfile:
    """The profile the Python API uses when none is given: io/web/globals, recovery on, limit 3."""
    return AgentProfile({"namespaces": dict(DEFAULT_NAMESPACES), "recover": True, "max-consecutive-errors": 3})


def read_edn_file(path: str) -> Any:
    """The first form of an EDN file (``OSError`` / ``ReaderError`` on failure)."""
    from ..reader import read_first

    with open(path, encoding="utf-8-sig") as fh:  # a leading byte-order mark is skipped (issue 16.6)
        return read_first(fh.read(), path)


def load_agent_profile(path: str) -> AgentProfile:
    """Read ``path`` and its ``:base`` chain into one profile (``ProfileError`` on any failure)."""
    return AgentProfile(_load_chain(os.fspath(path), ()), os.fspath(path))


def _load_chain(path: str, seen: tuple[str, ...]) -> dict[str, Any]:
    real = os.path.realpath(path)
    if real in seen:
        raise ProfileError("Agent profile :base cycle: %s" % path, {"path": path})
    own = _read_map(path)
    directory = os.path.dirname(os.path.abspath(path))
    if "system-prompt" in own:
        own["system-prompt"] = resolve_system_prompt(own["system-prompt"], directory)
    base = own.pop("base", None)
    if base is None:
        return own
    if not isinstance(base, str):
        raise ProfileError(FAILED_READ % pr_str(base), {"path": base})
    parent = _load_chain(os.path.join(directory, base), (*seen, real))
    return merge_profiles(parent, own)


def merge_profiles(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Child keys replace parent keys; ``:namespaces``/``:mcp-servers`` merge entry by entry."""
    merged = dict(parent)
    for key, value in child.items():
        if key in MERGED_KEYS and value is not None and merged.get(key) is not None:
            entries = dict(items_of(merged[key]))
            entries.update(items_of(value))
            merged[key] = entries
        else:
            merged[key] = value
    return merged


def resolve_system_prompt(value: Any, directory: str) -> Optional[str]:
    """A ``:system-prompt`` value as text: a string, or the contents of ``{:file "relative/path"}``."""
    if value is None or isinstance(value, str):
        return value
    file_ref = _map_get(value, "file")
    if not isinstance(file_ref, str) or len(list(items_of(value))) != 1:
        raise ProfileError(INVALID_SYSTEM, {"system": value})
    target = file_ref if os.path.isabs(file_ref) else os.path.join(directory, file_ref)
    try:
        with open(target, encoding="utf-8-sig") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as e:  # not UTF-8: a profile error, not a traceback
        raise ProfileError("Failed to read system prompt file: %s" % target, {"path": target,
                                                                              "cause": str(e)}) from None


def load_model_profile(ref: Any) -> dict[str, Any]:
    """A model profile (path or map) as a dict keyed by keyword name, ``:base`` resolved."""
    if isinstance(ref, (str, os.PathLike)):
        return _load_model_chain(os.fspath(ref), ())
    return {k: v for k, v in ((name_of(k), v) for k, v in items_of(ref))}


def _load_model_chain(path: str, seen: tuple[str, ...]) -> dict[str, Any]:
    real = os.path.realpath(path)
    if real in seen:
        raise ProfileError("Model profile :base cycle: %s" % path, {"path": path})
    try:
        data = read_edn_file(path)
    except Exception as e:  # noqa: BLE001 - unreadable or unparsable: one message
        raise ProfileError("Failed to read model profile: %s" % path, {"path": path, "cause": str(e)}) from None
    if not isinstance(data, (SpellMap, Mapping)):
        raise ProfileError("Failed to read model profile: %s" % path, {"path": path})
    own = {name_of(k): v for k, v in items_of(data)}
    base = own.pop("base", None)
    if not isinstance(base, str):
        return own
    parent = _load_model_chain(os.path.join(os.path.dirname(os.path.abspath(path)), base), (*seen, real))
    merged = dict(parent)
    merged.update(own)
    return merged


def _read_map(path: str) -> dict[str, Any]:
    try:
        data = read_edn_file(path)
    except Exception as e:  # noqa: BLE001 - missing, unreadable or unparsable: one product message
        raise ProfileError(FAILED_READ % path, {"path": path, "cause": str(e)}) from None
    if not isinstance(data, (SpellMap, Mapping)):
        raise ProfileError(FAILED_READ % path, {"path": path})
    return {name_of(k): v for k, v in items_of(data)}


def items_of(m: Any) -> list[tuple[Any, Any]]:
    if isinstance(m, SpellMap):
        return list(m.items())
    if isinstance(m, Mapping):
        return list(m.items())
    return []


def _map_get(m: Any, key: str) -> Any:
    for k, v in items_of(m):
        if name_of(k) == key:
            return v
    return None


def name_of(k: Any) -> str:
    """A profile key or namespace symbol as a bare name (``:max-consecutive-errors`` → ``max-consecutive-errors``)."""
    if type(k) is Keyword or type(k) is Symbol:
        return k.name if k.ns is None else "%s/%s" % (k.ns, k.name)
    if isinstance(k, str):
        return k[1:] if k.startswith(":") else k
    return pr_str(k)
