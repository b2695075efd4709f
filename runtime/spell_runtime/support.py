"""Helpers that compiled Spell code calls (imported by every compiled module).

Kept apart from the core library because these implement *evaluator*
semantics: symbol resolution misses, the slow paths of function application,
user macro calls, converting host failures into Spell errors at the right call
site, and the undo lists of ``def`` (see ``context``'s docstring).

Error conversion uses source positions: every call node the emitter generates has
a unique (line, end line, column, end column) position, and each compiled module
keeps a table from position to the call form. When a host exception reaches a
compiled frame's handler, the frame's last instruction (``tb_lasti``) gives the
position of the call that failed, hence the Spell form whose head names the
failure (``Function call failed: <head>: <message>``). No per-call bookkeeping
runs on the success path. Modules written by ``spellc build`` are positioned by
their own text instead; their table is a ``SpanTable`` (one span per call form).
The names generated code uses for these helpers are declared in ``abi``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import BuiltinFunctionType, FunctionType, TracebackType
from typing import Any, Optional
from weakref import ref

from .callpath import BUILT_TABLES, CallSite, fill_pending, place_error, site_in_frame, table_position
from .context import CTX_KEY, Context, snapshot
from .core.registry import BUILTINS, info_of
from .data.atoms import Keyword, Symbol
from .data.fn import RecurMarker, SpellFn, as_spell_fn, is_macro, is_spell_fn
from .data.hashmap import SpellMap
from .data.lookup import get
from .data.plist import PList
from .data.positions import span_of
from .epoch import EPOCH  # re-exported: the binding epoch (see spell_runtime.epoch)
from .errors import NO_VALUE, ControlError, HostError, SpellError, StackOverflow
from .invoke import call as call_callable  # at module level: call_host runs on every host call
from .libns import claim
from .library import load_rest
from .packnum import pack_numbers, unpack_numbers, unzigzag, zigzag

MISS: Any = object()
"""Sentinel for "no binding" in saved-value slots and lookups."""

NOTHING: Any = object()
"""A value no Spell expression produces; compiled code compares walrus temps against it."""

K_THROWN_KEY = Keyword("thrown", "spell")
K_RESULT = Keyword("result")
K_RECOVERY = Keyword("recovery-phase", "spell")


# --------------------------------------------------------------------------- lookups

def miss(D: dict[Any, Any], sym: Symbol) -> Any:
    """Resolve a symbol that is not in the env: builtins, else a gate hint, else unbound."""
    ctx: Context = D[CTX_KEY]
    v = ctx.builtin(sym, MISS)
    if v is not MISS:
        return v
    raise unbound(ctx, sym)


def unbound(ctx: Context, sym: Symbol, whole: Optional[Symbol] = None) -> SpellError:
    """The error for an unresolvable symbol (the gated-namespace hint where one applies)."""
    text = str(whole if whole is not None else sym)
    if sym.ns is None:
        hint = ctx.gated.get(sym.name)
        if hint is not None:
            return SpellError("%s: %s" % (text, hint), whole if whole is not None else sym)
    if whole is not None:
        return SpellError("Unbound symbol: %s" % sym, whole)
    return SpellError("Unbound symbol: %s" % sym, sym)


def lookup(D: dict[Any, Any], sym: Symbol) -> Any:
    """Full unqualified lookup: env, then builtins. Generated code calls it (``_global``) for a global
    read where it runs once (unit code outside loops): four ``ast`` nodes instead of the twelve of the
    inline ``D[sym] if sym in D else _miss(D, sym)`` that code which may run often keeps (issue 12)."""
    v = D.get(sym, MISS)
    if v is not MISS:
        return v
    return miss(D, sym)


def ns_path(D: dict[Any, Any], root: Symbol, keys: tuple[Keyword, ...], whole: Symbol) -> Any:
    """Resolve a qualified symbol ``root/k1/.../kn`` (language.md §12.2)."""
    v = D.get(root, MISS)
    if v is MISS:
        ctx: Context = D[CTX_KEY]
        v = ctx.builtin(root, MISS)
        if v is MISS:
            raise unbound(ctx, root, whole)
    for k in keys:
        v = get(v, k)
    if v is None:
        raise SpellError("Namespace lookup failed: %s" % whole, whole)
    return v


def ns_static(value: Any, keys: tuple[Keyword, ...], whole: Symbol) -> Any:
    """``ns_path`` for a root known at compile time (a core namespace that nothing shadows)."""
    v = value
    for k in keys:
        v = get(v, k)
    if v is None:
        raise SpellError("Namespace lookup failed: %s" % whole, whole)
    return v


# --------------------------------------------------------------------------- binding

def rec(undo: Optional[list[Any]], D: dict[Any, Any], sym: Any) -> list[Any]:
    """Record the current binding of ``sym`` in an undo list (creating it), before a def."""
    if undo is None:
        undo = []
    undo.append((sym, D.get(sym, MISS)))
    return undo


def define(D: dict[Any, Any], undo: list[Any], sym: Any, value: Any) -> Any:
    """A ``def`` in a scope whose undo list always exists (a unit): ``rec`` then bind, in one call;
    the value of the ``def``."""
    undo.append((sym, D.get(sym, MISS)))
    D[sym] = value
    return value


def unwind(D: dict[Any, Any], undo: list[Any]) -> None:
    """Restore the bindings recorded in ``undo``, newest first."""
    for sym, old in reversed(undo):
        if old is MISS:
            D.pop(sym, None)
        else:
            D[sym] = old
    undo.clear()


def publish(D: dict[Any, Any], syms: tuple[Any, ...], vals: tuple[Any, ...]) -> list[Any]:
    """A published fn body's prologue in one call: save the bindings of its parameter symbols
    (all before any is bound, so a repeated name restores its outer value), bind them to the
    arguments, and hand back the saved entries as an undo list for the body's ``finally: _unwind``."""
    if len(syms) == 1:
        s = syms[0]
        saved = [(s, D.get(s, MISS))]
        D[s] = vals[0]
        return saved
    saved = []
    for s in syms:  # a loop, not a comprehension: in 3.11 that is a function frame of its own
        saved.append((s, D.get(s, MISS)))
    for s, v in zip(syms, vals):
        D[s] = v
    return saved


def merge_undo(undo: Optional[list[Any]], more: Optional[list[Any]]) -> Optional[list[Any]]:
    """Append the undo entries of run-time compiled code to a scope's list."""
    if not more:
        return undo
    if undo is None:
        return list(more)
    undo.extend(more)
    return undo


def restore(D: dict[Any, Any], sym: Any, old: Any) -> None:
    """Put back a saved binding (``MISS`` = there was none)."""
    if old is MISS:
        D.pop(sym, None)
    else:
        D[sym] = old


def restore_all(D: dict[Any, Any], syms: tuple[Any, ...], olds: tuple[Any, ...]) -> None:
    """``restore`` of each of ``syms`` with its saved binding in ``olds``, the last first (a name
    saved twice ends with its first saved binding): a scope's ``finally`` in one call."""
    i = len(syms)
    while i:
        i -= 1
        old = olds[i]
        if old is MISS:
            D.pop(syms[i], None)
        else:
            D[syms[i]] = old


# --------------------------------------------------------------------------- calls

def apply_fn(D: dict[Any, Any], f: Any, form: Any, args: tuple[Any, ...]) -> Any:
    """Direct application (language.md §8.1) when the compiled fast path did not apply.

    The common cases come first and call straight through, without the helper calls of the
    general path (this runs for every call a published body makes to another function, and for
    every dynamic head; issue 12): a compiled Spell function of the call's arity, and a host
    builtin (a plain Python function, which ``invoke.call`` would call as ``f(*args)``)."""
    t = type(f)
    if t is SpellFn:
        code = f.code
        if code is not None and f.arity == len(args):
            return code(D, form.first if type(form) is PList else form, *args)
        return _apply_spell(D, f, form, args)
    if t is FunctionType or t is BuiltinFunctionType:
        if len(args) == 1 and f is BUILTINS.get(_S_THROW):
            # ``throw`` reached through a dynamic head: its error's :expr is this call form, exactly as
            # when the head is compiled statically (language.md §15 :expr; found by the switch-off tests).
            raise throw(args[0], form)
        try:
            return f(*args)
        except TypeError:
            err = host_arity_error(f, args)
            if err is None:
                raise
            raise err from None
    if isinstance(f, SpellMap) and is_spell_fn(f):
        return _apply_spell(D, as_spell_fn(f), form, args)
    if len(args) == 1 and f is BUILTINS.get(_S_THROW):
        raise throw(args[0], form)
    return call_host(D, f, args)


def _apply_spell(D: dict[Any, Any], fn: SpellFn, form: Any, args: tuple[Any, ...]) -> Any:
    """``apply_fn`` of a Spell function off its fast path: arity errors, a body not compiled yet."""
    if fn.arity != len(args):
        if fn.arity < 0:
            raise SpellError("count not supported on this type: %s" % _simple_class(fn.params), form)
        raise SpellError("Wrong number of args: expected %d, got %d" % (fn.arity, len(args)), form)
    code = fn.code
    if code is None:
        from .hooks import compile_fn

        code = compile_fn(fn)
    return code(D, form.first if type(form) is PList else form, *args)


_S_THROW = Symbol("throw")


def call_host(D: dict[Any, Any], f: Any, args: tuple[Any, ...]) -> Any:
    """Apply a non-Spell-function callable; arity mistakes get the JVM's text."""
    try:
        return call_callable(D, f, args)
    except TypeError:
        err = host_arity_error(f, args)
        if err is None:
            raise
        raise err from None


def host_arity_error(f: Any, args: tuple[Any, ...]) -> Optional[HostError]:
    """The JVM's arity error when a builtin ``f`` raised ``TypeError`` because it does not take
    ``len(args)`` arguments, else None (the ``TypeError`` is the builtin's own)."""
    info = info_of(f)
    if info is not None and (len(args) < info.min_args or (info.max_args is not None and len(args) > info.max_args)):
        return HostError("Wrong number of args (%d) passed to: %s" % (len(args), info.host_name))
    return None


def macro_call(D: dict[Any, Any], m: SpellMap, form: PList, undo: Optional[list[Any]]) -> tuple[Any, Any]:
    """``macro_into`` as call sites written before it used it (modules built by earlier versions):
    (value, the scope's undo list extended with the expansion's escaping defs)."""
    from .hooks import eval_expansion, expand_user_macro

    expansion = expand_user_macro(D, m, form, str(form.first))
    value, more = eval_expansion(D, expansion)
    return value, merge_undo(undo, more)


def check_macro(f: Any) -> bool:
    """True when a head value is a user macro (a plain map with truthy :spell/macro)."""
    return type(f) is SpellMap and is_macro(f)


def not_macro(f: Any) -> bool:
    """True when a head value that is not a Spell function is no user macro either: the call site
    goes on to evaluate the arguments (a call site tests ``type(f) is _SpellFn`` first)."""
    return type(f) is not SpellMap or not is_macro(f)


def applier(D: dict[Any, Any], f: Any, form: Any) -> Callable[..., Any]:
    """The callee of a call site whose head value is not a Spell function of the call's arity.

    A call site is ``(f.code if type(f) is _SpellFn and f.arity == n else _applier(D, f, form))(D, head, a1, ...)``:
    the head's fast path and every other case share one argument list, evaluated once after the
    callee, so the arguments need no temporaries (architecture.md §2.5). The function returned
    takes the compiled-body convention ``(D, head, *args)`` and applies ``f`` generically."""

    def apply(D: dict[Any, Any], head: Any, *args: Any) -> Any:
        return apply_fn(D, f, form, args)

    return apply


def callee(D: dict[Any, Any], f: Any, form: Any) -> Optional[Callable[..., Any]]:
    """The callee of a call site whose head could be a user macro, when the head value is not a
    Spell function of the call's arity: None when it is a user macro, else what ``applier`` gives.

    The call site (``spellc.emit.calls``, issue 12) makes the macro test part of choosing the
    callee, before any argument is evaluated, so its common case is one type test::

        _c(D, head, a1) if (_c := f.code if type(f := ...) is _SpellFn and f.arity == 1
                                  else _callee(D, f, form)) else _macro_into(D, f, form, undo)
    """
    if type(f) is SpellMap and is_macro(f):
        return None

    def apply(D: dict[Any, Any], head: Any, *args: Any) -> Any:  # ``applier``'s, made here: one call fewer
        return apply_fn(D, f, form, args)

    return apply


def callee_global(D: dict[Any, Any], f: Any, form: PList) -> Optional[Callable[..., Any]]:
    """``callee`` for a call site whose head symbol is a global read as ``D.get(sym)`` (issue 12):
    a None head may be a name that is not in ``D``, which resolves here as ``miss`` resolves it
    (a builtin, else the unbound-symbol error, raised before any argument is evaluated), or one
    bound to nil, which stays nil. Only a global head may come here: the symbol ``form.first``
    names the value read, which is not so for a private local."""
    if f is None:
        sym = form.first
        f = D.get(sym, MISS)
        if f is MISS:
            f = miss(D, sym)
    if type(f) is SpellMap and is_macro(f):
        return None

    def apply(D: dict[Any, Any], head: Any, *args: Any) -> Any:  # as in ``callee``, without a call to it
        return apply_fn(D, f, form, args)

    return apply


def callee_once(D: dict[Any, Any], form: PList, n: int) -> Optional[Callable[..., Any]]:
    """The whole callee choice of a call site with a global head in code that runs once per
    evaluation, a unit's code outside loops (issue 12: one helper call where a site that may run
    often keeps the choice's common case inline): the head symbol's value ``f`` read as such a site
    reads it (``D.get``), then ``f.code`` for a Spell function of the call's arity ``n``, else
    ``callee_global``'s answer (None for a user macro, which the site's macro branch reads again:
    ``macro_into`` given None)."""
    f = D.get(form.first)
    if type(f) is SpellFn and f.arity == n:
        return f.code
    return callee_global(D, f, form)


def macro_into(D: dict[Any, Any], m: Optional[SpellMap], form: PList, undo: list[Any],
               mark: Optional[list[Any]] = None) -> Any:
    """Expand a user macro call and evaluate the expansion (language.md §10.2): its value, with
    the expansion's escaping defs appended to the call site scope's undo list ``undo`` in place
    (one helper call, no result tuple for the call site to take apart). ``mark``: the calling
    activation's flag, marked when the expansion bound a core name there (``spellc.emit.late``).
    ``m`` None: the macro is the value of the form's head symbol in ``D`` (a site whose callee choice
    read it, ``callee_once``; nothing ran since)."""
    from .hooks import eval_expansion, expand_user_macro

    if m is None:
        m = D.get(form.first)
    expansion = expand_user_macro(D, m, form, str(form.first))
    value, more = eval_expansion(D, expansion)
    if more:
        undo.extend(more)
        if mark is not None:
            mark_core(mark, more)
    return value


def mark_core(mark: list[Any], entries: list[Any]) -> None:
    """Mark an activation's flag when the undo ``entries`` (one per binding made in its frame) bind
    a core builtin name: its static references to that name no longer hold (``spellc.analyze.late``)."""
    if mark or not entries:
        return
    load_rest()  # the whole library's names, not only a built module's share
    if any(type(e[0]) is Symbol and e[0] in BUILTINS for e in entries):
        mark.append(True)


def late(D: dict[Any, Any], form: Any, undo: list[Any]) -> Any:
    """Evaluate ``form`` afresh in ``D``, compiled under the bindings of now, as a macro expansion at
    its place would be: its value, its escaping defs appended to the scope's undo list ``undo``.

    The dynamic side of a static reference compiled after a place where something may have bound
    a name in the activation's frame at run time (``spellc.analyze.late``, ``spellc.emit.late``)."""
    from .hooks import eval_expansion

    value, more = eval_expansion(D, form)
    if more:
        undo.extend(more)
    return value


def recur_of(v: Any) -> Optional[tuple[Any, ...]]:
    """The values of a recur request returned as a body value, else None."""
    if type(v) is RecurMarker:
        return v.vals
    if isinstance(v, SpellMap):
        from .data.fn import recur_vals

        return recur_vals(v)
    return None


def recur_again(code: Callable[..., Any], D: dict[Any, Any], head: Any, vals: tuple[Any, ...], arity: int,
                form: Any) -> Any:
    """Re-run a directly applied function with the values of a recur request it returned (§8.1 step 5)."""
    if len(vals) != arity:
        raise SpellError("Wrong number of args: expected %d, got %d" % (arity, len(vals)), form)
    return code(D, head, *vals)


def recur_value(code: Callable[..., Any], D: dict[Any, Any], head: Any, v: Any, arity: int, form: Any) -> Any:
    """A map-typed tail value of a function body: when the body was applied directly (``head`` not
    None), a recur request re-runs the function with its values (§8.1 step 5, Q17); any other map,
    and any request returned to a builtin that applied the body (``head`` None), is the value.
    (What modules built before ``frame_paths.recur_here`` call.)"""
    if head is None:
        return v
    vals = recur_of(v)
    if vals is None:
        return v
    return recur_again(code, D, head, vals, arity, form)


_restaled: dict[Any, Callable[..., Any]] = {}


def stale(code: Any, form: Any, D: dict[Any, Any], head: Any, args: tuple[Any, ...]) -> Any:
    """Run a function body compiled before a builtin it refers to directly was bound somewhere:
    compile the ``fn`` form again under the current bindings and run that instead. ``code`` (the
    stale body's function, or its code object from ``stale_here``) keys the recompiled body."""
    key = (code, EPOCH[0])
    fresh = _restaled.get(key)
    if fresh is None:
        from .hooks import compile_fn_form

        fresh = compile_fn_form(form)
        _restaled[key] = fresh
    return fresh(D, head, *args)


def stale_here(form: Any) -> Any:
    """``stale`` for a body sent stale when the epoch moved: its code is then a stub whose whole body
    is ``return _stale_here(form)`` (``spell_runtime.stale_bodies``), so its frame holds exactly its
    arguments (``D``, the head, the parameters, in that order) and nothing else has run."""
    frame = sys._getframe(1)
    code = frame.f_code
    values = frame.f_locals
    args = tuple(values[name] for name in code.co_varnames[2:code.co_argcount])
    return stale(code, form, values["D"], values["_H"], args)


def subunits(D: dict[Any, Any], elems: tuple[Any, ...], keys: Any,
             undo: Optional[list[Any]]) -> Optional[list[Any]]:
    """Evaluate the leading elements of a long body sequence, each as its own cached unit.

    Returns the scope's undo list extended with the elements' escaping definitions; a failing
    element is marked as the error's containing form.
    """
    from .hooks import subunit
    from .replay import Recorder, enabled, replay

    # A leading run of replayable elements seen before is applied from its checkpoint (replay.py).
    on = enabled()
    done = replay(D, elems) if on else None
    start = 0
    if done is not None:
        start = len(done.forms)
        undo = merge_undo(undo, done.undo)
    recorder = Recorder(done)
    if not on:
        recorder.stop()
    try:
        for i in range(start, len(elems)):
            form = elems[i]
            unit = subunit(form, keys[i])
            found = recorder.eligible(form, D)
            own: list[Any] = []
            try:
                unit(D, own)
            except SpellError as e:
                element_failed(e, form, keys, i)
                raise
            finally:
                undo = merge_undo(undo, own)
            if found is not None:
                recorder.add(form, found, own, D)
    finally:
        recorder.finish()
    return undo


def subunits_value(D: dict[Any, Any], elems: tuple[Any, ...], keys: Any,
                   undo: Optional[list[Any]]) -> tuple[Optional[list[Any]], Any]:
    """``subunits`` for a whole body sequence whose value is needed: (undo, the last element's value).

    The last element is never replayed (``replay`` restores bindings, not values): it is
    evaluated every time, as its own cached unit too.
    """
    from .hooks import subunit

    n = len(elems)
    undo = subunits(D, elems[:n - 1], keys, undo)
    form = elems[n - 1]
    unit = subunit(form, keys[n - 1])
    own: list[Any] = []
    try:
        value = unit(D, own)
    except SpellError as e:
        element_failed(e, form, keys, n - 1)
        raise
    finally:
        undo = merge_undo(undo, own)
    return undo, value


def element_failed(e: SpellError, form: Any, keys: Any, i: int) -> None:
    """Mark element ``i`` of a long body (``form``) as the containing form of its failure ``e``.

    An element without a span of its own (a bare symbol) is compiled as a sub-unit with no position,
    and symbols being interned, that unit serves it at every place: its failure, the atom's own
    (``Unbound symbol``), was placed at line 1, column 0. Its place is the one the body recorded for
    it (``keys.span``), as where a short body evaluates the same element inline."""
    e.containing_form = form
    if span_of(form) is None:
        span = keys.span(i)  # ``analyzer.SourceKeys`` or a template's ``templates.NoKeys``
        if span is not None:
            e.position = span


def make_recur(vals: tuple[Any, ...]) -> RecurMarker:
    return RecurMarker(vals)


def throw(v: Any, form: Any) -> SpellError:
    """The error ``(throw v)`` raises (language.md §14.14, Q32)."""
    if v is None or v is False:
        return SpellError("Function call failed: throw: %s" % ("nil" if v is None else "false"), form)
    if type(v) is str:
        msg = v
    else:
        from .printer import pr_str

        msg = pr_str(v)
    return SpellError(msg, form, thrown=v)


def fail(message: str, form: Any) -> SpellError:
    """A Spell error detected by the compiler, raised only if the form is evaluated."""
    return SpellError(message, form)


# --------------------------------------------------------------------------- error conversion

def _position_at(tb: Optional[TracebackType]) -> Optional[tuple[Any, ...]]:
    return table_position(tb)


_Spans = list[tuple[int, int, int, int, Any]]
"""A position table's spans: (line, col, end line, end col, call form) each."""


class SpanTable(dict[Any, Any]):
    """A position table for code whose positions are not the Spell ones (``spellc build`` output).

    A module compiled from the emitter's AST carries Spell positions, unique per call site, so its
    table is a plain dict looked up exactly. Text written by ``spellc build`` is positioned by
    CPython from the text itself, so every node of a call site has its own position there; rather
    than one entry per node, this table keeps one span per call form (the text of all the code
    generated for it) and a failing instruction belongs to the innermost span that contains it.
    """

    def __init__(self, spans: _Spans | str | Callable[[], _Spans], forms: tuple[Any, ...] = (),
                 source: Optional[str] = None, spell: Optional[list[Any]] | str = None,
                 quoted: Optional[tuple[tuple[Any, ...], str]] = None) -> None:
        super().__init__()
        self.quoted = quoted
        """A built module's quoted forms and their packed spans (``built_spans.quoted_spans``), or None."""
        # the spans themselves, or how to get them on first use: a built module's deferred decoding
        # (``built_constants.spans_later``) or, in modules built before it, ``pack_spans`` text
        self._spans: Optional[_Spans] = spans if isinstance(spans, list) else None
        self._packed = spans if isinstance(spans, str) else ""
        self._decode = None if isinstance(spans, (list, str)) else spans
        self._forms = forms
        self.source = source
        """The Spell source the module was built from (for error positions)."""
        self._spell = spell
        self._spell_list: Optional[list[Any]] = None if isinstance(spell, str) else spell
        if isinstance(spell, str):  # a built module: its forms get their spans back when needed
            BUILT_TABLES.append(ref(self))

    @property
    def spans(self) -> list[tuple[int, int, int, int, Any]]:
        """(line, col, end line, end col, call form) per call form; a built module writes them packed
        (see ``pack_spans``) and they are unpacked on the first failure that needs them."""
        if self._spans is None:
            self._spans = self._decode() if self._decode is not None else unpack_spans(self._packed, self._forms)
        if BUILT_TABLES:  # a failure in a built module: its call path may name forms' spans
            from .built_spans import restore_pending

            restore_pending(BUILT_TABLES)
        return self._spans

    @property
    def spell(self) -> Optional[list[Any]]:
        """The Spell position (line, end line, col, end col) of each span's call form, in the order of
        ``spans`` (None in modules built before they were recorded); packed like the spans."""
        if self._spell_list is None and isinstance(self._spell, str):
            numbers = unpack_numbers(self._spell)
            positions: list[Any] = []
            line = 0
            for k in range(0, len(numbers) - 3, 4):
                line += unzigzag(numbers[k])
                lines, col, end = numbers[k + 1], numbers[k + 2], numbers[k + 3]
                positions.append((line, line + lines, col, end if lines else col + end))
            self._spell_list = positions
        return self._spell_list

    def get(self, pos: Any, default: Any = None) -> Any:
        """The call form of the innermost span holding ``pos`` = (line, end line, col, end col)."""
        _, form = self.spell_key(pos)
        return default if form is None else form

    def spell_key(self, pos: Any) -> tuple[Any, Any]:
        """(Spell position or None, call form or None) of the innermost span holding ``pos``."""
        line, eline, col, ecol = pos
        if line is None or col is None:
            return None, None
        start, end = (line, col), (eline if eline is not None else line, ecol if ecol is not None else col)
        best = -1
        best_key: tuple[int, int, int, int] = (-1, -1, 0, 0)
        for i, (sl, sc, el, ec, _) in enumerate(self.spans):
            if (sl, sc) <= start and end <= (el, ec):
                key = (sl, sc, -el, -ec)  # latest start, then earliest end: the innermost span
                if key > best_key:
                    best_key, best = key, i
        if best < 0:
            return None, None
        spell = self.spell
        return (spell[best] if spell is not None and best < len(spell) else None), self.spans[best][4]


def pack_spans(spans: list[tuple[int, int, int, int, Any]]) -> tuple[str, list[Any]]:
    """The text and form list a built module writes for ``spans`` (about a third of the size of
    literal tuples): four numbers per span — the start line's distance from the previous span's,
    the start column, the number of lines, the end column — with spans in order of start."""
    ordered = sorted(spans, key=lambda s: (s[0], s[1]))
    numbers: list[str] = []
    previous = 0
    for sl, sc, el, ec, _ in ordered:
        numbers += (str(sl - previous), str(sc), str(el - sl), str(ec))
        previous = sl
    return " ".join(numbers), [form for *_, form in ordered]


def pack_spell_positions(positions: list[Any]) -> str:
    """The Spell positions (line, end line, col, end col) of a built module's spans, in their order,
    as four ``packnum`` numbers each: the line's (signed) distance from the previous one, the line
    count, the col and the end col — on one line, the width instead (the end col less the col: one
    character rather than two for most forms past column 32; a form never ends before it starts)."""
    numbers: list[int] = []
    previous = 0
    for p in positions:
        lines, col, end = (p[1] or p[0]) - p[0], p[2] or 0, p[3] or 0
        numbers += (zigzag(p[0] - previous), lines, col, end if lines else max(0, end - col))
        previous = p[0]
    return pack_numbers(numbers)


def unpack_spans(packed: str, forms: tuple[Any, ...]) -> list[tuple[int, int, int, int, Any]]:
    """The spans ``pack_spans`` wrote."""
    numbers = [int(n) for n in packed.split()]
    spans: list[tuple[int, int, int, int, Any]] = []
    line = 0
    for i, form in enumerate(forms):
        dl, sc, lines, ec = numbers[4 * i:4 * i + 4]
        line += dl
        spans.append((line, sc, line + lines, ec, form))
    return spans


def host_message(e: BaseException) -> str:
    """The Spell-facing text of a host exception."""
    if isinstance(e, HostError):
        return e.message
    if isinstance(e, ZeroDivisionError):
        return "Divide by zero"
    if isinstance(e, RecursionError):
        return "Stack overflow"
    if isinstance(e, MemoryError):
        return "Out of memory"
    text = str(e)
    if isinstance(e, ValueError) and "set_int_max_str_digits" in text:
        # A conversion spellc missed (it converts through spell_runtime.bigdigits); never
        # advise a Spell user to call a Python function (issue 16.2).
        return "Integer too long to convert to or from text"
    return text


def host_data(e: BaseException) -> Any:
    if isinstance(e, HostError):
        return e.data
    return None


def _data_suffix(data: Any) -> str:
    if data is None or not isinstance(data, SpellMap):
        return ""
    trimmed = data
    for k in (K_THROWN_KEY, K_RESULT, K_RECOVERY):
        if trimmed.contains(k):
            trimmed = trimmed.dissoc(k)
    if len(trimmed) == 0:
        return ""
    from .printer import pr_str

    return " " + pr_str(trimmed)


def _replaced_interrupt(e: BaseException) -> Optional[BaseException]:
    """A timeout (or other non-``Exception`` signal) that ``e`` replaced, if any.

    A timeout can land in the handler of a frame at the bottom of a deep recursion, whose own
    work then overflows the stack: the ``RecursionError`` replaces the timeout, would become a
    catchable ``Stack overflow``, and the timeout would be lost. The interrupt wins.
    """
    if not isinstance(e, Exception):
        return None
    ctx = e.__context__
    for _ in range(16):
        if ctx is None:
            return None
        if not isinstance(ctx, Exception):
            return ctx
        ctx = ctx.__context__
    return None


def conv(e: BaseException, D: dict[Any, Any], table: dict[Any, Any]) -> BaseException:
    """Turn whatever reached a compiled frame's handler into the exception to re-raise.

    Spell errors get the env snapshot (once, innermost first); host exceptions become
    ``Function call failed: <head>: ...`` for the call that failed in this frame.
    Typed control exceptions and non-``Exception`` signals pass through untouched.
    """
    if e.__context__ is not None:
        interrupt = _replaced_interrupt(e)
        if interrupt is not None:
            e = interrupt
        if not isinstance(e, Exception) or isinstance(e.__context__, RecursionError):
            # What a timeout or a stack overflow replaced is of no use to Spell, and a chain of those —
            # each holding a traceback as deep as the stack — made a timed-out overflow loop slow and
            # huge (issue 16). Other chains stay: fault classification reads a host error's origin.
            e.__context__ = None
    if isinstance(e, SpellError):
        if e.env is None:  # the first compiled frame to see this error: the one it happened in
            e.env = snapshot(D)
            claim(e, e.__traceback__)
            if e.position is None:
                place_error(e, e.__traceback__, table)
        else:
            if e.position is not None and e.position_source is None:  # placed in a "<spell>" sub-unit
                place_error(e, e.__traceback__, table)
            if e.frames and e.frames[-1].pending:  # the caller of the function body it just left
                fill_pending(e, e.__traceback__, table, D)
        return e
    if isinstance(e, ControlError) or not isinstance(e, Exception):
        return e
    if isinstance(e, RecursionError):
        overflow = StackOverflow("Stack overflow", None)
        overflow.env = snapshot(D)
        place_error(overflow, e.__traceback__, table)
        return overflow
    if type(e) is KeyError and len(e.args) == 1 and type(e.args[0]) is Symbol:
        # A local read (``D[sym]``) of a loop name that a short recur request left unbound (Q16).
        err = unbound(D[CTX_KEY], e.args[0])
        err.env = snapshot(D)
        return err
    pos = _position_at(e.__traceback__)
    form = table.get(pos) if pos is not None else None
    head = form.first if type(form) is PList and form.count else form
    from .printer import display_str

    text = "Function call failed: %s: %s%s" % (display_str(head), host_message(e), _data_suffix(host_data(e)))
    result = e.result if isinstance(e, HostError) else None
    err = SpellError(text, form, result=result)
    # Keep the host traceback: Python tracebacks then show the Spell line of the failing call too.
    err.__traceback__ = e.__traceback__
    data = host_data(e)
    if isinstance(data, SpellMap):
        phase = data.get(K_RECOVERY)
        if phase is not None:
            err.extra[K_RECOVERY] = phase
    err.env = snapshot(D)
    err.position, _, _ = site_in_frame(e.__traceback__, table)
    claim(err, e.__traceback__)
    if isinstance(e, HostError) and e.inner_frames:  # a Spell fn a builtin called failed: keep its path
        err.frames = list(e.inner_frames)
        if err.frames[-1].pending:
            fill_pending(err, e.__traceback__, table, D)
    return err


def seq_fail(e: BaseException, D: dict[Any, Any], table: dict[Any, Any], elems: Any, index: int) -> BaseException:
    """Handler of a body sequence: convert, then mark the failing element (outermost wins)."""
    err = conv(e, D, table)
    if isinstance(err, SpellError) and 0 <= index < len(elems):
        err.containing_form = elems[index]
    return err


def add_privates(err: BaseException, syms: tuple[Any, ...], vals: tuple[Any, ...]) -> None:
    """Put a private scope's bindings (Python locals, see spellc.analyze.privacy) into an error's env.

    Inner scopes run their handlers first, so a name an inner private scope already supplied is kept.
    """
    if not isinstance(err, SpellError) or err.env is None:
        return
    done: set[Any] = err.__dict__.setdefault("_private_names", set())
    for s, v in zip(syms, vals):
        if v is not MISS and s not in done:
            err.env[s] = v
            done.add(s)


def priv_fail(e: BaseException, D: dict[Any, Any], table: dict[Any, Any], syms: tuple[Any, ...],
              vals: tuple[Any, ...]) -> BaseException:
    """Handler of a private ``let``/``loop``: convert, then record the private bindings in the env."""
    err = conv(e, D, table)
    add_privates(err, syms, vals)
    return err


def fn_fail(e: BaseException, D: dict[Any, Any], table: dict[Any, Any], head: Any, elems: Any,
            index: int, fn_form: Any = None, syms: tuple[Any, ...] = (), vals: tuple[Any, ...] = ()) -> BaseException:
    """Handler of a Spell function body: sequence marking, the ``:trace`` entry of a directly
    applied call, and a ``frames`` entry whose call site the caller's handler fills (``callpath``)."""
    err = seq_fail(e, D, table, elems, index)
    if syms:
        add_privates(err, syms, vals)
    if isinstance(err, SpellError):
        if head is not None:
            err.trace.append(head)
        if err.frames and err.frames[-1].pending:  # the previous body's caller had no handler of its own
            err.frames[-1].pending = False
        err.frames.append(CallSite(head, fn_form))
    return err


def fn_failed(e: BaseException, D: dict[Any, Any], table: dict[Any, Any], head: Any, site: tuple[Any, Any, Any],
              vals: tuple[Any, ...] = (), index: int = 0) -> BaseException:
    """``fn_fail`` with a body's constant facts packed into one constant ``site`` = (body elements,
    ``fn`` form, private parameter symbols): the handler every fn body compiled since issue 12's
    code-shape work raised through until ``frame_paths.fn_failed_here`` (kept, like ``fn_fail``,
    for modules built before)."""
    elems, fn_form, syms = site
    return fn_fail(e, D, table, head, elems, index, fn_form, syms, vals)


def caught_value(e: SpellError) -> Any:
    """What ``catch`` binds (language.md §15.4)."""
    if e.thrown is not NO_VALUE:
        return e.thrown
    from .data.hashmap import spell_map

    return spell_map(Keyword("message"), e.message, Keyword("expr"), e.expr)


def reenter_failure_env(D: dict[Any, Any], e: SpellError, undo: Optional[list[Any]]) -> Optional[list[Any]]:
    """Make ``D`` the env at the failure point (Q13), recording the changes in ``undo``."""
    env = e.env or {}
    for k, v in env.items():
        if D.get(k, MISS) is not v:
            undo = rec(undo, D, k)
            D[k] = v
    return undo


def drop_binding(D: dict[Any, Any], sym: Any, undo: Optional[list[Any]]) -> Optional[list[Any]]:
    """Remove ``sym`` from the env (the catch symbol after ``try``, Q20), undoably."""
    if sym in D:
        undo = rec(undo, D, sym)
        del D[sym]
    return undo


def _simple_class(x: Any) -> str:
    from .invoke import host_class_name

    return host_class_name(x).rsplit(".", 1)[-1]


def set_recursion_limit(n: int = 60000) -> None:
    """Deep Spell recursion is Python recursion; allow ~10,000 nested Spell calls (A8)."""
    if sys.getrecursionlimit() < n:
        sys.setrecursionlimit(n)


__all__ = ["MISS", "NOTHING", "NO_VALUE"]


# --------------------------------------------------------------------------- small pieces the emitter calls

def throw_now(v: Any, form: Any) -> Any:
    """``throw`` in expression position."""
    raise throw(v, form)


def fail_now(message: str, form: Any) -> Any:
    """A compile-time-known failure in expression position."""
    raise SpellError(message, form)


def host_fail_now(args: tuple[Any, ...], message: str) -> Any:
    """A host failure (e.g. a builtin called with the wrong number of args), after its args were evaluated."""
    raise HostError(message)


def arity_text(expected: int, actual: int) -> str:
    return "Wrong number of args: expected %d, got %d" % (expected, actual)


def loop_rebind(D: dict[Any, Any], patterns: tuple[Any, ...], vals: tuple[Any, ...], syms: tuple[Any, ...],
                base: tuple[Any, ...]) -> None:
    """Re-bind loop patterns from a recur request of any length (Q16): values pair with patterns
    positionally, surplus values are ignored, and the names of a pattern with no value go back
    to their base-env binding (``base``: the values ``syms`` had before the loop, or MISS)."""
    from .destructure import destructure, pattern_symbols

    before = dict(zip(syms, base))
    for i, p in enumerate(patterns):
        if i < len(vals):
            for s, v in destructure(p, vals[i]):
                D[s] = v
        else:
            for s in pattern_symbols(p):
                restore(D, s, before.get(s, MISS))


def private_rebind(D: dict[Any, Any], vals: tuple[Any, ...], syms: tuple[Any, ...]) -> tuple[Any, ...]:
    """New values of private loop variables from a recur request of any length (Q16).

    Surplus values are ignored; a variable without a value takes its base-env value (the
    binding it would resolve to without the loop), which is how the shared-table path
    behaves too, except that a name with no base binding fails here rather than when read.
    """
    out = list(vals[:len(syms)])
    for s in syms[len(out):]:
        out.append(lookup(D, s))
    return tuple(out)


def for_items(coll: Any) -> Any:
    """The items a ``for`` clause iterates (language.md §7.12)."""
    from .data.atoms import Char
    from .data.hashmap import SpellSet
    from .data.text import is_bmp, to_units
    from .data.vector import LineVector, PVector, VectorView, vec

    t = type(coll)
    if t is PVector or t is PList or t is LineVector or t is VectorView or t is SpellSet:
        return coll
    if coll is None:
        return ()
    if isinstance(coll, SpellMap):
        return [vec(kv) for kv in coll.items()]
    if t is str:
        units = coll if is_bmp(coll) else to_units(coll)
        return [Char(c) for c in units]
    from .invoke import host_class_name

    raise SpellError("Don't know how to create ISeq from: %s" % host_class_name(coll), coll)


S_QUINE = Symbol("quine")
S_EVAL = Symbol("eval")
S_DO = Symbol("do")


def reopen(q: Any, extras: tuple[Any, ...], form: Any) -> PList:
    """``(reopen q extra...)`` (language.md §7.9): append forms to a wrapper quine's ``(do ...)``."""
    from .data.plist import plist

    if type(q) is not PList or q.count < 3 or q.first is not S_QUINE:
        raise SpellError("reopen expects a quine form", form)
    items = list(q)
    last = items[-1]
    if not (type(last) is PList and last.count == 2 and last.first is S_EVAL and type(last[1]) is PList
            and last[1].count >= 1 and last[1].first is S_DO):
        raise SpellError("reopen expects quine tail of the form (eval (do ...))", form)
    body = list(last[1])
    new_do = plist([*body, *extras])
    return plist([*items[:-1], plist([S_EVAL, new_do])])
