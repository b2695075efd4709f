"""Modules bundled with spellc (packages.md §1: the last place of the discovery order): listed with their
bundled origin, overridden by any other copy, and working end to end with scripted model answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import pytest
from spell_runtime.data import Keyword
from spell_runtime.modfiles import BUNDLED_DIR, discovered, read_definition
from spell_runtime.printer import pr_str

import spellc

BUNDLED = ["check-result", "relay"]
PROFILE = "{:namespaces {agents stdlib/agents patterns stdlib/patterns strings stdlib/strings}}"
START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
MSGS = ("(filter (fn [f] (and (seq? f) (= 'def (first f)) (some? (re-find \"^msg-\" (str (second f))))))"
        " (rest (second (last completion))))")
LAST_MSG = "(eval (second (last %s)))" % MSGS


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.agent.edn").write_text(PROFILE)
    return tmp_path


def run(workdir: Path, answer: Any) -> Any:
    provider = spellc.TestProvider(response_fn=answer)
    out = spellc.run(init=START, agent_profile=str(workdir / "a.agent.edn"), model_profile=provider,
                     eval_timeout_sec=60)
    assert "error" not in out, out.get("error")
    return out["result"]


def test_every_bundled_module_reads_strictly_and_is_listed_as_bundled(workdir: Path) -> None:
    found = discovered(str(workdir), home=str(workdir / "home"))
    for name in BUNDLED:
        assert found[name].origin[Keyword("kind")] == Keyword("bundled")
        definition = read_definition(found[name])
        assert definition[Keyword("doc")]
    assert sorted(p.name[:-4] for p in Path(BUNDLED_DIR).glob("*.spl")) == BUNDLED

    def catalog(prefix: str) -> Optional[str]:
        return "'(pr-str (map (juxt :module :origin) (patterns/catalog)))))))"

    listed = spellc.read_string(run(workdir, catalog))
    origins = {m.name: o for m, o in listed}
    assert {name: origins[name][Keyword("kind")] for name in BUNDLED} == {n: Keyword("bundled") for n in BUNDLED}


def test_a_user_copy_overrides_the_bundled_module(workdir: Path) -> None:
    user = workdir / "home" / ".spell" / "modules"
    user.mkdir(parents=True)
    (user / "relay.spl").write_text('{:doc "Mine." :functions {:run {:doc "d" :requires [] :source (fn [x] x)}}}')
    found = discovered(str(workdir), home=str(workdir / "home"))
    assert found["relay"].origin[Keyword("kind")] == Keyword("user")
    assert found["check-result"].origin[Keyword("kind")] == Keyword("bundled")


@pytest.mark.parametrize(("verdict", "expected"), [("OK", "{:ok 4}"), ("WRONG: it is 5", '{:wrong "it is 5"}'),
                                                   ("no idea", '{:wrong "no idea"}')])
def test_check_result_asks_a_judge(workdir: Path, verdict: str, expected: str) -> None:
    questions = []

    def answer(prefix: str) -> str:
        if prefix.startswith("Verify this answer."):
            questions.append(prefix)
            return verdict
        return "'(do (patterns/install :check-result) (patterns/call :check-result :run \"2+2\" 4))))))"

    assert pr_str(run(workdir, answer)) == expected
    assert len(questions) == 1 and "Task: 2+2\n\nAnswer: 4\n\n" in questions[0]


def test_relay_verifies_claimed_solutions_and_carries_rejections(workdir: Path) -> None:
    verdicts = iter(["{:confirmed false :feedback \"3 is wrong\"}", "{:confirmed true :feedback \"checked\"}"])
    solve_messages = []

    def answer(prefix: str) -> str:
        if "reasoning worker in patterns/call :relay" in prefix:
            solve_messages.append(prefix)
            return "{:status :solved :report \"added\" :answer %d})))" % (3 if len(solve_messages) == 1 else 4)
        if "verification agent in patterns/call :relay" in prefix:
            return next(verdicts) + ")))"
        if "wait resumed" in prefix:
            return "(:body %s))))" % LAST_MSG
        return "'(do (patterns/install :relay) (patterns/call :relay :run {:problem \"2+2?\" :max-rounds 3}))))))"

    result = run(workdir, answer)
    assert result[Keyword("solved")] is True and result[Keyword("answer")] == 4
    rounds = result[Keyword("rounds")]
    assert [(r[Keyword("round")], r[Keyword("status")].name) for r in rounds] == [
        (0, "solved"), (0, "rejected"), (1, "solved")]
    assert rounds[1][Keyword("report")] == "3 is wrong"
    assert "3 is wrong" in solve_messages[1]  # the second fresh worker saw the first round's reports


def test_relay_without_a_problem_says_so(workdir: Path) -> None:
    def answer(prefix: str) -> str:
        return "'(do (patterns/install :relay) (patterns/call :relay :run \"  \"))))))"

    assert pr_str(run(workdir, answer)) == '{:solved false, :rounds [], :error "relay requires non-empty :problem"}'
