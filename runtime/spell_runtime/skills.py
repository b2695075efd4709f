"""Skills: ``<root>/<name>/SKILL.md`` files, their catalog in the system prompt, and ``(!describe skills :name)``.

packages.md §1. Roots, first match wins per name: ``.agents/skills`` in each
folder from the working directory up to the repository root (nearest first),
then ``~/.agents/skills``, then installed packages (``spellc.skills`` entry
points: name → the package holding ``skills/<name>/SKILL.md``), then the skills
bundled with spellc. A skill needs front matter with ``name:`` (1–64 lowercase
kebab characters, equal to its folder name) and a non-blank ``description:`` of
at most 1024 characters; an invalid one is skipped with a single diagnostic
line on stderr (at most 300 characters), never an error: a stray folder must
not stop an agent from starting.

The catalog is deterministic (sorted by name), one ``name — description — path``
line per skill, and never longer than ``CATALOG_LIMIT`` characters: lines that
do not fit are dropped and counted in a last line. ``(!describe skills :name)``
returns the whole ``SKILL.md`` plus the statement that a skill grants nothing.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Optional, TextIO

from .data import Keyword, SpellMap

SKILL_FILE: Final = "SKILL.md"
SKILL_NAME: Final = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_NAME: Final = 64
MAX_DESCRIPTION: Final = 1024
MAX_DIAGNOSTIC: Final = 300
CATALOG_LIMIT: Final = 8000
ENTRY_GROUP: Final = "spellc.skills"
GRANTS_NOTHING: Final = "(A skill is guidance only: it grants no tools, permissions or namespaces.)"
BUNDLED_DIR: Final = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundled_skills")
_reported: set[str] = set()


@dataclass(frozen=True)
class Skill:
    """One valid skill."""

    name: str
    description: str
    path: str
    text: str


def front_matter(text: str) -> Optional[dict[str, str]]:
    """The ``key: value`` lines between the leading ``---`` fences (quotes stripped), or None without them."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    out: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            return out
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t")):
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            out[key.strip()] = value
    return None


def check_skill(folder_name: str, text: str, path: str) -> Skill:
    """A valid ``Skill`` or ``ValueError`` with the reason."""
    meta = front_matter(text)
    if meta is None:
        raise ValueError("missing front matter (--- name: ... description: ... ---)")
    name = meta.get("name", "")
    if not (1 <= len(name) <= MAX_NAME) or not SKILL_NAME.match(name):
        raise ValueError("name must be 1-64 lowercase kebab characters, got %r" % name[:80])
    if name != folder_name:
        raise ValueError("name %r differs from its folder %r" % (name, folder_name[:80]))
    description = meta.get("description", "").strip()
    if not description:
        raise ValueError("description is blank")
    if len(description) > MAX_DESCRIPTION:
        raise ValueError("description is longer than %d characters" % MAX_DESCRIPTION)
    return Skill(name, description, path, text)


def _folder_skills(root: str) -> Iterator[tuple[str, str, Callable[[], str]]]:
    try:
        entries = sorted(os.listdir(root))
    except OSError:
        return
    for entry in entries:
        path = os.path.join(root, entry, SKILL_FILE)
        if os.path.isfile(path):
            def read(path: str = path) -> str:
                with open(path, encoding="utf-8") as fh:
                    return fh.read()
            yield entry, path, read


def _package_skills() -> Iterator[tuple[str, str, Callable[[], str]]]:
    from importlib import resources

    from .entrypoints import entry_points

    for ep in entry_points(ENTRY_GROUP):
        package = ep.value.split(":", 1)[0].strip()
        resource = resources.files(package).joinpath("skills", ep.name, SKILL_FILE)

        def read(resource: Any = resource) -> str:
            return str(resource.read_text(encoding="utf-8"))

        yield ep.name, "%s:skills/%s/%s" % (package, ep.name, SKILL_FILE), read


def skill_roots(cwd: Optional[str] = None, home: Optional[str] = None) -> list[str]:
    """``.agents/skills`` from ``cwd`` up to the repository root (nearest first), then the user's."""
    from .modfiles import project_root

    here = os.path.abspath(cwd or os.getcwd())
    top = project_root(here)
    roots: list[str] = []
    while True:
        roots.append(os.path.join(here, ".agents", "skills"))
        parent = os.path.dirname(here)
        if here == top or parent == here:
            break
        here = parent
    roots.append(os.path.join(home if home is not None else os.path.expanduser("~"), ".agents", "skills"))
    return roots


def discover(cwd: Optional[str] = None, home: Optional[str] = None, bundled_dir: str = BUNDLED_DIR,
             err: Optional[TextIO] = None) -> list[Skill]:
    """Every valid skill (first match per name), sorted by name; invalid ones reported on ``err``."""
    sources: list[Iterator[tuple[str, str, Callable[[], str]]]] = [
        *(_folder_skills(root) for root in skill_roots(cwd, home)), _package_skills(), _folder_skills(bundled_dir)]
    found: dict[str, Skill] = {}
    seen: set[str] = set()
    for source in sources:
        for folder_name, path, read in source:
            if folder_name in seen:
                continue
            seen.add(folder_name)
            try:
                found[folder_name] = check_skill(folder_name, read(), path)
            except (ValueError, OSError, UnicodeDecodeError) as e:
                line = ("spellc: skipping skill %s: %s" % (path, e))[:MAX_DIAGNOSTIC]
                if err is not None or line not in _reported:  # once per process: workers discover too
                    _reported.add(line)
                    print(line, file=err if err is not None else sys.stderr)
    return [found[name] for name in sorted(found)]


def catalog_text(skills: list[Skill], limit: int = CATALOG_LIMIT) -> str:
    """``name — description — path`` lines, at most ``limit`` characters in all."""
    lines: list[str] = []
    used = 0
    for i, skill in enumerate(skills):
        line = "%s \u2014 %s \u2014 %s" % (skill.name, " ".join(skill.description.split()), skill.path)
        rest = len(skills) - i - 1
        tail = len("\n... %d more skills not listed" % len(skills)) if rest else 0
        if used + len(line) + 1 + tail > limit:
            lines.append("... %d more skills not listed" % (len(skills) - i))
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def skills_namespace(skills: list[Skill]) -> SpellMap:
    """The ``skills`` map: ``(!describe skills :name)`` gives the whole ``SKILL.md`` and what a skill is not."""
    detail = SpellMap.from_pairs((Keyword(s.name), "%s\n\n%s" % (s.text.rstrip(), GRANTS_NOTHING)) for s in skills)
    short = "Skills: guidance documents; (!describe skills :name) reads one. %s" % GRANTS_NOTHING
    return SpellMap.from_pairs([(Keyword("short-docs"), short), (Keyword("detail"), detail)])
