"""The worked examples of runtime.md §5.11 and the wrapper/context behaviours, as scripted sessions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from spell_runtime import library
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import Keyword, Symbol

import spellc
from spellc.providers.test_provider import TestProvider

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
OPEN = "(quine completion (eval (do "

library.load()
needs_snapshots = pytest.mark.skipif(Symbol("context-forms") not in BUILTINS,
                                     reason="display boundaries need the snapshot builtins")

def session(responses: list[str], **kw: Any) -> tuple[dict[str, Any], list[str]]:
    provider = TestProvider(responses=responses)
    if "init" not in kw and "prompt" not in kw:
        kw["init"] = START
    out = spellc.run(model_profile=provider, **kw)
    return out, provider.requests


def test_t1_start_of_a_prompt_run() -> None:
    out, requests = session(["(def x 42))"], prompt="Return 42")
    assert requests == ['(quine completion (eval (do (quine prompt "Return 42") (quote (!extend)) ']
    assert out["result"] == 42


@needs_snapshots
def test_t2_call_now() -> None:
    init = ('(quine completion (eval (do (quine prompt "Count.") (quote (!extend)) (def names ["a" "b" "c"]) '
            "'(!call-now n (count names)))))")
    out, requests = session(["n)))"], init=init)
    assert requests == ['(quine completion (eval (do (quine prompt "Count.") (quote (!extend)) '
                        '(def names ["a" "b" "c"]) (quote (!call-now n (count names))) (def n 3) ']
    assert out["result"] == 3


@needs_snapshots
def test_t3_peek_then_persist_then_extend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    lines = ["line %d" % i for i in range(1, 10)] + ["def f():", "    return 1", "", "tail"]
    (tmp_path / "src" / "app.py").write_text("\n".join(lines) + "\n")
    init = ("(quine completion (eval (do (quine prompt \"Fix f.\") (quote (!extend)) "
            "'(!peek page (io/read-lines \"src/app.py\" 10 13)))))")
    out, requests = session(["(persist body (nth (:out page) 1)) '(!extend))))", "body)))"], init=init)
    assert requests[0] == ('(quine completion (eval (do (quine prompt "Fix f.") (quote (!extend)) '
                           '(quote (!peek page (io/read-lines "src/app.py" 10 13))) (def page {:ok true :out '
                           '(first-line 10 [\n "def f():" ; 10\n "    return 1" ; 11\n "" ; 12\n]) :err nil '
                           ':truncated false}) (prune 2) ')
    assert requests[1] == ('(quine completion (eval (do (quine prompt "Fix f.") (quote (!extend)) '
                           '(persist body "    return 1") (quote (!extend)) ')
    assert out["result"] == "    return 1"


@needs_snapshots
def test_t4_print_with_a_per_call_target() -> None:
    out, requests = session(["'(!print {:max-chars 200} (+ 1 2) \"hi\")))", "5)))"])
    assert requests[1].endswith('(quote (!print {:max-chars 200} (+ 1 2) "hi")) 3 "hi" ')
    assert out["result"] == 5


def test_t5_rethink_drops_the_binding() -> None:
    out, requests = session(['(think "try regex") (def m (re-find "a+" "baaa")) '
                             '(rethink "regex works; m is \\"aaa\\"") \'(!extend)))', "1)))"])
    assert requests[1] == (OPEN + '(think "try regex") (think "regex works; m is \\"aaa\\"") (quote (!extend)) ')
    assert out["result"] == 1


def test_t6_wrap_cat_starts_a_fresh_context() -> None:
    out, requests = session(["(quine prompt \"Use two turns to return hello.\") (def junk 1) "
                             "'(!llm-self (wrap-cat prompt))))", "\"hello\")))"])
    assert requests[1] == '(quine completion (eval (do (quine prompt "Use two turns to return hello.") '
    assert out["result"] == "hello"


def test_t7_natural_language_self_call() -> None:
    out, requests = session(["'(!llm-self \"Summarize the README.\")))", "\"done\")))"])
    assert requests[1] == '(quine completion (eval (do (quine prompt "Summarize the README.") '
    assert out["result"] == "done"


@needs_snapshots
def test_t8_multi_binding_peek_is_pruned_at_the_next_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x").write_text("X")
    (tmp_path / "y").write_text("Y")
    out, requests = session(["'(!peek a (io/slurp \"x\") b (io/slurp \"y\"))))", "'(!extend)))", "0)))"])
    assert '(def a (quote {:ok true :out "X" :err nil :truncated false})) (def b ' in requests[1]
    assert requests[1].endswith("(prune 3) ")
    assert "!peek" not in requests[2] and "(def a" not in requests[2] and "(prune" not in requests[2]
    assert out["result"] == 0


def test_t9_depth_limit() -> None:
    out, requests = session(["'(!extend)))"] * 5, prompt="deep", depth=3)
    assert len(requests) == 2
    assert out["error"] == "LLM recursion limit exceeded"
    data = out["error_data"]
    assert (data["type"], data["depth"], data["limit"]) == (Keyword("depth-exceeded"), 3, 3)


# -- wrapper behaviours ---------------------------------------------------------------------------

def test_standard_start_hands_over_exactly_the_open_wrapper() -> None:
    out, requests = session(["42)))"])
    assert requests == [OPEN]
    assert out["result"] == 42


def test_nested_string_prefixes_and_values_flow_back() -> None:
    out, requests = session(["'(str \"hello \" (!llm-self \"(eval '(do \")))", "\"world\"))"],
                            init="(eval (do '(!llm-self \"(eval (do \" {:receive? true})))")
    assert requests == ["(eval (do ", "(eval '(do "]
    assert out["result"] == "hello world"


def test_trailing_prose_and_missing_closers() -> None:
    assert session(["42))) But wait, the answer (is wrong"])[0]["result"] == 42
    assert session(["(+ 40 2)"])[0]["result"] == 42


def test_fenced_answers_are_unwrapped() -> None:
    assert session(["```clojure\n(* 6 7)))\n```"])[0]["result"] == 42


def test_echoing_model_without_prefill() -> None:
    provider = TestProvider(responses=[OPEN + "(+ 1 2))))"], supports_prefill=False)
    assert spellc.run(init=START, model_profile=provider)["result"] == 3


def test_reopen_keeps_earlier_definitions() -> None:
    out, requests = session(["(def a 40) '(!llm-self (reopen completion))))", "(+ a 2))))"])
    assert requests[1] == OPEN + "(def a 40) (quote (!llm-self (reopen completion))) "
    assert out["result"] == 42


def test_prefix_is_canonical_every_turn() -> None:
    _, requests = session(["(def  a   'x) ; comment\n '(!extend)))", "a)))"])
    assert requests[1] == OPEN + "(def a (quote x)) (quote (!extend)) "


def test_prune_and_think_edits() -> None:
    _, requests = session(['(def a 1) (def b 2) (prune) (think "keep") \'(!extend)))', "a)))"])
    assert requests[1] == OPEN + '(def a 1) (think "keep") (quote (!extend)) '


def test_raw_reopen_does_not_apply_edit_markers() -> None:
    _, requests = session(["(def a 1) (prune) '(!llm-self (reopen completion))))", "1)))"])
    assert "(prune)" in requests[1]


def test_invalid_self_call_options_are_a_document_error_of_the_trailing_expression() -> None:
    out, requests = session(["'(!llm-self \"x\" {:receive? 1})))", "9)))"])
    assert "!llm-self options must be a map with only an optional boolean :receive?" in requests[1]
    assert ":reason :invalid-argument" in requests[1]
    assert out["result"] == 9


def test_effects_outside_eval_are_gated_with_the_hint() -> None:
    out, _ = session([], init="(do (io/ls \".\"))", recover=False)
    assert out["error"] == "io/ls: io/ is an effect namespace - use it in the trailing expression via eval"
    out, _ = session([], init="(!llm-self \"x\")", recover=False)
    assert out["error"] == "Unbound symbol: !llm-self"


def test_aliased_effect_namespace_from_an_agent_profile(tmp_path: Path) -> None:
    (tmp_path / "a.agent.edn").write_text("{:namespaces {files stdlib/io-read}}")
    (tmp_path / "f.txt").write_text("hi")
    init = "(eval (quote (:out (files/slurp \"%s\"))))" % (tmp_path / "f.txt")
    out, _ = session([], init=init, agent_profile=str(tmp_path / "a.agent.edn"))
    assert out["result"] == "hi"
    out, _ = session([], init="(files/slurp \"x\")", agent_profile=str(tmp_path / "a.agent.edn"), recover=False)
    assert out["error"] == "files/slurp: files/ is an effect namespace - use it in the trailing expression via eval"


def test_leaf_llm_is_plain_text() -> None:
    provider = TestProvider(responses=["```\nplain answer\n```"])
    out = spellc.run(init="(eval '(leaf-llm \"Say something\"))", model_profile=provider)
    assert out["result"] == "plain answer"
    assert provider.requests == ["Say something"]
    assert provider.systems == ["You are a helpful assistant. Respond concisely."]


def test_system_prompt_reaches_the_provider(tmp_path: Path) -> None:
    (tmp_path / "sys.txt").write_text("You are the test agent.")
    (tmp_path / "a.agent.edn").write_text('{:system-prompt {:file "sys.txt"}}')
    provider = TestProvider(responses=["1)"])
    spellc.run(prompt="x", model_profile=provider, agent_profile=str(tmp_path / "a.agent.edn"))
    system = provider.systems[0]
    assert "You are the test agent." in system
    assert "quoted" in system and "120%" in system and ":truncated" in system
    assert "CORE NAMESPACES" in system and "NAMESPACES" in system and "io/read-lines" in system
