"""The precompiled opening program (packages.md §3 step 4): bound to the program a run reads, never compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def fresh(script: str) -> list[str]:
    """Run ``script`` in a fresh interpreter (stdout lines): the opening applies only where no core name
    was rebound yet (``analyze.bound``'s epoch 0), which a long test session is not."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "runtime")])}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


BOUND = """
from spellc.loop.wrapper import root_program
from spellc.package.opening import Opening, compile_opening
from spellc.reader import read_all
from spell_runtime.printer import pr_str
opening = Opening.load(compile_opening())
text = root_program('count "these" words\\nplease')
program = read_all(text)[0]
unit = opening.instantiate(program, text)
print(unit is not None and any(v is program for k, v in unit.__globals__.items() if k.startswith("_k")))
print(pr_str(program))
for text in ['(quine completion (eval (do (quine prompt "x") (quote (!other)))))', "(+ 1 2)",
             '(quine completion (eval (do (quine prompt "x") (quote (!extend)) 3)))']:
    print(opening.instantiate(read_all(text)[0], text))
"""


def test_the_unit_is_bound_to_the_forms_actually_read_and_other_shapes_are_refused() -> None:
    lines = fresh(BOUND)
    assert lines[0] == "True"
    assert lines[1] == '(quine completion (eval (do (quine prompt "count \\"these\\" words\\nplease") (quote (!extend)))))'
    assert lines[2:] == ["None", "None", "None"]


RUN = """
import spellc.compiler as compiler
import spellc.loop.run as run_mod
from spellc.loop.wrapper import root_program
from spellc.package.opening import Opening, compile_opening
from spellc.providers.test_provider import TestProvider
from spellc.reader import read_all
from spell_runtime.printer import pr_str
opening = Opening.load(compile_opening())
compiled = []
real = compiler.compile_unit
def spy(form, *args, **kwargs):
    compiled.append(pr_str(form))
    return real(form, *args, **kwargs)
compiler.compile_unit = spy
real_prepare = run_mod.prepare
response = '(def w (count "a b c"))\\n(eval (quote (str w "/" prompt)))'
root = pr_str(read_all(root_program("the task"))[0])
for with_opening in (False, True):
    compiled.clear()
    def prepare(options, on_turn=None):
        prepared = real_prepare(options, on_turn)
        if with_opening:
            prepared.agent.opening = opening
        return prepared
    run_mod.prepare = prepare
    out = run_mod.run(prompt="the task", model_profile=TestProvider(responses=[response]), recover=False)
    print(with_opening, root in compiled, out.get("result"), out.get("error"))
"""


def test_a_run_with_the_opening_never_compiles_the_root_program() -> None:
    assert fresh(RUN) == ['False True 5/(quine prompt "the task") None',
                          'True False 5/(quine prompt "the task") None']


def test_a_process_that_rebound_a_core_name_compiles_the_opening_afresh() -> None:
    script = ("import spellc\nfrom spellc.analyze import bound\nspellc.eval_string('(defn inc [x] x)')\n"
              "assert bound.EPOCH[0] != 0, bound.EPOCH\n"
              "from spellc.package.opening import Opening, compile_opening\n"
              "print(Opening.load(compile_opening()).data['epoch'])")
    assert fresh(script) == ["0"]
