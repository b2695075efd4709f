"""``spellc run`` through click's runner: programs, prompts, scripted models, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from spellc.cli import main


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["run", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_program_that_never_calls_the_model_just_evaluates(tmp_path: Path) -> None:
    prog = tmp_path / "p.spl"
    prog.write_text("(def a 20)\n(+ a 22)\n")
    assert invoke(str(prog)) == (0, "42\n", "")


def test_prompt_with_scripted_responses_prints_progress(tmp_path: Path) -> None:
    responses = tmp_path / "r.json"
    responses.write_text(json.dumps(["(def x \"done\"))"]))
    code, out, err = invoke("--prompt", "Say done", "--responses", str(responses))
    assert (code, out) == (0, '"done"\n')
    assert err.startswith("turn 1  depth 1  prefix ")


def test_agent_program_with_a_model_profile(tmp_path: Path) -> None:
    prog = tmp_path / "agent.spl"
    prog.write_text("(quine completion (eval (do (quine prompt \"two turns\") '(!extend))))")
    profile = tmp_path / "m.edn"
    profile.write_text('{:provider :test :responses ["(def a 1) \'(!extend)))" "(+ a 1))))"]}')
    trace = tmp_path / "trace"
    code, out, _ = invoke(str(prog), "--model-profile", str(profile), "--trace-dir", str(trace), "-q")
    assert (code, out) == (0, "2\n")
    assert (trace / "0001.spl").exists()


def test_model_call_without_a_model_is_a_run_error() -> None:
    code, out, err = invoke("--prompt", "x", "-q")
    assert (code, out) == (1, "")
    assert err == "error: No model configured: pass --model-profile or --provider\n"


def test_spell_errors_exit_1(tmp_path: Path) -> None:
    prog = tmp_path / "p.spl"
    prog.write_text("(/ 1 0)")
    agent = tmp_path / "strict.agent.edn"
    agent.write_text("{:recover false}")
    code, _, err = invoke(str(prog), "--agent-profile", str(agent))
    assert code == 1
    assert err == "error: Function call failed: /: Divide by zero\n"


def test_reader_errors_name_the_position(tmp_path: Path) -> None:
    prog = tmp_path / "bad.spl"
    prog.write_text("(def a")
    code, _, err = invoke(str(prog))
    assert code == 1
    assert err == "%s:1:7: EOF while reading\n" % prog


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    prog = tmp_path / "p.spl"
    prog.write_text("1")
    assert invoke(str(prog), "--context-max-chars", "5")[0] == 2
    assert invoke(str(prog), "--prompt", "x")[0] == 2
    assert invoke()[0] == 2
    assert invoke(str(prog), "--provider", "bogus")[0] == 2


def test_depth_option(tmp_path: Path) -> None:
    responses = tmp_path / "r.json"
    responses.write_text(json.dumps(["'(!extend)))"] * 3))
    code, _, err = invoke("--prompt", "deep", "--responses", str(responses), "--depth", "2", "-q")
    assert code == 1
    assert err == "error: LLM recursion limit exceeded\n"


def test_progress_names_each_spawned_agents_turn(tmp_path: Path) -> None:
    prog = tmp_path / "agents.spl"
    prog.write_text("(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))")
    agent_profile = tmp_path / "a.agent.edn"
    agent_profile.write_text("{:namespaces {agents stdlib/agents}}")
    model_profile = tmp_path / "m.edn"
    model_profile.write_text(
        '{:provider :test :response-rules [{:includes ["(quine prompt \\"Five.\\")"] :response "5)))"}'
        ' {:includes ["wait resumed"] :response ":done)))"}]'
        ' :response "\'(agents/!spawn-ask \\"Five.\\" :kid))))"}')
    code, out, err = invoke(str(prog), "--model-profile", str(model_profile), "--agent-profile", str(agent_profile))
    assert (code, out) == (0, ":done\n")
    lines = err.splitlines()
    assert len(lines) == 3
    assert [line.endswith("  :kid") for line in lines].count(True) == 1


# Counts the reads of ``spellc run`` by wrapping ``entry._run``, what every reading entry point calls.
# In a child on the source compiler: compiled (``spellc.native``), the reader's modules call ``_run``
# inside their library, past any wrapper.
_COUNT_READS = r"""
import json, sys
from click.testing import CliRunner
from spellc.reader import entry
reads = []
real = entry._run
def counting(text, *args):
    reads.append(text)
    return real(text, *args)
entry._run = counting
from spellc.cli import main
results = [CliRunner().invoke(main, ["run", path]) for path in sys.argv[1:]]
print(json.dumps([[r.exit_code, r.stdout, r.stderr] for r in results] + [reads]))
"""


def test_a_program_file_is_read_once(tmp_path: Path) -> None:
    """The reader-error check up front and the evaluation share one read of the text (issue 12)."""
    prog, bad = tmp_path / "p.spl", tmp_path / "bad.spl"
    prog.write_text("(defn f [x] (* x 2))\n(f 21)\n")
    bad.write_text("(defn f [x] (/ x 0))\n(f 21)\n")
    env = dict(os.environ, SPELLC_PURE_COMPILER="1")
    done = subprocess.run([sys.executable, "-c", _COUNT_READS, str(prog), str(bad)], capture_output=True,
                          text=True, env=env, check=True)
    (code, out, err), (bad_code, _, bad_err), reads = json.loads(done.stdout)
    assert (code, out, err) == (0, "42\n", "")
    assert reads[:1] == ["(defn f [x] (* x 2))\n(f 21)\n"]
    assert bad_code == 1 and bad_err.startswith("%s:1:13: Function call failed: /: Divide by zero" % bad)
    assert len(reads) == 2
