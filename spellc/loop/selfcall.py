"""The effect builtins that call the model: ``!llm-self`` (runtime.md §5.4) and ``leaf-llm`` (§2.5).

They exist only inside ``eval`` (the agent installs them as extra builtins) and
find their agent, depth and completion frame in the calling binding table's
context. A child completion's unrecovered failure comes back out of
``!llm-self`` marked ``:spell/completion-error``: it is the child's mistake,
already counted there, so no ancestor counts or repairs it again (§6.9). A
provider failure is marked the same way and carries its environment verdict.
"""

from __future__ import annotations

import threading
from typing import Any, Final

from spell_runtime.context import context_of
from spell_runtime.core.registry import member
from spell_runtime.data import Keyword, SpellMap, Symbol, spell_map
from spell_runtime.errors import ControlError, HostError, SpellArgumentError, SpellError
from spell_runtime.errors_result import error_result

from ..providers.base import ModelRequest, ProviderError
from . import seams
from .agent import DEPTH_KEY, FRAME_KEY, NODE_KEY, Agent, agent_of
from .cleaning import strip_code_fences
from .pipeline import K_COMPLETION_ERROR, call_model
from .prompts import LEAF_SYSTEM
from .wrapper import prompt_prefix

NO_AGENT: Final = "!llm-self requires an active agent handle"
IN_FUTURE: Final = "Self-calls cannot run inside computation futures"
BAD_OPTIONS: Final = "!llm-self options must be a map with only an optional boolean :receive?"

K_RECEIVE: Final = Keyword("receive?")
K_OPTION: Final = Keyword("option")
K_PROMPT: Final = Keyword("prompt")
K_TYPE: Final = Keyword("type")
K_ERR: Final = Keyword("err")
K_FAULT: Final = Keyword("fault", "spell")
K_REASON: Final = Keyword("reason", "spell")

_ABSENT: Final = object()


def receive_option(options: Any) -> bool:
    """The validated ``:receive?`` choice (omitted options mean ``{:receive? false}``)."""
    if options is _ABSENT:
        return False
    if not isinstance(options, SpellMap) or any(k is not K_RECEIVE for k in options.keys()):
        raise SpellArgumentError(BAD_OPTIONS, spell_map(K_OPTION, K_RECEIVE))
    value = options.get(K_RECEIVE, False)
    if type(value) is not bool:
        raise SpellArgumentError(BAD_OPTIONS, spell_map(K_OPTION, K_RECEIVE))
    return value


def _active_agent(D: Any, prompt: Any) -> Agent:
    agent = agent_of(D)
    if agent is None:
        raise HostError(NO_AGENT, spell_map(K_PROMPT, prompt))
    if threading.get_ident() != agent.thread_id:
        raise ControlError(IN_FUTURE, spell_map(K_TYPE, Keyword("agent-in-computation-future")))
    return agent


def llm_self(D: Any, prompt: Any, options: Any = _ABSENT) -> Any:
    """``(!llm-self prompt options?)``: continue a program with the model; the child's value."""
    agent = _active_agent(D, prompt)
    receive = receive_option(options)
    opts = context_of(D).options
    prefix = prompt_prefix(prompt, D)
    seams.record_success(agent.counter, opts.get(FRAME_KEY))
    try:
        return call_model(agent, prefix, int(opts.get(DEPTH_KEY, 1)), receive, opts.get(NODE_KEY))
    except SpellError as e:
        raise HostError(e.message, None, error_result(e).assoc(K_COMPLETION_ERROR, True)) from None
    except ProviderError as e:
        raise HostError(e.message, None, provider_failure(e)) from None


def provider_failure(e: ProviderError) -> SpellMap:
    """The result map a provider failure travels as: environment fault, never the model's to repair."""
    pairs: list[tuple[Any, Any]] = [(K_ERR, e.message)]
    for key, value in (e.data or {}).items():
        pairs.append((Keyword(key) if isinstance(key, str) else key, _spell_value(value)))
    pairs += [(K_COMPLETION_ERROR, True), (K_FAULT, Keyword("environment")), (K_REASON, Keyword("provider"))]
    return SpellMap.from_pairs(pairs)


def _spell_value(value: Any) -> Any:
    from spell_runtime.data import vec

    if isinstance(value, (list, tuple)):
        return vec(_spell_value(v) for v in value)
    if isinstance(value, dict):
        return SpellMap.from_pairs((Keyword(k) if isinstance(k, str) else k, _spell_value(v))
                                   for k, v in value.items())
    return value


def leaf_llm(D: Any, prompt: Any) -> str:
    """``(leaf-llm prompt)``: plain text in, text out — no parsing, no evaluation."""
    from spell_runtime.printer import display_str

    agent = _active_agent(D, prompt)
    opts = context_of(D).options
    depth = int(opts.get(DEPTH_KEY, 1))  # a leaf call evaluates nothing, so it does not deepen the chain
    text = prompt if isinstance(prompt, str) else display_str(prompt)
    trace = agent.run.trace
    node = trace.begin(opts.get(NODE_KEY), depth, "leaf", text, handle=agent.handle) if trace is not None else None
    agent.model_calls += 1
    try:
        response = agent.provider.complete(ModelRequest(prefix=text, system=LEAF_SYSTEM, prefill=False,
                                                        model=agent.model))
    except ProviderError as e:
        if trace is not None and node is not None:
            trace.fail(node, e.message, Keyword("environment"), Keyword("provider"))
        raise HostError(e.message, None, provider_failure(e)) from None
    agent.run.usage.add(response.model or agent.model, response.usage)
    answer = strip_code_fences(response.text)
    if trace is not None and node is not None:
        trace.update(node, response=response.text, raw_text=answer)
        trace.succeed(node, answer)
    return answer


LLM_SELF: Final = member("!llm-self", env=True, host="!llm-self")(llm_self)
LEAF_LLM: Final = member("leaf-llm", env=True, host="leaf-llm")(leaf_llm)


def effect_builtins() -> dict[Symbol, Any]:
    """The model-calling builtins an agent installs for ``eval``."""
    return {Symbol("!llm-self"): LLM_SELF, Symbol("leaf-llm"): LEAF_LLM}
