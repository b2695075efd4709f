"""``io/watch-send`` and ``io/event-send``: background work that reports by message (runtime.md §2.2.6).

Both return nil at once; the result reaches an agent later through the run's
message channel (``EffectContext.send``), so the turn that started them is not
blocked. The watcher compares directory listings (name → size and mtime) a few
times a second instead of using inotify: it needs no extra dependency, works on
every file system, and a model-paced agent cannot tell 100 ms of latency apart.
Background threads stop when the effect context is closed.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional

from ..data.atoms import Keyword
from ..data.fn import is_truthy
from ..data.hashmap import SpellMap
from ..data.vector import vec
from ..errors import HostError
from .args import NO_ARG, is_number, reject, require_path
from .paths import PathRefused, resolve
from .render import pr

if TYPE_CHECKING:
    from .context import EffectContext

K_OK = Keyword("ok")
K_ABORT = Keyword("abort")
K_ERROR = Keyword("error")
K_TIMEOUT = Keyword("timeout")
K_KIND = Keyword("kind")
K_NAME = Keyword("name")
K_WATCH_SEND = Keyword("watch-send")

POLL_SECONDS = 0.1

Listing = dict[str, tuple[int, int]]


def _listing(real: str) -> Listing:
    out: Listing = {}
    for entry in os.scandir(real):
        try:
            st = entry.stat()
            out[entry.name] = (st.st_size, st.st_mtime_ns)
        except OSError:
            out[entry.name] = (-1, -1)
    return out


def _error(message: str) -> SpellMap:
    return SpellMap.from_pairs([(K_ERROR, message)])


def watch_dir(real: str, shown: str, timeout_ms: Optional[float], stop: threading.Event) -> SpellMap:
    """Block until ``real`` changes: ``{:ok [{:kind :name} ...]}``, ``{:timeout true}`` or ``{:error msg}``."""
    try:
        if not os.path.exists(real):
            return _error(f"Directory not found: {shown}")
        if not os.path.isdir(real):
            return _error(f"Not a directory: {shown}")
        before = _listing(real)
        deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000.0
        while not stop.is_set():
            if deadline is not None and time.monotonic() >= deadline:
                return SpellMap.from_pairs([(K_TIMEOUT, True)])
            stop.wait(POLL_SECONDS)
            after = _listing(real)
            events = changes(before, after)
            if events:
                return SpellMap.from_pairs([(K_OK, vec(events))])
        return SpellMap.from_pairs([(K_TIMEOUT, True)])
    except Exception as e:  # noqa: BLE001
        return _error("Error watching directory: %s" % (str(e) or type(e).__name__))


def changes(before: Listing, after: Listing) -> list[SpellMap]:
    """Create/modify/delete events between two listings, in name order."""
    events: list[SpellMap] = []
    for name in sorted(set(before) | set(after)):
        if name not in before:
            kind = "create"
        elif name not in after:
            kind = "delete"
        elif before[name] != after[name]:
            kind = "modify"
        else:
            continue
        events.append(SpellMap.from_pairs([(K_KIND, Keyword(kind)), (K_NAME, name)]))
    return events


def _sender(ctx: EffectContext, fn_name: str) -> Callable[[Any, Any, Any], None]:
    if ctx.send is None:
        raise HostError(f"{fn_name}: this run has no agent message channel")
    return ctx.send


def run_in_background(ctx: EffectContext, send: Callable[[Any, Any, Any], None], thunk: Callable[[], Any],
                      handle: Any, sender: Any) -> None:
    """Run ``thunk`` on a daemon thread; ``{:ok v}`` sends v, ``{:abort ...}`` nothing, an exception ``{:error msg}``."""

    def work() -> None:
        try:
            result = thunk()
        except Exception as e:  # noqa: BLE001 - reported to the agent instead
            if not ctx.closed:
                send(handle, _error(getattr(e, "message", None) or str(e)), sender)
            return
        if ctx.closed or not isinstance(result, SpellMap):
            return
        if is_truthy(result.get(K_OK)):
            send(handle, result.get(K_OK), sender)

    thread = threading.Thread(target=work, name=f"spell-{sender}", daemon=True)
    ctx.track(thread)
    thread.start()


def watch_send(ctx: EffectContext, path: Any, handle: Any, timeout_ms: Any = NO_ARG) -> None:
    """``(io/watch-send path handle [timeout-ms])``: nil now; later a message from ``:watch-send`` with the events."""
    path = require_path("io/watch-send", path)
    limit: Optional[float] = None
    if timeout_ms is not NO_ARG and timeout_ms is not None:
        if not is_number(timeout_ms) or timeout_ms < 0:
            reject(f"io/watch-send: timeout-ms must be a non-negative number, got {pr(timeout_ms)}")
        limit = float(timeout_ms)
    send = _sender(ctx, "io/watch-send")
    try:
        real = resolve(ctx, path)
    except PathRefused:
        return None  # on error nothing is sent, as for a missing directory
    run_in_background(ctx, send, lambda: watch_dir(real, path, limit, ctx.stop_event), handle, K_WATCH_SEND)
    return None


def event_send(ctx: EffectContext, D: Any, f: Any, handle: Any, sender: Any) -> None:
    """``(io/event-send f handle from)``: run the zero-argument ``f`` in the background and report its result."""
    from ..invoke import call

    send = _sender(ctx, "io/event-send")
    run_in_background(ctx, send, lambda: call(D, f, ()), handle, sender)
    return None
