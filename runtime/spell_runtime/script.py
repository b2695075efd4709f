"""A built module run as a script (``python built.py``, issue 12.5): print the value or report the error.

``spellc build`` writes ``if __name__ == "__main__": run_script(run, "prog.spl")``, so the text of
this step lives once, here, instead of in every built module: the value is printed as ``spellc run``
prints it (``pr_str``), a Spell error is reported with its Spell position and call path
(``callpath.error_report``, exit status 1), and the process then skips CPython's exit-time
collections (``gcpolicy.skip_exit_collection``), as the ``spellc`` command does. Modules built by
earlier versions carry their own copy of the first two steps and still run unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def run_script(run: Callable[[], Any], source_name: str) -> None:
    """Run the program (the built module's ``run``) and print its value; exit 1 on a Spell error."""
    from .callpath import error_report
    from .errors import SpellError
    from .gcpolicy import skip_exit_collection
    from .printer import pr_str

    try:
        print(pr_str(run()))
    except SpellError as e:
        print(error_report(e, source_name), file=sys.stderr)
        sys.exit(1)
    finally:
        skip_exit_collection()


__all__ = ["run_script"]
