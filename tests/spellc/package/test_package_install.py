"""An installed agent package, end to end: wheel → temporary venv → every way of running it (packages.md §3).

The venv is made with ``--system-site-packages`` so spellc and its dependencies come from the
running environment; the wheel is installed with ``--no-deps``. Everything runs in subprocesses with
the scripted test provider: no network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from spellc.package.builder import build_package

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "packages" / "tally-agent"
TIMEOUT = 120


class Venv:
    def __init__(self, root: Path, work: Path) -> None:
        self.root = root
        self.work = work
        self.python = str(root / "bin" / "python")

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        paths = [str(REPO), str(REPO / "runtime")]
        env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")])
        env["HOME"] = str(self.work / "home")
        return env

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.python, *args], capture_output=True, text=True, timeout=TIMEOUT,
                              cwd=self.work, env=self.env())

    def install(self, wheel: str) -> None:
        out = self.run("-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", "--no-index", wheel)
        assert out.returncode == 0, out.stderr


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    base = tmp_path_factory.mktemp("pkg")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(base / "venv")], check=True,
                   timeout=TIMEOUT)
    work = base / "work"
    (work / "home").mkdir(parents=True)
    (work / ".git").mkdir()
    v = Venv(base / "venv", work)
    v.install(build_package(str(EXAMPLE), str(base / "dist")).wheel)
    (work / "responses.json").write_text(json.dumps(['(def s (tally/score "ab cd ab"))\n(eval (quote (+ s 100)))']))
    yield v
    shutil.rmtree(base, ignore_errors=True)


def test_agents_list_shows_the_packaged_agent(venv: Venv) -> None:
    out = venv.run("-m", "spellc", "agents", "list")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:3] == ["tally", "tally-agent", "0.1.0"]
    assert "Scores texts by word counts" in out.stdout


def test_spellc_run_agent_and_python_m_run_the_scripted_session(venv: Venv) -> None:
    out = venv.run("-m", "spellc", "run", "--agent", "tally", "--prompt", "score", "--provider", "test",
                   "--responses", "responses.json", "-q")
    assert (out.returncode, out.stdout) == (0, "104\n"), out.stderr
    assert out.stderr == ""
    out = venv.run("-m", "spellpkg_tally_agent", "--prompt", "score", "--provider", "test",
                   "--responses", "responses.json", "-q")
    assert (out.returncode, out.stdout) == (0, "104\n"), out.stderr


def test_unknown_agent_is_a_usage_error(venv: Venv) -> None:
    out = venv.run("-m", "spellc", "run", "--agent", "nobody", "--prompt", "x", "--provider", "test",
                   "--responses", "responses.json")
    assert out.returncode == 2 and "Unknown agent: nobody (installed agents: tally-agent:tally" in out.stderr


SCRIPT = """
import json, spellc
from spellc.providers.test_provider import TestProvider
p = TestProvider(responses=[%r])
out = spellc.run(agent="tally", prompt="x", model_profile=p, recover=False)
print(json.dumps({"result": out.get("result"), "error": out.get("error"), "system": p.systems[0]}, default=spellc.pr_str))
"""


def run_api(venv: Venv, response: str) -> dict[str, str]:
    out = venv.run("-c", SCRIPT % response)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_spellc_run_agent_api_with_library_skills_and_prompt(venv: Venv) -> None:
    got = run_api(venv, '(eval (quote (pr-str (tally/counts "a b a"))))')
    assert got["result"] == '{"a" 2, "b" 1}'
    assert "You are tally, an agent that scores texts." in got["system"]
    assert "(tally/score text)  ; The score of a text" in got["system"]
    assert "tally-howto \u2014 How to score a text" in got["system"]
    assert "spellpkg_tally_agent:skills/tally-howto/SKILL.md" in got["system"]


def test_package_modules_join_discovery_after_the_users_folders(venv: Venv) -> None:
    expr = "(eval (quote (pr-str (:origin (patterns/catalog :relay)))))"
    profile = venv.work / "p.agent.edn"
    profile.write_text("{:namespaces {patterns stdlib/patterns strings stdlib/strings}}")
    script = ("import spellc\nfrom spellc.providers.test_provider import TestProvider\n"
              "print(spellc.run(agent_profile='p.agent.edn', prompt='x', "
              "model_profile=TestProvider(responses=[%r]))['result'])" % expr)
    out = venv.run("-c", script)
    assert out.stdout.strip() == '{:kind :package, :package "tally-agent"}', out.stderr
    user = venv.work / "home" / ".spell" / "modules"
    user.mkdir(parents=True)
    shutil.copy(EXAMPLE / "modules" / "relay.spl", user / "relay.spl")
    try:
        out = venv.run("-c", script)
        assert out.stdout.strip() == '{:kind :user, :path "%s"}' % (user / "relay.spl"), out.stderr
    finally:
        shutil.rmtree(user)


def test_incompatible_build_falls_back_to_the_shipped_sources_with_one_line(
        venv: Venv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spellc.package import installed

    real = installed.build_stamp
    monkeypatch.setattr(installed, "build_stamp", lambda: {**real(), "spellc": "0.0.1"})
    old = build_package(str(EXAMPLE), str(tmp_path / "old"), run_tests=False).wheel
    monkeypatch.setattr(installed, "build_stamp", real)
    venv.install(old)
    try:
        out = venv.run("-m", "spellc", "run", "--agent", "tally", "--prompt", "score", "--provider", "test",
                       "--responses", "responses.json", "-q")
        assert (out.returncode, out.stdout) == (0, "104\n"), out.stderr
        lines = out.stderr.splitlines()
        assert len(lines) == 1
        assert "built by spellc 0.0.1" in lines[0] and "compiling its shipped sources instead" in lines[0]
    finally:
        venv.install(build_package(str(EXAMPLE), str(tmp_path / "new"), run_tests=False).wheel)


def test_an_error_inside_a_packaged_library_fn_reads_as_from_source(venv: Venv) -> None:
    import spellc
    from spellc.providers.test_provider import TestProvider

    response = "(eval (quote (tally/ratio 1 0)))"
    packaged = run_api(venv, response)
    source = spellc.run(prompt="x", agent_profile=str(EXAMPLE / "agents" / "tally.agent.edn"),
                        model_profile=TestProvider(responses=[response]), recover=False)
    assert packaged["error"] and packaged["error"] == source["error"]
    assert "Function call failed: /: Divide by zero" in packaged["error"]


def test_available_agents_may_name_an_installed_agent(venv: Venv) -> None:
    (venv.work / "w.agent.edn").write_text("{:namespaces {agents stdlib/agents} :available-agents [tally]}")
    script = ("import spellc\nfrom spellc.providers.test_provider import TestProvider\n"
              "out = spellc.run(agent_profile='w.agent.edn', prompt='x', model_profile=TestProvider(responses=["
              "'(eval (quote (pr-str [(contains? workers :tally) (contains? workers :nobody)])))']))\n"
              "print(out.get('result'), out.get('error'))")
    out = venv.run("-c", script)
    assert out.stdout.strip() == "[true false] None", out.stderr


OPENING_SCRIPT = """
import spellc, spellc.compiler as c
from spellc.providers.test_provider import TestProvider
seen = []
real = c.compile_unit
def spy(form, *a, **k):
    seen.append(spellc.pr_str(form))
    return real(form, *a, **k)
c.compile_unit = spy
out = spellc.run(agent="tally", prompt="x", model_profile=TestProvider(responses=['(eval (quote (+ 1 2)))']))
print(out.get("result"), '(quine completion (eval (do (quine prompt "x") (quote (!extend)))))' in seen)
"""


def test_the_installed_agent_runs_its_precompiled_opening_program(venv: Venv) -> None:
    out = venv.run("-c", OPENING_SCRIPT)
    assert out.stdout.split() == ["3", "False"], out.stderr


def test_errors_inside_packaged_library_fns_name_the_shipped_source(venv: Venv) -> None:
    from lib_errors import CALLS

    out = venv.run(str(Path(__file__).with_name("lib_errors.py")), "tally")
    got = out.stdout.splitlines()
    assert [line[:len(want)] for line, want in zip(got, CALLS.values())] == list(CALLS.values()), out.stderr


RUN_PATH_IMPORTS = """
import sys
from spellc.cli import main
try:
    main(["run", "--agent", "tally", "--prompt", "score", "--provider", "test", "--responses", "responses.json", "-q"])
except SystemExit as e:
    assert not e.code, e.code
import mylib
print(mylib.word_count("a b c"), sorted(m for m in ("hy", "libcst") if m in sys.modules))
"""


def test_run_path_and_built_module_import_neither_hy_nor_libcst_in_the_venv(venv: Venv) -> None:
    (venv.work / "mylib.spl").write_text('(defn word-count [s] (count (strings/split s " ")))\n(defn valid? [n] (> n 1))\n')
    built = venv.run("-m", "spellc", "build", "mylib.spl", "-o", "mylib.py")
    assert built.returncode == 0, built.stderr
    out = venv.run("-c", RUN_PATH_IMPORTS)
    assert out.stdout.splitlines() == ["104", "3 []"], out.stderr


def test_a_hy_file_imports_a_built_spell_module_in_the_venv(venv: Venv) -> None:
    pytest.importorskip("hy", reason="the hy extra (in dev)")
    (venv.work / "hylib.spl").write_text('(defn valid? [n] (> n 1))\n(defn word-count [s] (count (strings/split s " ")))\n')
    assert venv.run("-m", "spellc", "build", "hylib.spl", "-o", "hylib.py").returncode == 0
    (venv.work / "use_hylib.hy").write_text('(import hylib)\n(print (hylib.valid? 2) (hylib.word-count "a b c d"))\n')
    out = venv.run("-c", "import hy\nimport use_hylib")
    assert out.stdout == "True 4\n", out.stderr


def test_bundled_modules_come_after_the_installed_package(venv: Venv) -> None:
    expr = "(eval (quote (pr-str (map (juxt :module (comp :kind :origin)) (patterns/catalog)))))"
    (venv.work / "p.agent.edn").write_text("{:namespaces {patterns stdlib/patterns strings stdlib/strings}}")
    script = ("import spellc\nfrom spellc.providers.test_provider import TestProvider\n"
              "print(spellc.run(agent_profile='p.agent.edn', prompt='x', "
              "model_profile=TestProvider(responses=[%r]))['result'])" % expr)
    out = venv.run("-c", script)
    kinds = dict(spellc_pairs(out.stdout))
    # the package's relay shadows the bundled relay; the bundled check-result shows as bundled
    assert kinds == {"relay": "package", "check-result": "bundled"}, out.stderr


def spellc_pairs(text: str) -> list[tuple[str, str]]:
    import spellc

    return [(m.name, k.name) for m, k in spellc.read_string(text.strip())]
