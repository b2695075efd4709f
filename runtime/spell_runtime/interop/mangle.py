"""Hy's name mangling: Spell (Lisp) names ↔ Python identifiers, by Hy's documented rules.

Hy documents how a symbol becomes a Python name (the "Mangling" section of its manual), and a
module built by spellc exports its definitions under exactly those names so that Hy code can write
``(mylib.valid? 4)`` and Python ``mylib.hyx_validXquestion_markX(4)``. The rules, in order:

1. a name with dots (not only dots) is mangled part by part, dots kept;
2. leading underscores (and the Unicode characters NFKC folds to ``_``) are set aside;
3. every ``-`` after the first character becomes ``_``;
4. if the result (with the underscores back) is still not a Python identifier, it gets the prefix
   ``hyx_`` and every character that cannot appear inside an identifier — and the delimiter ``X``
   itself — becomes ``X<its Unicode name, lower case, spaces as _ and hyphens as H>X``, or
   ``XU<hex code>X`` for a character with no name;
5. the leading underscores come back and the whole is NFKC-normalized (PEP 3131).

``unmangle`` reverses 3–4 for display: ``_`` → ``-`` and the ``X…X`` escapes of a ``hyx_`` name
decoded, keeping leading and trailing underscores. It is not an exact inverse (several names mangle
alike). Both agree with ``hy.mangle``/``hy.unmangle`` (property-tested when hy is installed).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

DELIM: Final = "X"
PREFIX: Final = "hyx_"
UNDERSCORE_LIKE: Final = "_\ufe33\ufe34\ufe4d\ufe4e\ufe4f\uff3f"
_ESCAPE: Final = re.compile(r"X(U)?([_a-z0-9H]+?)X")
_EDGES: Final = re.compile(r"(_+)(.*?)(_*)", re.DOTALL)


def _escape(c: str) -> str:
    if c != DELIM and ("S" + c).isidentifier():
        return c
    name = unicodedata.name(c, "")
    return DELIM + (name.lower().replace("-", "H").replace(" ", "_") if name else "U%x" % ord(c)) + DELIM


def mangle(name: str) -> str:
    """The Python identifier Hy uses for the Lisp name ``name`` (non-empty)."""
    if not name:
        raise ValueError("cannot mangle an empty name")
    if "." in name and name.strip("."):
        return ".".join(mangle(part) if part else "" for part in name.split("."))
    body = name.lstrip(UNDERSCORE_LIKE)
    leading = "_" * (len(name) - len(body))
    if body:
        body = body[0] + body[1:].replace("-", "_")
    if not (leading + body).isidentifier():
        body = PREFIX + "".join(_escape(c) for c in body)
    return unicodedata.normalize("NFKC", leading + body)


def _decode(m: re.Match[str]) -> str:
    if m.group(1):
        return chr(int(m.group(2), 16))
    return unicodedata.lookup(m.group(2).replace("_", " ").replace("H", "-").upper())


def unmangle(identifier: str) -> str:
    """A readable Lisp name for a mangled identifier (``hyx_validXquestion_markX`` → ``valid?``)."""
    prefix, suffix = "", ""
    m = _EDGES.fullmatch(identifier)
    body = identifier
    if m:
        prefix, body, suffix = m.groups()
    if body.startswith(PREFIX):
        body = _ESCAPE.sub(_decode, body[len(PREFIX):])
    return prefix + body.replace("_", "-") + suffix
