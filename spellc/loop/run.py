"""The public run API (runtime.md §7): validate, compile the agent, run the root program, report.

``run`` raises only for bad inputs (§7.3); once the agent is compiled every
failure — Spell errors, typed limits, provider failures — is *returned* as
``{"error": message, "error_data": {...}}``, and the run's resources (effects,
trace files, log writer) are cleaned up on every path. Results use Python
names (``result``, ``error``, ``error_data``, ``usage_tracker``, ``trace_dir``);
``error_data`` is a dict keyed by bare keyword names (``"type"``,
``"spell/fault"``) holding Spell values.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Optional

from spell_runtime.agents import CoordinatorOptionsError, validate_coordinator_options
from spell_runtime.bigstack import start_with_large_stack
from spell_runtime.data import Keyword, SpellMap, Symbol, spell_map
from spell_runtime.effects import EffectContext
from spell_runtime.errors import ControlError, SpellError
from spell_runtime.errors_result import error_result
from spell_runtime.printer import pr_str

from ..package.agent_parts import agent_parts
from ..providers.base import Provider, ProviderError
from ..providers.registry import ProfileError, is_provider, profile_get, provider_from_profile
from . import gcpolicy, seams
from . import options as opts_mod
from .agent import Agent, RunState, TurnEvent
from .agents.computations import BLOCKING_NAMESPACE, computation_builtins
from .agents.lifecycle import Coordination
from .agents.workers import compile_workers, workers_namespace
from .namespaces import resolve_namespaces
from .options import RunOptionsError, plain_data, present
from .pipeline import K_RESULT, evaluate_completion, provider_origin
from .profiles import AgentProfile, default_agent_profile, items_of, load_agent_profile, load_model_profile, name_of
from .prompts import compose_system_prompt
from .selfcall import effect_builtins
from .traces import TraceRecorder
from .usage import UsageTracker, effective_budget
from .wrapper import root_program

K_ENV: Final = Keyword("env")
K_ERR: Final = Keyword("err")
K_FAULT: Final = Keyword("fault", "spell")
K_REASON: Final = Keyword("reason", "spell")
K_COMPLETION_ERROR: Final = Keyword("completion-error", "spell")
K_ROLES: Final = Keyword("roles")
ON_ERROR_NOT_CALLABLE: Final = "Invalid :on-error, expected a function"


@dataclass
class PreparedRun:
    """Everything compiled before the first evaluation."""

    agent: Agent
    state: RunState
    root_text: str
    trace_dir: Optional[str]
    log_writer: Any


def run(opts: Optional[Mapping[Any, Any]] = None, /, **kwargs: Any) -> dict[str, Any]:
    """Run a Spell agent: ``{"result": v, ...}`` or ``{"error": msg, "error_data": {...}, ...}``.

    ``agent_profile`` may be omitted from the Python API (the default profile: io/web/globals,
    recovery on, limit 3); an explicit nil/false still fails as §7.3 says.
    """
    return execute(opts_mod.normalize(opts, kwargs))


def execute(options: dict[str, Any], on_turn: Optional[Callable[[TurnEvent], None]] = None) -> dict[str, Any]:
    """Validate (raising), then run and return the outcome map."""
    opts_mod.validate(options, agent_profile_default=True)
    prepared = prepare(options, on_turn)
    outcome: dict[str, Any] = {}
    # Daemon, so that an interrupted caller (Ctrl-C in the CLI) is not held hostage by a running model turn.
    worker = threading.Thread(target=_evaluate_root, args=(prepared, outcome), name="spell-run", daemon=True)
    gcpolicy.run_started()
    try:
        start_with_large_stack(worker)  # every model turn nests a completion inside its caller
        worker.join()
    finally:
        gcpolicy.run_ended()
    outcome["usage_tracker"] = prepared.state.usage
    if prepared.trace_dir is not None:
        outcome["trace_dir"] = prepared.trace_dir
    return outcome


def _evaluate_root(prepared: PreparedRun, outcome: dict[str, Any]) -> None:
    agent = prepared.agent
    agent.thread_id = threading.get_ident()
    if prepared.state.coordinator is not None:
        prepared.state.coordinator.set_runner(agent.handle, agent.thread_id)
    try:
        outcome["result"] = evaluate_completion(agent, prepared.root_text, 1, True, None, root=True)
    except BaseException as e:  # noqa: BLE001 - every failure after validation is returned (§7.4)
        message, data = describe_failure(e)
        outcome["error"] = message
        outcome["error_data"] = plain_data(data)
    finally:
        _cleanup(prepared)


def _cleanup(prepared: PreparedRun) -> None:
    coordinator = prepared.state.coordinator
    if coordinator is not None:
        coordinator.close()  # agents still running are not joined; their next coordinator call fails (§11.1)
    try:
        trace = prepared.state.trace
        if trace is not None and prepared.trace_dir is not None:
            trace.write(prepared.trace_dir)
    finally:
        try:
            if prepared.log_writer is not None and hasattr(prepared.log_writer, "flush"):
                prepared.log_writer.flush()
        finally:
            prepared.state.effects.close(wait=0)


# -- compilation (§7.3 step 5) ----------------------------------------------------------------------
def prepare(options: dict[str, Any], on_turn: Optional[Callable[[TurnEvent], None]] = None) -> PreparedRun:
    """Load profiles and compile the agent; raises ``RunOptionsError`` before any model call."""
    try:
        provider, model_profile = resolve_model_profile(options["model-profile"])
        profile = resolve_agent_profile(options)
        limit = seams.validate_max_consecutive_errors(
            options["max-consecutive-errors"] if "max-consecutive-errors" in options
            else profile.get("max-consecutive-errors", 3) if profile.has("max-consecutive-errors") else 3)
        max_edges = validate_coordinator_options(options.get("coordinator"))
        budget = effective_budget(options.get("budget"), "budget" in options, profile.get("default-budget"))
    except (ProfileError, ProviderError) as e:  # a provider class refusing its profile (no key, no SDK)
        raise RunOptionsError(e.message, _spell_data(e.data)) from None
    except ControlError as e:
        raise RunOptionsError(e.message, e.data if isinstance(e.data, SpellMap) else None) from None
    except CoordinatorOptionsError as e:
        raise RunOptionsError(e.message, e.data) from None
    except ValueError as e:
        raise RunOptionsError(str(e)) from None
    on_error = options.get("on-error")
    if on_error is not None and not callable(on_error):
        raise RunOptionsError(ON_ERROR_NOT_CALLABLE, spell_map(Keyword("type"), Keyword("invalid-run-options"),
                                                               Keyword("on-error"), on_error))
    limits = _run_limits(options, profile)
    effects = EffectContext(workspace=limits["workspace"], web_config=limits["web"])
    effects.globals.set(K_ROLES, spell_map(Keyword("main"), SpellMap()))
    trace_dir = _path(options.get("trace-dir"))
    trace = TraceRecorder() if trace_dir is not None else None
    if trace is not None and trace_dir is not None:
        trace.write_at_exit(trace_dir)
    tracker = options.get("usage-tracker")
    state = RunState(effects=effects, context_max_chars=opts_mod.validate_context_limit(options.get("context-max-chars")),
                     depth_limit=options.get("depth"), budget=budget,
                     usage=tracker if isinstance(tracker, UsageTracker) else UsageTracker(), trace=trace,
                     on_turn=on_turn, log_writer=options.get("log-writer"), on_error=on_error,
                     eval_timeout=limits["eval-timeout-sec"], max_collection_size=limits["max-collection-size"])
    def compile_profile(agent_profile: AgentProfile, seen: frozenset[str] = frozenset()) -> Agent:
        """One compiled agent (the main one, or a worker of ``:available-agents``) sharing this run."""
        own_limit = limit if agent_profile is profile else seams.validate_max_consecutive_errors(
            agent_profile.get("max-consecutive-errors", 3) if agent_profile.has("max-consecutive-errors") else 3)
        parts = agent_parts(agent_profile, effects.cwd)  # library namespaces and skills (packages.md)
        namespaces = resolve_namespaces(parts.effect_refs, effects)
        recover = (options["recover"] if "recover" in options and agent_profile is profile
                   else agent_profile.get("recover", True))
        compiled = Agent(provider=provider, run=state,
                         system_prompt=parts.system_prompt(compose_system_prompt(
                             agent_profile.get("system-prompt"), namespaces, format_spec=agent_profile.get("format"))),
                         namespaces=namespaces, recover=recover,
                         recover_unknown=agent_profile.get("recover-unknown") is True,
                         max_consecutive_errors=own_limit,
                         model=_text(options.get("model")) or _text(profile_get(model_profile, "default-model")),
                         reasoning_effort=_text(options.get("reasoning-effort"))
                         or _text(profile_get(model_profile, "default-reasoning-effort")),
                         counter=seams.new_counter(own_limit))
        compiled.library_builtins = parts.builtins()
        compiled.extra_builtins = {Symbol(name): ns for name, ns in namespaces.items()}
        compiled.extra_builtins.update(effect_builtins())
        compiled.extra_builtins.update(computation_builtins())
        own = os.path.realpath(agent_profile.path) if agent_profile.path else ""
        workers = compile_workers(agent_profile, lambda p: compile_profile(p, seen | {own}), seen)
        if workers:
            compiled.extra_builtins[Symbol("workers")] = workers_namespace(workers)
        return compiled

    try:
        agent = compile_profile(profile)
        if present(options.get("prompt")) and profile.libraries is not None:
            agent.opening = getattr(profile.libraries, "opening", lambda: None)()  # packages.md §3 step 4
    except ProfileError as e:
        effects.close(wait=0)
        raise RunOptionsError(e.message, _spell_data(e.data)) from None
    except ControlError as e:
        effects.close(wait=0)
        raise RunOptionsError(e.message, e.data if isinstance(e.data, SpellMap) else None) from None
    state.blocking_namespace = BLOCKING_NAMESPACE
    Coordination(agent, max_edges)  # the run's coordinator, closed when the root returns (§11.1)
    return PreparedRun(agent, state, _root_text(options), trace_dir, options.get("log-writer"))


def _run_limits(options: Mapping[str, Any], profile: AgentProfile) -> dict[str, Any]:
    """Evaluation limits, workspace and web reach (issue 16): a run option (even nil) wins over the
    agent profile's key of the same name, which wins over the default (agent runs: an evaluation
    timeout of ``DEFAULT_EVAL_TIMEOUT_SEC``; no workspace; web/ off the private network)."""
    def pick(key: str, default: Any = None) -> Any:
        if key in options:
            return options[key]
        return profile.get(key) if profile.has(key) else default

    return {
        "eval-timeout-sec": opts_mod.validate_eval_timeout(pick("eval-timeout-sec",
                                                                opts_mod.DEFAULT_EVAL_TIMEOUT_SEC)),
        "max-collection-size": opts_mod.validate_collection_size(pick("max-collection-size")),
        "workspace": opts_mod.validate_workspace(pick("workspace")),
        "web": opts_mod.validate_web(pick("web")),
    }


def resolve_model_profile(ref: Any) -> tuple[Provider, Any]:
    """A provider object as given, or the provider a profile (path or map) describes."""
    if is_provider(ref):
        provider: Provider = ref
        return provider, {}
    profile = load_model_profile(ref)
    return provider_from_profile(profile), profile


def resolve_agent_profile(options: Mapping[str, Any]) -> AgentProfile:
    ref: Any = options.get("agent-profile")
    if "agent-profile" not in options:
        return default_agent_profile()
    if isinstance(ref, AgentProfile):
        return ref
    if isinstance(ref, (Mapping, SpellMap)):
        return AgentProfile({name_of(k): v for k, v in items_of(ref)})
    return load_agent_profile(str(os.fspath(ref)))


def _path(value: Any) -> Optional[str]:
    return str(os.fspath(value)) if present(value) else None


def _root_text(options: Mapping[str, Any]) -> str:
    prompt = options.get("prompt")
    if present(prompt):
        return root_program(prompt if isinstance(prompt, str) else pr_str(prompt))
    init = options.get("init")
    return init if isinstance(init, str) else pr_str(init)


def _text(value: Any) -> Optional[str]:
    if value is None or value is False:
        return None
    if type(value) is Keyword:
        return value.name
    return str(value)


def _spell_data(data: Any) -> Optional[SpellMap]:
    if isinstance(data, SpellMap) or data is None:
        return data
    if isinstance(data, Mapping):
        return SpellMap.from_pairs((Keyword(k) if isinstance(k, str) else k, v) for k, v in data.items())
    return None


# -- reporting (§7.4, §9.4) ---------------------------------------------------------------------------
def describe_failure(e: BaseException) -> tuple[str, Optional[SpellMap]]:
    """The ``:error`` message and ``:error-data`` of a failed run."""
    if isinstance(e, ControlError):
        data = e.data if isinstance(e.data, SpellMap) else SpellMap()
        return e.message, seams.stamp(data, seams.classify(e))
    if isinstance(e, SpellError):
        result = error_result(e)
        origin = provider_origin(result)
        if origin is not None:
            return str(origin.get(K_ERR)), origin.dissoc(K_ERR).dissoc(K_COMPLETION_ERROR).dissoc(K_ENV)
        data = spell_map(K_RESULT, _without_env(result))
        fault = seams.classify(e)
        data = seams.stamp(data, fault)
        for key in (K_FAULT, K_REASON):
            if data.get(key) is None and result.get(key) is not None:
                data = data.assoc(key, result.get(key))
        return e.message, data
    if isinstance(e, ProviderError):
        data = SpellMap.from_pairs([(Keyword(k), v) for k, v in e.data.items()])
        return e.message, data.assoc(K_FAULT, Keyword("environment")).assoc(K_REASON, Keyword("provider"))
    return "%s: %s" % (type(e).__name__, e), spell_map(K_FAULT, Keyword("unknown"), K_REASON, Keyword("internal"))


def _without_env(result: SpellMap) -> SpellMap:
    """An error result without the bulky ``:env`` maps (§7.4 allows dropping them), at every depth."""
    out = result.dissoc(K_ENV) if result.contains(K_ENV) else result
    inner = out.get(K_RESULT)
    if isinstance(inner, SpellMap):
        out = out.assoc(K_RESULT, _without_env(inner))
    return out
