"""Shared by the library error-position tests: evaluate calls with a library namespace bound, report errors
as ``spellc run`` prints them. Also run as a script inside the installed-wheel venv (argv: agent name)."""

from __future__ import annotations

import sys
from typing import Any

CALLS = {
    "(tally/ratio 1 0)": "lib/tally.spl:15:3: Function call failed: /: Divide by zero",
    "(tally/ratio :a 2)": "lib/tally.spl:15:3: Function call failed: /: ",
    "(tally/score (tally/ratio 4 0))": "lib/tally.spl:15:3: Function call failed: /: Divide by zero",
    "(defn f [] (tally/ratio 1 0))\n(f)": "lib/tally.spl:15:3: Function call failed: /: Divide by zero",
    "(tally/counts 5)\n(/ 1 0)": "x.spl:2:1: Function call failed: /: Divide by zero",
}


def first_error_lines(namespace: Any) -> list[str]:
    """For each of ``CALLS``, the first line of the error report (``FILE:L:C: message``)."""
    from spell_runtime.data import Symbol
    from spell_runtime.errors import SpellError

    from spellc.api import new_env
    from spellc.cli_compile import spell_error_text
    from spellc.compiler import run_form
    from spellc.reader import read_all_with_spans

    lines = []
    for text in CALLS:
        D = new_env(library={Symbol("tally"): namespace})
        try:
            for form, _ in read_all_with_spans(text, "x.spl"):
                run_form(D, form, "x.spl", text)
            lines.append("no error")
        except SpellError as e:
            lines.append(spell_error_text(e, "x.spl").split("\n")[0])
    return lines


if __name__ == "__main__":
    from spellc.agents_registry import find_agent

    libraries = find_agent(sys.argv[1]).profile().libraries
    print("\n".join(first_error_lines(libraries.namespace("tally", "lib/tally"))))
