"""Helpers for running pytest on Spell test files inside ``pytester`` with the plugin loaded as installed.

The plugin is found through its ``pytest11`` entry point, exactly as after ``pip install``: a
throwaway ``.dist-info`` in the pytester directory declares it, so the tests behave the same
whether or not this checkout is installed (when it is, pytest loads the entry point once and
skips the duplicate) and ``-p no:spellc`` can be tested for real.
"""

from __future__ import annotations

import pytest

ENTRY_POINTS = "[pytest11]\nspellc = spellc.testing.plugin\n"
METADATA = "Metadata-Version: 2.1\nName: spellc-plugin-under-test\nVersion: 0\n"


def install_entry_point(pytester: pytest.Pytester) -> None:
    info = pytester.path / "spellc_plugin_under_test-0.dist-info"
    if info.exists():
        return
    info.mkdir()
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    (info / "METADATA").write_text(METADATA, encoding="utf-8")
    pytester.syspathinsert()


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in-process on the pytester directory, with the plugin available through its entry point."""
    install_entry_point(pytester)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *args)
