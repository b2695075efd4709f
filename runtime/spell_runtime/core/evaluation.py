"""Builtins that belong to the evaluator: ``eval``, ``spell-eval``, macros as values, ``gensym``,
``throw`` as a value, and futures (language.md §10.4, §13, §14.13–§14.14).

``eval`` is not in the builtins table: the runtime binds it in every program's
initial *environment* (A17), and installs it — with the agent's effect
namespaces and effect functions — in the builtins only while it runs (the
effect gate, §12.4). Both ``eval`` and ``spell-eval`` reach the compiler
through ``spell_runtime.hooks`` so that a precompiled program that never
evaluates new code needs no compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from ..context import CTX_KEY, Context
from ..data.atoms import K_EXPANDER, K_REF, K_SPELL_FUTURE, K_SPELL_MACRO, Symbol
from ..data.fn import SpellFn
from ..data.hashmap import SpellMap, spell_map
from ..data.plist import plist
from ..data.vector import is_vector, vec
from ..errors import HostError, SpellError
from ..errors_result import error_result
from ..library import load_rest
from .registry import EnvFn, builtin

EffectInstaller = Callable[[Context, dict[Symbol, Any]], None]
"""Adds the effect namespaces and effect functions of the run to a builtins table."""


def _with_effects(ctx: Context) -> dict[Symbol, Any]:
    load_rest()  # a copy would not see the modules a built module's share left out if they loaded later
    table = dict(ctx.builtins)
    installer: Optional[EffectInstaller] = ctx.options.get("install_effects")
    if installer is not None:
        installer(ctx, table)
    table[Symbol("eval")] = EVAL
    return table


def _eval(D: Any, v: Any) -> Any:
    from ..hooks import eval_form

    ctx: Context = D[CTX_KEY]
    saved = ctx.builtins
    saved_gated = ctx.gated
    ctx.builtins = _with_effects(ctx)
    ctx.eval_depth += 1
    try:
        return eval_form(D, v)
    except SpellError as e:
        # runtime.md §6.1: the inner result names the whole evaluated form as its containing form, and
        # the failure is marked as coming from the trailing expression.
        e.containing_form = v
        inner = error_result(e)
        raise HostError(e.message, spell_map(K_RESULT, inner, K_PHASE, K_TRAILING), inner) from None
    finally:
        ctx.eval_depth -= 1
        ctx.builtins = saved
        ctx.gated = saved_gated


K_RESULT = K_SPELL_MACRO.__class__("result")
K_PHASE = K_SPELL_MACRO.__class__("recovery-phase", "spell")
K_TRAILING = K_SPELL_MACRO.__class__("trailing-expression")
EVAL = EnvFn(_eval, "eval")


@builtin("spell-eval", env=True, host="spell.eval/spell-eval")
def spell_eval_builtin(D: Any, v: Any) -> Any:
    from ..hooks import eval_form

    try:
        return eval_form(D, v)
    except SpellError as e:
        raise HostError(e.message, None, error_result(e)) from None


@builtin("apply-macro", env=True, host="spell.eval/apply-macro")
def apply_macro(D: Any, m: Any, *forms: Any) -> Any:
    from ..hooks import apply_macro as expand

    try:
        return expand(D, m, forms)
    except HostError as e:
        raise HostError(e.message, spell_map(_K_MACRO, m, _K_ARGS, vec(forms))) from None


_K_MACRO = K_SPELL_MACRO.__class__("macro")
_K_ARGS = K_SPELL_MACRO.__class__("args")
_Q = Symbol("q")


def _identity_macro() -> SpellMap:
    return spell_map(K_SPELL_MACRO, True, K_EXPANDER, SpellFn(vec([_Q]), vec([_Q])))


@builtin("compmacro", host="spell.eval/compmacro")
def compmacro(*ms: Any) -> Any:
    if not ms:
        return _identity_macro()
    items = list(ms[0]) if len(ms) == 1 and is_vector(ms[0]) else list(ms)
    if len(ms) == 1 and isinstance(ms[0], SpellMap):
        items = [vec(kv) for kv in ms[0].items()]  # Q31: a lone macro map is seen as its entries
    macros = [m for m in items if m is not None]
    if len(macros) == 1:
        return macros[0]
    if not macros:
        return _identity_macro()
    body: Any = _Q
    for i, _m in enumerate(macros):
        body = plist([Symbol("apply-macro"), plist([Symbol("nth"), Symbol("compmacro__ms"), i]), body])
    fn = SpellFn(vec([_Q]), plist([plist([Symbol("let"), vec([Symbol("compmacro__ms"), vec(macros)]), body])]))
    return spell_map(K_SPELL_MACRO, True, K_EXPANDER, fn)


@builtin("gensym", host="clojure.core/gensym")
def gensym_builtin(prefix: Any = "G__") -> Symbol:
    from ..gensym import gensym
    from ..printer import display_str

    return gensym(display_str(prefix))


@builtin("throw", host="spell.eval/throw")
def throw_value(v: Any) -> Any:
    from ..support import throw

    raise throw(v, plist([Symbol("throw"), v]))


@builtin("future*", env=True, host="spell.eval/future*")
def future_star(D: Any, thunk: Any) -> SpellMap:
    from ..context import snapshot
    from ..invoke import call

    ctx: Context = D[CTX_KEY]
    child_ctx = ctx.copy()
    table = snapshot(D)
    table[CTX_KEY] = child_ctx
    if child_ctx.future_ns is not None:
        table[Symbol("blocking")] = child_ctx.future_ns
    from ..futures import start_future  # under the evaluation's deadline and limits (issue 16)

    fut = start_future(lambda: call(table, thunk, ()))
    return spell_map(K_SPELL_FUTURE, True, K_REF, fut)
