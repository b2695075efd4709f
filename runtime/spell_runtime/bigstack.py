"""Running an evaluation on a thread with a large stack (language.md A8: deep recursion fails with
``Stack overflow``, never with a crash).

Spell recursion is Python recursion, and the recursion limit is raised so that ~10,000 nested Spell
calls fit (``support.set_recursion_limit``). Python 3.11 keeps pure Python calls off the C stack, but
a recursion that goes through a builtin (``(defn f [x] (map f [x]))``: the body calls ``map``, which
calls the body) takes C stack at every level, and the main thread's 8 MB ran out before the
recursion limit was reached: the process died with a segmentation fault. The turn loop has always
evaluated on a thread with ``STACK_BYTES`` of stack (``spellc.loop.run``); a built module run as a
script does the same through ``call_with_large_stack``. The stack is reserved address space: pages
are used only as deep as the recursion goes.

The Python API (``spellc.eval_string``, ``eval_forms``, ``spell_eval``) — which ``spellc eval``/``run``
call — the REPL and the Spell test runner (``spellc test``, package tests) evaluate wherever they are
called from, so they go through ``on_large_stack``: inline on a thread this module started (the turn
loop's, an earlier hop's: nested evaluations cost nothing), else on a fresh large-stack thread,
~0.1 ms a call — the price of a host process that a program recursing through a builtin cannot
crash. The caller's ``contextvars`` go along, and an interrupted caller (Ctrl-C reaching the waiting
thread) interrupts the evaluation too rather than leaving it running.
"""

from __future__ import annotations

import contextvars
import threading
import weakref
from collections.abc import Callable
from typing import Any, Final, TypeVar

STACK_BYTES: Final = 512 * 1024 * 1024

T = TypeVar("T")

_stack_lock = threading.Lock()

_LARGE: Final[weakref.WeakSet[threading.Thread]] = weakref.WeakSet()
"""The threads started with a large stack (``on_large_stack`` runs inline on them)."""


def start_with_large_stack(worker: threading.Thread, stack_bytes: int = STACK_BYTES) -> None:
    """Start ``worker`` with ``stack_bytes`` of stack when the platform allows it, else the default
    (``threading.stack_size`` is process-wide: set, start, and put back under a lock)."""
    with _stack_lock:
        previous = threading.stack_size()
        try:
            threading.stack_size(stack_bytes)
        except (ValueError, RuntimeError):
            worker.start()
            return
        _LARGE.add(worker)  # before it runs: its first evaluation asks
        try:
            worker.start()
        except RuntimeError:  # the large stack could not be reserved
            _LARGE.discard(worker)
            threading.stack_size(previous)
            worker.start()
        finally:
            threading.stack_size(previous)


def has_large_stack() -> bool:
    """Whether the calling thread was started with a large stack (``start_with_large_stack``)."""
    return threading.current_thread() in _LARGE


def call_with_large_stack(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` on a daemon thread with a large stack, in a copy of the caller's context;
    its value is returned and whatever it raised (``SystemExit`` and ``KeyboardInterrupt`` included) is
    raised here. An interrupted caller (Ctrl-C reaches the waiting main thread) interrupts the
    evaluation and waits for it at most ``INTERRUPT_WAIT_SECONDS``; daemon, so that an evaluation
    still blocked after that does not hold the process at exit."""
    outcome: list[Any] = []
    context = contextvars.copy_context()
    finished = threading.Event()

    def target() -> None:
        try:
            outcome.append((True, context.run(fn, *args, **kwargs)))
        except BaseException as e:  # noqa: BLE001 - handed to the caller, who raises it
            outcome.append((False, e))
        finally:
            finished.set()

    worker = threading.Thread(target=target, name="spell-eval", daemon=True)
    start_with_large_stack(worker)
    try:
        worker.join()
    except KeyboardInterrupt:
        _interrupt(worker, finished)
        raise
    ok, value = outcome[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


INTERRUPT_WAIT_SECONDS: Final = 2.0
"""How long an interrupted caller waits for the evaluation to stop before raising anyway (an
evaluation blocked in a system call sees the interruption only when the call returns)."""


def _interrupt(worker: threading.Thread, finished: threading.Event) -> None:
    """Pass the caller's interruption on to the evaluation on ``worker`` and wait a little for it to
    unwind, so that a REPL's next input does not meet the last one's environment half restored.

    ``finished`` rather than ``worker.is_alive()``/``join``: a ``join`` interrupted by Ctrl-C marks the
    thread stopped while it still runs (CPython 3.11's ``_wait_for_tstate_lock``, bpo-45274)."""
    from .limits import interrupt_thread

    ident = worker.ident
    if ident is not None and not finished.is_set():
        interrupt_thread(ident)
        finished.wait(INTERRUPT_WAIT_SECONDS)


def on_large_stack(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` on a large stack: right here when this thread has one, else through
    ``call_with_large_stack`` (see the module docstring)."""
    if has_large_stack():
        return fn(*args, **kwargs)
    return call_with_large_stack(fn, *args, **kwargs)


__all__ = ["STACK_BYTES", "start_with_large_stack", "call_with_large_stack", "has_large_stack", "on_large_stack",
           "INTERRUPT_WAIT_SECONDS"]
