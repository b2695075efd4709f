"""Test-wide settings.

Every incremental turn-loop read and prefix render is checked against the full path
while the tests run (``spellc.loop.incremental.switches``): a difference raises
``IncrementalMismatch`` in whichever test produced it.
"""

import os

os.environ.setdefault("SPELLC_CHECK_INCREMENTAL", "1")
