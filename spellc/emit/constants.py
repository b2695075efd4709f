"""Python source for the constants a compiled module refers to (what ``spellc build`` writes).

In memory, a compiled module gets its constants (quoted forms, keywords, builtin
functions...) injected as globals. A module written to disk must rebuild them
from source using only the runtime, so each constant is turned into a
constructor expression: ``Keyword("a")``, ``plist([...])``, ``vec([...])``,
``SpellMap.from_pairs([...])``, a builtin looked up by name, and so on.
"""

from __future__ import annotations

import ast
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional

from spell_runtime.bigdigits import int_text, is_short_int
from spell_runtime.core.registry import BUILTINS, INFO, EnvFn
from spell_runtime.data import (
    BigInt,
    Char,
    Float32,
    HostObject,
    Keyword,
    LineVector,
    Pattern,
    PList,
    PVector,
    SpellFn,
    SpellMap,
    SpellSet,
    Symbol,
)

from . import pyast as P

RUNTIME_IMPORTS = """\
from decimal import Decimal
from fractions import Fraction

from spell_runtime.bigdigits import parse_int
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import (BigInt, Char, Float32, HostObject, Keyword, LineVector, Pattern, SpellFn,
                                SpellMap, SpellSet, Symbol, plist, vec)
from spell_runtime.abi import compiled_namespace
from spell_runtime.support import SpanTable, ns_static

globals().update(compiled_namespace())
"""


def _long_int_expr(v: int, big: bool) -> ast.expr:
    """An integer past CPython's digit limit as ``parse_int("digits")``: ``ast.unparse``
    cannot write it as a literal, nor could Python read it back (issue 16.2)."""
    text = int_text(abs(int(v)))
    value: ast.expr = P.call(P.name("parse_int"), P.const(text))
    if v < 0:
        value = ast.UnaryOp(op=ast.USub(), operand=value)
    return P.call(P.name("BigInt"), value) if big else value


class UnsupportedConstant(Exception):
    """A value that has no source form (an opaque host object created at compile time)."""


def _builtin_index() -> dict[int, ast.expr]:
    index: dict[int, ast.expr] = {}
    for sym, value in BUILTINS.items():
        ref = P.subscript(P.name("BUILTINS"), P.call(P.name("Symbol"), P.const(sym.name)))
        index[id(value)] = ref
        if type(value) is EnvFn:
            index[id(value.fn)] = P.attr(ref, "fn")
        if isinstance(value, SpellMap):
            for k, member in value.items():
                if type(k) is Keyword and callable(member):
                    mref = P.call(P.name("ns_static"), ref,
                                  P.tuple_([P.call(P.name("Keyword"), P.const(k.name))]),
                                  P.call(P.name("Symbol"), P.const(k.name), P.const(sym.name)))
                    index.setdefault(id(member), mref)
                    if type(member) is EnvFn:
                        index.setdefault(id(member.fn), P.attr(mref, "fn"))
    return index


class ConstantWriter:
    """Builds constructor expressions for constants, writing a value that already has a name as that name.

    ``assignments`` writes a module's constants so that each distinct form is built once: a
    sub-form that is itself a named constant (the emitter names every call form, and calls nest)
    is referred to by name, after its own assignment, and constants whose constructor text is
    equal share one object.
    """

    def __init__(self) -> None:
        self._index: Optional[dict[int, ast.expr]] = None
        self._names: dict[int, str] = {}  # id(value) -> name, for values already assigned

    def assignments(self, consts: dict[str, Any]) -> list[ast.stmt]:
        """``name = constructor`` for each constant, sub-forms first, sharing named sub-forms."""
        consts = _name_shared(consts)
        by_name = dict(consts)  # not written yet
        pending = {id(v): n for n, v in consts.items()}
        out: list[ast.stmt] = []
        by_text: dict[str, str] = {}

        def write(name: str) -> None:
            if name not in by_name:
                return
            del by_name[name]
            for sub_name in _named_below(consts[name], pending):  # first, so they can be referred to
                if sub_name in by_name:
                    write(sub_name)
            e = self._expr(consts[name], top=True)
            text = ast.unparse(e)
            same = by_text.get(text)
            if same is not None:
                e = P.name(same)
            else:
                by_text[text] = name
            out.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=e))
            self._names[id(consts[name])] = name

        for name in list(consts):
            if name in by_name:
                write(name)
        return out

    def expr(self, v: Any) -> ast.expr:
        """A constructor expression for ``v`` (named constants already written appear as their names)."""
        return self._expr(v, top=True)

    def builtin_ref(self, value: Any) -> Optional[ast.expr]:
        if self._index is None:
            self._index = _builtin_index()
        return self._index.get(id(value))

    def _expr(self, v: Any, top: bool = False) -> ast.expr:
        if not top:
            name = self._names.get(id(v))
            if name is not None:
                return P.name(name)
        t = type(v)
        if (t is int or t is BigInt) and not is_short_int(v):
            return _long_int_expr(v, t is BigInt)
        if v is None or t is bool or t is str or t is int:
            return P.const(v)
        if t is float:
            if math.isnan(v) or math.isinf(v):
                return P.call(P.name("float"), P.const(repr(v)))
            return P.const(v)
        if t is BigInt:
            return P.call(P.name("BigInt"), P.const(int(v)))
        if t is Float32:
            return P.call(P.name("Float32"), self._expr(float(v)))
        if t is Fraction:
            return P.call(P.name("Fraction"), P.const(v.numerator), P.const(v.denominator))
        if t is Decimal:
            return P.call(P.name("Decimal"), P.const(str(v)))
        if t is Keyword or t is Symbol:
            args: list[ast.expr] = [P.const(v.name)]
            if v.ns is not None:
                args.append(P.const(v.ns))
            return P.call(P.name(t.__name__), *args)
        if t is Char:
            return P.call(P.name("Char"), P.const(v.ch))
        if t is Pattern:
            return P.call(P.name("Pattern"), P.const(v.source))
        if t is HostObject:
            if isinstance(v.payload, (str, int, float)) or v.payload is None:
                return P.call(P.name("HostObject"), P.const(v.class_name), P.const(v.payload))
            raise UnsupportedConstant(v.class_name)
        if t is PList:
            call = P.call(P.name("plist"), P.list_([self._expr(x) for x in v]))
            if v.is_seq:
                call.keywords.append(ast.keyword(arg="is_seq", value=P.const(True)))
            return call
        if t is PVector:
            return P.call(P.name("vec"), P.list_([self._expr(x) for x in v]))
        if t is LineVector:
            segs = P.tuple_([P.tuple_([P.const(s), P.const(n)]) for s, n in v.segments])
            return P.call(P.name("LineVector"), self._expr(v.items), segs)
        if t is SpellFn:
            return P.call(P.name("SpellFn"), self._expr(v.params), self._expr(v.body))
        if isinstance(v, SpellMap):
            pairs = [P.tuple_([self._expr(k), self._expr(x)]) for k, x in v.items()]
            return P.call(P.attr(P.name("SpellMap"), "from_pairs"), P.list_(pairs))
        if t is SpellSet:
            return P.call(P.attr(P.name("SpellSet"), "from_items"), P.list_([self._expr(x) for x in v]))
        if t is tuple:
            return P.tuple_([self._expr(x) for x in v])
        ref = self.builtin_ref(v)
        if ref is not None:
            return ref
        info = INFO.get(id(v))
        raise UnsupportedConstant(info.name if info is not None else repr(v))


def _children(v: Any) -> list[Any]:
    """The values a constant is built from (what ``ConstantWriter`` may share by name)."""
    t = type(v)
    if t is PList or t is PVector or t is tuple or t is SpellSet:
        return list(v)
    if t is LineVector:
        return list(v.items)
    if t is SpellFn:
        return [v.params, v.body]
    if isinstance(v, SpellMap):
        return [x for kv in v.items() for x in kv]
    return []


def _named_below(value: Any, pending: dict[int, str]) -> list[str]:
    """Names of the named values inside ``value`` that no other named value inside it holds."""
    out: list[str] = []
    stack = _children(value)
    while stack:
        v = stack.pop()
        name = pending.get(id(v))
        if name is not None:
            out.append(name)
        elif not (v is None or type(v) in (bool, str, int, float)):
            stack.extend(_children(v))
    return out


CONSTANT_DEPTH = 30
"""Nesting a constant's constructor may reach before a sub-value gets a name of its own: Python's
tokenizer refuses more than 200 open brackets, and each level writes two (``plist([``)."""


def _name_shared(consts: dict[str, Any]) -> dict[str, Any]:
    """``consts`` plus a name (``_s<n>``) for every unnamed non-literal value that occurs in two places
    or that sits ``CONSTANT_DEPTH`` levels below the last named value above it."""
    named = {id(v) for v in consts.values()}
    seen: set[int] = set()
    shared: dict[int, Any] = {}
    stack = [(c, 1) for v in consts.values() for c in _children(v)]
    while stack:  # iterative: forms can nest deeper than the C stack allows recursion
        v, depth = stack.pop()
        t = type(v)
        if v is None or t is bool or t is str or t is int or t is float:
            continue
        if id(v) in seen:
            if id(v) not in named:
                shared[id(v)] = v
            continue
        seen.add(id(v))
        if depth >= CONSTANT_DEPTH and id(v) not in named:
            shared[id(v)] = v
        if id(v) in shared or id(v) in named:
            depth = 0
        stack.extend((c, depth + 1) for c in _children(v))
    out = {"_s%d" % i: v for i, v in enumerate(shared.values())}
    out.update(consts)
    return out
