"""Evaluation limits for model-written code (issue 16.3): a wall-clock deadline per
evaluation, a cap on collections built from counts, a cap on nested macro expansion.

A limit hit is a Spell error the model can fix, so each is stamped as a *document*
fault (runtime.md §9.2, project reasons ``:timeout`` and ``:resource-limit``) and the
turn loop gives the model a recovery turn; effects already run are not replayed (the
pipeline's effect count, §9.6-3, sees them).

The deadline — why a watchdog and not an emitted check
------------------------------------------------------
Two designs were weighed. (a) The compiler emits a clock check at every loop
iteration and call; (b) a watchdog thread raises an *asynchronous exception*
(``PyThreadState_SetAsyncExc``) in the evaluating thread when its deadline passes.
(a) costs on every iteration of every compiled loop (a global load, a call to
``time.monotonic`` or a counter decrement, a compare) — several percent on the tight
kernels of ``benchmarks/kernels.py`` — and touches the back end. (b) costs nothing in
compiled code (CPython already polls its "eval breaker" at backward jumps and calls,
which is where the pending exception is raised) and one registration per evaluation.
We chose (b).

What an interruption can leave, and why that is safe:

* ``EvalTimeout`` derives from ``BaseException``. Compiled handlers pass non-``Exception``
  signals through untouched (``support.conv``), and Spell ``catch`` only catches
  ``SpellError``, so a model's ``try`` cannot swallow its own timeout.
* Every ``finally`` on the way out still runs: dynamic bindings (restored by
  try/finally in compiled fns), ``with lock:`` blocks and the effect context's
  bookkeeping unwind normally. The exception can land *between* two bytecodes of such
  a cleanup, cutting it short; the only state that can be left half-restored is the
  evaluation environment ``D`` of the evaluation being abandoned, which the turn loop
  never evaluates in again (each completion is re-evaluated in a fresh env). Locks
  are taken with ``with`` (acquire and handler setup are not separated by an eval
  breaker check), so none is left held.
* The exception is raised when the deadline passes and again every
  ``REFIRE_SECONDS`` until the evaluation has ended (a single shot can be replaced
  by another exception raised while it unwinds, e.g. a ``RecursionError`` caught by
  a Spell ``catch``). ``_Watch.finish`` retires the deadline under the watchdog's
  lock and withdraws a shot still pending, so none surfaces in the caller's code.
* It is only delivered between bytecodes: a blocking C call (a subprocess wait, a
  socket read, ``time.sleep``) is not interrupted. Blocking effects therefore bound
  their own waits by ``remaining()`` (``io/sh`` and friends, ``web/``), and long
  integer text conversions are split into short pieces (``bigdigits``).

Known cost of asynchronous delivery: a shot can also land in a garbage-collection
callback (a ``weakref.finalize``, a ``__del__``, a ``gc.callbacks`` entry — hypothesis
installs one for the whole process) that happens to run on the evaluating thread; the
callback's work is cut short and Python reports the shot as unraisable. ``deadline``
keeps a ``sys.unraisablehook`` in front that recognises a lost ``EvalTimeout``, keeps
it from the previous hook (pytest turns unraisable exceptions into test failures, and
formatting a traceback as deep as the stack inside it took long enough for the next
shot to land there too) and has the watchdog fire again at once instead of after
``REFIRE_SECONDS``. With frequent collections (a deep recursion allocates tens of
thousands of frames) this was what made a timed-out overflow loop flaky late in a
long test session.

Nesting: a nested evaluation on the same thread (a child completion evaluated while
its parent waits in ``!llm-self``) pauses the parent's clock and runs under its own
deadline; model calls pause the clock too (``paused()``): the limit bounds program
evaluation, not provider latency. Futures run on their own threads under what is left
of the deadline that started them (``futures``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Final, Optional

from .data.atoms import Keyword
from .errors import HostError, SpellError

DEFAULT_MAX_COLLECTION_SIZE: Final = 10_000_000
"""Elements a builtin may build from a count (``range``, ``repeat``, ``repeatedly``, ``apply``):
large enough for any reasonable program (a 10⁷-element vector is ~400 MB), small enough that a
runaway like ``(range 1e300 1e301)`` fails at once instead of exhausting memory."""

MAX_MACRO_DEPTH: Final = 200
"""User macro expansions nested inside one another (a macro whose expander calls itself)."""

K_FAULT: Final = Keyword("fault", "spell")
K_REASON: Final = Keyword("reason", "spell")
TIMEOUT_REASON: Final = Keyword("timeout")
RESOURCE_REASON: Final = Keyword("resource-limit")
DOCUMENT: Final = Keyword("document")

TIMED_OUT: Final = "Evaluation timed out after %s s"
COLLECTION_LIMIT: Final = "Collection size limit exceeded: %s"
MACRO_TOO_DEEP: Final = "Macro expansion too deep"


REFIRE_SECONDS: Final = 0.2
"""After a deadline passes, the exception is raised again this often until the evaluation has
ended: an exception raised while another one unwinds (a ``RecursionError`` in a handler, a
``finally`` that fails) replaces it, so one shot alone could be lost and the loop go on."""


class EvalTimeout(BaseException):
    """Raised asynchronously in an evaluating thread whose deadline passed (never caught by Spell)."""


class CollectionLimitError(HostError):
    """A builtin was asked to build more elements than the run allows."""


def stamped(err: SpellError, reason: Keyword) -> SpellError:
    """``err`` stamped as a document fault with ``reason`` (runtime.md §9.1)."""
    err.extra[K_FAULT] = DOCUMENT
    err.extra[K_REASON] = reason
    return err


def seconds_text(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else repr(float(seconds))


# -- per-thread settings --------------------------------------------------------------------


class _ThreadLimits(threading.local):
    max_collection: int = DEFAULT_MAX_COLLECTION_SIZE
    macro_depth: int = 0

    def __init__(self) -> None:
        self.watches: list[_Watch] = []


_local = _ThreadLimits()


def max_collection_size() -> int:
    return _local.max_collection


def check_count(n: Any) -> None:
    """Refuse to build ``n`` elements when ``n`` is over this thread's collection limit."""
    limit = _local.max_collection
    if n > limit:
        raise CollectionLimitError(COLLECTION_LIMIT % limit)


def check_text_size(chars: int) -> None:
    """Strings built by joining get ten characters per allowed element (100 MB by default)."""
    limit = _local.max_collection * 10
    if chars > limit:
        raise CollectionLimitError(COLLECTION_LIMIT % limit)


@contextmanager
def collection_limit(limit: Optional[int]) -> Iterator[None]:
    """Run the block with a collection size limit (None: keep the current one)."""
    if limit is None:
        yield
        return
    old = _local.max_collection
    _local.max_collection = limit
    try:
        yield
    finally:
        _local.max_collection = old


@contextmanager
def macro_level(form: Any) -> Iterator[None]:
    """One level of user macro expansion; too many nested levels is a Spell error."""
    if _local.macro_depth >= MAX_MACRO_DEPTH:
        raise stamped(SpellError(MACRO_TOO_DEEP, form), RESOURCE_REASON)
    _local.macro_depth += 1
    try:
        yield
    finally:
        _local.macro_depth -= 1


def is_limit_error(e: BaseException) -> bool:
    return isinstance(e, SpellError) and e.extra.get(K_REASON) in (TIMEOUT_REASON, RESOURCE_REASON)


# -- the deadline ---------------------------------------------------------------------------

_set_async_exc: Any = None
_clear_async_exc: Any = None


def _load_async_exc() -> None:
    """Bind ``PyThreadState_SetAsyncExc`` (set and clear) through ctypes, when the first deadline is
    armed: importing ctypes costs start-up that most runs, which set no deadline, need not pay
    (issue 12.4). Called by the arming thread, outside the watchdog's lock."""
    global _set_async_exc, _clear_async_exc
    if _clear_async_exc is not None:
        return
    import ctypes

    setter = ctypes.pythonapi.PyThreadState_SetAsyncExc
    setter.argtypes = [ctypes.c_ulong, ctypes.py_object]
    setter.restype = ctypes.c_int
    _set_async_exc = setter
    _clear_async_exc = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)(
        ("PyThreadState_SetAsyncExc", ctypes.pythonapi))


def interrupt_thread(thread_id: int) -> None:
    """Raise ``KeyboardInterrupt`` in thread ``thread_id`` at its next bytecode: a caller interrupted
    while it waits for an evaluation running on another thread (``bigstack.call_with_large_stack``)
    passes the interruption on, as if the evaluation had run on its own thread."""
    _load_async_exc()
    _set_async_exc(thread_id, KeyboardInterrupt)


class _Watch:
    """One evaluation's deadline on one thread."""

    __slots__ = ("thread_id", "seconds", "expires", "remaining", "fired", "done", "refire_at")

    def __init__(self, seconds: float) -> None:
        self.thread_id = threading.get_ident()
        self.seconds = seconds
        self.expires: Optional[float] = time.monotonic() + seconds
        self.remaining = seconds
        self.fired = False
        self.done = False
        self.refire_at = 0.0


class _Watchdog:
    """One daemon thread for the whole process, sleeping until the earliest live deadline.

    Fork. A forked child has only the forking thread, but inherits the watchdog's lock in whatever
    state the watchdog thread left it: taken whenever that thread had just woken up (armed by a
    deadline, or its wait timing out). ``spellc batch`` forks every item from a process whose
    warm-up run started the watchdog, and such an item then waited forever for the lock at its
    first deadline (half of eight parallel batches hung so under load). So the child starts over
    (``after_fork_in_child``): a new lock, no thread, and only the watches of the forking thread
    (the others' threads do not exist there), with a thread of its own if one of those is running."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._watches: list[_Watch] = []
        self._thread: Optional[threading.Thread] = None

    def after_fork_in_child(self) -> None:
        """Forget the parent's lock state and thread (class docstring); registered with ``os.register_at_fork``."""
        self._cond = threading.Condition(threading.Lock())
        me = threading.get_ident()
        self._watches = [w for w in self._watches if w.thread_id == me]
        self._thread = None
        if any(w.expires is not None for w in self._watches):
            self._start_thread()  # forked inside a running deadline: it still bounds the child

    def add(self, w: _Watch) -> None:
        _load_async_exc()
        with self._cond:
            self._watches.append(w)
            self._start_thread()
            self._cond.notify()

    def _start_thread(self) -> None:
        """Start the watchdog thread unless it runs (called holding the lock)."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._loop, name="spell-eval-watchdog", daemon=True)
            self._thread.start()

    def pause(self, w: _Watch) -> None:
        with self._cond:
            if w.expires is not None:
                w.remaining = max(0.0, w.expires - time.monotonic())
                w.expires = None

    def resume(self, w: _Watch) -> None:
        with self._cond:
            if w.expires is None and not w.done:
                w.expires = time.monotonic() + w.remaining
                self._start_thread()  # none after a fork that happened inside a deadline
                self._cond.notify()

    def finish(self, w: _Watch) -> None:
        """Retire ``w``; a timeout fired but not yet raised is withdrawn (it must not escape)."""
        with self._cond:
            if w.done:
                return
            w.done = True
            if w in self._watches:
                self._watches.remove(w)
            if w.fired:
                _clear_async_exc(w.thread_id, None)

    def refire_now(self, thread_id: int) -> None:
        """A shot at ``thread_id`` was lost: fire again as soon as the watchdog runs."""
        with self._cond:
            for w in self._watches:
                if w.thread_id == thread_id and w.fired and not w.done:
                    w.refire_at = 0.0
                    self._cond.notify()

    def _loop(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                wake: Optional[float] = None
                for w in self._watches:
                    if w.expires is None:
                        continue
                    due = w.refire_at if w.fired else w.expires
                    if due <= now:
                        w.fired = True
                        w.refire_at = now + REFIRE_SECONDS
                        _set_async_exc(w.thread_id, EvalTimeout)
                        due = w.refire_at
                    if wake is None or due < wake:
                        wake = due
                self._cond.wait(None if wake is None else wake - now)


_WATCHDOG: Final = _Watchdog()
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_WATCHDOG.after_fork_in_child)


def _lost_shot_hook(unraisable: Any) -> None:
    """``sys.unraisablehook`` in front of the previous one: a timeout swallowed by a gc callback or
    finalizer is fired again at once; anything else goes to the previous hook."""
    if isinstance(unraisable.exc_value, EvalTimeout):
        _WATCHDOG.refire_now(threading.get_ident())
        return
    _previous_hook[0](unraisable)


_previous_hook: list[Any] = [sys.unraisablehook]


def _keep_hook_in_front() -> None:
    current = sys.unraisablehook
    if current is not _lost_shot_hook:
        _previous_hook[0] = current
        sys.unraisablehook = _lost_shot_hook


def remaining() -> Optional[float]:
    """Seconds left before this thread's current evaluation times out (None: no deadline)."""
    if not _local.watches:
        return None
    w = _local.watches[-1]
    if w.expires is None:
        return w.remaining
    return max(0.0, w.expires - time.monotonic())


def deadline_seconds() -> Optional[float]:
    """The limit (seconds) of this thread's current evaluation deadline, or None."""
    return _local.watches[-1].seconds if _local.watches else None


def bounded_wait(timeout: Optional[float]) -> Optional[float]:
    """A blocking wait's timeout cut to the time this evaluation has left (None: unbounded)."""
    left = remaining()
    if left is None:
        return timeout
    # A little past the deadline, so the watchdog's exception (not the wait's own timeout) reports it.
    left += 0.05
    return left if timeout is None or timeout <= 0 else min(timeout, left)


@contextmanager
def deadline(seconds: Optional[float], shown: Optional[float] = None) -> Iterator[None]:
    """Bound the block by ``seconds`` of wall-clock time (None: no bound); a timeout becomes the Spell
    error ``Evaluation timed out after N s`` (document fault, reason ``:timeout``), N being ``shown``
    when given (a future's thread runs on what is left of the evaluation's limit, ``futures``)."""
    if seconds is None:
        yield
        return
    outer = _local.watches[-1] if _local.watches else None
    if outer is not None:
        _WATCHDOG.pause(outer)
    _keep_hook_in_front()
    w = _Watch(seconds)
    if shown is not None:
        w.seconds = shown
    _local.watches.append(w)
    _WATCHDOG.add(w)
    try:
        try:
            yield
        finally:
            _WATCHDOG.finish(w)
    except EvalTimeout as timeout:
        _WATCHDOG.finish(w)
        if not w.fired:
            raise  # not ours (cannot happen while outer deadlines are paused; kept for safety)
        err = stamped(SpellError(TIMED_OUT % seconds_text(w.seconds)), TIMEOUT_REASON)
        err.position = _spell_position(timeout.__traceback__)
        # The Spell error still links to the timeout (``__context__``, hidden by ``from None``): cut the
        # timeout's own traceback and chain, which can be as deep as the stack was (issue 16).
        timeout.__traceback__ = None
        timeout.__context__ = None
        raise err from None
    finally:
        _local.watches.remove(w)
        if outer is not None:
            _WATCHDOG.resume(outer)


def _spell_position(tb: Optional[TracebackType]) -> Optional[tuple[int, int, int, int]]:
    """Where the evaluation was when it was interrupted: the instruction of the innermost frame of
    compiled Spell code, mapped through ``co_positions``.

    Two cases are not that instruction (issue 12 follow-up; ``tests/spellc/optimise/test_timeout_positions.py``):

    * The frame has not started its body, or is leaving it: the shot is raised where CPython
      polls its eval breaker (backward jumps, calls, a frame's entry ``RESUME``), and a fn
      body's entry, its prologue (``_publish`` binding published parameters), its handler and
      its ``finally`` carry the position of the whole ``defn``/``fn`` form, or none. No call
      form of the body is running there; the running call is the caller's, so the next
      compiled frame out is reported instead (or the first one outside a builtin that applied
      the fn, as in ``(map f xs)``). Optimised code calls fns directly far more often
      (self-calls, published bodies), so there it was the usual case: a recursive fn's
      timeout named its ``defn`` rather than the recursive call; switched off, it named the
      ``defn`` when the shot landed in a prologue.
    * Compiled Spell frames are told by their globals (the call-form table ``_T``,
      ``abi.L.TABLE``, that every compiled module binds) as well as their file name: the shot
      can land in any Python frame, and importlib's frozen frames (``<frozen
      importlib._bootstrap>``) have no ``.py`` name either — ``SPELLC_NO_OPT`` code, which
      reaches builtins through ``support``, reported a timeout at importlib's line 405.

    When the two switches run different instructions (a builtin called inline or through the
    library), the shot lands on different instructions and the positions can differ; both
    are inside the running body, at the call or operator being evaluated.

    Only the frames' current instructions are read: a timeout that lands in a deep recursion
    brings a traceback tens of thousands of frames long, and listing every frame's
    ``co_positions`` took seconds (issue 16, the timed-out stack-overflow loop)."""
    from .abi import L
    from .callpath import raw_position

    innermost: Optional[TracebackType] = None
    caller: Optional[TracebackType] = None
    while tb is not None:
        frame = tb.tb_frame
        if L.TABLE in frame.f_globals and not frame.f_code.co_filename.endswith(".py"):
            if innermost is not None and innermost.tb_frame is not frame:
                caller = innermost
            innermost = tb
        tb = tb.tb_next
    if innermost is not None and caller is not None and _outside_body(innermost):
        innermost = caller
    pos = raw_position(innermost)
    if pos is None or pos[0] is None:
        return None
    line, end_line, col, end_col = pos
    return (line, col or 0, end_line or line, end_col or 0)


def _outside_body(tb: TracebackType) -> bool:
    """Whether ``tb``'s frame was interrupted before or after its body: on its entry instruction, or
    on one positioned at the whole code's span (the ``fn`` form: prologue, handler, ``finally``)."""
    from opcode import opmap

    from .callpath import raw_position

    code = tb.tb_frame.f_code
    if 0 <= tb.tb_lasti < len(code.co_code) and code.co_code[tb.tb_lasti] == opmap["RESUME"]:
        return True
    pos = raw_position(tb)
    if pos is None or pos[0] is None:
        return True
    # The widest position (earliest start, then latest end): the fn form. Empty ones are left out:
    # the entry instruction's is (its line, 0, its line, 0) wherever the form starts.
    spans = [(p[0], p[2], p[1] or p[0], p[3] or 0) for p in code.co_positions()
             if p[0] is not None and p[2] is not None and (p[1] or p[0], p[3] or 0) > (p[0], p[2])]
    if not spans:
        return True
    widest = min(spans, key=lambda span: (span[0], span[1], -span[2], -span[3]))
    return (pos[0], pos[2], pos[1] or pos[0], pos[3] or 0) == widest


@contextmanager
def paused() -> Iterator[None]:
    """Stop this thread's evaluation clock for the block (a model call, a child completion)."""
    w = _local.watches[-1] if _local.watches else None
    if w is None:
        yield
        return
    _WATCHDOG.pause(w)
    try:
        yield
    finally:
        _WATCHDOG.resume(w)
