"""The compiled agent and the run it belongs to.

``RunState`` is what every agent of one run shares (effects and the globals
store, limits, usage, the trace); ``Agent`` is one agent lifecycle: its
provider, system prompt, namespaces, recovery settings and error counter
(runtime.md §6.9: the counter belongs to the lifecycle, so a new run starts
at 0). Completions never share an environment — each is evaluated in a fresh
binding table built by ``completion_env`` — so the per-completion facts the
effect builtins need (agent, depth, the frame to hand off) travel in that
table's ``Context.options`` under the keys below.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from spell_runtime.context import context_of
from spell_runtime.data import Keyword, SpellMap, Symbol
from spell_runtime.effects import EffectContext, effect_hint

from ..providers.base import Provider
from .traces import TraceRecorder
from .usage import UsageTracker

AGENT_KEY: Final = "spell_agent"
DEPTH_KEY: Final = "spell_depth"
FRAME_KEY: Final = "spell_frame"
NODE_KEY: Final = "spell_trace_node"
RECEIVE_KEY: Final = "spell_receive"
CONTEXT_LIMIT_KEY: Final = "context_max_chars"
"""Run default display target, read by the snapshot builtins (runtime.md §4.2)."""

MAIN_HANDLE: Final = Keyword("main")


@dataclass
class TurnEvent:
    """One finished model call, for progress display (the CLI prints one line per event)."""

    turn: int
    depth: int
    prefix_chars: int
    response_chars: int
    seconds: float
    error: Optional[str] = None
    handle: Keyword = MAIN_HANDLE
    """Which agent made the call (runtime.md §11: agents' turns interleave)."""


@dataclass
class RunState:
    """Run-scoped state shared by every agent of the run."""

    effects: EffectContext
    context_max_chars: Optional[int] = None
    depth_limit: Optional[int] = None
    budget: Optional[float] = None
    usage: UsageTracker = field(default_factory=UsageTracker)
    trace: Optional[TraceRecorder] = None
    on_turn: Optional[Callable[[TurnEvent], None]] = None
    log_writer: Any = None
    turns: int = 0
    turn_lock: threading.Lock = field(default_factory=threading.Lock)
    """Agents call models concurrently: ``turns`` is counted under this lock."""
    coordinator: Any = None
    """The run's ``spell_runtime.agents.Coordinator`` (runtime.md §11.1); None outside ``run``."""
    coordination: Any = None
    """The run's ``spellc.loop.agents.lifecycle.Coordination`` (lifecycle threads, spawn, resume)."""
    blocking_namespace: Any = None
    """``blocking/``, bound inside computation futures only (runtime.md §11.6)."""
    on_error: Optional[Callable[[Any], Any]] = None
    """The ``:on-error`` run option (runtime.md §9.4)."""
    eval_timeout: Optional[float] = None
    """Seconds each completion's evaluation may take (issue 16.3); None: unbounded."""
    max_collection_size: Optional[int] = None
    """Elements a builtin may build from a count; None: the runtime's default."""

    def log(self, text: str) -> None:
        """Verbose log of prompts and responses (``:log-writer``); the writer is the caller's, never closed."""
        if self.log_writer is not None:
            self.log_writer.write(text)


@dataclass
class Agent:
    """One agent lifecycle: how it calls the model and how it recovers."""

    provider: Provider
    run: RunState
    system_prompt: str = ""
    namespaces: dict[str, SpellMap] = field(default_factory=dict)
    recover: Any = True
    recover_unknown: bool = False
    max_consecutive_errors: int = 3
    model: Optional[str] = None
    reasoning_effort: Optional[str] = None
    handle: Keyword = MAIN_HANDLE
    counter: Any = None
    model_calls: int = 0
    thread_id: int = field(default_factory=threading.get_ident)
    generation: int = 1
    """Which lifecycle of ``handle`` this is (runtime.md §11.2)."""
    extra_builtins: dict[Symbol, Any] = field(default_factory=dict)
    library_builtins: dict[Symbol, Any] = field(default_factory=dict)
    """Library namespaces (packages.md §2): visible in the body and the trailing expression alike."""
    opening: Any = None
    """A package's precompiled root program (``spellc.package.opening.Opening``), or None: compile it."""

    @property
    def recovery_enabled(self) -> bool:
        return self.recover is not False

    def gate_hints(self) -> dict[str, str]:
        return {name: effect_hint(name) for name in self.namespaces}


def completion_env(agent: Agent, depth: int, frame: Any, node: Optional[int], receive: bool,
                   env: Optional[dict[Any, Any]] = None) -> dict[Any, Any]:
    """A fresh binding table for one completion: ``eval`` plus ``env``, effects gated behind ``eval``."""
    from ..environment import new_env

    options = {AGENT_KEY: agent, DEPTH_KEY: depth, FRAME_KEY: frame, NODE_KEY: node, RECEIVE_KEY: receive,
               CONTEXT_LIMIT_KEY: agent.run.context_max_chars}
    D = new_env(env, options, effects=agent.run.effects, namespaces=(), extra_builtins=agent.extra_builtins,
                library=agent.library_builtins)
    ctx = context_of(D)
    ctx.gated.update(agent.gate_hints())
    ctx.future_ns = agent.run.blocking_namespace
    return D


def agent_of(D: Any) -> Optional[Agent]:
    """The agent whose completion ``D`` belongs to (None outside any agent)."""
    found = context_of(D).options.get(AGENT_KEY)
    return found if isinstance(found, Agent) else None
