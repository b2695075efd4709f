"""Value forms: source text that evaluates back to a value (language.md §11.3, runtime.md §4.3.2–§4.3.3).

Whatever the model sees of a computed value — a ``persist`` materialization, a
``!call-now`` binding, a snapshot — is ``render_form(value_form(v))``, so that the
next turn's program, re-read and re-run, rebuilds exactly the value it saw.
Literal data is quoted whole (``(quote {:a 1})``) because that is the shortest
faithful spelling; vectors are never quoted so that the common case reads like
ordinary code; Spell functions come back as ``(fn ...)`` source; numbered line
vectors as ``(first-line ...)`` forms so their line numbers survive.

Both walks here use explicit stacks and remember results per collection object,
so deep nesting cannot overflow Python's stack and shared substructure is
visited once.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from .data.atoms import K_BODY, K_PARAMS, BigInt, Char, Float32, Keyword, Symbol
from .data.fn import SpellFn, is_spell_fn
from .data.hashmap import EMPTY_MAP, SpellMap, SpellSet
from .data.plist import PList, plist
from .data.vector import LineVector, PVector, VectorView, vec
from .errors import HostError
from .readable import is_reader_keyword, is_reader_number, is_reader_symbol

NO_SOURCE_MESSAGE: Final = "Value has no ordinary source representation"

S_QUOTE: Final = Symbol("quote")
S_FN: Final = Symbol("fn")
S_SYMBOL: Final = Symbol("symbol")
S_KEYWORD: Final = Symbol("keyword")
S_FIRST_LINE: Final = Symbol("first-line")
S_INTO: Final = Symbol("into")
S_SET: Final = Symbol("set")
S_LIST: Final = Symbol("list")

_SELF_EVALUATING: Final = frozenset({str, bool, type(None), Char, int, BigInt, float, Float32})


def _is_number(x: Any) -> bool:
    from decimal import Decimal
    from fractions import Fraction

    t = type(x)
    return t is int or t is BigInt or t is float or t is Float32 or t is Fraction or t is Decimal


def _is_collection(x: Any) -> bool:
    t = type(x)
    return t is PList or t is PVector or t is LineVector or t is VectorView or isinstance(x, (SpellMap, SpellSet))


def _literal_atom(x: Any) -> bool:
    t = type(x)
    if t is str or t is bool or x is None or t is Char:
        return True
    if t is Symbol:
        return is_reader_symbol(x)
    if t is Keyword:
        return is_reader_keyword(x)
    return is_reader_number(x)


def _children(x: Any) -> list[Any]:
    if isinstance(x, SpellMap):
        out: list[Any] = []
        for k, v in x.items():
            out.append(k)
            out.append(v)
        return out
    return list(x)


def _never_literal(x: Any) -> bool:
    return type(x) is LineVector or (isinstance(x, SpellMap) and is_spell_fn(x))


def _literal_table(root: Any) -> dict[int, bool]:
    """id → literal-data flag for every collection reachable from ``root`` (post-order, iterative)."""
    flags: dict[int, bool] = {}
    stack: list[tuple[Any, Optional[list[Any]]]] = [(root, None)]
    while stack:
        node, kids = stack.pop()
        key = id(node)
        if kids is None:
            if key in flags:
                continue
            kids = _children(node)
            stack.append((node, kids))
            for child in kids:
                if _is_collection(child) and id(child) not in flags:
                    stack.append((child, None))
            continue
        if key in flags:
            continue
        ok = not _never_literal(node)
        if ok:
            for child in kids:
                if not (flags.get(id(child), False) if _is_collection(child) else _literal_atom(child)):
                    ok = False
                    break
        flags[key] = ok
    return flags


def is_literal_data(x: Any) -> bool:
    """Literal data (runtime.md §4.3.2): readable atoms and collections of them, never numbered
    vectors or Spell-function maps."""
    if not _is_collection(x):
        return _literal_atom(x)
    return _literal_table(x)[id(x)]


def _atom_form(x: Any) -> Any:
    t = type(x)
    if t in _SELF_EVALUATING or _is_number(x):
        return x
    if t is Symbol:
        if is_reader_symbol(x):
            return plist([S_QUOTE, x])
        return plist([S_SYMBOL, x.name] if x.ns is None else [S_SYMBOL, x.ns, x.name])
    if t is Keyword:
        if is_reader_keyword(x):
            return x
        return plist([S_KEYWORD, x.name] if x.ns is None else [S_KEYWORD, x.ns, x.name])
    raise HostError(NO_SOURCE_MESSAGE)


def _fn_parts(x: Any) -> Optional[tuple[Any, Any]]:
    """(params, body) of a Spell function whose source can be written as ``(fn ...)``."""
    if not (isinstance(x, SpellMap) and is_spell_fn(x)):
        return None
    if type(x) is SpellFn:
        params, body = x.params, x.body
    else:
        params, body = x.get(K_PARAMS), x.get(K_BODY)
    if (type(params) is PVector or type(params) is LineVector or type(params) is VectorView) and type(body) is PList:
        return params, body
    return None


def _needs_child_forms(node: Any, flags: dict[int, bool]) -> bool:
    if flags[id(node)] and type(node) is not PVector and type(node) is not VectorView:
        return False  # quoted whole
    return _fn_parts(node) is None


def _build(node: Any, flags: dict[int, bool], forms: dict[int, Any]) -> Any:
    def form_of(child: Any) -> Any:
        return forms[id(child)] if _is_collection(child) else _atom_form(child)

    t = type(node)
    fn_parts = _fn_parts(node)
    if fn_parts is not None:
        params, body = fn_parts
        return plist([S_FN, params, *body])
    if t is LineVector:
        items: list[Any] = [S_FIRST_LINE]
        for start, rows in node.row_groups():
            items.append(start)
            items.append(vec(form_of(r) for r in rows))
        return plist(items)
    if t is PVector or t is VectorView:
        return vec(form_of(e) for e in node)
    if flags[id(node)]:
        return plist([S_QUOTE, node])
    if isinstance(node, SpellMap):
        pairs = list(node.items())
        if all(flags.get(id(k), False) if _is_collection(k) else _literal_atom(k) for k, _ in pairs):
            return EMPTY_MAP if not pairs else SpellMap.from_pairs((k, form_of(v)) for k, v in pairs)
        entries = vec(vec([form_of(k), form_of(v)]) for k, v in pairs)
        return plist([S_INTO, EMPTY_MAP, entries])
    if isinstance(node, SpellSet):
        return plist([S_SET, vec(form_of(e) for e in node)])
    return plist([S_LIST, *(form_of(e) for e in node)])


def value_form(v: Any) -> Any:
    """A form that evaluates back to ``v``; raises ``HostError`` for host values (functions, patterns...)."""
    if not _is_collection(v):
        return _atom_form(v)
    flags = _literal_table(v)
    forms: dict[int, Any] = {}
    stack: list[tuple[Any, bool]] = [(v, False)]
    while stack:
        node, ready = stack.pop()
        key = id(node)
        if key in forms:
            continue
        if not ready and _needs_child_forms(node, flags):
            stack.append((node, True))
            for child in _children(node):
                if _is_collection(child) and id(child) not in forms:
                    stack.append((child, False))
            continue
        forms[key] = _build(node, flags, forms)
    return forms[id(v)]
