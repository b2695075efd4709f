"""``spellc test [PATHS]``: run Spell tests (and any Python tests beside them) with pytest (testing.md §5).

A thin wrapper: pytest does the collecting, running and reporting through the spellc plugin
(``spellc.testing.plugin``). Installed, pytest loads it through the ``pytest11`` entry point;
from a source checkout on ``PYTHONPATH`` there is no entry point, so the command names the
plugin with ``-p`` (never both: pytest refuses one module registered under two names). Collection
errors (a reader error in a test file) count as failures rather than stopping the run
(``--continue-on-collection-errors``), so every file gets reported.

Exit status: 0 all tests passed, 1 a test failed or erred, a file could not be collected, or no
test was found, 2 usage (pytest's own usage errors included).
"""

from __future__ import annotations

import sys

import click

PLUGIN = "spellc.testing.plugin"
# This very command imported spellc before pytest started, so pytest cannot rewrite the asserts of
# the plugin's package and says so; spellc's own modules hold no user assertions to rewrite.
QUIET_REWRITE = "ignore:Module already imported so cannot be rewritten; spellc:pytest.PytestAssertRewriteWarning"
EXIT_CODES = {0: 0, 1: 1, 4: 2}  # pytest: OK, TESTS_FAILED, USAGE_ERROR; anything else (no tests, interrupted) is 1


@click.command("test", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("paths", nargs=-1, type=click.UNPROCESSED)
def test_command(paths: tuple[str, ...]) -> None:
    """Run the Spell tests in PATHS (files or folders; default: pytest's own test paths).

    Options after the paths go to pytest as they are (e.g. -k NAME, -m slow, -x).
    """
    import pytest

    plugin_args = [] if _entry_point_registered() else ["-p", PLUGIN]
    code = pytest.main([*plugin_args, "-W", QUIET_REWRITE, "--continue-on-collection-errors", *paths])
    sys.exit(EXIT_CODES.get(int(code), 1))


def _entry_point_registered() -> bool:
    """Whether pytest will load the plugin through an entry point by itself.

    Asked the way pytest asks (every distribution on the path, not ``entry_points()``, which keeps
    only the first distribution of a name): a stale ``spellc.egg-info`` of a source checkout on
    ``PYTHONPATH`` can hide an installed spellc's entry point from ``entry_points()`` while pytest
    still loads it, and naming the plugin with ``-p`` as well would register it twice.
    """
    from importlib.metadata import distributions

    return any(ep.group == "pytest11" and ep.value == PLUGIN for dist in distributions() for ep in dist.entry_points)
