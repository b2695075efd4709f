"""Where a deadline timeout (``--eval-timeout``) is reported, with optimisations on and off.

The timeout is delivered asynchronously, on whatever instruction is running when the deadline
passes (``spell_runtime.limits``), so the two switches — which run different instructions — can
stop at different places; what must hold both ways is that the position is inside the body that
was running, at the call or operator being evaluated. It used to be the running fn's whole
``defn`` form whenever the shot landed on a body's entry or prologue: nearly always for a
recursive fn with optimisations on (self-calls enter the body directly), now and then with them
off. Each program here writes its ``defn`` heads on lines of their own, so any position on a
head line (or on the line of the top-level call) is that bug.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from optimise_programs import static_core_names, timeout_positions
from spell_runtime import limits
from spell_runtime.errors import SpellError

import spellc

CORE = ("+", "-", "*", "<", "=", "inc", "dec", "map", "count")


@pytest.fixture(autouse=True)
def _static_core() -> Iterator[None]:
    yield from static_core_names(*CORE)


# (program, the lines its running bodies stand on)
PROGRAMS = {
    "self-recursion": ("(defn f [n]\n"
                       "  (if (= n 0) 0 (+ 1 (f (dec n)))))\n"
                       "(defn drive [k]\n"
                       "  (loop [i 0] (if (< i k) (do (f 300) (recur (inc i))) i)))\n"
                       "(drive 100000000000)\n", {2, 4}),
    "loop": ("(defn spin [n]\n"
             "  (loop [i 0] (if (< i n) (recur (inc i)) i)))\n"
             "\n"
             "(+ 1 (spin 100000000000000))\n", {2}),
    "mutual-recursion": ("(defn even2 [n]\n"
                         "  (if (= n 0) true (odd2 (dec n))))\n"
                         "(defn odd2 [n]\n"
                         "  (if (= n 0) false (even2 (dec n))))\n"
                         "(defn drive [k]\n"
                         "  (loop [i 0] (if (< i k) (do (even2 40) (recur (inc i))) i)))\n"
                         "(drive 100000000000)\n", {2, 4, 6}),
    "fn-value": ("(defn drive [k]\n"
                 "  (let [add (fn [b]\n"
                 "              (+ b 1))]\n"
                 "    (loop [i 0] (if (< i k) (recur (add i)) i))))\n"
                 "(drive 100000000000000)\n", {3, 4}),
    "applied-by-map": ("(defn h [x]\n"
                       "  (* x 2))\n"
                       "(defn drive [k]\n"
                       "  (loop [i 0] (if (< i k) (do (count (map h [1 2 3 4])) (recur (inc i))) i)))\n"
                       "(drive 100000000000)\n", {2, 4}),
    "caller-parameter": ("(defn add-x [v]\n"
                         "  (+ v x))\n"
                         "(defn drive [x]\n"
                         "  (loop [i 0] (if (< i x) (recur (+ i (add-x 1) (- x))) i)))\n"
                         "(drive 100000000000)\n", {2, 4}),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_timeout_is_placed_in_the_running_body_both_ways(name: str) -> None:
    text, body_lines = PROGRAMS[name]
    on, off = timeout_positions(text)
    for switch, position in (("on", on), ("off", off)):
        assert position is not None, switch
        line, column, end_line, end_column = position
        assert line in body_lines and end_line == line, (switch, position)
        assert column > 1, (switch, position)  # a form inside the body, never the body's own line start


def _frozen_host_fn() -> Any:
    """A host function whose code claims a frozen importlib file name, raising the timeout signal."""
    namespace: dict[str, Any] = {"EvalTimeout": limits.EvalTimeout}
    exec(compile("def frozen_host(x):\n    raise EvalTimeout()\n", "<frozen importlib._bootstrap>", "exec"),
         namespace)
    return namespace["frozen_host"]


def test_frames_outside_compiled_spell_are_skipped_whatever_their_file_name() -> None:
    """A shot landing in importlib's frozen frames (no ``.py`` name either) is placed at the Spell
    call that was running, not at importlib's line (it was ``prog.spl:405:1`` with optimisations
    off, where builtins are reached through ``support``)."""
    env = {spellc.symbol("host"): _frozen_host_fn()}
    for on in (True, False):
        with spellc.compiler.optimisations(on):
            with pytest.raises(limits.EvalTimeout) as info:
                spellc.spell_eval("(do\n  (inc\n    (host 1)))", env)
        position = limits._spell_position(info.value.__traceback__)
        assert position is not None and position[:2] == (3, 4), (on, position)


def test_timeout_message_and_reason_are_unchanged() -> None:
    with pytest.raises(SpellError) as info:
        spellc.eval_string("(loop [] (recur))", "<gen>", eval_timeout_sec=0.1)
    assert str(info.value) == "Evaluation timed out after 0.1 s"
