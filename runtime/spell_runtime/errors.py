"""The exceptions that carry Spell failures through Python code.

``SpellError`` is a Spell-level failure: its ``str()`` is the Spell-facing message
(the ``:err`` text) and it carries the rest of the error result map of
language.md §15.1 (``expr``, ``env``, ``trace``, ``containing_form``, ``thrown``,
``result``) plus the Spell source ``position`` of the failing form.

``HostError`` is what builtins raise for a *host* failure (the JVM exceptions of
the reference): the evaluator turns it, like any other non-Spell exception, into
``Function call failed: <head>: <message>[ <data>]`` at the call site.

``ControlError`` is a *typed* exception (runtime.md §0.5): it carries a data map
with a ``:type`` and passes through ``try``/``catch`` and recovery untouched.
"""

from __future__ import annotations

from typing import Any, Optional

NO_VALUE: Any = object()
"""Marks an absent ``thrown`` value (``nil`` is a value that can be thrown)."""


class SpellError(Exception):
    """A Spell error result raised as a Python exception."""

    message: str
    expr: Any
    env: Optional[dict[Any, Any]]
    trace: list[Any]
    frames: list[Any]
    """``callpath.CallSite`` records: the call path with call sites (not part of the Spell result map)."""
    containing_form: Any
    thrown: Any
    result: Any
    position: Optional[tuple[int, int, int, int]]
    source_name: Optional[str]
    position_source: Optional[str]
    """The file name of the compiled code ``position`` was found in (``callpath.place_error``)."""
    extra: dict[Any, Any]
    """Further result-map keys (``:spell/recovery-phase``, ``:spell/completion-error``...)."""

    def __init__(self, message: str, expr: Any = None, *, thrown: Any = NO_VALUE, result: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.expr = expr
        self.env = None
        self.trace = []
        self.frames = []
        self.containing_form = NO_VALUE
        self.thrown = thrown
        self.result = result
        self.position = None
        self.source_name = None
        self.position_source = None
        self.extra = {}

    def __str__(self) -> str:
        return self.message


class StackOverflow(SpellError):
    """``Stack overflow`` (language.md §15.5, A8): the host's recursion limit was reached.

    Unlike other Spell errors it crosses builtin boundaries as it is (``core.calling.spell_failure``,
    ``invoke.call``): the reference's JVM overflow is no exception a builtin catches and rewraps, and
    wrapping it as ``Function call failed: map: ...`` at every level of a recursion through ``map``
    made the message, and the time and memory to build it, grow with the square of the depth (a
    one-line program took a minute and 3 GB)."""


class HostError(Exception):
    """A host-level failure raised by a builtin; ``data`` is a Spell map or None."""

    message: str
    data: Any
    result: Any
    inner_frames: list[Any]
    """When a builtin wraps a failed Spell function's error: that error's ``frames`` (the call
    path inside the function, see ``callpath``), continued by the Spell error this becomes."""

    def __init__(self, message: str, data: Any = None, result: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data
        self.result = result
        self.inner_frames = []

    def __str__(self) -> str:
        return self.message


class SpellArgumentError(HostError):
    """A builtin rejected the values the program passed (runtime.md §9.2 rule 5).

    It is a ``HostError`` (same message/data contract, same ``Function call
    failed:`` wrapping) whose class alone tells fault classification that the
    program, not the host, is at fault (``:invalid-argument``, a document fault).
    """


class ControlError(Exception):
    """A typed runtime exception (budget, depth, display limit...) that bypasses ``try``."""

    message: str
    data: Any

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return self.message
