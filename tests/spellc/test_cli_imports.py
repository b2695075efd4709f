"""What loading the CLI and the pytest plugin imports: both run far more often than they do work.

``spellc.cli`` is imported by every ``spellc`` command, and pytest imports the plugin module in
every run once spellc is installed; each command's and each hook's real work is imported when
it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("spellc.compiler", "spellc.analyze", "spellc.emit", "spellc.loop", "spellc.checker", "spellc.repl",
         "spellc.testing.runner", "spellc.testing.collection", "readline", "pytest")


def loaded_after(statement: str) -> list[str]:
    code = "import sys; %s; print('\\n'.join(sorted(sys.modules)))" % statement
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                          timeout=60)
    return done.stdout.splitlines()


def test_cli_imports_only_click_the_reader_and_source_input() -> None:
    modules = loaded_after("import spellc.cli")
    spellc_modules = {m for m in modules if m.startswith("spellc.")}
    allowed_prefixes = ("spellc.reader", "spellc.cli", "spellc.source_input")
    assert {m for m in spellc_modules if not m.startswith(allowed_prefixes)} == set()
    assert [m for m in HEAVY if m in modules] == []


def test_plugin_module_leaves_spell_work_for_later() -> None:
    modules = loaded_after("import spellc.testing.plugin")
    assert [m for m in HEAVY if m in modules and m != "pytest"] == []
