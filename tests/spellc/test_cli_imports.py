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
    # ``spellc.native``: which build of the reader (and the rest of the compiled group) to load
    allowed_prefixes = ("spellc.reader", "spellc.cli", "spellc.source_input", "spellc.native")
    assert {m for m in spellc_modules if not m.startswith(allowed_prefixes)} == set()
    assert [m for m in HEAVY if m in modules] == []


def test_plugin_module_leaves_spell_work_for_later() -> None:
    modules = loaded_after("import spellc.testing.plugin")
    assert [m for m in HEAVY if m in modules and m != "pytest"] == []


def _loaded_by_command(*argv: str) -> tuple[str, list[str]]:
    """(stdout, sorted module names) after ``spellc ARGV`` ran in a fresh interpreter."""
    code = ("import sys\nsys.argv = ['spellc', *%r]\nfrom spellc.launch import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stdout.flush()\nprint('\\n'.join(['--'] + sorted(sys.modules)))" % (argv,))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                          timeout=60)
    output, _, modules = done.stdout.partition("--\n")
    return output, modules.splitlines()


def test_plain_eval_and_run_skip_click(tmp_path: Path) -> None:
    program = tmp_path / "prog.spl"
    program.write_text("(defn sq [x] (* x x))\n(sq 7)\n", encoding="utf-8")
    for argv, printed in ((("eval", "(+ 1 2)"), "3\n"), (("run", str(program)), "49\n")):
        output, modules = _loaded_by_command(*argv)
        assert output == printed
        assert [m for m in modules if m == "click" or m.startswith(("click.", "spellc.cli.", "spellc.loop.run"))] == []
        assert "spellc.cli" not in modules


def test_commands_with_options_still_go_through_click() -> None:
    output, modules = _loaded_by_command("eval", "--eval-timeout", "5", "(+ 1 2)")
    assert output == "3\n" and "click" in modules


LAZY_ON_EVAL = (
    # stdlib modules: dataclasses pulls in inspect, dis and tokenize (~8 ms); json is for built modules
    "dataclasses", "inspect", "dis", "json",
    # (the compiler passes only some programs need, ``analyze.linear`` and the like, load with the
    # compiler: compiled modules import each other at module level, see ``spellc.native``)
    "spell_runtime.purity", "spell_runtime.built_constants",
    # the click CLI and the turn loop
    "click", "spellc.cli", "spellc.loop.run",
)
"""What ``spellc eval '(+ 1 2)'`` must not import (issue 12.4: each was made lazy to keep start-up
within ×2.5 of a bare interpreter; ``benchmarks/startup_imports.py`` prints what the path does import)."""


def test_plain_eval_leaves_lazy_modules_unloaded() -> None:
    output, modules = _loaded_by_command("eval", "(+ 1 2)")
    assert output == "3\n"
    assert [m for m in LAZY_ON_EVAL if m in modules] == []

