"""The three textual renderings of Spell values (language.md §5, runtime.md §4.3.4).

* ``pr_str`` — readable printing (Clojure ``pr``): what ``pr-str`` returns and what
  errors and the REPL show.
* ``display_str`` — what ``str`` makes of ONE argument: strings and characters
  raw, ``nil`` empty, infinities as ``Infinity``; collections fall back to the
  readable printer, so strings inside them keep their quotes.
* ``render_form`` — the source renderer ``R`` that turns forms back into program
  text: like ``pr_str`` but maps have no commas and ``(first-line ...)`` forms
  are laid out one row per line with ``; N`` line comments, so numbered file
  contents read naturally in the next prompt.

All three walk values with an explicit stack instead of recursion: values come
from programs and files and may nest far deeper than Python's recursion limit,
and output is built as a list of parts joined once, so time is linear in the
length of the text.

The collection types print through ``pr_str`` (their ``__repr__``), installed here when this
module loads rather than imported by them (data/ sits below the printer; house-review.md
change 6). ``spell_runtime/__init__`` imports this module, so the install precedes any use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from itertools import chain
from typing import Any, Final, Optional

from .bigdigits import int_text
from .core.registry import EnvFn, info_of
from .data.atoms import BigInt, Char, Float32, HostObject, Keyword, Pattern, Symbol
from .data.hashmap import SpellMap, SpellSet
from .data.plist import PList
from .data.vector import LineVector, PVector, VectorView
from .numtext import bigdec_text, double_text, float32_text

_STRING_ESCAPES: Final = str.maketrans(
    {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\f": "\\f", "\b": "\\b"}
)
_NEEDS_ESCAPE: Final = frozenset('"\\\n\t\r\f\b')

_CHAR_NAMES: Final = {"\n": "newline", " ": "space", "\t": "tab", "\b": "backspace", "\f": "formfeed",
                      "\r": "return"}

_FIRST_LINE: Final = Symbol("first-line")


def quote_string(s: str) -> str:
    """``s`` as a readable string literal (only the seven escapes of language.md §5.1)."""
    if _NEEDS_ESCAPE.isdisjoint(s):
        return '"' + s + '"'
    return '"' + s.translate(_STRING_ESCAPES) + '"'


def char_text(c: Char) -> str:
    """Readable character literal.

    Clojure names six characters and prints every other one raw after the
    backslash (control characters included). That is also readable: the reader
    always takes the character right after ``\\`` as part of the literal.
    """
    name = _CHAR_NAMES.get(c.ch)
    return "\\" + (name if name is not None else c.ch)


def pattern_text(p: Pattern) -> str:
    """``#"..."`` as Clojure prints a regex: escapes copied verbatim, a bare ``"`` escaped.

    Inside a ``\\Q...\\E`` quoted run a backslash would be literal, so there a
    ``"`` is written by leaving the quote, escaping it and re-entering.
    """
    src = p.source
    if '"' not in src:
        return '#"' + src + '"'
    out = ['#"']
    quoted = False
    i = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c == "\\" and i + 1 < n:
            nxt = src[i + 1]
            out.append(c + nxt)
            quoted = nxt != "E" if quoted else nxt == "Q"
            i += 2
            continue
        if c == '"':
            out.append('\\E\\"\\Q' if quoted else '\\"')
        else:
            out.append(c)
        i += 1
    out.append('"')
    return "".join(out)


# Clojure's Compiler.munge table: how a function's name becomes its class name.
_MUNGE: Final = {
    "-": "_", ":": "_COLON_", "+": "_PLUS_", ">": "_GT_", "<": "_LT_", "=": "_EQ_", "~": "_TILDE_",
    "!": "_BANG_", "@": "_CIRCA_", "#": "_SHARP_", "'": "_SINGLEQUOTE_", '"': "_DOUBLEQUOTE_",
    "%": "_PERCENT_", "^": "_CARET_", "&": "_AMPERSAND_", "*": "_STAR_", "|": "_BAR_", "{": "_LBRACE_",
    "}": "_RBRACE_", "[": "_LBRACK_", "]": "_RBRACK_", "/": "_SLASH_", "\\": "_BSLASH_", "?": "_QMARK_",
}


def _munge(name: str) -> str:
    return "".join(_MUNGE.get(c, c) for c in name)


def host_class_text(host_name: str) -> str:
    """The JVM class name of a Clojure function: ``clojure.core/inc`` → ``clojure.core$inc``."""
    ns, slash, name = host_name.rpartition("/")
    if not slash or not name:
        return _munge(host_name)
    return _munge(ns) + "$" + _munge(name)


def host_name_of(x: Any) -> str:
    """The ``<name>`` of ``#object[<name>]`` for a host value (language.md A6)."""
    info = info_of(x)
    if info is not None:
        return host_class_text(info.host_name)
    if type(x) is EnvFn:
        return str(x.name)
    if type(x) is HostObject:
        return x.class_name
    qualname = getattr(x, "__qualname__", None)
    if callable(x) and isinstance(qualname, str):
        return qualname
    return type(x).__qualname__


def host_object_text(x: Any) -> str:
    """``#object[<name>]``: deterministic, unlike the reference's identity hash."""
    return "#object[" + host_name_of(x) + "]"


def _readable_float(finite_text: Callable[[float], str]) -> Callable[[float], str]:
    """The readable printer of a float kind: ``##NaN``/``##Inf``/``##-Inf``, else the JVM's text."""

    def pr(x: float) -> str:
        if x != x:
            return "##NaN"
        if x == math.inf:
            return "##Inf"
        if x == -math.inf:
            return "##-Inf"
        return finite_text(x)

    return pr


_float_pr = _readable_float(double_text)
_float32_pr = _readable_float(float32_text)


def _ratio_text(r: Fraction) -> str:
    return int_text(r.numerator) + "/" + int_text(r.denominator)


_READABLE_ATOMS: Final[dict[type, Callable[[Any], str]]] = {
    str: quote_string,
    int: int_text,
    bool: lambda b: "true" if b else "false",
    type(None): lambda _: "nil",
    float: _float_pr,
    Float32: _float32_pr,
    BigInt: lambda n: int_text(n) + "N",
    Fraction: _ratio_text,
    Decimal: lambda d: bigdec_text(d) + "M",
    Keyword: Keyword.__repr__,
    Symbol: Symbol.__repr__,
    Char: char_text,
    Pattern: pattern_text,
}

_DISPLAY_ATOMS: Final[dict[type, Callable[[Any], str]]] = {
    **_READABLE_ATOMS,
    str: lambda s: s,
    type(None): lambda _: "",
    float: double_text,
    Float32: float32_text,
    BigInt: int_text,
    Decimal: bigdec_text,
    Char: lambda c: c.ch,
    Pattern: lambda p: p.source,
}


def _is_collection(x: Any) -> bool:
    t = type(x)
    return t is PList or t is PVector or t is LineVector or t is VectorView or isinstance(x, (SpellMap, SpellSet))


def _atom_text(x: Any) -> str:
    f = _READABLE_ATOMS.get(type(x))
    if f is not None:
        return f(x)
    return host_object_text(x)


# -- the iterative walker ------------------------------------------------------------

class _Text:
    """A piece of literal output inside a ``_PIECES`` frame (distinct from a Spell string)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_SPACED: Final = 0  # elements separated by single spaces
_MAP_COMMAS: Final = 1  # flattened k v k v: " " inside an entry, ", " between entries
_PIECES: Final = 2  # _Text pieces and values, no separators


class _Frame:
    __slots__ = ("items", "count", "mode", "close")

    def __init__(self, items: Iterator[Any], mode: int, close: str) -> None:
        self.items = items
        self.count = 0
        self.mode = mode
        self.close = close


_END: Final = object()


def _first_line_pieces(form: PList) -> Optional[list[Any]]:
    """The pieces of a ``(first-line s1 [rows] ...)`` layout, or None if ``form`` is not one."""
    args = list(form)[1:]
    if not args or len(args) % 2:
        return None
    for i in range(0, len(args), 2):
        start = args[i]
        if not (start is None or type(start) is int or type(start) is BigInt):
            return None
        if type(args[i + 1]) is not PVector and type(args[i + 1]) is not LineVector and type(args[i + 1]) is not VectorView:
            return None
    pieces: list[Any] = [_Text("(first-line")]
    for i in range(0, len(args), 2):
        start, rows = args[i], args[i + 1]
        pieces.append(_Text(" " + _atom_text(start) + " ["))
        for index, row in enumerate(rows):
            pieces.append(_Text("\n "))
            pieces.append(row)
            if start is not None:
                pieces.append(_Text(" ; " + int.__repr__(start + index)))
        pieces.append(_Text("\n]" if len(rows) else "]"))
    pieces.append(_Text(")"))
    return pieces


def _open(x: Any, out: list[str], source: bool) -> Optional[_Frame]:
    """Write the opening of collection ``x``; return the frame for its elements (None if empty)."""
    t = type(x)
    if t is PList:
        if source and x.count and x.first is _FIRST_LINE:
            pieces = _first_line_pieces(x)
            if pieces is not None:
                return _Frame(iter(pieces), _PIECES, "")
        opening, close, items, mode = "(", ")", iter(x), _SPACED
    elif t is PVector or t is LineVector or t is VectorView:
        opening, close, items, mode = "[", "]", iter(x), _SPACED
    elif isinstance(x, SpellMap):
        opening, close = "{", "}"
        items = chain.from_iterable(x.items())
        mode = _SPACED if source else _MAP_COMMAS
    else:
        opening, close, items, mode = "#{", "}", iter(x), _SPACED
    if not len(x):
        out.append(opening + close)
        return None
    out.append(opening)
    return _Frame(items, mode, close)


def _write(x: Any, out: list[str], source: bool) -> None:
    stack: list[_Frame] = []
    value = x
    while True:
        # Render ``value``: an atom is written at once, a collection opens a frame.
        f = _READABLE_ATOMS.get(type(value))
        if f is not None:
            out.append(f(value))
        elif _is_collection(value):
            frame = _open(value, out, source)
            if frame is not None:
                stack.append(frame)
        else:
            out.append(host_object_text(value))
        # Find the next value to render.
        while stack:
            top = stack[-1]
            item = next(top.items, _END)
            if item is _END:
                out.append(top.close)
                stack.pop()
                continue
            if top.mode == _PIECES:
                if type(item) is _Text:
                    out.append(item.text)
                    continue
            elif top.count:
                out.append(", " if top.mode == _MAP_COMMAS and not top.count % 2 else " ")
            top.count += 1
            value = item
            break
        else:
            return


def pr_str(x: Any) -> str:
    """Readable text of one value, as Clojure ``pr-str`` prints it."""
    f = _READABLE_ATOMS.get(type(x))
    if f is not None:
        return f(x)
    out: list[str] = []
    _write(x, out, False)
    return "".join(out)


def display_str(x: Any) -> str:
    """What ``str`` makes of one argument: raw strings/chars, ``nil`` → ``""``, ``##Inf`` → ``Infinity``."""
    f = _DISPLAY_ATOMS.get(type(x))
    if f is not None:
        return f(x)
    return pr_str(x)


def to_str(x: Any) -> str:
    """Spell ``str`` of one value: nil is ``""``, strings are themselves (the ``str`` builtin's
    per-argument step, here rather than in ``core/strings`` so that numbers and formatting,
    which ``strings`` itself uses, can name it without an import circle)."""
    if type(x) is str:
        return x
    if x is None:
        return ""
    return display_str(x)


def render_form(x: Any) -> str:
    """The source renderer ``R``: maps without commas, ``first-line`` forms one row per line."""
    f = _READABLE_ATOMS.get(type(x))
    if f is not None:
        return f(x)
    out: list[str] = []
    _write(x, out, True)
    return "".join(out)


def install() -> None:
    """Make ``repr()`` of Spell maps, sets and lists their readable text (``SpellFn`` and the other map kinds inherit it)."""
    for cls in (SpellMap, SpellSet, PList):
        cls.__repr__ = pr_str  # type: ignore[method-assign]


install()
