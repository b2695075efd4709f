"""Compiled fn bodies go stale when the binding epoch moves, with no test in the bodies themselves.

A body that refers to core builtins directly (``spellc.emit``: ``FnInfo.static_refs``) is right
only while no code has bound those names (``spell_runtime.epoch``). It used to open with a test,
``if _MOVED: return _stale_here(form)``: six ``ast`` nodes in every such body of every module, paid
by each cold compile (issue 12), and a global read and a branch on every call. Instead, whoever runs
a compiled module registers its bodies here with their ``fn`` forms (``watch``: the compiler driver
for in-memory code, a line of every module ``spellc build`` writes), and when the epoch moves every
registered body's code object is replaced by a stub with the same parameters that does what the
test did: ``return _stale_here(form)``, which compiles the form again under the new bindings and
runs that (``support.stale``).

Why this is the same behaviour: the test ran at entry only, and every way into a body — its
``SpellFn``'s ``code``, a direct call by its module name, a ``DefFn`` unit — goes through the one
function object whose ``__code__`` is swapped, so each entry after the move reaches the stub,
exactly as each reached the test; a body already running keeps its code, as it kept running past
the test. The stub's frame holds exactly the arguments, under the body's own parameter names, which
is all ``stale_here`` reads. Its instructions carry no column (``_stub_code``), so no position of
the stub can be mistaken for a call form of the body's module when an error passes through it.

A body registered at an epoch that has already moved on (a built module imported after some code
bound a builtin, a body compiled while another thread bumped) goes stale at once. Registrations
hold their functions weakly; moving the epoch sends every registered body stale and forgets them all.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from types import CodeType, FunctionType
from typing import Any
from weakref import ref

from .epoch import EPOCH, ON_BUMP

STALE_HERE = "_stale_here"
"""The helper a stub calls: ``abi.H.STALE_HERE``, the name compiled modules bind it under (spelled
out here, since ``abi`` imports this module; tests/spellc/emit/test_abi.py checks the two agree)."""

_MARK = "\x00spell:stale-form"
"""The stub template's placeholder constant, replaced by the body's ``fn`` form."""

_lock = threading.Lock()
_watched: list[tuple[ref[FunctionType], Any]] = []
_live_after_prune = [0]
_templates: dict[tuple[str, ...], CodeType] = {}
"""Stub code by parameter names: one compile per distinct signature."""


def watch(bodies: Sequence[Any], epoch: int) -> None:
    """Register compiled bodies: ``bodies`` is flat, each body's function followed by its ``fn``
    form; ``epoch`` is the one they were compiled at. Called as ``_watch_epoch`` by built modules."""
    pairs = [(bodies[i], bodies[i + 1]) for i in range(0, len(bodies), 2)]
    with _lock:
        if not ON_BUMP:
            ON_BUMP.append(_on_bump)
        if epoch != EPOCH[0]:
            for fn, form in pairs:
                _go_stale(fn, form)
            return
        _watched.extend((ref(fn), form) for fn, form in pairs)
        if len(_watched) > 2 * _live_after_prune[0] + 1024:  # a long session drops dead entries now and then
            _watched[:] = [entry for entry in _watched if entry[0]() is not None]
            _live_after_prune[0] = len(_watched)


def watched() -> int:
    """How many live bodies would go stale if the epoch moved now (for tests)."""
    with _lock:
        return sum(1 for r, _ in _watched if r() is not None)


def _on_bump() -> None:
    with _lock:
        entries = list(_watched)
        _watched.clear()
        _live_after_prune[0] = 0
        for r, form in entries:
            fn = r()
            if fn is not None:
                _go_stale(fn, form)


def _go_stale(fn: FunctionType, form: Any) -> None:
    code = fn.__code__
    template = _stub_code(code.co_varnames[:code.co_argcount], code.co_firstlineno)
    consts = tuple(form if type(c) is str and c == _MARK else c for c in template.co_consts)
    fn.__code__ = template.replace(co_consts=consts, co_name=code.co_name, co_qualname=code.co_qualname,
                                   co_filename=code.co_filename, co_firstlineno=code.co_firstlineno)


def _stub_code(names: tuple[str, ...], line: int) -> CodeType:
    """``def body(<names>): return _stale_here(_MARK)``, compiled from an ``ast`` whose nodes have
    no column: its positions are (line, line, None, None), never a key of a position table."""
    template = _templates.get(names)
    if template is None:
        import ast  # only when a builtin name is bound for the first time: never at start-up

        call = ast.Call(func=ast.Name(id=STALE_HERE, ctx=ast.Load()), args=[ast.Constant(value=_MARK)],
                        keywords=[])
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                             kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fn = ast.FunctionDef(name="body", args=args, body=[ast.Return(value=call)], decorator_list=[])
        module = ast.Module(body=[fn], type_ignores=[])
        for node in ast.walk(module):
            if "lineno" in node._attributes:
                node.lineno = node.end_lineno = max(line, 1)  # type: ignore[attr-defined]
                node.col_offset = node.end_col_offset = -1  # type: ignore[attr-defined]
        outer = compile(module, "<stale body>", "exec")
        body = next(c for c in outer.co_consts if isinstance(c, CodeType))
        template = _templates[names] = body
    return template


__all__ = ["watch", "watched"]
