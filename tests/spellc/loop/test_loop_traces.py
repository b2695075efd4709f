"""Execution traces (runtime.md §8.2): one node per model call, linked through the call nesting."""

from __future__ import annotations

from pathlib import Path

from spell_runtime.data import Keyword

import spellc
from spellc.loop.traces import TraceRecorder
from spellc.providers.test_provider import TestProvider
from spellc.reader import read_first

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"


def test_trace_directory_of_a_nested_run(tmp_path: Path) -> None:
    trace_dir = tmp_path / "trace"
    provider = TestProvider(responses=["(def a 1) '(!extend)))", "'(str \"x\" (leaf-llm \"say y\"))))", "y"])
    out = spellc.run(init=START, model_profile=provider, trace_dir=str(trace_dir))
    assert out["result"] == "xy"
    assert out["trace_dir"] == str(trace_dir)
    assert sorted(p.name for p in trace_dir.iterdir()) == ["0000.spl", "0001.spl", "0002.txt", "trace.edn",
                                                           "tree.txt"]
    assert (trace_dir / "0000.spl").read_text() == "(quine completion (eval (do (def a 1) '(!extend)))"
    data = read_first((trace_dir / "trace.edn").read_text())
    nodes = list(data.get(Keyword("nodes")))
    assert [n.get(Keyword("id")) for n in nodes] == [0, 1, 2]
    assert [n.get(Keyword("parent")) for n in nodes] == [None, 0, 1]
    assert [n.get(Keyword("depth")) for n in nodes] == [1, 2, 3]
    assert [n.get(Keyword("variant")) for n in nodes] == [Keyword("default"), Keyword("default"), Keyword("leaf")]
    assert nodes[0].get(Keyword("value")) == "xy"
    assert nodes[1].get(Keyword("file")) == "0001.spl"
    assert nodes[0].get(Keyword("children"))[0].get(Keyword("child-id")) == 1
    assert nodes[0].get(Keyword("program")) is not None
    assert data.get(Keyword("next-id")) == 3 and data.get(Keyword("root")) == 0
    for node in nodes:
        assert node.get(Keyword("start-ms")) <= node.get(Keyword("end-ms"))
    tree = (trace_dir / "tree.txt").read_text().splitlines()
    assert tree[0] == '0 (quine completion (eval (do  \u2192 "xy"'
    assert tree[1].startswith("\u2514\u2500 1 (quine completion (eval (do (def a 1) (q...")
    assert tree[2].startswith("   \u2514\u2500 2 [leaf] say y \u2192 ")


def test_failed_runs_still_write_the_trace_with_the_verdict(tmp_path: Path) -> None:
    trace_dir = tmp_path / "t"
    out = spellc.run(init=START, model_profile=TestProvider(responses=[]), trace_dir=str(trace_dir))
    assert out["error"] == "TestProvider: no response for prompt"
    node = read_first((trace_dir / "trace.edn").read_text()).get(Keyword("nodes"))[0]
    assert node.get(Keyword("error")) == "TestProvider: no response for prompt"
    assert node.get(Keyword("fault", "spell")) == Keyword("environment")
    assert "\u2717 TestProvider: no response for ..." in (trace_dir / "tree.txt").read_text()


def test_tree_draws_siblings_with_branches() -> None:
    rec = TraceRecorder()
    root = rec.begin(None, 1, "default", "root")
    a = rec.begin(root, 2, "default", "a")
    rec.begin(a, 3, "leaf", "a1")
    rec.begin(root, 2, "default", "b")
    rec.fail(a, "boom")
    assert rec.tree_text().splitlines() == ["0 root", "\u251c\u2500 1 a \u2717 boom",
                                            "\u2502  \u2514\u2500 2 [leaf] a1", "\u2514\u2500 3 b"]


def test_warnings_are_recorded() -> None:
    rec = TraceRecorder()
    rec.warn("unanswered requests", {"n": 1})
    data = rec.as_data()
    assert data.get(Keyword("warnings"))[0].get(Keyword("message")) == "unanswered requests"
