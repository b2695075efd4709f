"""The pinned CI toolchain: pyproject's requirements are all pinned, and check_pins.py catches drift."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"


def check_pins() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_pins", ROOT / ".ci" / "check_pins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def declared_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    texts = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        texts += extra
    return [Requirement(t) for t in texts]


def test_every_declared_requirement_is_pinned_within_its_range() -> None:
    pins = check_pins().read_pins(CONSTRAINTS)
    for req in declared_requirements():
        name = req.name.lower().replace("_", "-")
        assert name in pins, "%s is declared in pyproject.toml but not pinned in .ci/constraints.txt" % req.name
        assert req.specifier.contains(Version(pins[name]), prereleases=True), \
            "%s==%s does not satisfy %s" % (req.name, pins[name], req)


def test_runtime_dependencies_have_an_upper_bound() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for text in project["dependencies"]:
        assert any(s.operator == "<" for s in Requirement(text).specifier), text


def _installed_version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        pytest.skip("%s is not installed here" % name)


def test_a_pin_the_install_did_not_honour_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = check_pins()
    _installed_version("click")
    pins = CONSTRAINTS.read_text().replace("click==", "click==0.0.1+", 1)
    bad = tmp_path / "constraints.txt"
    bad.write_text(pins)
    assert module.main(["check_pins.py", str(bad)]) == 1
    assert "pin not honoured: click: pinned 0.0.1+" in capsys.readouterr().err


def test_a_required_package_without_a_pin_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = check_pins()
    _installed_version("spellc")
    lines = [line for line in CONSTRAINTS.read_text().splitlines() if not line.lower().startswith("pyrsistent==")]
    partial = tmp_path / "constraints.txt"
    partial.write_text("\n".join(lines) + "\n")
    assert module.main(["check_pins.py", str(partial)]) == 1
    assert "pin missing: pyrsistent: required by spellc[dev], not pinned" in capsys.readouterr().err


def test_the_closure_follows_extras_and_dependencies() -> None:
    module = check_pins()
    _installed_version("spellc")
    closure = module.required_closure("spellc", ("dev",))
    assert {"pytest", "mypy", "click", "pyrsistent", "pluggy", "httpx"} <= closure  # pluggy via pytest
    assert "openai" not in module.required_closure("spellc", ())
