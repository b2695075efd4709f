"""Error result maps (language.md §15.1) built from a ``SpellError``."""

from __future__ import annotations

from typing import Any

from .data.atoms import Keyword, Symbol
from .data.hashmap import SpellMap
from .data.vector import vec
from .errors import NO_VALUE, SpellError

K_ERR = Keyword("err")
K_ENV = Keyword("env")
K_EXPR = Keyword("expr")
K_TRACE = Keyword("trace")
K_CONTAINING = Keyword("containing-form")
K_THROWN = Keyword("thrown")
K_RESULT = Keyword("result")
K_OK = Keyword("ok")
K_CALL_PATH = Keyword("call-path", "spell")
K_POSITION = Keyword("position", "spell")


def env_map(env: Any) -> SpellMap:
    """A binding table (dict of symbol → value) as a Spell map."""
    if env is None:
        return SpellMap()
    if isinstance(env, SpellMap):
        return env
    return SpellMap.from_pairs(env.items())


def error_result(e: SpellError) -> SpellMap:
    """``{:err ... :env ... :expr ...}`` plus the optional keys present on ``e``."""
    pairs: list[tuple[Any, Any]] = [(K_ERR, e.message), (K_ENV, env_map(e.env)), (K_EXPR, e.expr)]
    if e.trace:
        pairs.append((K_TRACE, vec(e.trace)))
    if e.containing_form is not NO_VALUE:
        pairs.append((K_CONTAINING, e.containing_form))
    if e.thrown is not NO_VALUE:
        pairs.append((K_THROWN, e.thrown))
    if e.result is not None:
        pairs.append((K_RESULT, e.result))
    pairs.extend(e.extra.items())
    # For people and tools reading results, never for the model (runtime.md §8.3: the ``_error``
    # map takes only :error, :in and :trace): where it failed and the call path with call sites.
    if e.position is not None:
        source = e.source_name or e.position_source or "<spell>"
        pairs.append((K_POSITION, "%s:%d:%d" % (source, e.position[0], e.position[1] + 1)))
    if e.frames:
        from .callpath import call_path_value

        pairs.append((K_CALL_PATH, call_path_value(e.frames, e.source_name or e.position_source or "<spell>")))
    return SpellMap.from_pairs(pairs)


def ok_result(value: Any, env: Any) -> SpellMap:
    """``{:ok value :env env}``."""
    return SpellMap.from_pairs([(K_OK, value), (K_ENV, env_map(env))])


__all__ = ["error_result", "ok_result", "env_map", "Symbol"]
