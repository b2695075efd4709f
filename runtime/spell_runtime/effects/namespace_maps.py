"""The effect namespace maps (``io``, its ``io-read``/``io-write``/``io-exec`` partitions, ``web``,
``globals``, ``patterns``) built for one ``EffectContext``, and the gate's error text.

How the evaluator uses them is written at the top of ``context.py`` (runtime.md §3, language.md
§12.4). They live apart from the context on purpose: every effect implementation (``io_*``,
``web``, ``patterns``) takes an ``EffectContext``, and these builders import those
implementations, so keeping both in one module made an import circle (house-review.md §4). This
module registers its builders in ``context.BUILDERS`` when it loads, which is what
``EffectContext.namespace`` consults.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from ..core.registry import namespace
from ..data.hashmap import SpellMap
from . import docs
from .context import BUILDERS, EffectContext

IO_READ = ("slurp", "slurp-bytes", "read-file", "read-lines", "grep", "glob", "git", "exists?", "directory?",
           "ls", "cwd", "stat", "env")
IO_WRITE = ("write-file", "spit", "str-replace", "replace-lines", "mkdir", "mkdirs", "delete", "copy", "move",
            "temp-file")
IO_EXEC = ("sh", "sh-test", "exec", "watch-send")


def _io_functions() -> dict[str, Callable[..., Any]]:
    """The io/ implementations, imported on first use: most runs never build an io/ map."""
    from . import io_fs, io_proc, io_read, io_watch, io_write

    return {
        "slurp": io_read.slurp, "slurp-bytes": io_read.slurp_bytes, "read-file": io_read.read_file,
        "read-lines": io_read.read_lines, "write-file": io_write.write_file, "spit": io_write.spit,
        "str-replace": io_write.str_replace, "replace-lines": io_write.replace_lines, "exists?": io_fs.exists,
        "directory?": io_fs.is_directory, "ls": io_fs.ls, "mkdir": io_fs.mkdir, "mkdirs": io_fs.mkdirs,
        "delete": io_fs.delete, "copy": io_fs.copy, "move": io_fs.move, "stat": io_fs.stat,
        "temp-file": io_fs.temp_file, "cwd": io_fs.cwd, "env": io_fs.env, "sh": io_proc.sh,
        "sh-test": io_proc.sh_test, "exec": io_proc.exec_argv, "grep": io_proc.grep, "glob": io_proc.glob,
        "git": io_proc.git, "watch-send": io_watch.watch_send, "event-send": io_watch.event_send,
    }


def _io_members(ctx: EffectContext) -> dict[str, Any]:
    functions = _io_functions()
    return {name: ctx.bind("io/" + name, fn, env=name == "event-send") for name, fn in functions.items()}


def _build_io(ctx: EffectContext, subset: Optional[tuple[str, ...]] = None, short: str = docs.IO_SHORT) -> SpellMap:
    if subset is None:
        members = _io_members(ctx)
    else:
        from ..data.atoms import Keyword

        full = ctx.namespace("io")
        members = {name: full.get(Keyword(name)) for name in subset}
    detail = {k: v for k, v in docs.IO_DETAIL.items() if k in members}
    return namespace(members, short_docs=short, guide=docs.IO_GUIDE, detail=detail)


def _build_web(ctx: EffectContext) -> SpellMap:
    from . import web

    members = {"search": ctx.bind("web/search", web.search), "fetch": ctx.bind("web/fetch", web.fetch),
               "config": ctx.bind("web/config", web.config)}
    return namespace(members, short_docs=docs.WEB_SHORT, guide=docs.WEB_GUIDE, detail=docs.WEB_DETAIL)


def _build_globals(ctx: EffectContext) -> SpellMap:
    from ..invoke import call

    def g_update(c: EffectContext, D: Any, key: Any, f: Any) -> Any:
        return c.globals.update(key, lambda v: call(D, f, (v,)))

    def g_wait(c: EffectContext, D: Any, pred: Any) -> bool:
        return c.globals.wait_until(lambda m: call(D, pred, (m,)))

    members = {
        "get": ctx.bind("globals/get", lambda c, key: c.globals.get(key)),
        "set": ctx.bind("globals/set", lambda c, key, value: c.globals.set(key, value)),
        "update": ctx.bind("globals/update", g_update, env=True),
        "pop": ctx.bind("globals/pop", lambda c, key: c.globals.pop(key)),
        "keys": ctx.bind("globals/keys", lambda c: c.globals.keys()),
        "all": ctx.bind("globals/all", lambda c: c.globals.all()),
        "wait-until": ctx.bind("globals/wait-until", g_wait, env=True),
    }
    return namespace(members, short_docs=docs.GLOBALS_SHORT, guide=docs.GLOBALS_GUIDE, detail=docs.GLOBALS_DETAIL)


def _build_patterns(ctx: EffectContext) -> SpellMap:
    from . import patterns

    return patterns.build(ctx)


_BUILDERS: dict[str, Callable[[EffectContext], SpellMap]] = {
    "io": _build_io,
    "io-read": lambda ctx: _build_io(ctx, IO_READ, docs.IO_PARTITION_SHORT["io-read"]),
    "io-write": lambda ctx: _build_io(ctx, IO_WRITE, docs.IO_PARTITION_SHORT["io-write"]),
    "io-exec": lambda ctx: _build_io(ctx, IO_EXEC, docs.IO_PARTITION_SHORT["io-exec"]),
    "web": _build_web,
    "globals": _build_globals,
    "patterns": _build_patterns,
}

BUILDERS.update(_BUILDERS)

EFFECT_NAMESPACES = tuple(_BUILDERS)
"""Every namespace name ``effect_namespaces`` accepts (without the ``stdlib/`` prefix)."""


def effect_namespaces(ctx: EffectContext, names: tuple[str, ...] = ("io", "web", "globals")) -> dict[str, SpellMap]:
    """The namespace maps for ``names``, keyed by name (``stdlib/`` prefix removed)."""
    out: dict[str, SpellMap] = {}
    for name in names:
        short = name[len("stdlib/"):] if name.startswith("stdlib/") else name
        out[short] = ctx.namespace(name)
    return out


def effect_hint(ns_name: str) -> str:
    """PRODUCT STRING hint for a gated effect namespace (runtime.md §3.3); the turn loop shows it too."""
    return f"{ns_name}/ is an effect namespace - use it in the trailing expression via eval"


def gated_message(symbol_text: str, ns_name: str) -> str:
    """The error for using effect namespace ``ns_name`` outside ``eval`` (PRODUCT STRING, runtime.md §3.3)."""
    return f"{symbol_text}: {effect_hint(ns_name)}"
