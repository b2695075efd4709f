"""A compiled body that refers to a builtin directly checks the binding epoch at entry and, once
some code has bound such a name, is compiled again and run in its place. The guard hands over only
the ``fn`` form (``_stale_here``): the body's arguments are read from its frame, so the re-run must
see exactly the arguments, head and env of the call, with and without optimisations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from spell_runtime import support

import spellc
from spellc import state
from spellc.analyze import bound
from spellc.compiler import optimisations

PROGRAM = """
(defn f [x y] (+ (inc x) y))
(def before (f 1 2))
(def inc (fn [v] (* 10 v)))
[before (f 1 2) (f 3 -5)]
"""


@pytest.fixture(autouse=True)
def inc_still_static() -> Iterator[None]:
    """Each test compiles its bodies while ``inc`` is still static, as in a fresh process.

    Which core names code has bound is process-wide compiler state (``spellc.analyze.bound``): after
    an earlier test bound ``inc`` (tests/spellc/emit does), nothing here would be compiled static,
    so nothing would go stale. The bound set and the compile caches are put back afterwards."""
    was = set(bound.BOUND)
    bound.BOUND.discard(spellc.symbol("inc"))
    state.reset_caches()
    yield
    state.reset_caches()
    bound.BOUND.clear()
    bound.BOUND.update(was)


def _count_stale(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    calls: list[tuple[Any, ...]] = []
    real = support.stale

    def counting(code: Any, form: Any, D: Any, head: Any, args: tuple[Any, ...]) -> Any:
        calls.append((head, args))
        return real(code, form, D, head, args)

    monkeypatch.setattr(support, "stale", counting)
    return calls


def test_a_body_compiled_before_its_builtin_was_bound_runs_recompiled_with_its_arguments(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_stale(monkeypatch)
    assert list(spellc.eval_string(PROGRAM)) == [4, 12, 25]
    assert [args for _, args in calls] == [(1, 2), (3, -5)]
    assert all(str(head) == "f" for head, _ in calls)
    with optimisations(False):
        assert list(spellc.eval_string(PROGRAM)) == [4, 12, 25]


def test_an_error_in_the_recompiled_body_keeps_its_position_env_and_trace() -> None:
    program = "(defn g [x] (inc (first x)))\n(g [1])\n(def inc (fn [v] (+ v :k)))\n(g [2])"
    outcomes = []
    for on in (True, False):
        with optimisations(on), pytest.raises(spellc.SpellError) as info:
            spellc.eval_string(program, "<stale>")
        e = info.value
        outcomes.append((e.message, e.position, [str(t) for t in e.trace or []],
                         sorted(str(k) for k in (e.env or {}))))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1] is not None and outcomes[0][1][0] == 3


def test_a_body_compiled_at_epoch_zero_tests_moved_and_recompiles_once_a_builtin_is_bound() -> None:
    """At epoch 0 the guard is ``if _MOVED:`` (``spell_runtime.epoch``); only a fresh process is still
    at epoch 0 (this suite binds builtin names), so the program runs in one. Without optimisations
    no body refers to a builtin directly: nothing is guarded, the same values."""
    import os
    import subprocess
    import sys

    script = (
        "import spellc\n"
        "from spell_runtime import epoch, support\n"
        "from spellc.compiler import optimisations\n"
        "assert epoch.EPOCH == [0] and epoch.MOVED == [], (epoch.EPOCH, epoch.MOVED)\n"
        "calls = []\n"
        "real = support.stale\n"
        "support.stale = lambda code, form, D, head, args: calls.append(args) or real(code, form, D, head, args)\n"
        "with optimisations(%s):\n"
        "    print(list(spellc.eval_string(%r)), epoch.EPOCH, epoch.MOVED, calls)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for on in (True, False):
        out = subprocess.run([sys.executable, "-c", script % (on, PROGRAM)], capture_output=True, text=True,
                             env=env, check=False)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "[4, 12, 25] [1] [1] %s" % ("[(1, 2), (3, -5)]" if on else "[]")
    # A closed self-recursive body over longs enters its second body while ``not _MOVED``
    # (``published_calls``); once ``+`` is bound, the guarded body re-compiles with the new ``+``.
    fib = ("(defn fib [n] (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n(def before (fib 10))\n"
           "(def + (fn [a b] (* a b)))\n[before (fib 10)]")
    for on in (True, False):
        out = subprocess.run([sys.executable, "-c", script % (on, fib)], capture_output=True, text=True,
                             env=env, check=False)
        assert out.returncode == 0, out.stderr
        # (each recursive call re-enters the body ``fib`` is bound to: each goes through ``stale``)
        assert out.stdout.strip().startswith("[55, 0] [1] [1] %s" % ("[(10,), (9,)" if on else "[]"))
