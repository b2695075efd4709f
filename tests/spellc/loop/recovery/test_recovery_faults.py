"""Fault classification and the recovery gate (runtime.md §9)."""

from __future__ import annotations

from typing import Any

import pytest
from spell_runtime.data import Keyword, PList, Symbol, spell_map
from spell_runtime.errors import ControlError, HostError, SpellArgumentError, SpellError
from spell_runtime.errors_result import error_result
from spell_runtime.printer import display_str

from spellc.api import eval_string, spell_eval
from spellc.loop.recovery import (
    REASON_VERDICTS,
    Fault,
    classify,
    classify_host_exception,
    fault_for,
    fault_from_data,
    is_effect_head,
    should_recover,
    with_fault,
)
from spellc.providers.base import ProviderError
from spellc.reader import ReaderError, read_first

K_FAULT = Keyword("fault", "spell")
K_REASON = Keyword("reason", "spell")


def raised(source: str) -> SpellError:
    with pytest.raises(SpellError) as info:
        eval_string(source)
    return info.value


def converted(exc: BaseException, call: str) -> SpellError:
    """What the evaluator raises for a host exception at a call site: a SpellError chained to the original."""
    form = read_first(call)
    assert isinstance(form, PList)
    try:
        try:
            raise exc
        except Exception as original:
            message = original.message if isinstance(original, HostError) else str(original)
            raise SpellError("Function call failed: %s: %s" % (display_str(form.first), message), form) from None
    except SpellError as err:
        return err
    raise AssertionError("unreachable")


def verdict(x: Any) -> tuple[str, str]:
    fault = classify(x)
    return fault.verdict, fault.reason


CASES = [
    ("(missing 1)", "unbound-symbol"),
    ("(strings/nope 1)", "namespace-lookup"),
    ("(def files (io/ls \".\"))", "effect-outside-eval"),
    ("(blocking/await 1)", "future-only"),
    ("((fn [x] x) 1 2)", "arity"),
    ("(inc)", "arity"),
    ("(map (fn [x y] x) [1])", "arity"),
    ("(when)", "arity"),
    ("(prune 1 2)", "macro-expansion"),
    ("(first-line 1)", "macro-expansion"),
    ("(def)", "macro-expansion"),
    ("(defmacro m [x] (missing-in-macro)) (m 1)", "macro-expansion"),
    ("(reopen 5)", "invalid-argument"),
    ("(quine completion (eval (do '(io/sh \"make\" :timeout 60))))", "invalid-argument"),
    ("(quine completion (eval (do '(io/read-file \"a\" \"x\"))))", "invalid-argument"),
    ("(throw \"boom\")", "thrown"),
    ("(throw {:a 1})", "thrown"),
    ("(throw nil)", "thrown"),
    ("(map (fn [x] (throw \"Unbound symbol: fake\")) [1])", "thrown"),
    ("(quine completion (eval (do '(throw \"x\"))))", "thrown"),
    ("(/ 1 0)", "expression-runtime"),
    ("(nth [] 3)", "expression-runtime"),
    ("(+ 1 \"a\")", "expression-runtime"),
    ("(count 5)", "expression-runtime"),
    ("(for [x 5] x)", "expression-runtime"),
    ("(quine completion (eval (do '(/ 1 0))))", "expression-runtime"),
    ("(eval '(eval '(zzz)))", "unbound-symbol"),
    ("(map (fn [x] (sqrt x)) [1])", "unbound-symbol"),
]


@pytest.mark.parametrize(("source", "reason"), CASES)
def test_real_failures_as_result_maps(source: str, reason: str) -> None:
    result = spell_eval(source if not source.startswith("(defmacro") else "(do %s)" % source)
    assert verdict(result) == ("document", reason)


@pytest.mark.parametrize(("source", "reason"), CASES)
def test_real_failures_as_exceptions(source: str, reason: str) -> None:
    assert verdict(raised(source)) == ("document", reason)


def test_reader_errors() -> None:
    with pytest.raises(ReaderError) as info:
        read_first("\\invalidchar")
    assert verdict(info.value) == ("document", "reader-error")
    assert verdict(spell_map(Keyword("err"), "Reader error: Unknown reader error")) == ("document", "reader-error")


def test_effect_host_failure_is_environment() -> None:
    # §9.5: an effect function hits an unexpected PermissionError
    err = converted(PermissionError(13, "Permission denied"), '(io/stat "/root")')
    assert verdict(err) == ("environment", "host-function")
    assert verdict(converted(HostError("the run ended"), "(io/sh \"ls\")")) == ("environment", "host-function")
    assert verdict(converted(HostError("!llm-self requires an active agent handle"), '(!llm-self "x")')) == \
        ("environment", "host-function")


def test_argument_errors_by_class_and_by_text() -> None:
    assert verdict(converted(SpellArgumentError("bad range"), '(io/read-file "a" 0)')) == \
        ("document", "invalid-argument")
    assert verdict(converted(HostError("Context character limit must be an integer of at least 128"),
                             "(serialize v 10)")) == ("document", "invalid-argument")
    as_map = spell_map(Keyword("err"), "Function call failed: !llm-self: !llm-self options must be a map with only "
                       "an optional boolean :receive? {:option :receive?}",
                       Keyword("expr"), read_first("(!llm-self p {:receive? 1})"))
    assert verdict(as_map) == ("document", "invalid-argument")


def test_internal_bugs_are_unknown() -> None:
    # §9.5: snapshot code raises KeyError on a weird value (a spellc bug)
    assert verdict(converted(KeyError("x"), "(!print v)")) == ("unknown", "internal")
    assert verdict(converted(AttributeError("'NoneType' object has no attribute 'x'"), "(count v)")) == \
        ("unknown", "internal")
    assert verdict(RuntimeError("machinery")) == ("unknown", "internal")
    assert verdict(KeyError("x")) == ("unknown", "internal")
    assert verdict(HostError("whatever")) == ("unknown", "internal")
    assert verdict(SpellArgumentError("bad")) == ("document", "invalid-argument")


def test_value_errors_of_pure_builtins_are_the_documents() -> None:
    assert verdict(converted(ZeroDivisionError("division by zero"), "(quot 1 0)")) == ("document", "expression-runtime")
    assert verdict(converted(OverflowError("integer overflow"), "(inc x)")) == ("document", "expression-runtime")


def test_effect_failure_without_exception_uses_the_head() -> None:
    io_map = spell_map(Keyword("err"), "Function call failed: io/stat: disk on fire", Keyword("expr"),
                       read_first('(io/stat "x")'))
    assert verdict(io_map) == ("environment", "host-function")
    mcp = spell_map(Keyword("err"), "Function call failed: gh/search: boom", Keyword("expr"), read_first("(gh/search 1)"))
    assert verdict(mcp) == ("document", "expression-runtime")
    assert classify(mcp, effect_namespaces={"gh"}).reason == "host-function"


def test_provider_failures() -> None:
    # §9.5: provider returns HTTP 500 through all retries
    assert verdict(ProviderError("HTTP 500", reason="http-5xx", status=500)) == ("environment", "provider")
    err = converted(ProviderError("TestProvider: no response for prompt"), '(leaf-llm "x")')
    assert verdict(err) == ("environment", "provider")


def test_inner_failure_verdict_is_kept_through_wrappers() -> None:
    # rule 4: eval (or !llm-self) failing because an inner evaluation failed takes the inner verdict
    inner = spell_map(Keyword("err"), "Function call failed: io/stat: disk on fire", Keyword("expr"),
                      read_first('(io/stat "x")'))
    outer = spell_map(Keyword("err"), "Function call failed: eval: Function call failed: io/stat: disk on fire",
                      Keyword("expr"), read_first("(eval x)"), Keyword("result"), inner)
    assert verdict(outer) == ("environment", "host-function")
    child = spell_map(Keyword("err"), "Function call failed: !llm-self: Unbound symbol: q", Keyword("expr"),
                      read_first('(!llm-self "p")'), Keyword("result"),
                      spell_map(Keyword("err"), "Unbound symbol: q", Keyword("spell/completion-error"), True))
    assert verdict(child) == ("document", "unbound-symbol")


def test_stamps_win_and_are_never_overwritten() -> None:
    stamped = with_fault(spell_map(Keyword("err"), "Unbound symbol: x"), fault_for("host-function"))
    assert verdict(stamped) == ("environment", "host-function")
    assert with_fault(stamped, fault_for("unbound-symbol")) is stamped
    err = raised("(missing 1)")
    err.extra[K_FAULT] = Keyword("environment")
    err.extra[K_REASON] = Keyword("provider")
    assert verdict(err) == ("environment", "provider")
    assert verdict(error_result(err)) == ("environment", "provider")
    host = HostError("x", with_fault(None, fault_for("format")))
    assert verdict(converted(host, "(f 1)")) == ("document", "format")


def test_typed_exceptions() -> None:
    def typed(kind: str, *extra: Any) -> ControlError:
        return ControlError("x", spell_map(Keyword("type"), Keyword(kind), *extra))

    for kind, reason in [("budget-exceeded", "budget-exceeded"), ("depth-exceeded", "depth-exceeded"),
                         ("interactive-interrupt", "interrupted"), ("coordinator-closed", "interrupted"),
                         ("agent-in-computation-future", "agent-misuse"), ("synchronous-agent-call", "agent-misuse"),
                         ("agent-blocking-call", "agent-misuse"), ("stale-computation-lifecycle", "agent-misuse"),
                         ("coordinator-capacity", "coordinator-capacity"), ("invalid-context-limit", "unclassified")]:
        fault = classify(typed(kind))
        assert fault.reason == reason and fault.terminal
        assert fault.verdict == REASON_VERDICTS[reason]
    # runtime.md §11.8: capacity is the environment's limit, agent-call misuse is the program's
    assert classify(typed("coordinator-capacity")).verdict == "environment"
    assert classify(typed("synchronous-agent-call")).verdict == "document"
    exhausted = classify(typed("recovery-exhausted", K_FAULT, Keyword("document")))
    assert (exhausted.verdict, exhausted.reason, exhausted.terminal) == ("document", "recovery-exhausted", True)
    assert classify(typed("recovery-exhausted")).verdict == "unknown"
    refused = classify(typed("sleep-refused"))
    assert (refused.verdict, refused.terminal) == ("document", False)
    data_only = spell_map(Keyword("type"), Keyword("depth-exceeded"), Keyword("depth"), 3)
    assert classify(data_only).reason == "depth-exceeded"
    assert classify(ControlError("no data")).reason == "unclassified"


def test_classify_host_exception_for_the_evaluator() -> None:
    head = Symbol("stat", "io")
    assert classify_host_exception(PermissionError("denied"), head).reason == "host-function"
    assert classify_host_exception(ZeroDivisionError(), Symbol("/")).reason == "expression-runtime"
    assert classify_host_exception(SpellArgumentError("bad"), head).reason == "invalid-argument"
    assert classify_host_exception(HostError("Wrong number of args (0) passed to: clojure.core/inc"),
                                   Symbol("inc")).reason == "arity"
    inner = error_result(raised("(missing 1)"))
    assert classify_host_exception(HostError("Unbound symbol: missing", None, inner), Symbol("eval")).reason == \
        "unbound-symbol"
    assert classify_host_exception(ProviderError("HTTP 500"), Symbol("leaf-llm")).reason == "provider"
    assert classify_host_exception(KeyError("k"), Symbol("count")).reason == "internal"


def test_effect_heads() -> None:
    assert is_effect_head(Symbol("ls", "io"))
    assert is_effect_head(Symbol("x", "io-read"))
    assert is_effect_head(Symbol("!llm-self"))
    assert not is_effect_head(Symbol("trim", "strings"))
    assert not is_effect_head(Symbol("count"))
    assert not is_effect_head(Keyword("a"))
    assert not is_effect_head(None)


def test_every_reason_has_its_verdict() -> None:
    for reason, v in REASON_VERDICTS.items():
        assert fault_for(reason).verdict == v
    assert fault_for("recovery-exhausted").verdict == "unknown"
    assert fault_for("recovery-exhausted", "document").verdict == "document"
    assert fault_for("nonsense").verdict == "unknown"


@pytest.mark.parametrize(("fault", "recover_unknown", "retried", "expected"), [
    (fault_for("unbound-symbol"), False, False, True),
    (fault_for("unbound-symbol"), False, True, True),
    (fault_for("host-function"), True, False, False),
    (fault_for("provider"), True, False, False),
    (fault_for("internal"), False, False, False),
    (fault_for("internal"), True, False, True),
    (fault_for("internal"), True, True, False),
    (fault_for("unclassified"), True, False, True),
    (fault_for("depth-exceeded", terminal=True), True, False, False),
    (fault_for("recovery-exhausted", "document", terminal=True), True, False, False),
])
def test_should_recover(fault: Fault, recover_unknown: bool, retried: bool, expected: bool) -> None:
    assert should_recover(fault, recover_unknown, retried) is expected


def test_with_fault_and_fault_from_data() -> None:
    data = with_fault(None, fault_for("provider"))
    assert list(data.items()) == [(K_FAULT, Keyword("environment")), (K_REASON, Keyword("provider"))]
    assert fault_from_data(data) == fault_for("provider")
    assert fault_from_data(spell_map(K_REASON, "not-a-keyword")) is None
    assert fault_from_data(None) is None
    appended = with_fault(spell_map(Keyword("err"), "m"), fault_for("arity"))
    assert list(appended.keys())[:1] == [Keyword("err")]
    assert fault_for("arity").reason_keyword is Keyword("arity")
    assert fault_for("arity").verdict_keyword is Keyword("document")


def test_successful_results_are_unclassified() -> None:
    assert classify(spell_eval("(+ 1 2)")).reason == "unclassified"
    assert classify(42).reason == "unclassified"
