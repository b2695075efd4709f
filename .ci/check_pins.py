"""Fail unless the installed toolchain is exactly what .ci/constraints.txt pins, and the pins are complete.

.ci/run installs with PIP_CONSTRAINT pointing at the constraints file; this proves the install
took the pins (a clean clone on a fresh machine gets the same toolchain as the developer who
last updated them), instead of trusting that pip honoured the constraint. Two checks:

1. every pinned package that is installed has exactly its pinned version (the toolchain .ci/run
   itself runs must be installed at all);
2. every package that ``spellc[dev]`` needs, directly or through its dependencies, is pinned: a
   dependency added to pyproject.toml (or pulled in by a new release of one) without a pin
   would otherwise float to its newest release on the next fresh clone.

Usage: python3 .ci/check_pins.py [CONSTRAINTS_FILE]   (default: the constraints.txt beside it)
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

BUILD_ONLY = {"setuptools", "wheel"}  # used inside pip's isolated build env, not installed here
TOOLCHAIN = {"mypy", "ruff", "pytest", "hypothesis", "click"}  # what .ci/run itself runs: must be present
ROOT_DISTRIBUTION = ("spellc", ("dev",))  # what .ci/run installs: pip install -e '.[dev]'


def normalize(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def read_pins(path: Path) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[normalize(name.strip())] = version.strip()
    return pins


def wrong_versions(pins: dict[str, str]) -> list[str]:
    wrong = []
    for name, version in pins.items():
        if name in BUILD_ONLY:
            continue
        try:
            found = metadata.version(name)
        except metadata.PackageNotFoundError:
            if name in TOOLCHAIN:
                wrong.append(f"{name}: pinned {version}, not installed")
            continue  # otherwise pinned for an extra this run did not install
        if found != version:
            wrong.append(f"{name}: pinned {version}, installed {found}")
    return wrong


def required_closure(root: str, extras: tuple[str, ...]) -> set[str]:
    """Normalized names of every installed distribution ``root[extras]`` requires, transitively."""
    from packaging.requirements import Requirement  # pytest's own dependency, so present in the dev install

    seen: set[str] = set()
    stack = [(root, extras)]
    while stack:
        name, wanted = stack.pop()
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            req = Requirement(text)
            if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in (*wanted, "")):
                continue
            key = normalize(req.name)
            if key not in seen:
                seen.add(key)
                stack.append((req.name, tuple(req.extras)))
    return seen


def unpinned(pins: dict[str, str]) -> list[str]:
    root, extras = ROOT_DISTRIBUTION
    return sorted(f"{name}: required by {root}[{','.join(extras)}], not pinned"
                  for name in required_closure(root, extras) if name not in pins)


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("constraints.txt")
    pins = read_pins(path)
    problems = [*("pin not honoured: " + p for p in wrong_versions(pins)),
                *("pin missing: " + p for p in unpinned(pins))]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
