"""The public Python API: ``eval_string``, ``spell_eval``, and ``run``/``TestProvider`` from the turn loop.

Every call starts from a fresh default environment (``environment.new_env``): the core builtins
and namespaces, plus ``eval`` bound in the env (language.md §6.1, A17). This module is a façade on
top of the compiler and the turn loop; nothing below it imports it (house-review.md §4).
"""

from __future__ import annotations

from typing import Any, Optional

from spell_runtime.bigstack import on_large_stack
from spell_runtime.data import SpellMap, Symbol
from spell_runtime.data.positions import span_of
from spell_runtime.errors import SpellError
from spell_runtime.errors_result import error_result, ok_result
from spell_runtime.gcpolicy import evaluation_gc
from spell_runtime.program import close_env

from .analyze import bound
from .compiler import run_form
from .environment import new_env as new_env  # re-exported: spellc.api.new_env is used by callers
from .reader import read_all, read_first


def _locate(e: SpellError, source_name: str, form: Any = None) -> SpellError:
    """Finish an error's position: the expr's own span, else where it occurs in the failing form."""
    if e.position is None and e.expr is not None:
        e.position = span_of(e.expr)
    if e.position is None and form is not None:
        from .error_position import locate_error

        e.position = locate_error(e, form)
    if e.source_name is None:
        e.source_name = source_name
    return e


def eval_string(source: str, source_name: str = "<string>", *, eval_timeout_sec: Optional[float] = None,
                max_collection_size: Optional[int] = None, workspace: Optional[str] = None,
                web: Optional[dict[str, Any]] = None) -> Any:
    """Read and evaluate every top-level form of ``source`` in one fresh environment; the last value.

    Raises ``SpellError`` (message = the Spell ``:err`` text; ``.expr``, ``.trace``, ``.position``).
    By default nothing is limited but the collection size (``spell_runtime.limits``);
    ``eval_timeout_sec`` bounds the whole evaluation, ``workspace`` confines ``io/`` paths
    and ``web`` is the ``web/`` configuration (``{"allow-private-network": True}``...), as
    the run options of the same names do (issue 16).
    """
    return eval_forms(None, source, source_name, eval_timeout_sec=eval_timeout_sec,
                      max_collection_size=max_collection_size, workspace=workspace, web=web)


def eval_forms(forms: Optional[list[Any]], source: str, source_name: str = "<string>", *,
               eval_timeout_sec: Optional[float] = None, max_collection_size: Optional[int] = None,
               workspace: Optional[str] = None, web: Optional[dict[str, Any]] = None) -> Any:
    """``eval_string`` of ``source`` whose forms a caller has already read (``read_all(source)``;
    None: read them here): ``spellc run`` reads the file once to refuse unreadable text up front,
    and reading it again cost as much as analyzing it (issue 12).

    The evaluation runs on a large stack (``spell_runtime.bigstack.on_large_stack``): called from a
    thread with an ordinary stack, a program recursing through a builtin would crash the process."""
    return on_large_stack(_eval_forms, forms, source, source_name, eval_timeout_sec, max_collection_size,
                          workspace, web)


def _eval_forms(forms: Optional[list[Any]], source: str, source_name: str, eval_timeout_sec: Optional[float],
                max_collection_size: Optional[int], workspace: Optional[str], web: Optional[dict[str, Any]]) -> Any:
    from spell_runtime import limits
    from spell_runtime.effects import EffectContext

    from .loop.options import validate_collection_size, validate_eval_timeout, validate_web, validate_workspace

    timeout = validate_eval_timeout(eval_timeout_sec)
    size = validate_collection_size(max_collection_size)
    effects = EffectContext(workspace=validate_workspace(workspace), web_config=validate_web(web))
    # The whole program is one evaluation for the GC policy (``spell_runtime.gcpolicy``): reading and
    # compiling make tens of thousands of young acyclic objects (forms, IR, ``ast`` nodes), and the
    # default threshold walked the live ones ~35 times in a cold run of compile-300 (~5 ms, issue 12).
    with evaluation_gc():
        if forms is None:
            forms = read_all(source)
        D = new_env(effects=effects)
        value: Any = None
        form: Any = None
        try:
            with limits.deadline(timeout), limits.collection_limit(size):
                for form in forms:
                    value, _ = run_form(D, form, source_name, source)
        except SpellError as e:
            raise _locate(e, source_name, form) from None
        finally:
            _close(D)
    return value


def _close(D: dict[Any, Any]) -> None:
    close_env(D)


def spell_eval(form_or_text: Any, env: Any = None) -> SpellMap:
    """Evaluate one form (or the first form of a text) and return the result map.

    ``{:ok value :env env'}`` or ``{:err message :env env :expr form ...}``; the map supports
    Python's Mapping reads (``result[keyword("env")]``) and its ``:env`` can be passed back in.
    It is evaluated on a large stack, as ``eval_forms`` is.
    """
    return on_large_stack(_spell_eval, form_or_text, env)


def _spell_eval(form_or_text: Any, env: Any) -> SpellMap:
    form = read_first(form_or_text) if isinstance(form_or_text, str) else form_or_text
    initial: dict[Any, Any] = {}
    if env is not None:
        items = env.items() if isinstance(env, (SpellMap, dict)) else ()
        initial = {k: v for k, v in items}
    D = new_env()
    if initial:
        bound.note_bound(k for k in initial if type(k) is Symbol)
        D.update(initial)
    try:
        value, _ = run_form(D, form)
    except SpellError as e:
        return error_result(e)
    finally:
        _close(D)
    from spell_runtime.context import snapshot

    return ok_result(value, snapshot(D))


def run(opts: Any = None, /, **kwargs: Any) -> dict[str, Any]:
    """Run a Spell agent (runtime.md §7.1): ``{"result": v}`` or ``{"error": m, "error_data": d}``.

    The turn loop is imported on first use; see ``spellc.loop.run.run`` for the options.

    ``agent="name"`` (a Python keyword argument only) runs an installed package's agent
    (``spellc.agents_registry.find_agent``) as the agent profile. The Spell option ``:agent``
    stays a removed option (runtime.md §7.2), so an options map holding it is still refused.
    """
    from .loop.run import run as run_agent

    agent = kwargs.pop("agent", None)
    if isinstance(agent, str):
        from .agents_registry import find_agent

        kwargs["agent_profile"] = find_agent(agent).profile()
    elif agent is not None:
        kwargs["agent"] = agent  # not a name: let validation report the removed option
    return run_agent(opts, **kwargs)


def __getattr__(name: str) -> Any:
    """``TestProvider`` (runtime.md §7.5) without importing the providers package up front."""
    if name == "TestProvider":
        from .providers.test_provider import TestProvider

        return TestProvider
    raise AttributeError("module 'spellc.api' has no attribute %r" % name)
