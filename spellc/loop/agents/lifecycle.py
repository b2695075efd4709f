"""Lifecycles of a run's agents (runtime.md §11.1, §11.2): one thread per running lifecycle.

``Coordination`` is created by ``run`` for every run. It owns the run's
``Coordinator`` and starts lifecycles:

- a spawned child's first lifecycle evaluates the prompt wrapper as a root
  program (receipt label ``startup: tail not run``);
- a finished agent that receives a message starts its next lifecycle by
  resuming its checkpoint (``dormant resumed``) — the coordinator calls
  ``_launch_next`` for that;
- a lifecycle's value fills the slots it claimed; a failure fills them with
  ``{:spell/child-failure true …}`` data and is never raised in the parent.

Every lifecycle gets its own ``Agent`` (a copy of the compiled agent that
spawned it, with a fresh error counter: §6.9 counts per lifecycle), whose
``thread_id`` is the lifecycle thread: that is how ``!llm-self``, waits and
``receive`` tell an agent's runner from a computation future.

``:main``'s first lifecycle is the run itself (on the run thread); no later
lifecycle of ``:main`` starts, because the run closes the coordinator as soon
as the root returns (the recommended deviation of §11.1).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.agents import Coordinator
from spell_runtime.bigstack import start_with_large_stack
from spell_runtime.data import Keyword, SpellMap
from spell_runtime.errors import ControlError, HostError, SpellArgumentError, SpellError
from spell_runtime.errors_result import error_result

from .. import seams
from ..agent import MAIN_HANDLE, Agent
from ..pipeline import K_COMPLETION_ERROR, evaluate_completion, evaluate_form
from ..wrapper import root_program
from .receipt import DORMANT_RESUMED, Checkpoint, append_receipt

LIFECYCLE_STACK_BYTES: Final = 256 * 1024 * 1024
"""Stack of a lifecycle thread: waits resume inside the waiting call, so turns nest as on the run thread."""
NO_CONTEXT: Final = "%s: requires an active agent context"
NO_CHECKPOINT: Final = ("!wait: no resumable checkpoint yet (no wrapper-quine completion was evaluated with "
                         "{:receive? true})")
SYNC_AGENT_CALL: Final = "Nested agents must use agents/spawn or agents/!spawn-ask"
AGENT_IN_FUTURE: Final = ("Agent lifecycles cannot run inside computation futures; "
                          "use agents/spawn and blocking/request")
K_TYPE: Final = Keyword("type")

K_CHILD_FAILURE: Final = Keyword("child-failure", "spell")
K_EXCEPTION: Final = Keyword("exception", "spell")
K_HANDLE: Final = Keyword("handle")
K_PHASE: Final = Keyword("phase")
K_EXC: Final = Keyword("exception")
K_CLASS: Final = Keyword("class")
K_MESSAGE: Final = Keyword("message")
K_DATA: Final = Keyword("data")
K_ENV: Final = Keyword("env")

def start_thread(target: Callable[[], None], name: str, stack_bytes: int = LIFECYCLE_STACK_BYTES) -> None:
    """Start a daemon thread with a large stack where the platform allows it (``spell_runtime.bigstack``)."""
    start_with_large_stack(threading.Thread(target=target, name=name, daemon=True), stack_bytes)


def exception_data(e: BaseException) -> SpellMap:
    """``{:spell/exception true :class c :message m :data d}`` of a lifecycle failure (§11.2).

    (choice) ``:class`` is spellc's exception class name (the reference gives its JVM class).
    """
    if isinstance(e, ControlError):
        message, data = e.message, e.data
    elif isinstance(e, SpellError):
        message, data = e.message, error_result(e).dissoc(K_ENV)
    elif isinstance(e, HostError):
        message, data = e.message, e.data
    else:
        message, data = str(e) or type(e).__name__, None
    return SpellMap.from_pairs([(K_EXCEPTION, True), (K_CLASS, type(e).__name__), (K_MESSAGE, message),
                                (K_DATA, data)])


def child_failure(handle: Any, phase: str, e: BaseException) -> SpellMap:
    return SpellMap.from_pairs([(K_CHILD_FAILURE, True), (K_HANDLE, handle), (K_PHASE, Keyword(phase)),
                                (K_EXC, exception_data(e))])


class CompiledAgent:
    """A compiled agent as a Spell value (``workers/<name>``): spawnable, never callable from an agent."""

    def __init__(self, name: str, template: Agent) -> None:
        self.name = name
        self.template = template

    def __repr__(self) -> str:
        return "#object[spell.agent/%s]" % self.name

    def __call__(self, *_args: Any) -> Any:
        """Calling a compiled agent is never a lifecycle (§11.6): agents spawn, computations request."""
        coordinator = self.template.run.coordinator
        if coordinator is not None and coordinator.is_runner(threading.get_ident()):
            raise ControlError(SYNC_AGENT_CALL, SpellMap.from_pairs([(K_TYPE, Keyword("synchronous-agent-call"))]))
        raise ControlError(AGENT_IN_FUTURE, SpellMap.from_pairs([(K_TYPE, Keyword("agent-in-computation-future"))]))


class Coordination:
    """The lifecycles of one run around its coordinator."""

    def __init__(self, main: Agent, max_edges: int) -> None:
        self.main = main
        self.coordinator = Coordinator(max_edges, launcher=self._launch_next, warn=self._warn)
        self.coordinator.register(MAIN_HANDLE, None)
        self._templates: dict[Any, Agent] = {MAIN_HANDLE: main}
        self._lock = threading.Lock()
        main.run.coordinator = self.coordinator
        main.run.coordination = self
        trace = main.run.trace
        if trace is not None:  # traced runs keep the edges' history (runtime.md §8.2, §11.3)
            self.coordinator.edge_log = []
            trace.edges = self.coordinator.log_snapshot

    # -- starting lifecycles -------------------------------------------------------------------------
    def template_for(self, handle: Any) -> Agent:
        with self._lock:
            return self._templates.get(handle, self.main)

    def remember(self, handle: Any, template: Agent) -> None:
        with self._lock:
            self._templates[handle] = template

    def launch_first(self, handle: Any, prompt: str) -> None:
        """Start a spawned child's first lifecycle on the prompt wrapper (§11.4)."""
        text = root_program(prompt)
        start_thread(lambda: self._lifecycle(handle, 1, text), "spell-agent-%s" % handle)

    def _launch_next(self, handle: Any) -> None:
        """The coordinator woke a finished agent: its next lifecycle resumes the checkpoint."""
        try:
            generation = self.coordinator.generation(handle)
        except (ControlError, SpellArgumentError):
            return
        start_thread(lambda: self._lifecycle(handle, generation, None), "spell-agent-%s" % handle)

    def _agent_for(self, handle: Any, generation: int) -> Agent:
        template = self.template_for(handle)
        return dataclasses.replace(template, handle=handle, generation=generation,
                                   counter=seams.new_counter(template.max_consecutive_errors), model_calls=0,
                                   thread_id=threading.get_ident())

    def _lifecycle(self, handle: Any, generation: int, first_text: Optional[str]) -> None:
        coordinator = self.coordinator
        try:
            agent = self._agent_for(handle, generation)
            coordinator.acquire(handle, generation, agent.thread_id)
        except ControlError:
            return  # the run closed, or this lifecycle was superseded before it started: nothing to report
        except Exception as e:  # noqa: BLE001 - a child that cannot start is retired with its failure as data
            coordinator.finish(handle, generation, child_failure(handle, "startup", e), retire=True)
            return
        try:
            if first_text is not None:
                value = evaluate_completion(agent, first_text, 1, True, None, root=True)
            else:
                value = self.resume(agent, DORMANT_RESUMED)
        except BaseException as e:  # noqa: BLE001 - a child's failure is data for its parent (§11.2)
            if coordinator.closed:
                return
            coordinator.finish(handle, generation, child_failure(handle, "lifecycle", e))
            return
        coordinator.finish(handle, generation, value)

    def _warn(self, message: str, data: SpellMap) -> None:
        trace = self.main.run.trace
        if trace is not None:
            trace.warn(message, data)

    # -- waiting -------------------------------------------------------------------------------------
    def runner_agent(self, agent: Optional[Agent], caller: str) -> Agent:
        """The calling agent when the caller runs on its lifecycle thread (waits need one)."""
        if agent is None or threading.get_ident() != agent.thread_id:
            raise SpellArgumentError(NO_CONTEXT % caller)
        return agent

    def wait(self, agent: Agent) -> Any:
        """``!wait``/``!sleep`` (§11.4): continue now, return nil, sleep then resume, or refuse."""
        outcome = self.coordinator.wait(agent.handle)
        if outcome == "idle":
            return None
        if outcome == "waiting":
            self.coordinator.await_message(agent.handle)
        from .receipt import WAIT_RESUMED

        return self.resume(agent, WAIT_RESUMED)

    def resume(self, agent: Agent, label: str) -> Any:
        """Evaluate the checkpoint with the mailbox batch appended; the whole resumed computation's value."""
        coordinator = self.coordinator
        checkpoint = coordinator.entry(agent.handle).checkpoint
        if not isinstance(checkpoint, Checkpoint):
            # (choice) Nothing receiving has been evaluated yet (a root :init that is not a wrapper quine):
            # there is no program to resume, and a raw helper's text must never become one (§11.5).
            raise SpellArgumentError(NO_CHECKPOINT)
        messages = coordinator.drain(agent.handle)
        program = append_receipt(checkpoint.program, messages, label, agent.run.context_max_chars)
        coordinator.set_checkpoint(agent.handle, Checkpoint(program, checkpoint.depth, checkpoint.node))
        try:
            return evaluate_form(agent, program, None, checkpoint.depth, True, checkpoint.node)
        except SpellError as e:
            # The resumed computation counted and recovered its own failures, like a child completion.
            raise HostError(e.message, None, error_result(e).assoc(K_COMPLETION_ERROR, True)) from None

    def close(self) -> None:
        self.coordinator.close()
