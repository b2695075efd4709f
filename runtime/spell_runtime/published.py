"""Private parameters, published only around the calls that could observe them (issue 13 item 1).

A function body's parameters are dynamically scoped bindings (language.md §8.3): any Spell
function it calls, any macro it expands, reads them by name. ``spellc.analyze.privacy`` keeps
them in Python locals when the body's only observers are call sites (``FnBody.published``).
Each call site then does one of two things:

* **The callee is the same compiled body** (``f.code is`` the caller's own function, checked at
  run time: recursion, the common case). The callee binds every one of the caller's parameter
  names itself before running any code, so for the whole of its extent those names hold the
  callee's values, never the caller's: publishing the caller's would be overwritten unseen. The
  call goes straight to the compiled body with nothing published (the shadow check).
* **Anything else** (another function, a macro, a builtin, ``eval``): the helpers below store the
  parameters' current values in ``D`` — exactly the bindings the non-private code shape would
  have there — make the call, and restore ``D`` afterwards, whatever happens.

Error envs. A failure inside the callee is converted by the callee's own handler, which
snapshots ``D`` *with* the published values (or the callee's own values, if it rebinds a name).
That snapshot is the reference's env at the failure point, so the caller's handler must not
overwrite those names with its private values: the helpers mark them as already supplied
(``support.add_privates``' ``_private_names``). A failure in the caller's own code (or a host
function, converted by the caller's handler after ``D`` was restored) gets the caller's values
from its handler, as for any private scope.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from .context import CTX_KEY
from .errors import SpellError
from .support import MISS, apply_fn, mark_core, merge_undo


def _publish(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...]) -> list[Any]:
    """Bind ``syms`` to ``vals`` in ``D``; their bindings before (``MISS``: none), all read first.
    (Plain loops: measured cheaper than a comprehension, a frame of its own in 3.11, or than
    ``map``/``zip``/``dict.update``.)"""
    saved = []
    for s in syms:
        saved.append(D.get(s, MISS))
    for s, v in zip(syms, vals):
        D[s] = v
    return saved


def _withdraw(D: dict[Any, Any], syms: tuple[Any, ...], saved: list[Any]) -> None:
    """Undo ``_publish``. Every saved binding predates all of the new ones, so a name published
    twice has the same saved value twice and the order of restoring does not matter."""
    for s, old in zip(syms, saved):
        if old is MISS:
            D.pop(s, None)
        else:
            D[s] = old


def _mark_supplied(e: BaseException, syms: tuple[Any, ...]) -> None:
    if isinstance(e, SpellError) and e.env is not None:
        e.__dict__.setdefault("_private_names", set()).update(syms)


def apply_published(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...], f: Any, form: Any,
                    args: tuple[Any, ...]) -> Any:
    """Apply ``f`` (any value) to ``args`` with the caller's private parameters visible in ``D``.

    Every call a published body makes to another function comes here (issue 12): one parameter
    is published and withdrawn inline, several with plain loops (no helper calls). The saved
    values are all read before any is bound, so a repeated name restores its outer value in
    whatever order. The callee is still applied through ``apply_fn``, not called here: Python
    3.11 has no guard on the C stack, and an endless recursion through this path must reach the
    recursion limit (``Stack overflow``) before the C stack runs out — calling the body from here,
    one Python frame fewer per level, let it segfault instead."""
    if len(syms) == 1:
        s = syms[0]
        old = D.get(s, MISS)
        D[s] = vals[0]
        try:
            return apply_fn(D, f, form, args)
        except BaseException as e:
            _mark_supplied(e, syms)
            raise
        finally:
            if old is MISS:
                D.pop(s, None)
            else:
                D[s] = old
    saved = []  # ``_publish`` and ``_withdraw``, inline
    for s in syms:
        saved.append(D.get(s, MISS))
    for s, v in zip(syms, vals):
        D[s] = v
    try:
        return apply_fn(D, f, form, args)
    except BaseException as e:
        _mark_supplied(e, syms)
        raise
    finally:
        for s, old in zip(syms, saved):
            if old is MISS:
                D.pop(s, None)
            else:
                D[s] = old


def macro_call_published(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...], m: Any, form: Any,
                         undo: Any) -> tuple[Any, Any, tuple[Any, ...]]:
    """Expand and evaluate a user macro call with the caller's private parameters visible in ``D``:
    (value, the caller scope's undo list with the expansion's escaping defs, the parameters' values
    afterwards).

    An expansion runs in the caller's scope and its defs escape into it (§10.2), so it may ``def``
    a parameter's name: the call site reloads its parameter locals from the third element, and the
    undo entries of those defs are dropped (the name is restored here, on the way out, to the value
    it had before the parameters were published; the caller's later calls publish the new value)."""
    from .hooks import expand_user_macro

    return _evaluate_published(D, syms, vals, lambda: expand_user_macro(D, m, form, str(form.first)), undo)


def _evaluate_published(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...], make: Callable[[], Any],
                        undo: Any) -> tuple[Any, Any, tuple[Any, ...]]:
    """Evaluate the form ``make()`` gives (called once the parameters are published) in ``D``, with
    the caller's private parameters visible there: ``macro_call_published``'s answer."""
    from .hooks import eval_expansion

    saved = _publish(D, syms, vals)
    try:
        value, more = eval_expansion(D, make())
        after = tuple(D.get(s, MISS) for s in syms)
    except BaseException as e:
        _mark_supplied(e, syms)
        raise
    finally:
        _withdraw(D, syms, saved)
    if more:
        more = [entry for entry in more if entry[0] not in syms]
    return value, merge_undo(undo, more), after


def macro_call_published_into(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...], m: Any, form: Any,
                              undo: list[Any], mark: Optional[list[Any]] = None) -> tuple[Any, ...]:
    """``macro_call_published`` in the shape the call site reads with the fewest ``ast`` nodes
    (issue 12): the escaping defs go into the caller's undo list ``undo`` in place, and the
    answer is flat, the parameters' values afterwards then the value. ``mark``: as for
    ``support.macro_into``."""
    value, more, after = macro_call_published(D, syms, vals, m, form, None)
    if more:
        undo.extend(more)
        if mark is not None:
            mark_core(mark, more)
    return (*after, value)


def late_published_into(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...], form: Any,
                        undo: list[Any]) -> tuple[Any, ...]:
    """``support.late`` in a body whose parameters are published around calls: ``form`` evaluated
    with them visible, answered as ``macro_call_published_into`` answers (their values afterwards,
    then the value; ``spellc.emit.late``)."""
    value, more, after = _evaluate_published(D, syms, vals, lambda: form, None)
    if more:
        undo.extend(more)
    return (*after, value)


def to_list(v: Any) -> list[Any]:
    """A loop vector kept as a Python list (``spellc.analyze.linear``) rebound from a recur request
    value: back to a fresh list (the request carries a vector)."""
    out: list[Any] = v.tolist() if type(v) is not list else list(v)
    return out


__all__ = ["to_list", "apply_published", "macro_call_published", "late_published_into", "CTX_KEY"]
