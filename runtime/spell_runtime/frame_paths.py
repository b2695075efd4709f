"""Rare paths of compiled function bodies that read what they need from the calling body's frame.

Every compiled ``fn`` body (``spellc.emit.scopes``) has two rare exits that once carried the body's
whole state as arguments at every site: a tail value that may be a recur request (Q17, §8.1 step 5)
and the body's failure handler. Cold compile time grows with the number of generated ``ast`` nodes
(architecture.md §2.5, issue 12), so the sites now pass only the body's constant facts, and these
helpers take the rest from ``sys._getframe(1)`` — the body itself, since each is called directly in
its code (``stale_here`` in ``support`` set the pattern). What a body's frame holds, by the
emitter's conventions (``abi``):

- ``D`` and ``_H``, its first two parameters; then its parameters ``_p0 …`` in order, so its arity
  is ``co_argcount - 2``. A body is a module-level function without free variables, so its code
  object and the frame's globals make the function again (``types.FunctionType``) for a re-run.
- ``_ci`` (``abi.L.INDEX``), the running element of the body's own sequence (unset while the
  body has one element: element 0).
- ``_T``, the module's position table, in the frame's globals.

The values read are the current ones: after a ``recur`` jump (which re-binds the parameter
locals) the handler shows the re-bound values, exactly as the argument tuple built in the handler
did. The common paths never come here: a non-map tail value is returned inline, and a map
returned to a builtin (``_H`` None, passed along for that test) or that is no recur request is
handed back before the frame is looked at.

Some also write the frame (``write_locals``). The ``_named`` helpers (``macro_named``, ``late_named``,
``macro_pub_named``, ``late_pub_named``) are given the name of the scope's undo local: they make its
list when it is still None, and store it there when something was recorded in it (``_with_undo``).
The published two also store the parameters' values after an expansion that may ``def`` one back
into the body's parameter locals (``write_params``), so their call sites need no reload of their own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import FrameType, FunctionType
from typing import Any, Optional

from .data.atoms import K_SPELL_RECUR
from .data.fn import recur_vals
from .data.hashmap import SpellMap
from .data.plist import PList
from .published import late_published_into, macro_call_published_into
from .support import conv, fn_fail, late, macro_into, priv_fail, recur_again, seq_fail

# ``abi.L``'s names (``abi`` loads this module into the compiled namespace, so it cannot be imported
# here; ``tests/spellc/optimise/test_frame_paths.py`` checks that they agree).
ENV = "D"
HEAD = "_H"
TABLE = "_T"
INDEX = "_ci"


def recur_here(v: Any, head: Any, form: Any) -> Any:
    """``support.recur_value`` for the body that calls it with its map-typed tail value ``v``, its
    ``_H`` (``head``) and its ``fn`` form (the arity error's form). A recur request re-runs the body
    with its values when the body was applied directly (``head`` not None); anything else is the
    value. (``head`` is an argument, not read from the frame: a map returned to a builtin such as
    ``reduce`` — a common path — then costs one test.)"""
    if head is None:  # a builtin applied the body: it takes a request back as the value
        return v
    if type(v) is SpellMap:  # a plain map, the common case: one lookup (``recur_vals`` took three calls)
        r = v.get(K_SPELL_RECUR)
        if r is None or r is False:
            return v
    vals = recur_vals(v)
    if vals is None:
        return v
    frame = sys._getframe(1)
    code = frame.f_code
    body = FunctionType(code, frame.f_globals)
    return recur_again(body, frame.f_locals[ENV], head, vals, code.co_argcount - 2, form)


def fn_failed_here(site: tuple[Any, Any, Any]) -> BaseException:
    """The handler of a fn body, ``raise _fn_failed_here(site)`` in its ``except``: ``site`` is
    (body elements, ``fn`` form, private parameter symbols, or ``()`` when the parameters are in
    the env); the exception, ``D``, ``_H``, ``_T``, the running element and the parameters' current
    values come from the frame (see ``support.fn_failed``, which the handler used to call)."""
    frame = sys._getframe(1)
    values = frame.f_locals
    elems, fn_form, syms = site
    vals: tuple[Any, ...] = ()
    if syms:
        # A symbol named twice is the env binding of its last parameter, as in the emitter's table.
        names = frame.f_code.co_varnames[2:2 + len(syms)]
        var_of = dict(zip(syms, names))
        vals = tuple(values[var_of[s]] for s in syms)
    e = sys.exc_info()[1]
    assert e is not None, "called from an except clause"
    return fn_fail(e, values[ENV], frame.f_globals[TABLE], values[HEAD], elems, values.get(INDEX, 0),
                   fn_form, syms, vals)


def conv_here() -> BaseException:
    """``support.conv`` of the exception the calling frame is handling, with its ``D`` and ``_T``:
    the handler of a scope frame (``let``, ``loop``, ``for``) that has no private bindings."""
    frame = sys._getframe(1)
    e = sys.exc_info()[1]
    assert e is not None, "called from an except clause"
    return conv(e, frame.f_locals[ENV], frame.f_globals[TABLE])


def seq_failed_here(elems: Any, index: int) -> BaseException:
    """``support.seq_fail`` with the exception, ``D`` and ``_T`` from the calling frame."""
    frame = sys._getframe(1)
    e = sys.exc_info()[1]
    assert e is not None, "called from an except clause"
    return seq_fail(e, frame.f_locals[ENV], frame.f_globals[TABLE], elems, index)


def priv_failed_here(syms: tuple[Any, ...], vals: tuple[Any, ...]) -> BaseException:
    """``support.priv_fail`` with the exception, ``D`` and ``_T`` from the calling frame."""
    frame = sys._getframe(1)
    e = sys.exc_info()[1]
    assert e is not None, "called from an except clause"
    return priv_fail(e, frame.f_locals[ENV], frame.f_globals[TABLE], syms, vals)


PARAM_LOCAL = "_p%d"
"""How a body names the Python local of its ``i``-th parameter (``spellc.emit.scopes``);
``macro_pub_here`` reads a published body's parameter values from its frame by these names."""


def _param_values(values: dict[str, Any], n: int) -> tuple[Any, ...]:
    """The current values of a frame's first ``n`` parameter locals (``PARAM_LOCAL``)."""
    return tuple(values[PARAM_LOCAL % i] for i in range(n))


def macro_here(m: Optional[SpellMap], form: PList, undo: list[Any], mark: Optional[list[Any]] = None) -> Any:
    """``support.macro_into`` with ``D`` read from the calling frame: a call site's macro branch is
    rare, so the frame is read there rather than ``D`` written at every site."""
    return macro_into(sys._getframe(1).f_locals[ENV], m, form, undo, mark)


def macro_pub_here(syms: tuple[Any, ...], m: Any, form: Any, undo: list[Any],
                   mark: Optional[list[Any]] = None) -> tuple[Any, ...]:
    """``published.macro_call_published_into`` with ``D`` and the parameters' values read from the
    calling frame instead of ``D, (_p0, _p1, ...)`` written at every site. The parameters are the
    locals ``_p0``, ``_p1``, ... of the body's function, or of a piece outlined from it, which
    receives every parameter a macro branch inside reloads (``EmitterBase._outline``)."""
    values = sys._getframe(1).f_locals
    return macro_call_published_into(values[ENV], syms, _param_values(values, len(syms)), m, form, undo, mark)


def late_here(form: Any, undo: list[Any]) -> Any:
    """``support.late`` with ``D`` read from the calling frame: a late reference's dynamic
    evaluation runs only once its activation's flag is marked (``spellc.emit.late``), so the frame
    is read there rather than ``D`` written at every site (issue 12)."""
    return late(sys._getframe(1).f_locals[ENV], form, undo)


def late_pub_here(syms: tuple[Any, ...], form: Any, undo: list[Any]) -> tuple[Any, ...]:
    """``published.late_published_into`` with ``D`` and the parameters' values read from the calling
    frame (the locals ``_p0``, ``_p1``, ... as ``macro_pub_here`` reads them) instead of
    ``D, (_p0, _p1, ...)`` written at every site."""
    values = sys._getframe(1).f_locals
    return late_published_into(values[ENV], syms, _param_values(values, len(syms)), form, undo)


_locals_to_fast: Optional[Callable[[FrameType, int], None]] = None
"""``PyFrame_LocalsToFast`` through ctypes (Python < 3.13), bound by the first frame write."""


def write_locals(frame: FrameType, names: Sequence[str], before: Sequence[Any], after: Sequence[Any]) -> None:
    """Store ``after`` into ``frame``'s locals ``names``, which held ``before``: what the call sites of
    the frame-writing helpers once did themselves — a list display reloading a published body's
    parameters from the helper's answer, about 17 ``ast`` nodes a site in the rare paths of every
    published body (issue 12: 790 of compile-300's 13,800), and ``_u := _u or []`` making a scope's
    undo list on its first use (5 nodes, 70 sites; ``macro_named``). Writing is rarer still than these paths: when no
    value changed (by identity) nothing is written, and ctypes is not loaded.

    A function's locals live in its frame's fast slots, which ``frame.f_locals`` only copies before
    Python 3.13; ``PyFrame_LocalsToFast`` copies that dict back (cells included, ``clear=0``: a name
    absent from it keeps its slot). The dict is taken afresh just before, so every other local goes
    back as it is. From 3.13 on (PEP 667), ``f_locals`` writes through to the slots itself. ctypes is
    imported here, on this rare path only, never at start-up (as ``limits._load_async_exc`` does)."""
    global _locals_to_fast
    if all(a is b for a, b in zip(after, before)):
        return
    values = frame.f_locals
    for name, v in zip(names, after):
        values[name] = v
    if sys.version_info >= (3, 13):
        return
    if _locals_to_fast is None:
        import ctypes

        _locals_to_fast = ctypes.PYFUNCTYPE(None, ctypes.py_object, ctypes.c_int)(
            ("PyFrame_LocalsToFast", ctypes.pythonapi))
    _locals_to_fast(frame, 0)


def write_params(frame: FrameType, before: tuple[Any, ...], after: tuple[Any, ...]) -> None:
    """``write_locals`` of a published body's parameter locals ``_p0``, ``_p1``, ... (``PARAM_LOCAL``)."""
    write_locals(frame, [PARAM_LOCAL % i for i in range(len(after))], before, after)


def _stored(frame: FrameType, name: str, made: list[Any]) -> None:
    """Store the undo list a helper made for the caller's local ``name`` (None until then) when the
    rare path recorded a ``def`` in it; an empty list has nothing to undo, so it is dropped, and an
    expansion that ``def``s nothing writes nothing (and loads no ctypes). Called in a ``finally``:
    what was recorded before an expansion failed is undone with the scope too, as when the site
    made the list itself (``_u3 := _u3 or []``)."""
    if made:
        write_locals(frame, (name,), (None,), (made,))


def _with_undo(frame: FrameType, undo: str, evaluate: Callable[[Any, list[Any]], Any]) -> Any:
    """``evaluate(D, undo list)`` with the caller's undo local ``undo``: its list, or one made here and
    stored there afterwards (``_stored``), in a ``finally``, so what was recorded before a failure is
    undone with the scope too. What the ``*_named`` helpers share."""
    values = frame.f_locals
    undo_list = values[undo]
    if undo_list is not None:
        return evaluate(values[ENV], undo_list)
    made: list[Any] = []
    try:
        return evaluate(values[ENV], made)
    finally:
        _stored(frame, undo, made)


def macro_named(m: Optional[SpellMap], form: PList, undo: str, mark: Optional[list[Any]] = None) -> Any:
    """``macro_here`` given the name of the caller's undo local instead of its list: the site passes a
    string constant where it made the list itself (``_with_undo``)."""
    return _with_undo(sys._getframe(1), undo, lambda D, undo_list: macro_into(D, m, form, undo_list, mark))


def late_named(form: Any, undo: str) -> Any:
    """``late_here`` given the name of the caller's undo local, as ``macro_named``."""
    return _with_undo(sys._getframe(1), undo, lambda D, undo_list: late(D, form, undo_list))


def _published_named(frame: FrameType, syms: tuple[Any, ...], undo: str,
                     evaluate: Callable[[Any, tuple[Any, ...], list[Any]], tuple[Any, ...]]) -> Any:
    """What ``macro_pub_named`` and ``late_pub_named`` share: ``evaluate(D, parameter values, undo list)``
    answers the parameters' values afterwards, then the value; an expansion may ``def`` a parameter,
    so the values go back into the frame's parameter locals (``write_params``)."""
    before = _param_values(frame.f_locals, len(syms))

    def run(D: Any, undo_list: list[Any]) -> Any:
        answer = evaluate(D, before, undo_list)
        write_params(frame, before, answer[:-1])
        return answer[-1]

    return _with_undo(frame, undo, run)


def macro_pub_named(syms: tuple[Any, ...], m: Any, form: Any, undo: str, mark: Optional[list[Any]] = None) -> Any:
    """``macro_pub_here`` given the name of the caller's undo local (``_with_undo``), which writes the
    parameters' values afterwards into the caller's locals itself and answers only the value: the
    call site is just this call. The caller is the body's function or a piece outlined from it, which
    then receives and hands back every published parameter (``EmitterBase._outline``)."""
    return _published_named(sys._getframe(1), syms, undo, lambda D, before, undo_list: macro_call_published_into(
        D, syms, before, m, form, undo_list, mark))


def late_pub_named(syms: tuple[Any, ...], form: Any, undo: str) -> Any:
    """``late_pub_here`` given the name of the caller's undo local, as ``macro_pub_named``."""
    return _published_named(sys._getframe(1), syms, undo, lambda D, before, undo_list: late_published_into(
        D, syms, before, form, undo_list))


__all__ = ["ENV", "HEAD", "INDEX", "TABLE", "PARAM_LOCAL", "conv_here", "fn_failed_here", "late_here", "late_named",
           "late_pub_here", "late_pub_named", "macro_here", "macro_named", "macro_pub_here",
           "macro_pub_named", "priv_failed_here", "recur_here", "seq_failed_here", "write_locals",
           "write_params"]
