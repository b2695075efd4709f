"""Testing Spell code (shared/spec/testing.md): the pytest plugin and a structured runner API.

- ``collection`` reads a test file into prelude and ``deftest`` items (never evaluating);
- ``assertions`` provides ``is``/``testing``/``thrown?``/``thrown-with-msg?`` while tests run;
- ``runner`` evaluates the prelude once and each test in its own copy (``run_file``);
- ``report`` formats failures and errors at their Spell positions;
- ``plugin`` is the pytest plugin (entry point ``pytest11``/``spellc``); ``agent`` is ``spell-test/run``.

``run_file`` and ``TestResult`` are imported on first use: pytest imports this package in
every run (the plugin lives in it), so it must stay cheap to import.
"""

from __future__ import annotations

from typing import Any

__all__ = ["run_file", "TestResult", "CollectionError"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import runner

        return getattr(runner, name)
    raise AttributeError("module 'spellc.testing' has no attribute %r" % name)
