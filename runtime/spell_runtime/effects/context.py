"""Per-run effect state (``EffectContext``); the namespace maps it caches are built by ``namespace_maps.py``.

How the compiler/evaluator is meant to use this module (runtime.md §3, language.md §12.4):

1. A run (``spellc.run``, ``eval_string``...) creates one ``EffectContext``; its
   ``globals`` store is shared by every agent of the run, and its options
   (workspace root, cwd, search backends, process timeout, message channel) fix
   how effects behave for that run. Close it when the run ends
   (``ctx.close()`` or ``with EffectContext() as ctx``): that stops background
   watchers and unregisters the run's member functions from the builtin
   registry (a context that is merely dropped is unregistered when collected).
   Keep the context alive while its maps are in use: members hold it weakly.
2. ``effect_namespaces(ctx, names)`` (``namespace_maps.py``) gives the namespace maps for the profile's
   effect namespaces (``"io"``, ``"io-read"``, ``"io-write"``, ``"io-exec"``,
   ``"web"``, ``"globals"``; a ``"stdlib/"`` prefix is accepted). The maps are
   built once per context and cached, so calling it on every ``eval`` is cheap
   and always yields the same member objects.
3. While ``eval`` evaluates its form (and only then) the evaluator binds each
   map under its symbol (normally ``io``, ``web``, ``globals``; an ``io-read``
   partition is usually bound as ``io``) next to the effect builtins.
4. Outside ``eval``, when a symbol's root names a configured effect namespace
   that is not bound, the evaluator reports ``gated_message(symbol_text, root)``
   — e.g. ``gated_message("io/ls", "io")``, also in ``namespace_maps.py`` — as the error (reason
   ``:effect-outside-eval``). This module does not implement the gate.

Each member is a Python callable of its Spell arguments (``EnvFn`` for the few
that call back into Spell: ``globals/update``, ``globals/wait-until``,
``io/event-send``), registered with ``spell_runtime.core.registry.member`` under
its Spell name (``io/read-file``) so arity errors and printing name it. Every
call counts in ``ctx.effect_count``: recovery uses the count to refuse replaying
a program whose failed evaluation already performed effects (runtime.md §9.6-3).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional

from ..core.registry import INFO, member
from ..data.hashmap import SpellMap
from ..errors import HostError

if TYPE_CHECKING:
    from .globals import GlobalsStore
    from .web import SearchBackend

BUILDERS: dict[str, Callable[[EffectContext], SpellMap]] = {}
"""Namespace name → the function that builds its map for one context. Filled by
``namespace_maps.py`` when it loads, which whoever makes a context has done: ``EffectContext`` taken
from the package comes through it (``effects/__init__``), and ``spell_runtime.program`` imports it.
The builders import the effect implementations, which import this module for ``EffectContext``."""

MessageSender = Callable[[Any, Any, Any], None]
"""``send(handle, value, from)``: deliver a message to an agent (used by ``io/watch-send``)."""


class EffectContext:
    """Everything effects need to know about the run they belong to.

    ``workspace``: when set, every ``io/`` file path must resolve inside this
    directory (see ``paths``); relative paths then start from it unless ``cwd``
    says otherwise. ``cwd``: the directory relative paths and processes start
    from (None = the host process's working directory at call time).
    ``sh_timeout``: default process timeout in seconds (None = ``SPELL_SH_TIMEOUT``
    or 30; 0 = none). ``temp_dir``: where ``io/temp-file`` creates files.
    ``search_backends``: name → backend for ``web/search``. ``web_config``: map
    deep-merged over the default web configuration. ``send``: the run's agent
    message channel, needed only by ``io/watch-send``/``io/event-send``.

    A plain class rather than a ``@dataclass``: ``dataclasses`` imports ``inspect``, start-up
    that every ``spellc eval`` paid for this one class (issue 12.4). For the same reason the
    ``globals`` store is made when first read, and what members need (``paths``, ``envelope``) is
    imported by ``bind``: every program's start makes a context, few programs use an effect (issue 12).
    """

    def __init__(self, globals: Optional[GlobalsStore] = None, workspace: Optional[str] = None,
                 cwd: Optional[str] = None, sh_timeout: Optional[float] = None, temp_dir: Optional[str] = None,
                 search_backends: Optional[dict[str, SearchBackend]] = None, web_config: Optional[SpellMap] = None,
                 send: Optional[MessageSender] = None, stop_event: Optional[threading.Event] = None) -> None:
        self._globals: Optional[GlobalsStore] = globals
        self.workspace = workspace
        self.cwd = cwd
        self.sh_timeout = sh_timeout
        self.temp_dir = temp_dir
        self.search_backends: dict[str, SearchBackend] = search_backends if search_backends is not None else {}
        self.web_config = web_config
        self.send = send
        self.stop_event = stop_event if stop_event is not None else threading.Event()
        self._count = 0
        self._lock = threading.Lock()
        self._namespaces: dict[str, SpellMap] = {}
        self._members: list[Any] = []
        self._threads: list[threading.Thread] = []
        self._registered: list[tuple[int, str]] = []
        weakref.finalize(self, _unregister, self._registered)
        if self.workspace is not None:
            root = os.path.realpath(self.workspace)
            if not os.path.isdir(root):
                raise ValueError(f"workspace is not a directory: {self.workspace}")
            self.workspace = root
            if self.cwd is None:
                self.cwd = root
        if self.cwd is not None:
            self.cwd = os.path.abspath(self.cwd)

    def __repr__(self) -> str:
        return "EffectContext(globals=%r, workspace=%r, cwd=%r, sh_timeout=%r, temp_dir=%r, search_backends=%r, " \
               "web_config=%r, send=%r)" % (self.globals, self.workspace, self.cwd, self.sh_timeout, self.temp_dir,
                                            self.search_backends, self.web_config, self.send)

    @property
    def globals(self) -> GlobalsStore:
        """The run's ``globals/`` store: the one given, else a fresh one made on first read."""
        store = self._globals
        if store is None:
            from .globals import GlobalsStore

            with self._lock:
                store = self._globals
                if store is None:
                    store = self._globals = GlobalsStore()
        return store

    # -- accounting -------------------------------------------------------------------
    def note_effect(self) -> None:
        """Count one effect invocation."""
        with self._lock:
            self._count += 1

    @property
    def effect_count(self) -> int:
        """Effect invocations so far; compare before/after an evaluation to see whether it did any."""
        return self._count

    # -- lifetime ---------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self.stop_event.is_set()

    def track(self, thread: threading.Thread) -> None:
        """Remember a background thread so ``close`` can wait for it briefly."""
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)

    def close(self, wait: float = 1.0) -> None:
        """End the run's effects: stop watchers and unregister this context's members.

        Unregistering also happens when an unclosed context is garbage-collected;
        closing is still what stops background watchers promptly.
        """
        self.stop_event.set()
        with self._lock:
            threads, self._threads = self._threads, []
            self._namespaces.clear()
            _unregister(self._registered)
            self._members = []
        for t in threads:
            t.join(wait)

    def __enter__(self) -> EffectContext:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- namespaces -------------------------------------------------------------------
    def namespace(self, name: str) -> SpellMap:
        """The (cached) namespace map ``name``."""
        short = name[len("stdlib/"):] if name.startswith("stdlib/") else name
        with self._lock:
            cached = self._namespaces.get(short)
        if cached is not None:
            return cached
        built = BUILDERS[short](self) if short in BUILDERS else None
        if built is None:
            raise ValueError(f"unknown effect namespace: {name}")
        with self._lock:
            return self._namespaces.setdefault(short, built)

    def bind(self, spell_name: str, fn: Callable[..., Any], *, env: bool = False) -> Any:
        """A registered member calling ``fn(ctx, ...)`` (``fn(ctx, D, ...)`` when ``env``) that counts as an effect.

        The member reaches the context through a weak reference: the builtin
        registry keeps members alive, and a strong reference would keep every
        run's context (and its globals) alive with them.
        """
        from .envelope import fail
        from .paths import PathRefused

        ref = weakref.ref(self)

        def live() -> EffectContext:
            ctx = ref()
            if ctx is None:
                raise HostError(f"{spell_name}: the run that provided this effect has ended")
            ctx.note_effect()
            return ctx

        # A path the workspace refuses is an operational failure of the effect: the one place it
        # becomes a failure envelope is here, so members just call ``paths.resolve``.
        if env:
            def call_env(D: Any, *args: Any) -> Any:
                try:
                    return fn(live(), D, *args)
                except PathRefused as e:
                    return fail(e.message)
            wrapper: Callable[..., Any] = call_env
        else:
            def call(*args: Any) -> Any:
                try:
                    return fn(live(), *args)
                except PathRefused as e:
                    return fail(e.message)
            wrapper = call
        import inspect  # here, not at the top: most runs bind no effect member (start-up, issue 12.4)

        params = list(inspect.signature(fn).parameters.values())[1:]
        wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        wrapper.__name__ = wrapper.__qualname__ = spell_name.replace("/", "__")
        wrapper.__doc__ = fn.__doc__
        value = member(spell_name, env=env)(wrapper)
        with self._lock:
            self._members.append(value)
            self._registered.append((id(value), spell_name))
        return value


def _unregister(registered: list[tuple[int, str]]) -> None:
    """Drop a context's members from the builtin registry (on close, or when the context is collected)."""
    for key, name in registered:
        info = INFO.get(key)
        if info is not None and info.name == name:
            del INFO[key]
    registered.clear()
