"""One model call (runtime.md §5.2) and the per-completion pipeline (§6.2).

``call_model`` sends a prefix, cleans the answer, appends it to the prefix and
hands the completion to ``evaluate_completion``, which balances, reads the first
form and evaluates it in a fresh environment one level deeper. Failures go
through the recovery seams (``seams``) in the order of §6.2: count the own
failure (which may end the lifecycle), try the deterministic namespace fixup,
then rewrite the program so the model sees what went wrong. Typed exceptions
(``ControlError``) are never caught here: they end the run (§6.12).
"""

from __future__ import annotations

import time
from typing import Any, Final, Optional

from spell_runtime import limits
from spell_runtime.data import Keyword, SpellMap, Symbol, plist
from spell_runtime.errors import ControlError, SpellError
from spell_runtime.errors_result import error_result

from ..providers.base import ModelRequest, ProviderError
from ..reader import ReaderError, balance_parens, read_all
from . import gcpolicy, seams
from .agent import Agent, TurnEvent, completion_env
from .agents.receipt import receive_at_evaluation
from .cleaning import clean_response
from .incremental import read_completion
from .on_error import report_failure
from .usage import check_budget

DEPTH_EXCEEDED: Final = "LLM recursion limit exceeded"
READER_PREFIX: Final = "Reader error: "
UNKNOWN_READER_ERROR: Final = "Unknown reader error"

K_TYPE: Final = Keyword("type")
K_DEPTH: Final = Keyword("depth")
K_LIMIT: Final = Keyword("limit")
K_RESULT: Final = Keyword("result")
K_PROGRAM: Final = Keyword("program")
K_PARSE_ERROR: Final = Keyword("parse-error")
K_COMPLETION_ERROR: Final = Keyword("completion-error", "spell")
K_REASON: Final = Keyword("reason", "spell")
K_PROVIDER: Final = Keyword("provider")
K_IN: Final = Keyword("in")
S_DO: Final = Symbol("do")


def check_depth(agent: Agent, depth: int) -> None:
    """§5.8: a completion evaluated at ``depth`` may call the model only while ``depth < :depth``."""
    limit = agent.run.depth_limit
    if limit is not None and depth >= limit:
        raise ControlError(DEPTH_EXCEEDED, SpellMap.from_pairs([(K_TYPE, Keyword("depth-exceeded")),
                                                                (K_DEPTH, depth), (K_LIMIT, limit)]))


def call_model(agent: Agent, prefix: str, depth: int, receive: bool, parent: Optional[int]) -> Any:
    """Continue ``prefix`` with the model from a completion evaluated at ``depth``; the child's value."""
    check_depth(agent, depth)
    gcpolicy.turn_boundary()
    prefill = agent.provider.supports_prefill
    request = ModelRequest(prefix=prefix, system=agent.system_prompt, prefill=prefill, model=agent.model,
                           reasoning_effort=agent.reasoning_effort)
    trace = agent.run.trace
    node = trace.begin(parent, depth, "default", prefix, handle=agent.handle) if trace is not None else None
    agent.model_calls += 1
    started = time.perf_counter()
    agent.run.log("=== LLM call (depth %d) ===\nPrompt: %s\n" % (depth, prefix))
    try:
        with limits.paused():  # the evaluation deadline bounds the program, not the provider's latency
            response = agent.provider.complete(request)
    except ProviderError as e:
        if trace is not None and node is not None:
            trace.fail(node, e.message, Keyword("environment"), Keyword("provider"))
        _report_turn(agent, depth, prefix, "", started, e.message)
        raise
    agent.run.usage.add(response.model or agent.model, response.usage)
    agent.run.log("Response: %s\n" % response.text)
    text = clean_response(prefix, response.text, prefill=prefill)
    completion = prefix + text
    if trace is not None and node is not None:
        trace.update(node, response=response.text, raw_text=completion)
    _report_turn(agent, depth, prefix, response.text, started, None)
    try:
        check_budget(agent.run.usage, agent.run.budget)
        value = evaluate_completion(agent, completion, depth + 1, receive, node, prefix=prefix)
    except BaseException as e:
        if trace is not None and node is not None:
            fault = seams.classify(e, agent.namespaces) if isinstance(e, Exception) else None
            trace.fail(node, str(e), _kw(fault, "verdict"), _kw(fault, "reason"))
        raise
    if trace is not None and node is not None:
        trace.succeed(node, value)
    return value


def evaluate_completion(agent: Agent, raw_text: str, depth: int, receive: bool, node: Optional[int],
                        *, root: bool = False, prefix: Optional[str] = None) -> Any:
    """§6.2: the value of a completion (or of the root program), with recovery; raises on failure.

    ``prefix`` is the text the model continued, when this completion is one (see ``_read_program``).
    """
    counter = agent.counter
    frame = seams.new_frame(counter)
    try:
        text, program = _read_program(raw_text, root, prefix)
    except ReaderError as e:
        return _reader_failure(agent, e, balance_parens(raw_text), depth, receive, node, frame)
    source_text: Optional[str] = text
    # -- multi-agent receipt point (runtime.md §5.9, §11.5); the step itself is spellc/loop/agents/receipt.py
    if receive:
        received = receive_at_evaluation(agent, program, depth, node, root)
        if received is not program:
            program, source_text = received, None  # the text no longer spells the program: compile from forms
    # -- end of the receipt hook
    unit = None
    if root and agent.opening is not None and source_text is not None:
        unit = agent.opening.instantiate(program, source_text)  # a package's precompiled root program
    return evaluate_form(agent, program, source_text, depth, receive, node, frame, unit)


def evaluate_form(agent: Agent, program: Any, text: Optional[str], depth: int, receive: bool, node: Optional[int],
                  frame: Any = None, unit: Any = None) -> Any:
    """Evaluate an already read program with recovery (§6.2); a wait's resumed checkpoint enters here too."""
    counter = agent.counter
    if frame is None:
        frame = seams.new_frame(counter)
    if agent.run.trace is not None and node is not None:
        agent.run.trace.update(node, program=program)
    effects_before = _effect_count(agent)
    calls_before = agent.model_calls
    D = completion_env(agent, depth, frame, node, receive)
    try:
        value = _run(agent, D, program, text, unit)
    except SpellError as e:
        effects_ran = _effect_count(agent) != effects_before or agent.model_calls != calls_before
        return _eval_failure(agent, e, program, depth, receive, node, frame, effects_ran)
    seams.record_success(counter, frame)
    return value


def _read_program(raw_text: str, root: bool, prefix: Optional[str]) -> tuple[str, Any]:
    """(balanced text, program): a completion's first form, read from the checkpoint remembered with
    its prefix when there is one (``incremental``); a root program may hold several forms (one ``do``)."""
    if not root:
        return read_completion(raw_text, prefix)
    text = balance_parens(raw_text)
    forms = read_all(text)
    if len(forms) == 1:
        return text, forms[0]
    return text, (plist([S_DO, *forms]) if forms else None)


def _run(agent: Agent, D: dict[Any, Any], program: Any, text: Optional[str] = None, unit: Any = None) -> Any:
    """Evaluate a completion; its long body compiles form by form, cached by each form's text,
    so a turn compiles only the forms that are new (see spellc.analyze.ir.SubUnits).

    Every evaluation — the completion and each recovery program — runs under the run's
    limits (``spell_runtime.limits``): a timeout or a collection too large is a Spell error
    here, classified as a document fault, so it reaches recovery like any other.

    ``unit``, when given, is the program already compiled (a package's opening program)."""
    with limits.deadline(agent.run.eval_timeout), limits.collection_limit(agent.run.max_collection_size):
        if unit is not None:
            return unit(D, [])
        from ..compiler import run_form

        return run_form(D, program, "<completion>", text, incremental=True)[0]


def _reader_failure(agent: Agent, e: ReaderError, text: str, depth: int, receive: bool, node: Optional[int],
                    frame: Any) -> Any:
    message = e.message or UNKNOWN_READER_ERROR
    failure = SpellError(READER_PREFIX + message)
    fault = seams.classify(e, agent.namespaces)
    failure.extra.update(seams.stamp(None, fault).items())
    failure.extra[K_PARSE_ERROR] = message
    try:
        seams.record_failure(agent.counter, frame, "reader", message, agent.handle, fault)
    except ControlError:
        report_failure(agent, fault, failure.message, "reader", None, False)
        raise
    report_failure(agent, fault, failure.message, "reader", None, agent.recovery_enabled)
    if not agent.recovery_enabled:
        raise failure
    program = seams.reader_recovery_program(text, message, receive, fault)
    try:
        return _run(agent, completion_env(agent, depth, None, node, receive), program)
    except SpellError as inner:
        inner.extra[K_PARSE_ERROR] = message
        raise inner from None


def _eval_failure(agent: Agent, e: SpellError, program: Any, depth: int, receive: bool, node: Optional[int],
                  frame: Any, effects_ran: bool) -> Any:
    result = error_result(e)
    if is_propagated(result):
        raise e
    fault = seams.classify(e, agent.namespaces)
    e.extra.update(seams.stamp(None, fault).items())
    failing_form = result.get(K_IN)
    if not seams.should_recover(fault, agent.recover_unknown, agent.counter):
        report_failure(agent, fault, e.message, "eval", failing_form, False)
        raise e
    try:
        seams.record_failure(agent.counter, frame, "eval", e.message, agent.handle, fault)
    except ControlError:
        report_failure(agent, fault, e.message, "eval", failing_form, False)
        raise
    report_failure(agent, fault, e.message, "eval", failing_form, agent.recovery_enabled)
    if not agent.recovery_enabled:
        raise e
    fixed = _fixup(agent, program, result, effects_ran)
    if fixed is not None:
        try:
            return _run(agent, completion_env(agent, depth, None, node, receive, _failure_env(e)), fixed)
        except SpellError:
            pass
    recovery = seams.same_tail_program(program, result, receive, fault)
    if recovery is None:
        recovery = seams.inert_recovery_program(program, result, receive, fault)
    try:
        return _run(agent, completion_env(agent, depth, None, node, receive), recovery)
    except SpellError as inner:
        if provider_origin(error_result(inner)) is not None:
            raise inner from None  # the repair never got a model answer: report the provider (§6.9)
        raise e from None


def _fixup(agent: Agent, program: Any, result: SpellMap, effects_ran: bool) -> Any:
    """A custom recovery function's program, or the deterministic namespace fixup (§6.3, §6.10)."""
    if callable(agent.recover):
        return agent.recover(result.assoc(K_PROGRAM, program))
    namespaces = dict(_core_namespaces())
    namespaces.update(agent.namespaces)
    return seams.namespace_fixup(program, result, namespaces, effects_ran)


def _core_namespaces() -> dict[str, SpellMap]:
    from spell_runtime.core.registry import BUILTINS

    out: dict[str, SpellMap] = {}
    for name in ("strings", "math", "builtins", "skills"):
        ns = BUILTINS.get(Symbol(name))
        if isinstance(ns, SpellMap):
            out[name] = ns
    return out


def _failure_env(e: SpellError) -> dict[Any, Any]:
    return dict(e.env) if e.env else {}


def is_propagated(result: Any) -> bool:
    """True when the failure, or any failure it was caused by, crossed a completion boundary."""
    seen = 0
    while isinstance(result, SpellMap) and seen < 10000:
        if result.get(K_COMPLETION_ERROR) is True:
            return True
        result = result.get(K_RESULT)
        seen += 1
    return False


def provider_origin(result: Any) -> Optional[SpellMap]:
    """The provider failure a propagated error started from, if that is where it started."""
    seen = 0
    while isinstance(result, SpellMap) and seen < 10000:
        if result.get(K_REASON) is K_PROVIDER and result.get(K_COMPLETION_ERROR) is True:
            return result
        result = result.get(K_RESULT)
        seen += 1
    return None


def _effect_count(agent: Agent) -> int:
    return int(agent.run.effects.effect_count)


def _kw(fault: Any, attr: str) -> Optional[Keyword]:
    value = getattr(fault, attr, None)
    return Keyword(value) if isinstance(value, str) else None


def _report_turn(agent: Agent, depth: int, prefix: str, response: str, started: float, error: Optional[str]) -> None:
    with agent.run.turn_lock:
        agent.run.turns += 1
        turn = agent.run.turns
    hook = agent.run.on_turn
    if hook is not None:
        hook(TurnEvent(turn, depth, len(prefix), len(response), time.perf_counter() - started, error,
                       handle=agent.handle))

