"""Program templates: a turn's program compiled once per shape, not once per turn (issue 14).

Every turn of the loop evaluates a new program ``(quine NAME (eval (do BODY...)))``
(runtime.md §5.3): the previous turn's body plus the forms the model just wrote.
With a long body, the analyzer compiles every element as its own cached sub-unit
(``ir.SubUnits`` with ``value``), so the program's own code is the same turn after
turn: only its constants differ (the program form bound to NAME, its ``(eval ...)``
and ``(do ...)`` forms, the tuple of elements, their cache keys) and the position
table that maps the code's positions to call forms (``support.conv``). Compiling
that code again each turn was half of a long session's runtime.

So the first program of a *shape* is compiled as usual and its code kept as a
template, with the role each constant and each table entry plays; a later program
of the same shape gets a new function over the same code object with its own
constants and table. A shape is everything the code depends on: the source name,
the quine's name, the text of its inert arguments, the start of the three spine
forms and the compiler epoch (``analyze.bound``). A template is only made when
every constant is either one of the roles or an atom (symbol, keyword, string,
number) and every table entry names a spine form; otherwise that shape always
compiles in full.

What is not exact. The code keeps the first program's *end* positions (the spine
forms end later each turn). Positions in code are only keys into the table,
which is rebuilt per program, so error forms and their spans are exact; the one
reader of raw code positions is the timeout position of ``limits`` when the clock
fires in the program's own frame (not in an element's sub-unit), whose end column
would be the first program's. Under ``SPELLC_FULL_TURNS=1`` no template is used.
"""

from __future__ import annotations

import os
import threading
import types
from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, PList, Symbol
from spell_runtime.data.positions import child_spans_of, span_of

from ..analyze.analyzer import SUBUNIT_MIN, SourceKeys

FULL_TURNS_VAR: Final = "SPELLC_FULL_TURNS"
S_QUINE: Final = Symbol("quine")
S_EVAL: Final = Symbol("eval")
S_DO: Final = Symbol("do")
LIMIT: Final = 64
"""Shapes kept: a session has one or two (the root program and its completions)."""

_ATOMS = (Symbol, Keyword, str, int, float, bool, type(None))

Unit = Callable[[dict[Any, Any], list[Any]], Any]


class NoKeys:
    """Sub-unit keys of a templated program: every element is found by identity or by its printed
    text (cutting source text would need the line index of the whole program, every turn). The
    elements' places are still known, from the ``(do ...)`` form's child spans (``span``)."""

    __slots__ = ("spans",)

    def __init__(self, spans: Any = None) -> None:
        self.spans = spans

    def __getitem__(self, i: int) -> None:
        return None

    def span(self, i: int) -> Any:
        """Element ``i``'s place (the ``do`` form's child span ``i + 1``: its head is child 0), or None."""
        spans = self.spans
        return spans[i + 1] if spans and i + 1 < len(spans) else None


NO_KEYS: Final = NoKeys()


class Spine:
    """The forms of a program that its compiled code refers to, by role."""

    __slots__ = ("form", "name", "inert", "tail", "do", "elems")

    def __init__(self, form: PList, name: Any, inert: list[Any], tail: PList, do: PList,
                 elems: tuple[Any, ...]) -> None:
        self.form = form
        self.name = name
        self.inert = inert
        self.tail = tail
        self.do = do
        self.elems = elems

    def role_values(self) -> dict[str, Any]:
        return {"form": self.form, "tail": self.tail, "do": self.do, "elems": self.elems,
                "keys": NoKeys(child_spans_of(self.do))}


class Template:
    """A compiled program's code with the role of each constant and table entry."""

    __slots__ = ("code", "globals", "roles", "table")

    def __init__(self, code: types.CodeType, globals_: dict[str, Any], roles: list[tuple[str, str]],
                 table: list[tuple[Any, str]]) -> None:
        self.code = code
        self.globals = globals_
        self.roles = roles
        self.table = table


_lock = threading.Lock()
_templates: dict[tuple[Any, ...], Optional[Template]] = {}


def enabled() -> bool:
    """False under ``SPELLC_FULL_TURNS=1`` (spellc.loop.incremental.switches): every program compiles."""
    return os.environ.get(FULL_TURNS_VAR, "") in ("", "0")


def spine_of(form: Any) -> Optional[Spine]:
    """The spine of a wrapper-quine program with a body long enough for sub-units, else None."""
    if type(form) is not PList or form.count < 3 or form.first is not S_QUINE:
        return None
    name = form.rest.first
    inert: list[Any] = []
    cell = form.rest.rest
    while cell.count > 1:
        inert.append(cell.first)
        cell = cell.rest
    tail = cell.first
    if type(name) is not Symbol or type(tail) is not PList or tail.count != 2 or tail.first is not S_EVAL:
        return None
    do = tail.rest.first
    if type(do) is not PList or do.count <= SUBUNIT_MIN + 1 or do.first is not S_DO:
        return None
    return Spine(form, name, inert, tail, do, tuple(do.rest))


def shape_key(spine: Spine, source_name: str, epoch: int) -> tuple[Any, ...]:
    """Everything a program's compiled code depends on besides its role constants (module docstring)."""
    from spell_runtime.printer import pr_str

    def start(f: Any) -> Any:
        s = span_of(f)
        return None if s is None else (s[0], s[1])

    return (source_name, epoch, spine.name, tuple(pr_str(x) for x in spine.inert),
            start(spine.form), start(spine.tail), start(spine.do))


def lookup(key: tuple[Any, ...]) -> tuple[bool, Optional[Template]]:
    """(known, template): a known shape may have no template (it did not qualify)."""
    with _lock:
        if key in _templates:
            return True, _templates[key]
    return False, None


def instantiate(template: Template, spine: Spine) -> Unit:
    """The unit of ``spine``'s program: the template's code over this program's constants and table."""
    values = spine.role_values()
    ns = dict(template.globals)
    for name, role in template.roles:
        ns[name] = values[role]
    ns["_T"] = {pos: values[role] for pos, role in template.table}
    return types.FunctionType(template.code, ns, "_unit")


def learn(key: tuple[Any, ...], spine: Spine, consts: dict[str, Any], table: dict[Any, Any],
          ns: dict[str, Any], extra_functions: bool) -> None:
    """Remember the code just compiled for ``spine``'s program as the template of its shape, when
    every constant and table entry has a role or is an atom (else remember that it has none)."""
    template = None if extra_functions else _template(spine, consts, table, ns)
    with _lock:
        if len(_templates) >= LIMIT:
            _templates.clear()
        _templates[key] = template


def _template(spine: Spine, consts: dict[str, Any], table: dict[Any, Any], ns: dict[str, Any]) -> Optional[Template]:
    unit = ns.get("_unit")
    if type(unit) is not types.FunctionType or unit.__closure__ or unit.__defaults__ or unit.__kwdefaults__:
        return None
    by_id = {id(spine.form): "form", id(spine.tail): "tail", id(spine.do): "do"}
    roles: list[tuple[str, str]] = []
    for name, value in consts.items():
        role = by_id.get(id(value))
        if role is None and type(value) is tuple and len(value) == len(spine.elems) \
                and all(a is b for a, b in zip(value, spine.elems)):
            role = "elems"
        if role is None and type(value) is SourceKeys:
            role = "keys"
        if role is not None:
            roles.append((name, role))
        elif not isinstance(value, _ATOMS):
            return None
    entries: list[tuple[Any, str]] = []
    for pos, form in table.items():
        role = by_id.get(id(form))
        if role is None:
            return None
        entries.append((pos, role))
    if not any(role == "elems" for _, role in roles):
        return None  # the body was not compiled as sub-units: the code depends on the elements
    role_names = {name for name, _ in roles}
    globals_ = {k: v for k, v in ns.items() if k not in role_names and k != "_T" and k != "_unit"}
    return Template(unit.__code__, globals_, roles, entries)


def clear() -> None:
    with _lock:
        _templates.clear()
