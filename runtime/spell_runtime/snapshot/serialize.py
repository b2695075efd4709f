"""The Spell builtins over snapshots: ``serialize`` and ``context-forms`` (language.md §14.13, runtime.md §4.5).

``serialize`` returns the text the model would see of a value. ``context-forms``
is what the ``!call-now`` / ``!peek`` / ``!print`` expansions call with their
descriptors: one form per descriptor, each value snapshotted independently
against its own target (separators and ``(def name …)`` are not counted).

A limit the *program* wrote (``(serialize v 100)``, ``{:max-chars 10}``) is a
mistake the model can correct, so here it is an argument error (a recoverable
document fault, runtime.md §9.6-2) with the product text, not the typed
``ControlError`` that ``run`` raises for a bad ``:context-max-chars``.

The clipping core (``display``, ``backend``) is imported when one of these builtins first runs:
registering them is part of every start-up, using them is not (issue 12.4).
"""

from __future__ import annotations

from typing import Any, Final

from ..context import CTX_KEY
from ..core.registry import builtin
from ..data.atoms import Keyword, Symbol
from ..data.fn import is_truthy
from ..data.hashmap import SpellMap
from ..data.plist import plist
from ..data.vector import vec
from ..errors import ControlError, HostError, SpellArgumentError
from ..valueform import value_form
from .limits import DEFAULT_LIMIT, effective_limit

RUN_OPTION: Final = "context_max_chars"
"""Key of the run's ``:context-max-chars`` in ``Context.options`` (absent or None: 10000)."""

K_NAME: Final = Keyword("name")
K_VALUE: Final = Keyword("value")
K_FORM: Final = Keyword("form")
K_BODY: Final = Keyword("body")
K_BODY_ONLY: Final = Keyword("body-only?")
S_DEF: Final = Symbol("def")


def run_default(D: dict[Any, Any]) -> Any:
    """The run's default target, as configured on the evaluation context."""
    ctx = D.get(CTX_KEY)
    if ctx is None:
        return DEFAULT_LIMIT
    value = ctx.options.get(RUN_OPTION)
    return DEFAULT_LIMIT if value is None else value


def program_limit(D: dict[Any, Any], limit: Any) -> int:
    """The target for a limit written in the program; an invalid one is the program's argument error."""
    try:
        return effective_limit(limit, run_default(D))
    except ControlError as e:
        raise SpellArgumentError(e.message) from None


def descriptor_form(descriptor: Any, limit: int) -> Any:
    """The form one output descriptor contributes: ``(def name form)``, ``form``, or its fixed ``:form``."""
    from .display import snapshot

    if not isinstance(descriptor, SpellMap):
        raise HostError("context-forms expects descriptor maps")
    if descriptor.contains(K_FORM):
        return descriptor.get(K_FORM)
    value = descriptor.get(K_VALUE)
    if is_truthy(descriptor.get(K_BODY_ONLY)):
        # A received message: only its body is clipped, the envelope fields stay exact.
        if isinstance(value, SpellMap) and value.contains(K_BODY):
            value = value.assoc(K_BODY, snapshot(value.get(K_BODY), limit).value)
        form = value_form(value)
    else:
        form = snapshot(value, limit).form
    name = descriptor.get(K_NAME)
    return plist([S_DEF, name, form]) if is_truthy(name) else form


@builtin("serialize", env=True, host="serialize")
def serialize(D: dict[Any, Any], value: Any, limit: Any = None) -> str:
    """``(serialize v)`` / ``(serialize v n)``: the rendered text of the bounded snapshot of ``v``."""
    from .display import snapshot_text

    return snapshot_text(value, program_limit(D, limit))[0]


@builtin("context-forms", env=True, host="context-forms")
def context_forms(D: dict[Any, Any], descriptors: Any, limit: Any = None) -> Any:
    """``(context-forms descriptors)`` / ``(context-forms descriptors n)``: a vector of one form per descriptor."""
    target = program_limit(D, limit)
    return vec([descriptor_form(d, target) for d in (descriptors if descriptors is not None else ())])
