"""``spellc package`` and ``spellc agents list``: build an agent package, list installed agents (packages.md §3).

Exit status: 0 ok; 1 the package's Spell tests or its code failed; 2 a usage
error — a bad manifest, profile, library, module or skill, each named with its file.
"""

from __future__ import annotations

import sys
from typing import NoReturn, Optional

import click

EXIT_FAILED = 1
EXIT_USAGE = 2


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)


@click.command("package")
@click.argument("directory", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", "output", default="dist", show_default=True, type=click.Path(file_okay=False),
              help="Where to write the wheel.")
@click.option("--no-test", "no_test", is_flag=True, help="Do not run the package's tests/*.spl first.")
def package_command(directory: str, output: str, no_test: bool) -> None:
    """Build the agent package in DIRECTORY (holding spell-package.edn) into a wheel."""
    from .package.builder import PackageBuildError, PackageTestsFailed, build_package
    from .package.manifest import ManifestError

    try:
        result = build_package(directory, output, run_tests=not no_test, log=sys.stderr)
    except ManifestError as e:
        _fail("error: " + str(e).replace("\n", "\nerror: "), EXIT_USAGE)
    except PackageTestsFailed as e:
        _fail(str(e), EXIT_FAILED)
    except PackageBuildError as e:
        _fail("error: " + str(e), EXIT_USAGE)
    for note in result.notes:
        click.echo("note: " + note, err=True)
    click.echo(result.wheel)


@click.group("agents")
def agents_group() -> None:
    """Agents of installed Spell packages."""


@agents_group.command("list")
@click.option("--package", "package", help="Only this package's agents.")
def agents_list(package: Optional[str]) -> None:
    """NAME  PACKAGE  VERSION  DESCRIPTION of every installed package agent."""
    from .agents_registry import installed_agents

    rows = []
    for entry in installed_agents():
        if package is not None and entry.package != package:
            continue
        try:
            description = entry.load().description
        except Exception as e:  # noqa: BLE001 - a broken package is listed, not fatal
            description = "(cannot load: %s)" % e
        rows.append((entry.name, entry.package, entry.version, " ".join(str(description).split())))
    if not rows:
        click.echo("no installed agents", err=True)
        return
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        click.echo("%s  %s  %s  %s" % (r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].ljust(widths[2]), r[3]))
