"""A built module run as a script (``python built.py``, issue 12.5): print the value or report the error.

``spellc build`` writes ``if __name__ == "__main__": run_script(run, "prog.spl")``, so the text of
this step lives once, here, instead of in every built module: the value is printed as ``spellc run``
prints it (``pr_str``), a Spell error is reported with its Spell position and call path
(``callpath.error_report``, exit status 1), and the process then skips CPython's exit-time
collections (``gcpolicy.skip_exit_collection``), as the ``spellc`` command does. A module run this
way also keeps automatic collection off while it starts (its ``_PAUSED_GC``), which ``run_script``
ends. Modules built by earlier versions carry their own copy of the first two steps, or call
``run_script`` without the flag, and still run unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def run_script(run: Callable[[], Any], source_name: str, paused_gc: bool = False) -> None:
    """Run the program (the built module's ``run``) and print its value; exit 1 on a Spell error.

    ``paused_gc``: the module turned automatic collection off for its start-up (``spellc build``
    writes that since issue 12.5); what start-up built is frozen and collection is turned back on
    before the program runs (``gcpolicy.resume_paused``), as the ``spellc`` command does."""
    from .bigstack import call_with_large_stack
    from .callpath import error_report
    from .errors import SpellError
    from .gcpolicy import resume_paused, skip_exit_collection
    from .printer import pr_str

    if paused_gc:
        resume_paused()
    try:  # on a large stack, as ``spellc run`` evaluates (``bigstack``)
        print(pr_str(call_with_large_stack(run)))
    except SpellError as e:
        print(error_report(e, source_name), file=sys.stderr)
        sys.exit(1)
    finally:
        skip_exit_collection()


__all__ = ["run_script"]
