"""What a test program comes to, as one comparable text: its printed value, or ``error: <message>``."""

from __future__ import annotations

import spellc


def run(src: str) -> str:
    try:
        return str(spellc.pr_str(spellc.eval_string(src)))
    except spellc.SpellError as e:
        return "error: %s" % e


__all__ = ["run"]
