"""``receive`` (§11.5), ``!ask-await`` (§11.7) and the future-only ``blocking/`` namespace (§11.6).

A *computation future* runs on its own thread in a snapshot of its creator's
environment (``future*`` in the runtime). It shares the agent's context, so
the agent is known, but it is never the agent's runner thread: that thread
test is what refuses ``!llm-self``, ``receive`` and waits inside futures, and
what refuses ``blocking/await`` *on* a runner (an agent must use
``!ask-await``, which lets messages preempt the wait, instead of blocking).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Final

from spell_runtime.agents import RequestOutcome, closed_error
from spell_runtime.core.quine import split_quine
from spell_runtime.core.registry import member, namespace
from spell_runtime.data import Keyword, SpellMap, Symbol, is_vector, vec
from spell_runtime.data.atoms import K_REF, K_SPELL_FUTURE
from spell_runtime.data.plist import PList
from spell_runtime.errors import ControlError, HostError, SpellArgumentError, SpellError
from spell_runtime.printer import pr_str

from ..agent import Agent, agent_of
from .lifecycle import Coordination, start_thread
from .receipt import RECEIVE, Checkpoint, append_receipt

NOT_CANONICAL: Final = "receive expects a canonical completed quine: %s"
NO_SYMBOL_NAME: Final = "receive requires a quine with a symbol name"
RECEIVE_NO_AGENT: Final = "receive requires an active agent context"
RECEIVE_IN_FUTURE: Final = "receive is unavailable inside a computation future"
ASK_AWAIT_FUTURE: Final = "!ask-await requires a future"
ASK_AWAIT_TURN: Final = "!ask-await requires an active agent turn"
BLOCKING_RUNNER: Final = "%s cannot block an agent runner; use !ask-await"
REQUEST_CANCELLED: Final = "Agent request was cancelled"

K_TYPE: Final = Keyword("type")
K_HANDLE: Final = Keyword("handle")
K_EDGE_ID: Final = Keyword("edge-id")
K_REQUEST_RESULT: Final = Keyword("request-result")
K_VALUE: Final = Keyword("value")
K_GOT: Final = Keyword("got")
K_AWAIT_ERROR: Final = Keyword("error", "future-await")
K_CLASS: Final = Keyword("class")


def _typed(message: str, kind: str, handle: Any = None) -> ControlError:
    pairs: list[tuple[Any, Any]] = [(K_TYPE, Keyword(kind))]
    if handle is not None:
        pairs.append((K_HANDLE, handle))
    return ControlError(message, SpellMap.from_pairs(pairs))


def _coordination(agent: Agent | None) -> Coordination | None:
    found = agent.run.coordination if agent is not None else None
    return found if isinstance(found, Coordination) else None


def _on_runner(agent: Agent | None) -> bool:
    return agent is not None and threading.get_ident() == agent.thread_id


# -- receive ------------------------------------------------------------------------------------------
def receive(D: Any, q: Any) -> Any:
    """``(receive q)``: ``q`` with the queued batch appended (``receive: not evaluated``); never evaluates it."""
    agent = agent_of(D)
    try:
        name, _inert, _body = split_quine(q)
    except HostError as e:  # validated before any dequeue, signal rotation or slot claim
        data = SpellMap.from_pairs([(K_HANDLE, agent.handle if agent is not None else None)])
        raise SpellArgumentError(NOT_CANONICAL % e.message, data) from None
    if type(name) is not Symbol:
        raise SpellArgumentError(NO_SYMBOL_NAME)
    coordination = _coordination(agent)
    if agent is None or coordination is None:
        raise SpellArgumentError(RECEIVE_NO_AGENT)
    if not _on_runner(agent):
        raise _typed(RECEIVE_IN_FUTURE, "agent-in-computation-future", agent.handle)
    coordinator = coordination.coordinator
    messages = coordinator.drain(agent.handle) if coordinator.has_messages(agent.handle) else []
    if not messages:
        return q
    program = append_receipt(q, messages, RECEIVE, agent.run.context_max_chars)
    depth = _depth_of(D)
    old = coordinator.entry(agent.handle).checkpoint
    coordinator.set_checkpoint(agent.handle, Checkpoint(program, depth if old is None else old.depth,
                                                        None if old is None else old.node))
    return program


def _depth_of(D: Any) -> int:
    from spell_runtime.context import context_of

    from ..agent import DEPTH_KEY

    return int(context_of(D).options.get(DEPTH_KEY, 1))


# -- futures ------------------------------------------------------------------------------------------
def _future_ref(value: Any) -> Future[Any] | None:
    if isinstance(value, SpellMap) and value.get(K_SPELL_FUTURE) is True:
        ref = value.get(K_REF)
        if isinstance(ref, Future):
            return ref
    return None


def _failure_map(e: BaseException) -> SpellMap:
    """``{:future-await/error <text> :class <class>}``: the text contains the failure's message (§11.7)."""
    if isinstance(e, (ControlError, HostError)):
        text = e.message if e.data is None else "%s %s" % (e.message, pr_str(e.data))
    elif isinstance(e, SpellError):
        text = e.message
    else:
        text = str(e) or type(e).__name__
    return SpellMap.from_pairs([(K_AWAIT_ERROR, "%s: %s" % (type(e).__name__, text)),
                                (K_CLASS, type(e).__name__)])


def ask_await(D: Any, fut: Any) -> Any:
    """``(!ask-await fut)``: wait like ``!wait`` until the future's value arrives as ``{:from :future :body v}``."""
    ref = _future_ref(fut)
    if ref is None:
        raise SpellArgumentError(ASK_AWAIT_FUTURE, SpellMap.from_pairs([(K_VALUE, fut)]))
    agent = agent_of(D)
    coordination = _coordination(agent)
    if agent is None or coordination is None or not _on_runner(agent):
        raise SpellArgumentError(ASK_AWAIT_TURN)
    coordinator = coordination.coordinator
    token = coordinator.begin_external_wait(agent.handle)

    def monitor() -> None:
        try:
            value = ref.result()
        except BaseException as e:  # noqa: BLE001 - a failed computation is delivered as data
            value = _failure_map(e)
        coordinator.complete_external_wait(token, value)

    start_thread(monitor, "spell-ask-await", 1024 * 1024)
    coordinator.await_message(agent.handle)
    from .receipt import WAIT_RESUMED

    return coordination.resume(agent, WAIT_RESUMED)


def _await_value(caller: str, D: Any, fut: Any) -> Any:
    agent = agent_of(D)
    if _on_runner(agent):
        raise _typed(BLOCKING_RUNNER % caller, "agent-blocking-call", agent.handle if agent else None)
    ref = _future_ref(fut)
    if ref is None:
        raise SpellArgumentError("%s requires a future" % caller, SpellMap.from_pairs([(K_VALUE, fut)]))
    from spell_runtime.futures import await_result

    result = await_result(ref)  # at most the time this evaluation has left (issue 16)
    if isinstance(fut, SpellMap) and fut.get(K_REQUEST_RESULT) is True and isinstance(result, RequestOutcome):
        if result.kind == "completed":
            return result.value
        if result.kind == "cancelled":
            raise ControlError(REQUEST_CANCELLED, SpellMap.from_pairs([
                (K_TYPE, Keyword("request-cancelled")), (K_EDGE_ID, result.edge_id)]))
        raise closed_error()
    return result


def blocking_await(D: Any, fut: Any) -> Any:
    return _await_value("blocking/await", D, fut)


def blocking_await_all(D: Any, futures: Any) -> Any:
    if not (is_vector(futures) or type(futures) is PList or isinstance(futures, (list, tuple))):
        raise SpellArgumentError("blocking/await-all: argument must be a collection",
                                 SpellMap.from_pairs([(K_GOT, futures)]))
    items = list(futures)
    for f in items:
        if _future_ref(f) is None:
            raise SpellArgumentError("blocking/await-all: all elements must be futures",
                                     SpellMap.from_pairs([(K_GOT, f)]))
    return vec(_await_value("blocking/await-all", D, f) for f in items)


def _computation(D: Any, f: Any, args: tuple[Any, ...]) -> SpellMap:
    """A future applying ``f`` to ``args`` in a snapshot of ``D`` (as ``future*`` does for a thunk)."""
    from spell_runtime.context import CTX_KEY, context_of, snapshot
    from spell_runtime.invoke import call

    ctx = context_of(D).copy()
    table = snapshot(D)
    table[CTX_KEY] = ctx
    if ctx.future_ns is not None:
        table[Symbol("blocking")] = ctx.future_ns
    from spell_runtime.futures import start_future  # under the evaluation's deadline and limits (issue 16)

    fut = start_future(lambda: call(table, f, args))
    return SpellMap.from_pairs([(K_SPELL_FUTURE, True), (K_REF, fut)])


def blocking_pmap(D: Any, f: Any, coll: Any) -> Any:
    agent = agent_of(D)
    if _on_runner(agent):
        raise _typed(BLOCKING_RUNNER % "blocking/pmap", "agent-blocking-call", agent.handle if agent else None)
    futures = [_computation(D, f, (item,)) for item in (coll if coll is not None else ())]
    return vec(_await_value("blocking/pmap", D, fut) for fut in futures)


_ABSENT: Final = object()


def blocking_request(D: Any, target: Any, value: Any = _ABSENT) -> Any:
    """A token for a request edge owned by the enclosing agent; slot and delivery commit together."""
    agent = agent_of(D)
    coordination = _coordination(agent)
    if agent is None or coordination is None:
        raise SpellArgumentError("blocking/request requires a source agent")
    token: Future[RequestOutcome] = Future()
    supplied = value is not _ABSENT
    edge_id = coordination.coordinator.request(agent.handle, [target], supplied, value if supplied else None,
                                               token=token, lifecycle=agent.generation)
    return SpellMap.from_pairs([(K_SPELL_FUTURE, True), (K_REF, token), (K_EDGE_ID, edge_id),
                                (K_REQUEST_RESULT, True)])


def blocking_send_await(D: Any, target: Any, value: Any) -> Any:
    agent = agent_of(D)
    if _on_runner(agent):
        raise _typed(BLOCKING_RUNNER % "blocking/send-await", "agent-blocking-call", agent.handle if agent else None)
    return _await_value("blocking/send-await", D, blocking_request(D, target, value))


_BLOCKING_FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {
    "await": blocking_await, "await-all": blocking_await_all, "pmap": blocking_pmap,
    "request": blocking_request, "send-await": blocking_send_await}

BLOCKING_NAMESPACE: Final = namespace(
    {name: member("blocking/" + name, env=True, host="blocking/" + name)(fn) for name, fn in _BLOCKING_FUNCTIONS.items()},
    short_docs="Future-only blocking helpers: await, await-all, pmap, request, send-await.",
    guide="""BLOCKING — future-only blocking primitives (use inside (future ...)).

  (blocking/await fut)               await a future or request token
  (blocking/await-all [f1 f2 ...])   await several
  (blocking/pmap f coll)             parallel map with a blocking join
  (blocking/plet [a e1 b e2] body)   parallel let
  (blocking/request handle [msg])    a tracked request to an agent; returns its token
  (blocking/send-await handle msg)   request and await its result""")

RECEIVE_BUILTIN: Final = member("receive", env=True, host="receive")(receive)
ASK_AWAIT_BUILTIN: Final = member("!ask-await", env=True, host="!ask-await")(ask_await)


def computation_builtins() -> dict[Symbol, Any]:
    """Effect builtins every agent installs for ``eval`` (no namespace entry needed)."""
    return {Symbol("receive"): RECEIVE_BUILTIN, Symbol("!ask-await"): ASK_AWAIT_BUILTIN}

