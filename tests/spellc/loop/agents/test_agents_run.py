"""Multi-agent runs end to end through ``spellc.run`` (runtime.md §11), scripted by prefix text.

Each agent's answers are chosen by what its prefix contains, as the reference's
multi-agent tests do; every run is bounded by the provider's short latencies and
the scenario-sized programs.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import pytest
from spell_runtime.data import Keyword
from spell_runtime.printer import pr_str

import spellc
from spellc.loop.options import RunOptionsError
from spellc.loop.run import execute

PROFILE = "{:namespaces {agents stdlib/agents globals stdlib/globals}}"
START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
MSGS = ("(filter (fn [f] (and (seq? f) (= 'def (first f)) (some? (re-find \"^msg-\" (str (second f))))))"
        " (rest (second (last completion))))")
LAST_MSG = "(eval (second (last %s)))" % MSGS


def profile(tmp_path: Path, text: str = PROFILE, name: str = "agents.agent.edn") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_agents(tmp_path: Path, answer: Callable[[str], Optional[str]], **options: Any) -> tuple[dict[str, Any], Any]:
    provider = spellc.TestProvider(response_fn=answer)
    options.setdefault("agent_profile", profile(tmp_path))
    return spellc.run(init=START, model_profile=provider, **options), provider


def printed(outcome: dict[str, Any]) -> str:
    assert "error" not in outcome, outcome.get("error")
    return pr_str(outcome["result"])


def test_many_children_report_once_in_target_order(tmp_path: Path) -> None:
    specs = " ".join('["Child %d." :c%d]' % (i, i) for i in range(12))

    def answer(prefix: str) -> Optional[str]:
        found = re.search(r'\(quine prompt "Child (\d+)\."\)', prefix)
        if found:
            return "%s)))" % found.group(1)
        if "wait resumed" in prefix:
            return "(:body %s))))" % LAST_MSG
        return "'(agents/!spawn-ask [%s]))))" % specs

    outcome, provider = run_agents(tmp_path, answer)
    expected = "[%s]" % " ".join("{:from :c%d :body %d}" % (i, i) for i in range(12))
    assert printed(outcome).replace(",", "") == expected
    assert len(provider.requests) == 12 + 2


def test_cancel_detaches_the_edge_and_children_keep_running(tmp_path: Path) -> None:
    child_calls: list[str] = []

    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Slow.")' in prefix:
            child_calls.append(prefix)
            time.sleep(0.5)  # still generating when the parent cancels
            return ":late)))"
        return ("'(let [e (agents/spawn-ask \"Slow.\" :s) c (agents/cancel e)] "
                "[(:status c) (:id c) (count (agents/out-edges)) (:status (agents/status :s))]))))")

    outcome, _ = run_agents(tmp_path, answer)
    assert printed(outcome) == "[:cancelled 1 0 :awake]"


def test_pre_eval_receipt_text_is_exact(tmp_path: Path) -> None:
    answers = iter(["'(do (agents/send (agents/current-handle) [1 \"two\"]) (!extend)))))", ":proposed)))",
                    "(:body %s))))" % LAST_MSG])
    outcome, provider = run_agents(tmp_path, lambda prefix: next(answers))
    assert printed(outcome) == '[1 "two"]'
    pattern = (r':proposed \(think "pre-eval: tail not run"\) \(def (msg-\d+) \(quote \{:from :main :body \[1 "two"\]\}\)\)'
               r' \(quote \(!extend completion\)\) $')
    assert re.search(pattern, provider.requests[2]), provider.requests[2]


def test_only_the_body_is_clipped_in_a_receipt(tmp_path: Path) -> None:
    big = "x" * 5000
    answers = iter(["'(do (agents/send (agents/current-handle) (apply str (repeat 5000 \"x\"))) (!extend)))))",
                    ":proposed)))", "[(:from %s) (< (count (:body %s)) 1000)]))))" % (LAST_MSG, LAST_MSG)])
    outcome, provider = run_agents(tmp_path, lambda prefix: next(answers), context_max_chars=300)
    assert printed(outcome) == "[:main true]"
    assert big not in provider.requests[2] and ":from :main" in provider.requests[2]


def test_receive_errors_have_the_reference_texts(tmp_path: Path) -> None:
    program = ("'(vec (map (fn [f] (try (f) (catch e (:message e)))) [(fn [] (receive \"text\")) "
               "(fn [] (receive '(quine \"x\" (eval (do 1)))))]))))")
    outcome, _ = run_agents(tmp_path, lambda prefix: program)
    messages = outcome["result"]
    assert "receive expects a canonical completed quine: reopen expects a quine form" in messages[0]
    assert "receive requires a quine with a symbol name" in messages[1]


def test_future_runs_in_a_snapshot_of_the_callers_environment(tmp_path: Path) -> None:
    inner = ("(do (def x 1) (let [f (future (do (def x 2) x)) g (future x)] (def x 5) "
             "[(blocking/await f) (blocking/await g) x]))")
    answers = iter(["'(!ask-await (future %s)))))" % inner, "(:body %s))))" % LAST_MSG])
    outcome, _ = run_agents(tmp_path, lambda prefix: next(answers))
    # the nested future's def stays in its own table; a future sees the environment of its creation
    assert printed(outcome) == "[2 1 5]"


def test_blocking_namespace_inside_futures(tmp_path: Path) -> None:
    program = ("'(!ask-await (future [(blocking/await-all [(future 1) (future 2)]) (blocking/pmap inc [1 2 3]) "
               "(blocking/plet [a (+ 1 1) b (* 2 3)] (+ a b))]))))")
    answers = iter([program, "(:body %s))))" % LAST_MSG])
    outcome, _ = run_agents(tmp_path, lambda prefix: next(answers))
    assert printed(outcome) == "[[1 2] [2 3 4] 8]"


def test_blocking_request_token_gets_the_childs_answer(tmp_path: Path) -> None:
    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Serve.")' in prefix:
            return ":answer)))" if "dormant resumed" in prefix else ":ready)))"
        if "wait resumed" in prefix:
            return "(:body %s))))" % LAST_MSG
        return "'(do (agents/spawn \"Serve.\" :w) (!ask-await (future (blocking/send-await :w :q)))))))"

    outcome, _ = run_agents(tmp_path, answer)
    assert printed(outcome) in (":answer", ":ready")  # the request may reach :w at startup or when dormant


def test_closed_run_stops_children_without_more_model_calls(tmp_path: Path) -> None:
    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Outlive the run.")' in prefix:
            if "wait resumed" in prefix or "(think" in prefix:
                return ":never)))"
            time.sleep(0.3)
            return "'(agents/!ask :main :question))))"
        return "'(do (agents/spawn \"Outlive the run.\" :late) :root-done))))"

    outcome, provider = run_agents(tmp_path, answer)
    assert printed(outcome) == ":root-done"
    deadline = time.monotonic() + 10
    while any(t.name == "spell-agent-:late" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(t.name == "spell-agent-:late" for t in threading.enumerate())
    assert not any(":never" in p for p in provider.requests)
    assert len(provider.requests) == 2  # the child's ask met a closed coordinator: no further turn


AGENT_CALLS = [
    ("(agents/ask [] 1)", "agents/ask: Wait targets must be nonempty, distinct, and exclude their source"),
    ("(agents/ask [:main] 1)", "agents/ask: Wait targets must be nonempty, distinct, and exclude their source"),
    ("(agents/ask [:k :k] 1)", "agents/ask: Wait targets must be nonempty, distinct, and exclude their source"),
    ("(agents/ask :ghost 1)", "agents/ask: Handle not registered {:handle :ghost}"),
    ("(agents/send :ghost 1)", "agents/send: Handle not registered {:handle :ghost}"),
    ("(agents/reply {:expects-response true} 1)", "agents/reply: Actionable request has no edge-id"),
    ("(agents/reply {:from [:a :b]} 1)", "agents/reply: reply: requires a singleton sender"),
    ("(agents/reply {:body 1} 1)", "agents/reply: reply: requires a singleton sender"),
    ("(agents/!reply-ask {:from [:a]} 1)", "agents/!reply-ask: !reply-ask: requires a singleton sender"),
    ("(agents/!reply-ask {:from :k :expects-response true :edge-id 99} 1)",
     "agents/!reply-ask: Incoming request slot is no longer pending"),
    ("(agents/cancel 99)", "agents/cancel: No outgoing edge owned by caller"),
    ("(agents/spawn-ask [[\"a\" :x :y]])",
     "spawn-ask: explicit 3-item entries must be [compiled-agent prompt handle-name]"),
    ("(agents/spawn-ask [[\"a\"]])", "spawn-ask: each vector entry must be [compiled-agent prompt]"),
    ("(agents/spawn \"task\" \"prompt\" :h)", "agents/spawn requires a compiled agent (leaf-llm has no lifecycle)"),
    ("(agents/spawn \"task\" :k)", "agents/spawn: Handle already registered {:handle :k}"),
    ("(agents/spawn-ask \"task\" :main)", "agents/spawn-ask: Handle already registered {:handle :main}"),
    ("(agents/status :ghost)", "agents/status: Handle not registered {:handle :ghost}"),
    ("(agents/register :r 42)", "register: completion text must be a string"),
    ("(agents/register :r \"(+ 1 2)\")", "register: completion text must be a wrapper quine"),
    ("(agents/send :k)", "Wrong number of args (1) passed to: agents/send"),
    ("(agents/current-handle 1)", "Wrong number of args (1) passed to: agents/current-handle"),
    ("(!ask-await 42)", "!ask-await requires a future"),
]


def test_bad_input_to_agents_functions(tmp_path: Path) -> None:
    calls = " ".join("(fn [] %s)" % call for call, _ in AGENT_CALLS)

    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Idle.")' in prefix:
            return ":idle)))"
        return ("'(do (agents/spawn \"Idle.\" :k) (vec (map (fn [f] (try (f) :no-error (catch e (:message e)))) [%s])))))"
                % calls)

    outcome, _ = run_agents(tmp_path, answer)
    messages = list(outcome["result"])
    assert len(messages) == len(AGENT_CALLS)
    for (call, expected), message in zip(AGENT_CALLS, messages):
        assert isinstance(message, str) and expected in message, (call, message)


def test_waits_are_refused_inside_futures(tmp_path: Path) -> None:
    answers = iter(["'(!ask-await (future (agents/!wait))))))",
                    "(:future-await/error (:body %s)))))" % LAST_MSG])
    outcome, _ = run_agents(tmp_path, lambda prefix: next(answers))
    assert "!wait: requires an active agent context" in outcome["result"]


def test_refused_wait_ends_the_run_when_recovery_is_off(tmp_path: Path) -> None:
    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Ask back.")' in prefix:
            return "'(agents/!ask (agents/parent-handle) :q))))"
        if "wait resumed" in prefix:
            return "'(agents/!wait))))"
        return "'(agents/!spawn-ask \"Ask back.\" :kid))))"

    outcome, _ = run_agents(tmp_path, answer, recover=False)
    assert outcome["error"].endswith("Function call failed: agents/!wait: Cannot sleep without an outgoing edge newer than"
                                " every pending incoming edge {:type :sleep-refused, :handle :main, :out-edges"
                                " [{:id 1, :source :main, :targets [:kid], :created-seq 1}], :in-edges [{:id 2,"
                                " :source :kid, :targets [:main], :created-seq 2}]}"), outcome["error"]
    assert outcome["error_data"]["spell/fault"] == Keyword("document")


def test_on_error_is_called_once_per_failure_with_the_agents_handle(tmp_path: Path) -> None:
    events: list[Any] = []
    lock = threading.Lock()

    def record(event: Any) -> None:
        with lock:
            events.append(event)

    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Fail then succeed.")' in prefix:
            return ":fixed)))" if "_error" in prefix else "(missing-fn 1))))"
        if "wait resumed" in prefix:
            return "(:body %s))))" % LAST_MSG
        return "'(agents/!spawn-ask \"Fail then succeed.\" :kid))))"

    outcome, _ = run_agents(tmp_path, answer, on_error=record)
    assert printed(outcome) == ":fixed"
    assert len(events) == 1
    event = events[0]
    assert event.get(Keyword("handle")) == Keyword("kid")
    assert event.get(Keyword("reason")) == Keyword("unbound-symbol")
    assert event.get(Keyword("fault")) == Keyword("document")
    assert event.get(Keyword("phase")) == Keyword("eval")
    assert event.get(Keyword("recovered?")) is True


def test_on_error_callback_failure_is_only_a_trace_warning(tmp_path: Path) -> None:
    def explode(event: Any) -> None:
        raise RuntimeError("callback broke")

    answers = iter(["(missing 1))))", ":ok)))"])
    outcome, _ = run_agents(tmp_path, lambda prefix: next(answers), on_error=explode,
                            trace_dir=str(tmp_path / "trace"))
    assert printed(outcome) == ":ok"
    assert ":on-error callback failed: callback broke" in (tmp_path / "trace" / "trace.edn").read_text()


def test_on_error_must_be_callable(tmp_path: Path) -> None:
    with pytest.raises(RunOptionsError, match="Invalid :on-error, expected a function"):
        run_agents(tmp_path, lambda prefix: ":x)))", on_error=42)


@pytest.mark.parametrize("bad", [{"max-edges": 0}, {"max-edges": "3"}, {"size": 3}])
def test_coordinator_option_is_validated_by_run(tmp_path: Path, bad: dict[str, Any]) -> None:
    provider = spellc.TestProvider(response=":x)))")
    with pytest.raises(RunOptionsError, match="Coordinator options require positive integer :max-edges"):
        spellc.run(init=START, model_profile=provider, agent_profile=profile(tmp_path), coordinator=bad)
    assert provider.requests == []


def test_traces_have_a_folder_per_agent_and_the_edges(tmp_path: Path) -> None:
    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Return five.")' in prefix:
            return "5)))"
        if "wait resumed" in prefix:
            return ":done)))"
        return "'(agents/!spawn-ask \"Return five.\" :kid))))"

    trace = tmp_path / "trace"
    outcome, _ = run_agents(tmp_path, answer, trace_dir=str(trace))
    assert printed(outcome) == ":done"
    kid_files = sorted(p.name for p in (trace / "agents" / "kid").iterdir())
    main_files = sorted(p.name for p in (trace / "agents" / "main").iterdir())
    assert len(kid_files) == 1 and len(main_files) == 2
    assert "(quine prompt \"Return five.\")" in (trace / "agents" / "kid" / kid_files[0]).read_text()
    edn = (trace / "trace.edn").read_text()
    assert ":edges [{:event :created, :id 1, :source :main, :targets [:kid]" in edn
    assert "{:event :completed, :id 1" in edn
    assert ":handle :kid" in edn


def test_progress_events_name_each_agent(tmp_path: Path) -> None:
    events: list[Any] = []

    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Return five.")' in prefix:
            return "5)))"
        if "wait resumed" in prefix:
            return ":done)))"
        return "'(agents/!spawn-ask \"Return five.\" :kid))))"

    provider = spellc.TestProvider(response_fn=answer)
    outcome = execute({"init": START, "model-profile": provider, "agent-profile": profile(tmp_path)},
                      on_turn=events.append)
    assert pr_str(outcome["result"]) == ":done"
    assert sorted(e.handle.name for e in events) == ["kid", "main", "main"]
    assert sorted(e.turn for e in events) == [1, 2, 3]


def test_workers_from_available_agents(tmp_path: Path) -> None:
    profile(tmp_path, '{:agent-name "reviewer" :namespaces {agents stdlib/agents}}', "rev.agent.edn")
    main = profile(tmp_path, '{:namespaces {agents stdlib/agents} :available-agents ["rev.agent.edn"]}',
                   "main.agent.edn")

    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Review.")' in prefix:
            return "'(agents/current-handle))))"
        if "wait resumed" in prefix:
            return "(:body %s))))" % LAST_MSG
        return "'(agents/!spawn-ask workers/reviewer \"Review.\" :r))))"

    outcome, _ = run_agents(tmp_path, answer, agent_profile=main)
    assert printed(outcome) == ":r"
    direct, _ = run_agents(tmp_path, lambda prefix: "'(workers/reviewer \"x\"))))", agent_profile=main)
    assert direct["error"] == "Nested agents must use agents/spawn or agents/!spawn-ask"
    assert direct["error_data"]["type"] == Keyword("synchronous-agent-call")


def test_unknown_available_agent_fails_run(tmp_path: Path) -> None:
    main = profile(tmp_path, '{:available-agents ["missing.agent.edn"]}', "main.agent.edn")
    with pytest.raises(RunOptionsError, match="Unknown available agent: missing.agent.edn"):
        spellc.run(init=START, model_profile=spellc.TestProvider(response=":x)))"), agent_profile=main)


def test_registered_agent_starts_on_its_first_message(tmp_path: Path) -> None:
    saved = "(quine completion (eval (do (quine prompt \"Saved.\") (def base 40))))"

    def answer(prefix: str) -> Optional[str]:
        if "(def base 40)" in prefix and "dormant resumed" in prefix:
            return "(+ base (:body %s)))))" % LAST_MSG
        if "wait resumed" in prefix:
            return "(:body %s))))" % LAST_MSG
        return "'(do (agents/register :saved %s) (agents/!ask :saved 2)))))" % pr_str(saved)

    outcome, provider = run_agents(tmp_path, answer)
    assert printed(outcome) == "42"
    assert len(provider.requests) == 3  # register itself made no model call


def test_a_wait_without_a_receiving_checkpoint_is_refused_not_resumed_from_raw_text(tmp_path: Path) -> None:
    init = ("(eval (do '(do (agents/send (agents/current-handle) :m) "
            "(try (agents/!wait) (catch e (:message e))))))")
    provider = spellc.TestProvider(responses=[])
    outcome = spellc.run(init=init, model_profile=provider, agent_profile=profile(tmp_path))
    assert "!wait: no resumable checkpoint yet" in printed(outcome)
    assert provider.requests == []


def test_an_agent_that_outlives_its_run_stops_at_its_next_receiving_turn(tmp_path: Path) -> None:
    released = threading.Event()

    def answer(prefix: str) -> Optional[str]:
        if '(quine prompt "Keep going.")' in prefix:
            released.wait(10)  # generating while the run returns
            return "'(!extend))))"
        return "'(do (agents/spawn \"Keep going.\" :busy) :root-done))))"

    outcome, provider = run_agents(tmp_path, answer)
    assert printed(outcome) == ":root-done"
    released.set()
    deadline = time.monotonic() + 10
    while any(t.name == "spell-agent-:busy" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(t.name == "spell-agent-:busy" for t in threading.enumerate())
    assert len(provider.requests) == 2  # the child's completion met the closed coordinator before evaluating
