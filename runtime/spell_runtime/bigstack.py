"""Running an evaluation on a thread with a large stack (language.md A8: deep recursion fails with
``Stack overflow``, never with a crash).

Spell recursion is Python recursion, and the recursion limit is raised so that ~10,000 nested Spell
calls fit (``support.set_recursion_limit``). Python 3.11 keeps pure Python calls off the C stack, but
a recursion that goes through a builtin (``(defn f [x] (map f [x]))``: the body calls ``map``, which
calls the body) takes C stack at every level, and the main thread's 8 MB ran out before the
recursion limit was reached: the process died with a segmentation fault. The turn loop has always
evaluated on a thread with ``STACK_BYTES`` of stack (``spellc.loop.run``); the command-line entry
points (``spellc eval``/``run``, a built module run as a script) and the Spell test runner
(``spellc test``, package tests) do the same through ``call_with_large_stack``. The stack is
reserved address space: pages are used only as deep as the recursion goes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Final, TypeVar

STACK_BYTES: Final = 512 * 1024 * 1024

T = TypeVar("T")

_stack_lock = threading.Lock()


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
        try:
            worker.start()
        except RuntimeError:  # the large stack could not be reserved
            threading.stack_size(previous)
            worker.start()
        finally:
            threading.stack_size(previous)


def call_with_large_stack(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` on a daemon thread with a large stack; its value is returned and whatever
    it raised (``SystemExit`` and ``KeyboardInterrupt`` included) is raised here. Daemon, so that an
    interrupted caller (Ctrl-C reaches the waiting main thread) is not held by the evaluation."""
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append((True, fn(*args, **kwargs)))
        except BaseException as e:  # noqa: BLE001 - handed to the caller, who raises it
            outcome.append((False, e))

    worker = threading.Thread(target=target, name="spell-eval", daemon=True)
    start_with_large_stack(worker)
    worker.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


__all__ = ["STACK_BYTES", "start_with_large_stack", "call_with_large_stack"]
