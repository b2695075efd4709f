"""The precompiled opening program (packages.md §3 step 4): bound to the program a run reads, never compiled."""

from __future__ import annotations

from typing import Any

import pytest
from spell_runtime.printer import pr_str

import spellc.compiler as compiler
from spellc.loop.wrapper import root_program
from spellc.package.opening import Opening, compile_opening
from spellc.providers.test_provider import TestProvider
from spellc.reader import read_all


@pytest.fixture(scope="module")
def opening() -> Opening:
    found = Opening.load(compile_opening())
    assert found is not None
    return found


def test_the_unit_is_bound_to_the_forms_actually_read(opening: Opening) -> None:
    text = root_program('count "these" words\nplease')
    program = read_all(text)[0]
    unit = opening.instantiate(program, text)
    assert unit is not None
    consts = [v for k, v in unit.__globals__.items() if k.startswith("_k")]
    assert any(v is program for v in consts)
    assert 'count \\"these\\" words\\nplease' in pr_str(program)


def test_another_program_shape_is_refused(opening: Opening) -> None:
    for text in ['(quine completion (eval (do (quine prompt "x") (quote (!other)))))', "(+ 1 2)",
                 '(quine completion (eval (do (quine prompt "x") (quote (!extend)) 3)))']:
        assert opening.instantiate(read_all(text)[0], text) is None, text


def test_a_run_with_the_opening_never_compiles_the_root_program(opening: Opening,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import spellc.loop.run as run_mod

    compiled: list[str] = []
    real = compiler.compile_unit

    def spy(form: Any, *args: Any, **kwargs: Any) -> Any:
        compiled.append(pr_str(form))
        return real(form, *args, **kwargs)

    monkeypatch.setattr(compiler, "compile_unit", spy)
    response = '(def w (count "a b c"))\n(eval (quote (str w "/" prompt)))'

    def run(with_opening: bool) -> Any:
        compiled.clear()
        real_prepare = run_mod.prepare

        def prepare(options: Any, on_turn: Any = None) -> Any:
            prepared = real_prepare(options, on_turn)
            if with_opening:
                prepared.agent.opening = opening
            return prepared

        monkeypatch.setattr(run_mod, "prepare", prepare)
        return run_mod.run(prompt="the task", model_profile=TestProvider(responses=[response]), recover=False)

    root = pr_str(read_all(root_program("the task"))[0])
    without = run(False)
    assert root in compiled
    with_it = run(True)
    assert root not in compiled, compiled
    assert with_it["result"] == without["result"] == '5/(quine prompt "the task")'


def test_a_process_that_rebound_a_core_name_compiles_the_opening_afresh() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[3]
    script = ("import spellc\nfrom spellc.analyze import bound\nspellc.eval_string('(defn inc [x] x)')\n"
              "assert bound.EPOCH[0] != 0, bound.EPOCH\n"
              "from spellc.package.opening import Opening, compile_opening\n"
              "print(Opening.load(compile_opening()).data['epoch'])")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(repo), str(repo / "runtime")])}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert out.stdout.strip() == "0", out.stderr
