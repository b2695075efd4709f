"""The constants a module written by ``spellc build`` refers to, encoded for the runtime to rebuild.

In memory, a compiled module gets its constants (quoted forms, keywords, builtin
functions...) injected as globals. A module written to disk must rebuild them
using only the runtime: they are written as one compact JSON text (one entry per
distinct value, sub-forms shared by reference, symbols and keywords interned) that
``spell_runtime.built_constants`` decodes at import and binds as ``_k<entry>``.
One Python constructor per value was a quarter of the module and thousands of AST
nodes for CPython's ``compile()`` (issue 12.1); the format is documented there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional

from spell_runtime.bigdigits import int_text, is_short_int
from spell_runtime.core.registry import BUILTINS, INFO, OWNERS, EnvFn
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
    VectorView,
)

SCRIPT_GC = """\
import gc

# Run as a script, the module's start-up (the runtime's import, the builtin library, the constants)
# allocates only what stays alive: young collections would find nothing. ``run_script`` freezes it
# and collects again before the program runs, as the ``spellc`` command does (spell_runtime.gcpolicy).
_PAUSED_GC = __name__ == "__main__" and gc.isenabled()
if _PAUSED_GC:
    gc.disable()
"""

RUNTIME_IMPORTS = """\
from spell_runtime.abi import compiled_namespace
from spell_runtime.built_constants import bind_constants, spans_later
from spell_runtime.data import Keyword, Symbol
from spell_runtime.support import SpanTable

globals().update(compiled_namespace(%s))
"""

LINE_WIDTH = 100
"""Longest piece of the constants text written on one line; a longer entry is cut into pieces."""


def runtime_imports(library: Optional[tuple[str, ...]]) -> str:
    """The built module's imports and globals, loading the builtin modules ``library`` (the whole
    builtin library when None), written a few to a line."""
    if library is None:
        return RUNTIME_IMPORTS % ""
    if not library:
        return RUNTIME_IMPORTS % "()"
    lines: list[str] = []
    for name in library:
        item = "%r," % name
        if lines and len(lines[-1]) + 1 + len(item) <= LINE_WIDTH:
            lines[-1] += " " + item
        else:
            lines.append("    " + item)
    return RUNTIME_IMPORTS % ("(\n%s\n)" % "\n".join(lines))


def library_modules(names: set[str]) -> Optional[tuple[str, ...]]:
    """The modules that register the builtins named ``names`` (``registry.OWNERS``): a built module
    loads only these, the rest of the library when something needs it (``spell_runtime.library``).
    None — the whole library — if one has no known module."""
    owners: set[str] = set()
    for name in names:
        owner = OWNERS.get(Symbol(name))
        if owner is None:
            return None
        owners.add(owner)
    return tuple(sorted(owners))


# ``Keyword`` and ``Symbol`` stay importable from a built module: code appended to one (a package's
# compiled library, ``spellc.package.library``) looks its values up by keyword.

class UnsupportedConstant(Exception):
    """A value that has no source form (an opaque host object created at compile time)."""


Encoded = Any
"""A JSON value in the format ``spell_runtime.built_constants`` decodes."""


def _builtin_index() -> dict[int, Encoded]:
    """id of each builtin value (and namespace member, and their Python functions) → its encoding."""
    index: dict[int, Encoded] = {}
    for sym, value in BUILTINS.items():
        index[id(value)] = ["b", sym.name]
        if type(value) is EnvFn:
            index[id(value.fn)] = ["b.", sym.name]
        if isinstance(value, SpellMap):
            for k, member in value.items():
                if type(k) is Keyword and callable(member):
                    index.setdefault(id(member), ["bs", sym.name, k.name])
                    if type(member) is EnvFn:
                        index.setdefault(id(member.fn), ["bs.", sym.name, k.name])
    return index


_SYMBOL_TAGS = ("'", "%", ":", "$")
"""First characters that tag a string entry; a symbol whose name starts with one is written ``$name``."""


class ConstantEncoder:
    """Encodes a module's constants as the entries ``spell_runtime.built_constants`` decodes.

    Each distinct form is one entry, built once: a sub-form that is itself a named constant (the
    emitter names every call form, and calls nest) is a reference to its entry, written before it,
    and constants whose encoding is equal share one entry (so one object).
    """

    def __init__(self) -> None:
        self._index: Optional[dict[int, Encoded]] = None
        self._entry_of: dict[int, int] = {}  # id(value) -> entry, for values already encoded
        self.builtin_names: set[str] = set()
        """The builtins (namespaces for their members) the encoded constants refer to."""

    def encode(self, consts: dict[str, Any], first: Sequence[str] = (),
               apart: frozenset[int] = frozenset()) -> tuple[list[str], dict[str, int]]:
        """The JSON text of each entry, in order, and the entry each name of ``consts`` is bound to.

        The constants named in ``first`` get the lowest entries they can (after what they are built
        from): a built module passes its most used names first, so its code refers to them by short names.
        Values whose ``id`` is in ``apart`` get an entry of their own even when another is equal: the
        quoted forms a built module gives spans to (``compiler.written_spans``), one object per place.
        """
        consts = _name_shared(consts)
        by_name = dict(consts)  # not written yet
        pending = {id(v): n for n, v in consts.items()}
        entries: list[str] = []
        entry_of_name: dict[str, int] = {}
        by_text: dict[str, int] = {}

        def write(name: str) -> None:
            if name not in by_name:
                return
            del by_name[name]
            for sub_name in _named_below(consts[name], pending):  # first, so they can be referred to
                if sub_name in by_name:
                    write(sub_name)
            text = json.dumps(self._encode(consts[name], top=True), ensure_ascii=False, separators=(",", ":"))
            entry = by_text.get(text) if id(consts[name]) not in apart else None
            if entry is None:
                entry = len(entries)
                entries.append(text)
                if id(consts[name]) not in apart:
                    by_text[text] = entry
            entry_of_name[name] = entry
            self._entry_of[id(consts[name])] = entry

        for name in [*first, *consts]:
            if name in by_name:
                write(name)
        return entries, entry_of_name

    def _builtin(self, value: Any) -> Optional[Encoded]:
        if self._index is None:
            self._index = _builtin_index()
        found = self._index.get(id(value))
        if found is not None:
            self.builtin_names.add(found[1])  # ["b", name] or ["bs", namespace, member]
        return found

    def _encode(self, v: Any, top: bool = False) -> Encoded:
        if not top:
            entry = self._entry_of.get(id(v))
            if entry is not None:
                return entry
        t = type(v)
        if (t is int or t is BigInt) and not is_short_int(v):
            return [("-" if v < 0 else "") + ("N" if t is BigInt else "i"), int_text(abs(int(v)))]
        if v is None or t is bool or t is float:
            return v
        if t is str:
            return "'" + v
        if t is int:
            return "%" + str(v)
        if t is Keyword or t is Symbol:
            if v.ns is not None:
                return ["k" if t is Keyword else "s", v.name, v.ns]
            if t is Keyword:
                return ":" + v.name
            return "$" + v.name if v.name.startswith(_SYMBOL_TAGS) else v.name
        if t is BigInt:
            return ["N", int(v)]
        if t is Float32:
            return ["f", float(v)]
        if t is Fraction:
            return ["/", v.numerator, v.denominator]
        if t is Decimal:
            return ["M", str(v)]
        if t is Char:
            return ["c", v.ch]
        if t is Pattern:
            return ["re", v.source]
        if t is HostObject:
            if isinstance(v.payload, (str, int, float)) or v.payload is None:
                return ["h", v.class_name, v.payload]
            raise UnsupportedConstant(v.class_name)
        if t is PList:
            items = [self._encode(x) for x in v]
            if items and type(items[0]) is int and not v.is_seq:
                return items  # a call form whose head is a reference: untagged
            return ["(*" if v.is_seq else "(", *items]
        if t is PVector or t is VectorView:
            return ["[", *[self._encode(x) for x in v]]
        if t is LineVector:
            return ["lv", self._encode(v.items), [[s, n] for s, n in v.segments]]
        if t is SpellFn:
            return ["fn", self._encode(v.params), self._encode(v.body)]
        if isinstance(v, SpellMap):
            return ["{", *[self._encode(x) for kv in v.items() for x in kv]]
        if t is SpellSet:
            return ["#{", *[self._encode(x) for x in v]]
        if t is tuple:
            return ["t", *[self._encode(x) for x in v]]
        ref = self._builtin(v)
        if ref is not None:
            return ref
        info = INFO.get(id(v))
        raise UnsupportedConstant(info.name if info is not None else repr(v))


def constants_source(entries: list[str]) -> str:
    """``bind_constants(globals(), (...))`` with the entries' JSON array cut into short string pieces."""
    text = "[%s]" % ",".join(entries)
    pieces: list[str] = []
    start = 0
    while start < len(text):
        cut = min(start + LINE_WIDTH, len(text))
        comma = text.rfind(",", start + LINE_WIDTH // 2, cut)  # end a piece after a whole entry if one fits
        if cut < len(text) and comma > 0:
            cut = comma + 1
        pieces.append(text[start:cut])
        start = cut
    body = "".join("    %s\n" % repr(piece) for piece in pieces)
    return "bind_constants(globals(), (\n%s))\n" % body


def _children(v: Any) -> list[Any]:
    """The values a constant is built from (what ``ConstantWriter`` may share by name)."""
    t = type(v)
    if t is PList or t is PVector or t is VectorView or t is tuple or t is SpellSet:
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
