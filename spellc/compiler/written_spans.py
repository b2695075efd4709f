"""The forms whose spans a built module writes: quoted forms and fn forms (issue 12.1; ``spell_runtime.built_spans``).

A module written by ``spellc build`` rebuilds its forms without spans, and gives call forms their
spans back from its position table when a form is compiled at run time. Quoted forms are not in
that table, yet they are what run-time compiles mostly see: a user macro's template, data given
to ``eval``, the body of a fn built as data. So the build writes the spans of the quoted values
that could be compiled (those holding a list or a symbol), packed by
``built_spans.pack_form_spans``, and nothing for a program without any (the common case, and
``compile-300.spl``).

A call path names a fn applied by a builtin by the place of its ``(fn ...)`` form
(``callpath.fn_position``), which no position table holds either: the build writes each written
fn form's span (``built_spans.pack_fn_spans``, about five characters a fn), and for a ``defn``'s
fn, named by its first body form, that form's span when it is a special form or a macro call
(``first_body_forms``; a call form gets its span back from the position table).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from spell_runtime.built_spans import children as _children
from spell_runtime.built_spans import pack_form_spans
from spell_runtime.data import LineVector, PList, PVector, SpellMap, SpellSet, Symbol, VectorView
from spell_runtime.data.positions import child_spans_of, span_of
from spell_runtime.packnum import pack_numbers

from ..analyze import ir

QUOTED_IMPORT = "from spell_runtime.built_spans import quoted_spans\n"

_COLLECTIONS = (PList, PVector, LineVector, VectorView, SpellMap, SpellSet)


def _compilable(value: Any) -> bool:
    """Does ``value`` (a collection) hold a list or a symbol anywhere, and a span?"""
    stack = [value]
    compilable = spanned = False
    while stack and not (compilable and spanned):
        v = stack.pop()
        if type(v) is PList or type(v) is Symbol:
            compilable = True
        if isinstance(v, _COLLECTIONS):
            spanned = spanned or span_of(v) is not None or child_spans_of(v) is not None
            stack.extend(_children(v))
    return compilable and spanned


def quoted_forms(nodes: Iterable[ir.Record]) -> list[Any]:
    """The distinct quoted collection values of the IR ``nodes`` that could be compiled at run time."""
    found: dict[int, Any] = {}
    stack: list[ir.Record] = list(nodes)
    while stack:
        node = stack.pop()
        if type(node) is ir.Const:
            value = node.value
            if isinstance(value, _COLLECTIONS) and id(value) not in found and _compilable(value):
                found[id(value)] = value
            continue
        stack.extend(ir.children(node))
    return list(found.values())


def fn_forms(nodes: Iterable[ir.Record]) -> list[Any]:
    """The distinct ``(fn ...)`` forms of the IR ``nodes`` that have a span (written ones: a ``defn``'s
    fn, which its macro builds, has none and is named by its first body form's)."""
    found: dict[int, Any] = {}
    stack: list[ir.Record] = list(nodes)
    while stack:
        node = stack.pop()
        if type(node) is ir.Fn and type(node.form) is PList and span_of(node.form) is not None:
            found[id(node.form)] = node.form
        stack.extend(ir.children(node))
    return list(found.values())


def first_body_forms(nodes: Iterable[ir.Record], table_forms: set[int]) -> list[Any]:
    """The first body forms of the IR ``nodes``' fn forms that have no span (a ``defn``'s fn, which its
    macro builds), which name such a fn in a call path (``callpath.fn_position``), when they are a list
    that no position table entry gives its span back: a special form or a macro call (``(let ...)``,
    ``(cond ...)``; ``table_forms``: the ids of the call forms a table names)."""
    found: dict[int, Any] = {}
    stack: list[ir.Record] = list(nodes)
    while stack:
        node = stack.pop()
        if type(node) is ir.Fn and type(node.form) is PList and span_of(node.form) is None:
            body = list(node.form)[2:3]
            if body and type(body[0]) is PList and span_of(body[0]) is not None and id(body[0]) not in table_forms:
                found[id(body[0])] = body[0]
        stack.extend(ir.children(node))
    return list(found.values())


def quoted_spans_source(forms: list[Any], entry_of: dict[int, int], width: int = 100) -> str:
    """``, quoted_spans(globals(), entries, packed)``: the fifth argument of a built module's ``_T``
    (whose line imports ``quoted_spans`` before it: ``QUOTED_IMPORT``), or nothing when it has no
    quoted forms to give spans to."""
    if not forms:
        return ""
    entries = pack_numbers([entry_of[id(f)] for f in forms])
    packed = pack_form_spans(forms)

    def lines(text: str) -> str:
        return "".join("    %r\n" % text[i:i + width] for i in range(0, len(text), width))

    return ", quoted_spans(globals(), %r, (\n%s))" % (entries, lines(packed))
