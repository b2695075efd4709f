"""Fail unless every package pinned in .ci/constraints.txt is installed at exactly its pinned version.

.ci/run installs with PIP_CONSTRAINT pointing at the constraints file; this proves the install
took the pins (a clean clone on a fresh machine gets the same toolchain as the developer who
last updated them), instead of trusting that pip honoured the constraint.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

BUILD_ONLY = {"setuptools", "wheel"}  # used inside pip's isolated build env, not installed here
TOOLCHAIN = {"mypy", "ruff", "pytest", "hypothesis", "click"}  # what .ci/run itself runs: must be present


def normalize(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def main() -> int:
    pins = Path(__file__).with_name("constraints.txt").read_text().splitlines()
    wrong = []
    for line in pins:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, version = line.partition("==")
        if normalize(name) in BUILD_ONLY:
            continue
        try:
            found = metadata.version(name)
        except metadata.PackageNotFoundError:
            if normalize(name) in TOOLCHAIN:
                wrong.append(f"{name}: pinned {version}, not installed")
            continue  # otherwise pinned for an extra this run did not install
        if found != version:
            wrong.append(f"{name}: pinned {version}, installed {found}")
    for problem in wrong:
        print("pin not honoured: " + problem, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
