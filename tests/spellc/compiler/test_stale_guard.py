"""A compiled body that refers to a builtin directly goes stale once some code has bound such a
name: it is compiled again and run in its place. Moving the epoch swaps the body's code for a stub
(``spell_runtime.stale_bodies``) that hands over only the ``fn`` form (``_stale_here``): the body's
arguments are read from its frame, so the re-run must see exactly the arguments, head and env of the
call, with and without optimisations, in memory and in built modules."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
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


def test_a_body_compiled_at_epoch_zero_recompiles_once_a_builtin_is_bound() -> None:
    """Only a fresh process is still at epoch 0 (this suite binds builtin names), so the program runs
    in one. Without optimisations no body refers to a builtin directly: nothing goes stale, the same
    values."""
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


def test_a_built_module_goes_stale_like_in_memory_code_and_when_imported_after_a_bump(tmp_path: Path) -> None:
    """``spellc build`` output registers its bodies at epoch 0 (``_watch_epoch``): run as a script it
    recompiles them when its own program binds a builtin; imported into a process that has already
    bound one, it sends them stale at import, and its functions still compute with the builtin (the
    rebinding was in another env)."""
    import os
    import subprocess
    import sys

    from spellc.compiler import build_module
    from spellc.interop_build import with_exports
    from spellc.reader import read_all

    built = tmp_path / "stale_built.py"
    built.write_text(build_module(read_all(PROGRAM), "stale.spl"), encoding="utf-8")
    # The checkout first: pytest's own path holds tests/, whose ``spellc`` folder a script run from
    # another directory would otherwise import as the package.
    repo = Path(spellc.__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(repo), str(repo / "runtime"), *sys.path]))
    out = subprocess.run([sys.executable, str(built)], capture_output=True, text=True, env=env, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[4 12 25]"
    lib = tmp_path / "stale_lib.py"
    bound.BOUND.discard(spellc.symbol("inc"))  # building PROGRAM bound it here: ``g`` is to refer to it statically
    lib_forms = read_all("(defn g [x] (inc x))")
    lib.write_text(with_exports(build_module(lib_forms, "lib.spl"), lib_forms), encoding="utf-8")
    script = (
        "import sys; sys.path.insert(0, %r)\n"
        "import spellc\n"
        "from spell_runtime import epoch, support\n"
        "calls = []\n"
        "real = support.stale\n"
        "support.stale = lambda code, form, D, head, args: calls.append(args) or real(code, form, D, head, args)\n"
        "spellc.eval_string('(def inc (fn [v] (* 10 v)))')\n"
        "import stale_lib\n"
        "print(epoch.EPOCH, stale_lib.g(1), calls)\n" % str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[1] 2 [(1,)]"


def test_moving_the_epoch_swaps_a_watched_body_for_a_stub_with_its_parameters_and_no_columns() -> None:
    from spell_runtime import epoch, stale_bodies

    from spellc.reader import read_all

    seen: list[tuple[Any, ...]] = []

    def body(D: Any, _H: Any, _p0: Any, _p1: Any) -> Any:
        return ("ran", _p0, _p1)

    g = {"_stale_here": lambda form: seen.append((form, sys._getframe(1).f_locals)) or "stale"}
    fn = types.FunctionType(body.__code__, g, "_fn7")
    form = read_all("(fn [a b] (+ a b))")[0]
    before = epoch.EPOCH[0]
    stale_bodies.watch((fn, form), before)
    assert fn(None, "h", 1, 2) == ("ran", 1, 2)
    with state.LOCK:  # as binding a builtin name does (``analyze.bound``); the suite binds several anyway
        epoch.bump()
    assert fn(None, "h", 1, 2) == "stale"
    assert seen[0][0] is form
    assert seen[0][1] == {"D": None, "_H": "h", "_p0": 1, "_p1": 2}
    assert fn.__code__.co_name == body.__code__.co_name and fn.__code__.co_varnames == ("D", "_H", "_p0", "_p1")
    assert all(col is None for _, _, col, _ in list(fn.__code__.co_positions())[1:])
    # registered at an epoch that has moved on: stale at once
    late = types.FunctionType(body.__code__, g, "_fn8")
    stale_bodies.watch((late, form), before)
    assert late(None, "h", 3, 4) == "stale"


def test_bodies_compiled_in_memory_are_watched_only_when_they_refer_to_builtins_directly() -> None:
    from spell_runtime import stale_bodies

    def watched_after(program: str) -> int:
        state.reset_caches()
        before = stale_bodies.watched()
        fns = spellc.eval_string(program)
        return stale_bodies.watched() - before if fns is not None else -1

    assert watched_after("(defn h1 [x] (inc x))\nh1") == 1
    assert watched_after("(defn h2 [x] (my-own x))\nh2") == 0
    with optimisations(False):
        assert watched_after("(defn h3 [x] (inc x))\nh3") == 0
