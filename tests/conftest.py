"""Test-wide settings.

Every incremental turn-loop read and prefix render is checked against the full path
while the tests run (``spellc.loop.incremental.switches``): a difference raises
``IncrementalMismatch`` in whichever test produced it.

Property tests run under one Hypothesis profile, ``spellc``: no per-example deadline and no
"too slow" health check. Both are clocks, and these tests assert behaviour, not speed (speed goals
live in ``benchmarks/``): on a shared, loaded machine a deadline fails a correct test at random. A
test's own ``@settings`` still sets its example count. Exploration stays random, so runs keep
finding new cases; a failure prints the blob that replays it (``@reproduce_failure``).
``HYPOTHESIS_PROFILE`` picks another registered profile, e.g. ``ci-repeatable`` (derandomized).

The compiler is imported before any test runs. The pytest plugin's tests run pytest in process
(pytester), which takes out of ``sys.modules`` whatever was first imported during that inner run;
compiled by mypyc (``spellc.native``), the compiler's modules cannot be imported a second time, and
its interpreted ones (the IR classes) would come back as new classes its compiled code does not know.
"""

import os

from hypothesis import HealthCheck, settings

import spellc.compiler  # noqa: F401  (see above)

os.environ.setdefault("SPELLC_CHECK_INCREMENTAL", "1")

settings.register_profile("spellc", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("ci-repeatable", parent=settings.get_profile("spellc"), derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "spellc"))
