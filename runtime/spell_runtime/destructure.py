"""Destructuring (language.md §9): pattern + value → ordered (symbol, value) bindings.

The compiler binds plain symbol patterns itself; anything else goes through
``destructure``. ``pattern_symbols`` tells the compiler, ahead of time, every
symbol a pattern can bind, so the binding construct can save and restore those
names without looking at the value.
"""

from __future__ import annotations

from typing import Any

from .data.atoms import Keyword, Symbol
from .data.hashmap import SpellMap
from .data.lookup import get
from .data.plist import PList
from .data.vector import LineVector, PVector, VectorView, vec
from .errors import SpellError

K_AS = Keyword("as")
K_KEYS = Keyword("keys")
K_STRS = Keyword("strs")
K_SYMS = Keyword("syms")
K_OR = Keyword("or")
AMP = Symbol("&")


def invalid(pattern: Any) -> SpellError:
    from .printer import pr_str

    return SpellError("Invalid destructuring pattern: %s" % pr_str(pattern), pattern)


def _is_vec(x: Any) -> bool:
    t = type(x)
    return t is PVector or t is LineVector or t is VectorView


def _split_vector(pattern: Any) -> tuple[list[Any], Any, bool, Any, bool]:
    """(positional patterns, rest pattern, has rest, as-name, has as)."""
    items = list(pattern)
    as_name: Any = None
    has_as = False
    for i, x in enumerate(items):
        if x is K_AS:
            has_as = True
            as_name = items[i + 1] if i + 1 < len(items) else None
            items = items[:i]
            break
    rest: Any = None
    has_rest = False
    for i, x in enumerate(items):
        if x is AMP:
            has_rest = True
            rest = items[i + 1] if i + 1 < len(items) else None
            items = items[:i]
            break
    return items, rest, has_rest, as_name, has_as


def destructure(pattern: Any, value: Any, out: list[tuple[Any, Any]] | None = None) -> list[tuple[Any, Any]]:
    """The bindings of ``pattern`` against ``value``, in emission order."""
    if out is None:
        out = []
    t = type(pattern)
    if t is Symbol:
        out.append((pattern, value))
        return out
    if t is PVector or t is LineVector or t is VectorView:
        positional, rest, has_rest, as_name, has_as = _split_vector(pattern)
        tv = type(value)
        if tv is PVector or tv is LineVector or tv is VectorView or tv is PList:
            items = list(value)
        else:
            items = [value]
        for i, p in enumerate(positional):
            destructure(p, items[i] if i < len(items) else None, out)
        if has_rest:
            destructure(rest, vec(items[len(positional):]), out)
        if has_as:
            out.append((as_name, value))
        return out
    if isinstance(pattern, SpellMap):
        start = len(out)
        as_name = None
        has_as = False
        defaults: SpellMap | None = None
        for k, v in pattern.items():
            if k is K_KEYS:
                for s in (v if _is_vec(v) or type(v) is PList else ()):
                    if type(s) is Symbol:
                        out.append((Symbol(s.name), get(value, Keyword(s.name))))
                    elif type(s) is Keyword:
                        raise invalid(s)
            elif k is K_STRS:
                for s in (v if _is_vec(v) or type(v) is PList else ()):
                    out.append((Symbol(s.name) if type(s) is Symbol else s, get(value, s.name if type(s) is Symbol else s)))
            elif k is K_SYMS:
                for s in (v if _is_vec(v) or type(v) is PList else ()):
                    name = s.name if type(s) is Symbol else str(s)
                    out.append((Symbol(name), get(value, Symbol(name))))
            elif k is K_OR:
                defaults = v if isinstance(v, SpellMap) else None
            elif k is K_AS:
                as_name = v
                has_as = True
        for k, v in pattern.items():
            if k is K_KEYS or k is K_STRS or k is K_SYMS or k is K_OR or k is K_AS:
                continue
            if type(k) is Symbol or _is_vec(k):
                destructure(k, get(value, v), out)
            elif isinstance(k, SpellMap):
                continue  # Q28: map patterns as direct keys are ignored
            else:
                raise invalid(k)
        if defaults is not None:
            for i in range(start, len(out)):
                s, val = out[i]
                if val is None and defaults.contains(s):
                    out[i] = (s, defaults.get(s))
        if has_as:
            out.append((as_name, value))
        return out
    raise invalid(pattern)


def pattern_symbols(pattern: Any, out: list[Symbol] | None = None) -> list[Symbol]:
    """Every symbol ``pattern`` can bind (duplicates removed, order kept)."""
    if out is None:
        out = []

    def add(s: Any) -> None:
        if type(s) is Symbol and s not in out:
            out.append(s)

    t = type(pattern)
    if t is Symbol:
        add(pattern)
    elif t is PVector or t is LineVector or t is VectorView:
        positional, rest, has_rest, as_name, has_as = _split_vector(pattern)
        for p in positional:
            pattern_symbols(p, out)
        if has_rest:
            pattern_symbols(rest, out)
        if has_as:
            add(as_name)
    elif isinstance(pattern, SpellMap):
        for k, v in pattern.items():
            if k is K_KEYS or k is K_STRS or k is K_SYMS:
                for s in (v if _is_vec(v) or type(v) is PList else ()):
                    if type(s) is Symbol:
                        add(Symbol(s.name))
            elif k is K_AS:
                add(v)
            elif k is K_OR:
                continue
            elif type(k) is Symbol or _is_vec(k):
                pattern_symbols(k, out)
    return out
