"""Top-level ``def``s that need no compiled unit function (issue 12.1).

Most top-level forms of a program are ``(defn name ...)`` or ``(def name <literal>)``. Compiled as
ordinary units, each became ``def _unit(D, _U): try: return _define(D, _U, name, value) except
BaseException as _e: raise _conv(_e, D, _T)`` — about 40 ``ast`` nodes to emit and ``compile()``
per form (roughly 90 µs), and a whole ``compile()``/``exec`` for a literal whose value is already
known. The compiler's driver (``spellc.compiler.direct``) makes such a form's unit one of the two
objects below instead: calling it does exactly what that function did, ``support.define`` (the
undo entry, the binding, the ``def``'s value), with the same handler around it.

Why the handler converts with an empty position table: a unit's table maps the positions of the
call forms in the unit's own code, and these units have no code and no call forms. Nothing in them
can fail in practice (a dict write, a ``SpellFn`` built from finished parts); should anything
(``MemoryError``) it goes through ``support.conv`` as it would have, and interrupts and timeouts
pass through untouched, as ``conv`` passes them.

``spellc build`` writes them too (``_unit3 = _def_fn(name, params, body, _fn3)``), which keeps a
built module short (issue 12.5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .data.fn import SpellFn
from .support import conv, define

_NO_CALLS: dict[Any, Any] = {}
"""The position table of code without call forms."""


class DefValue:
    """The unit of ``(def sym value)`` whose value is a constant: binds ``value`` itself."""

    __slots__ = ("sym", "value")

    def __init__(self, sym: Any, value: Any) -> None:
        self.sym = sym
        self.value = value

    def __call__(self, D: dict[Any, Any], U: list[Any]) -> Any:
        try:
            return define(D, U, self.sym, self.value)
        except BaseException as e:
            raise conv(e, D, _NO_CALLS)  # noqa: B904 - chained as compiled handlers chain (implicitly)


class DefFn:
    """The unit of ``(def sym (fn params body...))``: a new function value over the compiled body
    ``code`` each time it runs, as the ``fn`` form evaluates to a new value each time."""

    __slots__ = ("sym", "params", "body", "code")

    def __init__(self, sym: Any, params: Any, body: Any, code: Callable[..., Any]) -> None:
        self.sym = sym
        self.params = params
        self.body = body
        self.code = code

    def __call__(self, D: dict[Any, Any], U: list[Any]) -> Any:
        try:
            return define(D, U, self.sym, SpellFn(self.params, self.body, self.code))
        except BaseException as e:
            raise conv(e, D, _NO_CALLS)  # noqa: B904 - chained as compiled handlers chain (implicitly)


class BindsBuiltins:
    """A unit of a module ``spellc build`` wrote whose form binds core builtin names ``syms`` that
    were still static when the module was built (``def inc`` somewhere in it): running it first
    moves the binding epoch, as analysing that form does in a process that compiles it, so bodies
    compiled on the assumption that the names are the builtins go stale (``stale_bodies``)."""

    __slots__ = ("unit", "syms")

    def __init__(self, unit: Callable[[dict[Any, Any], list[Any]], Any], syms: tuple[Any, ...]) -> None:
        self.unit = unit
        self.syms = syms

    def __call__(self, D: dict[Any, Any], U: list[Any]) -> Any:
        from .hooks import note_bound

        note_bound(self.syms)
        return self.unit(D, U)


__all__ = ["BindsBuiltins", "DefValue", "DefFn"]
