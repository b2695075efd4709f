"""The ``agents/`` effect namespace (runtime.md §11.4) and ``workers/<name>`` (§7.6 ``:available-agents``).

Every member finds its agent in the calling binding table (``agent_of``), so
the same namespace map serves every agent of every run. Operations that only
change coordination state (spawn, ask, send, reply, cancel, inspection) work
from any thread of the agent, futures included; the waits (``!wait``,
``!sleep`` and the ``!``-forms that end in a wait) need the agent's own
lifecycle thread, since they resume its checkpoint.

Argument errors use the reference's texts (its ``spell.runtime``); the
``agents/`` prefix on them comes from the generic builtin-failure wrapper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.agents import targets_of
from spell_runtime.core.registry import member, namespace
from spell_runtime.data import Keyword, SpellMap, is_vector
from spell_runtime.errors import SpellArgumentError
from spell_runtime.gensym import gensym
from spell_runtime.printer import display_str

from ..agent import Agent, agent_of
from .lifecycle import CompiledAgent, Coordination, child_failure

K_FROM: Final = Keyword("from")
K_BODY: Final = Keyword("body")
K_EDGE_ID: Final = Keyword("edge-id")
K_EXPECTS: Final = Keyword("expects-response")
K_MESSAGE: Final = Keyword("message")
K_SPEC: Final = Keyword("spec")
K_OUT_EDGES: Final = Keyword("out-edges")
K_IN_EDGES: Final = Keyword("in-edges")

NO_EDGE_ID: Final = "Actionable request has no edge-id"
SINGLETON: Final = "%s: requires a singleton sender"
NOT_COMPILED: Final = "agents/spawn requires a compiled agent (leaf-llm has no lifecycle)"
BAD_TRIPLE: Final = "spawn-ask: explicit 3-item entries must be [compiled-agent prompt handle-name]"
BAD_ENTRY: Final = ("spawn-ask: each vector entry must be [compiled-agent prompt], [compiled-agent prompt handle-name], "
                    "or [prompt handle-name]")
NO_COORDINATOR: Final = "%s: requires an active agent context"

_ABSENT: Final = object()


def _context(D: Any, caller: str) -> tuple[Agent, Coordination]:
    agent = agent_of(D)
    coordination = agent.run.coordination if agent is not None else None
    if agent is None or not isinstance(coordination, Coordination):
        raise SpellArgumentError(NO_COORDINATOR % caller)
    return agent, coordination


def _is_compiled(value: Any) -> bool:
    return isinstance(value, CompiledAgent)


def _handle(value: Any) -> Any:
    """An explicit handle, or a fresh ``:spawn-N`` when none is given."""
    return Keyword(gensym("spawn-").name) if value is None else value


def _prompt_text(prompt: Any) -> str:
    return prompt if isinstance(prompt, str) else display_str(prompt)


Spec = tuple[Optional[CompiledAgent], Any, Any]
"""(compiled agent or None for the caller's, prompt, handle or None)."""


def _spawn_args(a: Any, b: Any, c: Any) -> Spec:
    """``prompt`` | ``prompt handle`` | ``agent prompt`` | ``agent prompt handle``."""
    if b is _ABSENT:
        return None, a, None
    if c is _ABSENT:
        return (a, b, None) if _is_compiled(a) else (None, a, b)
    if not _is_compiled(a):
        raise SpellArgumentError(NOT_COMPILED, SpellMap.from_pairs([(Keyword("handle"), c)]))
    return a, b, c


def _multi_spec(spec: Any) -> Spec:
    if not is_vector(spec):
        return None, spec, None
    items = list(spec)
    if len(items) == 2:
        return (items[0], items[1], None) if _is_compiled(items[0]) else (None, items[0], items[1])
    if len(items) == 3:
        if _is_compiled(items[0]):
            return items[0], items[1], items[2]
        raise SpellArgumentError(BAD_TRIPLE, SpellMap.from_pairs([(K_SPEC, spec)]))
    raise SpellArgumentError(BAD_ENTRY, SpellMap.from_pairs([(K_SPEC, spec)]))


def _start_children(agent: Agent, coordination: Coordination, specs: list[Spec], ask: bool) -> Any:
    """Register every child (and one edge when asking) before launching any (§11.4)."""
    children = [(_handle(h), agent.handle) for _a, _p, h in specs]
    coordinator = coordination.coordinator
    if ask:
        result: Any = coordinator.spawn_request(agent.handle, children)
    else:
        coordinator.register(children[0][0], agent.handle)
        result = children[0][0]
    for (compiled, prompt, _h), (handle, _parent) in zip(specs, children):
        coordination.remember(handle, compiled.template if compiled is not None else agent_template(agent))
        try:
            coordination.launch_first(handle, _prompt_text(prompt))
        except Exception as e:  # noqa: BLE001 - a child that cannot start is retired with its failure as data
            coordinator.finish(handle, 1, child_failure(handle, "startup", e), retire=True)
    return result


def agent_template(agent: Agent) -> Agent:
    """The compiled agent a prompt-only spawn uses: the caller's own."""
    return agent


# -- spawning and asking ------------------------------------------------------------------------------
def spawn(D: Any, a: Any, b: Any = _ABSENT, c: Any = _ABSENT) -> Any:
    agent, coordination = _context(D, "spawn")
    return _start_children(agent, coordination, [_spawn_args(a, b, c)], ask=False)


def spawn_ask(D: Any, a: Any, b: Any = _ABSENT, c: Any = _ABSENT) -> Any:
    agent, coordination = _context(D, "spawn-ask")
    if b is _ABSENT and is_vector(a):
        specs = [_multi_spec(s) for s in a]
        if not specs:
            raise SpellArgumentError("Wait targets must be nonempty, distinct, and exclude their source")
    else:
        specs = [_spawn_args(a, b, c)]
    return _start_children(agent, coordination, specs, ask=True)


def ask(D: Any, targets: Any, value: Any = _ABSENT) -> Any:
    agent, coordination = _context(D, "ask")
    supplied = value is not _ABSENT
    return coordination.coordinator.request(agent.handle, targets_of(targets), supplied,
                                            value if supplied else None)


def _then_wait(D: Any, caller: str, action: Callable[[], Any]) -> Any:
    agent, coordination = _context(D, caller)
    runner = coordination.runner_agent(agent, caller)
    action()
    return coordination.wait(runner)


def ask_and_wait(D: Any, targets: Any, value: Any = _ABSENT) -> Any:
    return _then_wait(D, "!ask", lambda: ask(D, targets, value))


def spawn_ask_and_wait(D: Any, a: Any, b: Any = _ABSENT, c: Any = _ABSENT) -> Any:
    return _then_wait(D, "!spawn-ask", lambda: spawn_ask(D, a, b, c))


# -- messages -----------------------------------------------------------------------------------------
def send(D: Any, target: Any, value: Any) -> Any:
    agent, coordination = _context(D, "send")
    coordination.coordinator.send(target, SpellMap.from_pairs([(K_FROM, agent.handle), (K_BODY, value)]))
    return None


def _reply_target(caller: str, message: Any) -> Any:
    target = message.get(K_FROM) if isinstance(message, SpellMap) else None
    if target is None or is_vector(target) or not isinstance(target, Keyword):
        raise SpellArgumentError(SINGLETON % caller, SpellMap.from_pairs([(K_MESSAGE, message)]))
    return target


def reply(D: Any, message: Any, value: Any) -> Any:
    agent, coordination = _context(D, "reply")
    if isinstance(message, SpellMap) and message.get(K_EXPECTS) is True:
        edge_id = message.get(K_EDGE_ID)
        if edge_id is None:
            raise SpellArgumentError(NO_EDGE_ID, SpellMap.from_pairs([(K_MESSAGE, message)]))
        coordination.coordinator.fill(edge_id, agent.handle, value)
        return None
    send(D, _reply_target("reply", message), value)
    return None


def reply_ask(D: Any, message: Any, value: Any) -> Any:
    agent, coordination = _context(D, "!reply-ask")
    runner = coordination.runner_agent(agent, "!reply-ask")
    _reply_target("!reply-ask", message)
    coordination.coordinator.reply_request(agent.handle, message, value)
    return coordination.wait(runner)


def cancel(D: Any, edge_id: Any) -> Any:
    agent, coordination = _context(D, "cancel")
    return coordination.coordinator.cancel(agent.handle, edge_id)


def wait(D: Any) -> Any:
    agent, coordination = _context(D, "!wait")
    return coordination.wait(coordination.runner_agent(agent, "!wait"))


def sleep(D: Any) -> Any:
    agent, coordination = _context(D, "!sleep")
    return coordination.wait(coordination.runner_agent(agent, "!sleep"))


# -- inspection ---------------------------------------------------------------------------------------
def status(D: Any, handle: Any = _ABSENT) -> Any:
    agent, coordination = _context(D, "status")
    coordinator = coordination.coordinator
    if handle is not _ABSENT:
        return coordinator.status(handle)
    return coordinator.status(agent.handle).assoc(K_OUT_EDGES, coordinator.out_edges(agent.handle)).assoc(
        K_IN_EDGES, coordinator.in_edges(agent.handle))


def graph(D: Any) -> Any:
    _agent, coordination = _context(D, "graph")
    return coordination.coordinator.graph()


def out_edges(D: Any) -> Any:
    agent, coordination = _context(D, "out-edges")
    return coordination.coordinator.out_edges(agent.handle)


def in_edges(D: Any) -> Any:
    agent, coordination = _context(D, "in-edges")
    return coordination.coordinator.in_edges(agent.handle)


def current_handle(D: Any) -> Any:
    agent, _coordination = _context(D, "current-handle")
    return agent.handle


def parent_handle(D: Any) -> Any:
    agent, coordination = _context(D, "parent-handle")
    return coordination.coordinator.parent(agent.handle)


def register(D: Any, handle: Any, completion_text: Any) -> Any:
    """``(agents/register h text)``: a finished agent with a saved program; its first message starts it."""
    from ...reader import ReaderError, balance_parens, read_first
    from .receipt import Checkpoint, is_wrapper_quine

    agent, coordination = _context(D, "register")
    if not isinstance(completion_text, str):
        raise SpellArgumentError("register: completion text must be a string",
                                 SpellMap.from_pairs([(Keyword("handle"), handle)]))
    try:
        program = read_first(balance_parens(completion_text))
    except ReaderError as e:
        raise SpellArgumentError("register: " + (e.message or "unreadable completion")) from None
    if not is_wrapper_quine(program):
        raise SpellArgumentError("register: completion text must be a wrapper quine (quine NAME ... (eval (do ...)))",
                                 SpellMap.from_pairs([(Keyword("handle"), handle)]))
    coordination.coordinator.register(handle, agent.handle, finished=True, checkpoint=Checkpoint(program, 1, None))
    coordination.remember(handle, agent)
    return handle


def _members() -> dict[str, Any]:
    table: dict[str, Callable[..., Any]] = {
        "spawn": spawn, "spawn-ask": spawn_ask, "ask": ask, "!ask": ask_and_wait, "!spawn-ask": spawn_ask_and_wait,
        "send": send, "reply": reply, "!reply-ask": reply_ask, "cancel": cancel, "!wait": wait, "!sleep": sleep,
        "status": status, "graph": graph, "out-edges": out_edges, "in-edges": in_edges,
        "current-handle": current_handle, "parent-handle": parent_handle, "register": register,
    }
    return {name: member("agents/" + name, env=True, host="agents/" + name)(fn) for name, fn in table.items()}


GUIDE: Final = """AGENTS — communication controlled by your program (use agents/ in the quoted trailing expression).

  (agents/spawn-ask "task" :handle)   start a child on a task; returns the edge id of its result
  (agents/!spawn-ask "task" :handle)  the same, then wait: its report arrives as a msg-N binding
  (agents/spawn "task" :handle)       start a child without collecting its result; returns the handle
  (agents/ask target value)           request; returns its edge id. (agents/!ask target value) then waits
  (agents/send target value)          plain message {:from me :body value}; fills no slot
  (agents/reply msg-N value)          answer an actionable request (its :expects-response and :edge-id)
  (agents/!reply-ask msg-N value)     answer and ask back in one step, then wait
  (agents/cancel edge-id)             detach an outgoing edge; its targets keep running
  '(agents/!wait) / '(agents/!sleep)  continue with queued messages, return nil with no obligations, or sleep
  (agents/status) (agents/graph) (agents/out-edges) (agents/in-edges) (agents/current-handle) (agents/parent-handle)

Messages arrive as (think "<site>") (def msg-N {:from .. :body ..}) (quote (!extend completion)) appended to your
program; a wait resumes your program with them. A single report is {:from t :edge-id id :body v}; several targets
report once, :body a vector of {:from t :body v} in target order. Returning fills every request you received and
did not answer with your return value. You may sleep only if your newest pending outgoing edge is newer than every
pending incoming request: answer requests first."""


DETAIL: Final = {
    "spawn": "(agents/spawn prompt), (agents/spawn prompt handle), (agents/spawn agent prompt [handle]) — start a "
             "child; returns its handle, collects nothing",
    "spawn-ask": "(agents/spawn-ask prompt [handle]), (agents/spawn-ask agent prompt [handle]), (agents/spawn-ask "
                 "[spec ...]) — start children and one edge for their results; returns the edge id",
    "ask": "(agents/ask target [value]), (agents/ask [targets] [value]) — request; returns the edge id at once",
    "!ask": "(agents/!ask target [value]) — ask, then wait",
    "!spawn-ask": "(agents/!spawn-ask ...) — spawn-ask, then wait",
    "send": "(agents/send target value) — plain message {:from me :body value}; fills no slot",
    "reply": "(agents/reply msg value) — fill the slot of an actionable request (no-op when answered); else send "
             "to its :from; returns nil",
    "!reply-ask": "(agents/!reply-ask msg value) — reply and ask back in one step, then wait",
    "cancel": "(agents/cancel edge-id) — detach your outgoing edge; returns its summary",
    "!wait": "'(agents/!wait) — continue with queued messages, return nil with no obligations, or sleep",
    "!sleep": "'(agents/!sleep) — the same waiting primitive as !wait",
    "status": "(agents/status), (agents/status handle) — {:status :generation :handle}, with your edges when "
              "called without a handle",
    "graph": "(agents/graph) — every agent and pending edge",
    "out-edges": "(agents/out-edges) — your pending outgoing edges",
    "in-edges": "(agents/in-edges) — pending edges naming you as a target",
    "current-handle": "(agents/current-handle) — your handle",
    "parent-handle": "(agents/parent-handle) — who spawned you (nil for :main)",
    "register": "(agents/register handle completion-text) — a dormant agent with a saved program; its first "
                "message starts it",
}

AGENTS_NAMESPACE: Final = namespace(_members(), short_docs="Agents: spawn, ask, spawn-ask, !wait, send, reply, "
                                    "cancel, inspection.", guide=GUIDE, detail=DETAIL)

