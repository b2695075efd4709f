"""The incremental turn path equals the full one (issue 14): same prefixes, same results.

Each session runs twice — with ``SPELLC_FULL_TURNS=1`` (every completion rendered and
read in full) and without — and the requests the model received must be
byte-identical. The incremental run also has ``SPELLC_CHECK_INCREMENTAL=1`` (set for
the whole suite in tests/conftest.py), which compares every resumed read with the full
read, forms and spans included; and each session asserts that the resumed read was
actually taken, so the comparison cannot pass vacuously.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from spell_runtime import gensym, library, replay

import spellc
from spellc.loop.incremental import read as incremental_read
from spellc.providers.test_provider import TestProvider

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"

library.load()


def run_session(responses: list[str], init: str = START, **kw: Any) -> tuple[Any, list[str]]:
    gensym._counter = itertools.count(1)  # both runs draw the same ``%`` parameter numbers
    provider = TestProvider(responses=responses)
    out = spellc.run(model_profile=provider, init=init, **kw)
    return out.get("result", out.get("error")), list(provider.requests)


def both_ways(monkeypatch: pytest.MonkeyPatch, responses: list[str], init: str = START,
              **kw: Any) -> tuple[Any, list[str], int]:
    """(result, requests, resumed reads) of the incremental run, after checking it against the full run."""
    resumed = [0]
    original = incremental_read.read_after

    def counting(cp: Any, response: str) -> Any:
        got = original(cp, response)
        resumed[0] += got is not None
        return got

    monkeypatch.setattr(incremental_read, "read_after", counting)
    monkeypatch.setenv("SPELLC_FULL_TURNS", "1")
    replay.clear()
    full = run_session(responses, init, **kw)
    assert resumed[0] == 0
    monkeypatch.delenv("SPELLC_FULL_TURNS")
    replay.clear()
    incremental = run_session(responses, init, **kw)
    assert incremental[1] == full[1]
    assert spellc.pr_str(incremental[0]) == spellc.pr_str(full[0])
    return incremental[0], incremental[1], resumed[0]


def test_growing_session_resumes_every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    responses = ["(def v%d %d) '(!extend)))" % (k, k) for k in range(1, 30)] + ["(+ v1 v29))))"]
    result, requests, resumed = both_ways(monkeypatch, responses)
    assert result == 30
    assert len(requests) == 30
    assert resumed == 29  # every completion after the first prefix spellc rendered itself


def test_prune_rethink_and_persist(monkeypatch: pytest.MonkeyPatch) -> None:
    responses = [
        "(def a 1) (def b 2) (prune) '(!extend)))",
        "(think \"try\") (def m (+ a 40)) (rethink \"m is a + 40\") '(!extend)))",
        "(persist total (+ a 10)) '(!extend)))",
        "(persist total (+ total 1)) (def c [1 2 {:k \"v\"}]) '(!extend)))",
        "(def junk 9) (prune) '(!extend)))",
        "[a total (count c)]))))",
    ]
    result, requests, resumed = both_ways(monkeypatch, responses)
    assert spellc.pr_str(result) == "[1 12 3]"
    assert "(persist total 11)" in requests[3]
    assert requests[4].count("(persist total 12)") == 2 and "junk" not in requests[5]
    assert "(def b 2)" not in requests[1] and "(prune)" not in requests[1]
    assert '(think "m is a + 40")' in requests[2] and "(def m" not in requests[2]
    assert resumed >= 5


def test_escaped_strings_comments_and_odd_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    responses = [
        '(def s "a \\"quoted\\" \\\\ line\\nnext") ; a comment (with parens\n \'(!extend)))',
        '\n// a C-style comment line\n(def t "latex \\alpha and \\beta") \'(!extend)))',
        "(def u\n  {:k   [1\n  2]})\n;; trailing comment ) ) )\n'(!extend)))",
        '(def r #"[a-z]+") (def w (str s t)) \'(!extend)))',
        "[(count w) (:k u)]",
    ]
    result, requests, resumed = both_ways(monkeypatch, responses)
    assert spellc.pr_str(result) == '[43 [1 2]]'  # 22 + 21 characters
    assert '(def t "latex \\\\alpha and \\beta")' in requests[2]  # \\a repaired, \\b a valid escape
    assert resumed >= 4


def test_reader_error_recovers_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    responses = [
        "(def x 1) '(!extend)))",
        "(def y [1 2) '(!extend)))",  # a bracket mismatch: reader recovery
        "(def y [1 2]) '(!extend)))",  # continues the recovery program (x is gone with the old one)
        "(count y)))))",
    ]
    result, requests, resumed = both_ways(monkeypatch, responses)
    assert result == 2
    assert "_recovery_prompt" in requests[2] and "(def y [1 2) " in requests[2]
    assert resumed >= 1


def test_eval_error_recovers_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    responses = [
        "(def x 1) '(!extend)))",
        "(def z (/ x 0)) '(!extend)))",
        "(def z 5) '(!extend)))",
        "z)))))",
    ]
    result, requests, _ = both_ways(monkeypatch, responses)
    assert result == 5
    assert "Divide by zero" in requests[2]


def test_fn_literals_in_responses(monkeypatch: pytest.MonkeyPatch) -> None:
    """``#(...)`` in a response draws gensym numbers in the same order both ways (and in the check)."""
    responses = [
        "(def g (fn [x] (+ x 1))) '(!extend)))",
        "(def f #(* % 2)) '(!extend)))",
        "(def h #(+ %1 %2)) '(!extend)))",
        "[(f 3) (g 3) (h 1 2)]))))",
    ]
    result, requests, resumed = both_ways(monkeypatch, responses)
    assert spellc.pr_str(result) == "[6 4 3]"
    assert "(def f (fn* [p1__" in requests[2]
    assert resumed == 3


def test_replayed_definitions_give_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pure leading definitions are applied from a checkpoint from the second turn on."""
    responses = [
        "(def xs [1 2 3]) (defn dbl [x] (* 2 x)) '(!extend)))",
        "(def ys (map inc xs)) (def n (count xs)) '(!extend)))",
        "(def m {:a (first xs) :b (get xs 2)}) '(!extend)))",
        "(def zs (vec (map dbl xs))) '(!extend)))",  # calls a user function: evaluated every turn
        "[n (:b m) (vec ys) zs (dbl 5)]))))",
    ]
    applied: list[int] = []
    original = replay.replay

    def counting(D: Any, elems: Any) -> Any:
        cp = original(D, elems)
        applied.append(len(cp.forms) if cp is not None else 0)
        return cp

    monkeypatch.setattr(replay, "replay", counting)
    result, _, _ = both_ways(monkeypatch, responses)
    assert spellc.pr_str(result) == "[3 3 [2 3 4] [2 4 6] 10]"
    assert max(applied) >= 5  # xs, dbl, the quote, ys, n: replayed in the last turns


def test_effects_are_never_replayed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A definition whose value comes from an effect or randomness is evaluated every turn."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.txt").write_text("1")
    responses = [
        "(def a 1) (def r (rand-int 1000000)) '(!extend)))",
        "(def b 2) '(!extend)))",
        "(def c 3) '(!extend)))",
        "[a b c]))))",
    ]
    seen: list[Any] = []
    from spell_runtime import purity

    original = purity.facts

    def spy(form: Any) -> Any:
        found = original(form)
        seen.append((spellc.pr_str(form), found is not None))
        return found

    monkeypatch.setattr("spell_runtime.replay.facts", spy)
    result, _, _ = both_ways(monkeypatch, responses)
    assert spellc.pr_str(result) == "[1 2 3]"
    assert ("(def r (rand-int 1000000))", False) in seen
    assert ("(def a 1)", True) in seen
