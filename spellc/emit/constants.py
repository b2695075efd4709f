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

from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import (BigInt, Char, Float32, HostObject, Keyword, LineVector, Pattern, SpellFn,
                                SpellMap, SpellSet, Symbol, plist, vec)
from spell_runtime.support import SpanTable, compiled_namespace, ns_static

globals().update(compiled_namespace())
"""


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
    """Builds constructor expressions, sharing nothing between calls except the builtin index."""

    def __init__(self) -> None:
        self._index: Optional[dict[int, ast.expr]] = None

    def builtin_ref(self, value: Any) -> Optional[ast.expr]:
        if self._index is None:
            self._index = _builtin_index()
        return self._index.get(id(value))

    def expr(self, v: Any) -> ast.expr:
        t = type(v)
        if v is None or t is bool or t is str or t is int:
            return P.const(v)
        if t is float:
            if math.isnan(v) or math.isinf(v):
                return P.call(P.name("float"), P.const(repr(v)))
            return P.const(v)
        if t is BigInt:
            return P.call(P.name("BigInt"), P.const(int(v)))
        if t is Float32:
            return P.call(P.name("Float32"), self.expr(float(v)))
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
            call = P.call(P.name("plist"), P.list_([self.expr(x) for x in v]))
            if v.is_seq:
                call.keywords.append(ast.keyword(arg="is_seq", value=P.const(True)))
            return call
        if t is PVector:
            return P.call(P.name("vec"), P.list_([self.expr(x) for x in v]))
        if t is LineVector:
            segs = P.tuple_([P.tuple_([P.const(s), P.const(n)]) for s, n in v.segments])
            return P.call(P.name("LineVector"), self.expr(v.items), segs)
        if t is SpellFn:
            return P.call(P.name("SpellFn"), self.expr(v.params), self.expr(v.body))
        if isinstance(v, SpellMap):
            pairs = [P.tuple_([self.expr(k), self.expr(x)]) for k, x in v.items()]
            return P.call(P.attr(P.name("SpellMap"), "from_pairs"), P.list_(pairs))
        if t is SpellSet:
            return P.call(P.attr(P.name("SpellSet"), "from_items"), P.list_([self.expr(x) for x in v]))
        if t is tuple:
            return P.tuple_([self.expr(x) for x in v])
        ref = self.builtin_ref(v)
        if ref is not None:
            return ref
        info = INFO.get(id(v))
        raise UnsupportedConstant(info.name if info is not None else repr(v))
