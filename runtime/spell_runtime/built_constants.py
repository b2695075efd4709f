"""The constants of a module written by ``spellc build``, rebuilt from one compact JSON text (issue 12.1).

A built module cannot receive its constants (quoted forms, call forms named by its position
table, keywords, builtins) as injected globals the way an in-memory compilation does, so it
rebuilds them when imported. Writing one Python constructor per value (``plist([_s40, _k134])``)
made constants a quarter of a built module and thousands of AST nodes for CPython to compile;
here they are one string that ``json``'s C scanner parses (``_parse_json``), decoded into values by one
small walk. The encoder is ``spellc.emit.constants.ConstantEncoder``; the two must agree on:

- the text is a JSON array, one entry per constant, each entry's value built after the entries
  it refers to; constant ``i`` is bound as the global ``_k<i>`` (``bind_constants``);
- a JSON integer is a *reference* to an earlier entry (sub-forms are shared, never repeated);
- a JSON string is tagged by its first character: ``'`` a Spell string, ``:`` a keyword,
  ``%`` a (short) integer, ``$`` a symbol whose name starts with a tag character; any other
  string is a symbol (the common case, written bare);
- JSON floats (``NaN`` and ``Infinity`` included), ``true``/``false``/``null`` stand for themselves;
- a JSON array is a tagged collection or rare value: its first element says which (``_TAGS``,
  and ``lv``, a line vector: its items' entry and its segments) — except a list form whose head
  is a reference (most call forms), written without its ``"("`` tag;
- a built module's position table is written with ``pack_numbers`` (``decode_spans``).

Symbols and keywords are interned through one table per module, so equal names share one object.
The runtime never imports ``spellc`` (architecture.md §5): this module uses only the data types.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, Final

from .bigdigits import parse_int
from .core.registry import BUILTINS
from .data import (
    EMPTY,
    BigInt,
    Char,
    Float32,
    HostObject,
    Keyword,
    LineVector,
    Pattern,
    PList,
    SpellFn,
    SpellMap,
    SpellSet,
    Symbol,
    plist,
    vec,
)
from .packnum import pack_numbers, unpack_numbers, unzigzag
from .support import ns_static


def _builtin(name: str, key: str | None = None) -> Any:
    """A builtin by its symbol's name, or a member of a builtin namespace (``key``)."""
    value = BUILTINS[Symbol(name)]
    if key is not None:
        value = ns_static(value, (Keyword(key),), Symbol(key, name))
    return value


def _pairs(items: list[Any]) -> list[tuple[Any, Any]]:
    return list(zip(items[0::2], items[1::2]))


_TAGS: dict[str, Callable[[list[Any]], Any]] = {
    "(": lambda xs: plist(xs),
    "(*": lambda xs: plist(xs, is_seq=True),
    "[": lambda xs: vec(xs),
    "{": lambda xs: SpellMap.from_pairs(_pairs(xs)),
    "#{": lambda xs: SpellSet.from_items(xs),
    "t": lambda xs: tuple(xs),
    "k": lambda xs: Keyword(xs[0], xs[1]),  # namespaced keyword: name, ns
    "s": lambda xs: Symbol(xs[0], xs[1]),  # namespaced symbol: name, ns
    "c": lambda xs: Char(xs[0]),
    "re": lambda xs: Pattern(xs[0]),
    "i": lambda xs: parse_int(xs[0]),  # an integer past CPython's digit limit (issue 16.2)
    "-i": lambda xs: -parse_int(xs[0]),
    "N": lambda xs: BigInt(xs[0] if type(xs[0]) is int else parse_int(xs[0])),
    "-N": lambda xs: BigInt(-parse_int(xs[0])),
    "/": lambda xs: Fraction(xs[0], xs[1]),
    "M": lambda xs: Decimal(xs[0]),
    "f": lambda xs: Float32(xs[0]),
    "h": lambda xs: HostObject(xs[0], xs[1]),
    "fn": lambda xs: SpellFn(xs[0], xs[1]),
    "b": lambda xs: _builtin(xs[0]),
    "b.": lambda xs: _builtin(xs[0]).fn,
    "bs": lambda xs: _builtin(xs[0], xs[1]),
    "bs.": lambda xs: _builtin(xs[0], xs[1]).fn,
}
_RAW_TAGS = frozenset(("k", "s", "c", "re", "i", "-i", "N", "-N", "/", "M", "f", "h", "b", "b.", "bs", "bs."))
"""Tags whose arguments are plain JSON data, not encoded values."""


_JSON_CONSTANTS: Final = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
_scan: Callable[[str, int], tuple[Any, int]] | None = None


def _parse_json(text: str) -> Any:
    """``json.loads(text)`` through the C scanner ``json`` itself uses, without importing the ``json``
    package: its import compiles six regular expressions and loads four modules, ~4.6 M instructions of
    every built module's start-up (issue 12). Anything but one JSON value filling the text (a damaged
    module, an interpreter without ``_json``) goes to ``json.loads``, which raises its usual error."""
    global _scan
    try:
        if _scan is None:
            from _json import make_scanner

            # The attributes the scanner reads off a ``json.JSONDecoder``, with ``json.loads``'s defaults
            # (typeshed types that context as a scanner, which it never is: hence ``Any``).
            context: Any = SimpleNamespace(strict=True, object_hook=None, object_pairs_hook=None, parse_float=float,
                                           parse_int=int, parse_constant=_JSON_CONSTANTS.__getitem__)
            _scan = make_scanner(context)
        value, end = _scan(text, 0)
        if end == len(text):
            return value
    except (ImportError, StopIteration, ValueError):
        pass
    import json

    return json.loads(text)


def decode_constants(text: str) -> list[Any]:
    """The constants encoded in ``text`` (see the module docstring), in order."""
    done: list[Any] = []
    names: dict[str, Any] = {}  # the interning table: tagged string → symbol or keyword
    new_cell = PList.__new__

    def value(x: Any) -> Any:
        t = type(x)
        if t is int:
            return done[x]
        if t is str:
            found = names.get(x)
            if found is not None:
                return found
            tag = x[:1]
            if tag == "'":
                return x[1:]
            if tag == "%":
                return int(x[1:])
            made: Any = Keyword(x[1:]) if tag == ":" else Symbol(x[1:] if tag == "$" else x)
            names[x] = made
            return made
        if t is list:
            tag = x[0]
            if type(tag) is int:  # a list form whose head is a reference (most call forms): written untagged
                # its cells built here, as ``plist`` builds them, without the list ``items`` would
                # make first (an eighth of decoding compile-300's constants)
                form: PList = EMPTY
                n = 0
                for y in reversed(x):
                    n += 1
                    cell = new_cell(PList)
                    cell.first = done[y] if type(y) is int else value(y)
                    cell.rest = form
                    cell.count = n
                    cell.is_seq = False
                    cell.span = None
                    cell.child_spans = None
                    cell._src = None
                    form = cell
                return form
            if tag == "lv":
                return LineVector(value(x[1]), tuple((s, n) for s, n in x[2]))
            return _TAGS[tag](x[1:] if tag in _RAW_TAGS else items(x[1:]))
        return x  # float, bool, None

    def items(xs: list[Any]) -> list[Any]:
        # most items are references: read inline, without a call of ``value`` each (a third of decoding)
        return [done[x] if type(x) is int else value(x) for x in xs]

    for entry in _parse_json(text):
        done.append(value(entry))
    return done


def bind_constants(namespace: dict[str, Any], text: str) -> None:
    """Bind constant ``i`` of ``text`` as ``_k<i>`` in ``namespace`` (a built module's globals)."""
    for i, v in enumerate(decode_constants(text)):
        namespace["_k%d" % i] = v




def set_fn_spans(namespace: dict[str, Any], packed: str) -> None:
    """Set on a built module's fn forms (``_k<entry>``) the spans ``built_spans.pack_fn_spans`` wrote, five
    numbers each: the entry's distance from the previous one's, the start line's distance from the
    previous one's (zigzag, plus one), the start column, the number of lines, the end column. At import,
    as there are only a few and no position table names a fn form."""
    numbers = unpack_numbers(packed)
    entry = line = i = 0
    while i + 4 < len(numbers):
        entry += numbers[i]
        line += unzigzag(numbers[i + 1] - 1)
        namespace["_k%d" % entry].span = (line, numbers[i + 2], line + numbers[i + 3], numbers[i + 4])
        i += 5


def decode_spans(namespace: dict[str, Any], packed: str, fn_spans: str = "") -> list[tuple[int, int, int, int, Any]]:
    """A built module's call-form spans, (line, col, end line, end col, form), from ``pack_numbers`` of
    five numbers per span: the start line's distance from the previous span's, the start column, the
    number of lines, the end column, the entry of the form (``_k<entry>``).

    ``fn_spans`` are the source spans of the module's ``(fn ...)`` forms as written (a call path
    names a fn by its form's place, ``callpath.fn_position``), set on them now (``set_fn_spans``)."""
    if fn_spans:
        set_fn_spans(namespace, fn_spans)
    numbers = unpack_numbers(packed)
    spans: list[tuple[int, int, int, int, Any]] = []
    line = 0
    for i in range(0, len(numbers) - 4, 5):
        dl, sc, lines, ec, entry = numbers[i:i + 5]
        line += dl
        spans.append((line, sc, line + lines, ec, namespace["_k%d" % entry]))
    return spans


def spans_later(namespace: dict[str, Any], packed: str,
                fn_spans: str = "") -> Callable[[], list[tuple[int, int, int, int, Any]]]:
    """``decode_spans`` deferred to the first failure that reads the table (``support.SpanTable``), or
    the first run-time compile, which gives built modules' forms their spans back (``built_spans``): a
    run that does neither never unpacks its ~500 call-form spans, about half a millisecond of every
    built module's start-up (issue 12). The fn forms' own spans are set now, as ``decode_spans`` does:
    a call path may name a fn by its form's place without reading the table."""
    if fn_spans:
        set_fn_spans(namespace, fn_spans)
    return lambda: decode_spans(namespace, packed)


__all__ = ["decode_constants", "bind_constants", "pack_numbers", "unpack_numbers", "decode_spans", "set_fn_spans",
           "spans_later"]
