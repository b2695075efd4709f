"""Java regular expressions on Python's ``re``: ``re-find re-matches re-seq`` (language.md §14.9, §16.3).

Spell programs write *Java* regex syntax (the reference compiles them with
``java.util.regex.Pattern``), so a pattern is translated once, then compiled and
cached by its source text. The translator is a single left-to-right scan that
knows where it is (inside a class or not, which flags are on in the current
group) and rewrites exactly the constructs whose meaning differs:

* ``\\w \\d \\s \\b`` are ASCII in Java: compile with ``re.ASCII`` unless ``(?u)``
  or ``(?U)`` appears (then Unicode; ``u`` alone thereby also widens ``\\w``);
* ``.`` excludes all of Java's line terminators, unless ``(?s)`` / ``(?d)``;
* ``(?<name>...)``/``\\k<name>`` become ``(?P<name>...)``/``(?P=name)``;
  ``\\Q...\\E`` becomes escaped text; ``\\z``, ``\\Z``, ``\\v``, ``\\e``, ``\\0oo``,
  ``\\x{h..}``, ``\\cX`` and ``\\p{...}`` classes are spelled out;
* Java's mid-pattern flags ``a(?i)b|c`` apply to the rest of the enclosing group,
  including later alternatives; Python only allows scoped ``(?i:...)``, so the
  translator opens one and closes/reopens it around each ``|`` and at the
  group's end;
* ``x`` (comments) mode is applied here, since Java ignores whitespace inside
  classes and Python does not;
* constructs ``re`` cannot express — class intersection ``&&``, negated nested
  classes, ``\\h``, ``\\R``, ``\\X``, ``\\G``, scripts and blocks — fail with a
  syntax error rather than silently matching something else (§16.3).

Syntax errors are host errors laid out like Java's ``PatternSyntaxException``
(``Unclosed group near index 1⏎(``); texts the translator does not produce
itself come from Python's message, with the index mapped back to the source (A10).

Matching follows ``java.util.regex.Matcher.find``: after an empty match the next
search starts one character later, which ``re.finditer`` does not always do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, Final

from ..data.atoms import Pattern
from ..data.vector import vec
from ..errors import HostError
from .hostcast import cast_error
from .registry import builtin

_CACHE: dict[str, re.Pattern[str]] = {}
_CACHE_LIMIT: Final = 2048

_JAVA_FLAGS: Final = frozenset("idmsuxU")
_PY_SCOPED: Final = "im"
_DOT: Final = "[^\\n\\r\\x85\\u2028\\u2029]"
_UNIX_DOT: Final = "[^\\n]"
_JAVA_Z: Final = "(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?\\Z)"
_VERTICAL: Final = "\\n\\x0b\\f\\r\\x85\\u2028\\u2029"
# Pattern texts, compiled through ``re``'s cache when a Java pattern is translated (once per
# pattern text): compiling them with the library cost every start-up (issue 12.4).
_QUANTIFIER: Final = r"\{(\d+)(,(\d*))?\}"
_FLAG_GROUP: Final = r"([idmsuxU]*)(?:-([idmsuxU]*))?([:)])"
_GROUP_NAME: Final = r"([a-zA-Z][a-zA-Z0-9]*)>"
_CLASS_SPECIAL: Final = frozenset("\\]^-[&~|")
_SIMPLE_ESCAPES: Final = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\x07", "e": "\x1b"}
_UNSUPPORTED_ESCAPES: Final = frozenset("hHRXG")


def syntax_message(desc: str, pattern: str, index: int) -> str:
    """Java ``PatternSyntaxException.getMessage``: description, index, pattern, caret line."""
    text = desc
    if index >= 0:
        text += " near index %d" % index
    text += "\n" + pattern
    if 0 <= index < len(pattern):
        text += "\n" + " " * index + "^"
    return text


# --------------------------------------------------------------------------- unicode classes


@lru_cache(maxsize=1)
def _category_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    """Code point ranges of every Unicode general category (computed once, on first use)."""
    import unicodedata  # here and in ``\N{...}`` only: the C module is not loaded by every start-up (issue 12)

    table: dict[str, list[tuple[int, int]]] = {}
    start = 0
    current = unicodedata.category("\x00")
    for cp in range(1, 0x110001):
        cat = unicodedata.category(chr(cp)) if cp < 0x110000 else ""
        if cat != current:
            table.setdefault(current, []).append((start, cp - 1))
            start = cp
            current = cat
    return {k: tuple(v) for k, v in table.items()}


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= 0x10FFFF:
        out.append((nxt, 0x10FFFF))
    return out


def _categories(*cats: str) -> list[tuple[int, int]]:
    table = _category_ranges()
    found: list[tuple[int, int]] = []
    for cat in cats:
        found.extend(table.get(cat, ()))
    return _merge(found)


def _where(pred: Callable[[str], bool]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    start = -1
    for cp in range(0x110001):
        inside = cp < 0x110000 and pred(chr(cp))
        if inside and start < 0:
            start = cp
        elif not inside and start >= 0:
            out.append((start, cp - 1))
            start = -1
    return out


def _ascii(chars: str) -> list[tuple[int, int]]:
    return _merge([(ord(c), ord(c)) for c in chars])


_PUNCT: Final = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_LETTERS: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_JAVA_WS: Final = " \t\n\x0b\f\r\x1c\x1d\x1e\x1f\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u2028\u2029\u205f\u3000"

_POSIX: Final[dict[str, str]] = {
    "Lower": "abcdefghijklmnopqrstuvwxyz", "Upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "Alpha": _LETTERS, "Digit": "0123456789", "Alnum": _LETTERS + "0123456789",
    "Punct": _PUNCT, "Graph": _LETTERS + "0123456789" + _PUNCT, "Print": _LETTERS + "0123456789" + _PUNCT + " ",
    "Blank": " \t", "XDigit": "0123456789abcdefABCDEF", "Space": " \t\n\x0b\f\r",
}

_CATEGORY_GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "L": ("Lu", "Ll", "Lt", "Lm", "Lo"), "LC": ("Lu", "Ll", "Lt"), "L&": ("Lu", "Ll", "Lt"),
    "M": ("Mn", "Mc", "Me"), "N": ("Nd", "Nl", "No"), "P": ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"),
    "S": ("Sm", "Sc", "Sk", "So"), "Z": ("Zs", "Zl", "Zp"), "C": ("Cc", "Cf", "Cs", "Co", "Cn"),
}
_CATEGORIES: Final = frozenset(c for group in _CATEGORY_GROUPS.values() for c in group)

_BINARY: Final[dict[str, tuple[str, ...]]] = {
    "Alphabetic": ("Lu", "Ll", "Lt", "Lm", "Lo", "Nl"), "Letter": ("Lu", "Ll", "Lt", "Lm", "Lo"),
    "Lowercase": ("Ll",), "Uppercase": ("Lu",), "Titlecase": ("Lt",), "Punctuation": _CATEGORY_GROUPS["P"],
    "Control": ("Cc",), "Digit": ("Nd",),
}


@lru_cache(maxsize=128)
def _property_ranges(name: str) -> tuple[tuple[int, int], ...] | None:
    """The code points of a Java ``\\p{name}`` class, or None when the name is not supported."""
    if name in _POSIX:
        return tuple(_ascii(_POSIX[name]))
    if name == "ASCII":
        return ((0, 0x7F),)
    if name == "Cntrl":
        return ((0, 0x1F), (0x7F, 0x7F))
    java: dict[str, Callable[[str], bool]] = {
        "javaLowerCase": str.islower, "javaUpperCase": str.isupper, "javaAlphabetic": str.isalpha,
        "javaWhitespace": lambda c: c in _JAVA_WS,
    }
    if name in java:
        return tuple(_where(java[name]))
    if name in ("javaLetter", "javaDigit", "javaLetterOrDigit"):
        cats = {"javaLetter": _CATEGORY_GROUPS["L"], "javaDigit": ("Nd",),
                "javaLetterOrDigit": _CATEGORY_GROUPS["L"] + ("Nd",)}[name]
        return tuple(_categories(*cats))
    bare = name
    for prefix in ("general_category=", "gc=", "Is"):
        if bare.startswith(prefix):
            bare = bare[len(prefix):]
            break
    if bare in _CATEGORY_GROUPS:
        return tuple(_categories(*_CATEGORY_GROUPS[bare]))
    if bare in _CATEGORIES:
        return tuple(_categories(bare))
    if name.startswith("Is"):
        key = bare.replace("_", "").lower()
        for prop, cats in _BINARY.items():
            if prop.lower() == key:
                return tuple(_categories(*cats))
        if key == "whitespace":
            return tuple(_where(str.isspace))
    return None


def _cp(cp: int) -> str:
    return "\\U%08x" % cp


def _ranges_body(ranges: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str:
    return "".join(_cp(lo) if lo == hi else _cp(lo) + "-" + _cp(hi) for lo, hi in ranges)


# --------------------------------------------------------------------------- translation


class _Frame:
    """One open group: the Java flags in force and the scoped ``(?i:`` groups opened inside it."""

    __slots__ = ("flags", "openers")

    def __init__(self, flags: frozenset[str]) -> None:
        self.flags = flags
        self.openers: list[str] = []


class _Translator:
    """Java pattern text → (Python pattern text, ``re`` flags)."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.n = len(src)
        self.i = 0
        self.out: list[str] = []
        self.at: list[int] = []
        self.frames = [_Frame(frozenset())]
        self.groups = 0
        self.unicode = False
        self.last = "start"  # what precedes the next token: start | atom | quant | mod

    # -- output and errors

    def emit(self, text: str, at: int) -> None:
        self.out.append(text)
        self.at.append(at)

    def error(self, desc: str, index: int) -> HostError:
        return HostError(syntax_message(desc, self.src, index))

    def source_index(self, pos: int) -> int:
        """The source index that produced output position ``pos`` (for Python's error positions)."""
        offset = 0
        for text, at in zip(self.out, self.at):
            offset += len(text)
            if pos < offset:
                return at
        return self.n

    # -- driver

    def run(self) -> tuple[str, int]:
        src = self.src
        while self.i < self.n:
            c = src[self.i]
            if "x" in self.frames[-1].flags and self.skip_comment():
                continue
            if c == "\\":
                self.escape()
            elif c == "[":
                self.emit(self.char_class(), self.i)
                self.last = "atom"
            elif c == "(":
                self.open_group()
            elif c == ")":
                self.close_group()
            elif c == "|":
                frame = self.frames[-1]
                self.emit(")" * len(frame.openers) + "|" + "".join(frame.openers), self.i)
                self.i += 1
                self.last = "start"
            elif c == ".":
                flags = self.frames[-1].flags
                self.emit("(?s:.)" if "s" in flags else (_UNIX_DOT if "d" in flags else _DOT), self.i)
                self.i += 1
                self.last = "atom"
            elif c in "*+?":
                self.quantifier(c, c, 1)
            elif c == "{":
                m = re.compile(_QUANTIFIER).match(src, self.i)
                if m is None:
                    raise self.error("Illegal repetition", self.i)
                if m.group(3) and int(m.group(3)) < int(m.group(1)):
                    raise self.error("Illegal repetition range", self.i + len(m.group(0)) - 1)
                self.quantifier("{", m.group(0), len(m.group(0)))
            else:
                self.emit(c if c in "^$" else re.escape(c), self.i)
                self.i += 1
                self.last = "atom"
        if len(self.frames) > 1:
            raise self.error("Unclosed group", self.n)
        self.emit(")" * len(self.frames[0].openers), self.n)
        return "".join(self.out), 0 if self.unicode else int(re.ASCII)

    def skip_comment(self) -> bool:
        """In ``(?x)`` mode, drop whitespace and ``#`` comments; True when something was skipped."""
        c = self.src[self.i]
        if c in " \t\n\x0b\f\r":
            self.i += 1
            return True
        if c == "#":
            while self.i < self.n and self.src[self.i] not in "\n\r":
                self.i += 1
            return True
        return False

    def quantifier(self, c: str, text: str, width: int) -> None:
        if self.last == "start":
            raise self.error("Dangling meta character '%s'" % c, self.i)
        if self.last == "quant" and c in "?+":
            self.last = "mod"
        elif self.last in ("quant", "mod"):
            raise self.error("Dangling meta character '%s'" % c, self.i)
        else:
            self.last = "quant"
        self.emit(text, self.i)
        self.i += width

    # -- groups

    def open_group(self) -> None:
        src = self.src
        start = self.i
        frame = self.frames[-1]
        if not src.startswith("(?", start):
            self.groups += 1
            self.push("(", start, frame.flags, 1)
            return
        j = start + 2
        c = src[j] if j < self.n else ""
        if c == ":":
            self.push("(?:", start, frame.flags, 3)
        elif c in ("=", "!", ">"):
            self.push("(?" + c, start, frame.flags, 3)
        elif c == "<":
            nxt = src[j + 1] if j + 1 < self.n else ""
            if nxt in ("=", "!"):
                self.push("(?<" + nxt, start, frame.flags, 4)
                return
            m = re.compile(_GROUP_NAME).match(src, j + 1)
            if m is None:
                raise self.error("capturing group name does not start with a Latin letter"
                                 if not nxt.isalpha() else "named capturing group is missing trailing '>'", j + 1)
            self.groups += 1
            self.push("(?P<%s>" % m.group(1), start, frame.flags, m.end() - start)
        else:
            m = re.compile(_FLAG_GROUP).match(src, j)
            if m is None:
                bad = j
                while bad < self.n and src[bad] in _JAVA_FLAGS or (bad < self.n and src[bad] == "-"):
                    bad += 1
                raise self.error("Unknown inline modifier", bad)
            on = frozenset(m.group(1))
            off = frozenset(m.group(2) or "")
            if on & frozenset("uU"):
                self.unicode = True
            flags = (frame.flags | on) - off
            opener = self.scoped_opener(on, off)
            if m.group(3) == ")":
                frame.flags = flags
                if opener != "(?:":
                    frame.openers.append(opener)
                    self.emit(opener, start)
                self.i = m.end()
                self.last = "start"
            else:
                self.push(opener, start, flags, m.end() - start)

    @staticmethod
    def scoped_opener(on: frozenset[str], off: frozenset[str]) -> str:
        add = "".join(f for f in _PY_SCOPED if f in on)
        remove = "".join(f for f in _PY_SCOPED if f in off and f not in on)
        return "(?" + add + ("-" + remove if remove else "") + ":"

    def push(self, text: str, at: int, flags: frozenset[str], width: int) -> None:
        self.frames.append(_Frame(flags))
        self.emit(text, at)
        self.i = at + width
        self.last = "start"

    def close_group(self) -> None:
        if len(self.frames) == 1:
            raise self.error("Unmatched closing ')'", self.i - 1)
        frame = self.frames.pop()
        self.emit(")" * len(frame.openers) + ")", self.i)
        self.i += 1
        self.last = "atom"

    # -- escapes

    def escape(self) -> None:
        """A backslash sequence outside a character class."""
        src = self.src
        at = self.i
        if at + 1 >= self.n:
            raise self.error("Unexpected internal error", self.n)
        c = src[at + 1]
        if c.isdigit() and c != "0":
            self.backreference(at)
            return
        if c == "Q":
            text, self.i = self.quoted(at)
            self.emit(re.escape(text), at)
            self.last = "atom" if text else self.last
            return
        if c == "k":
            m = re.compile(r"k<([a-zA-Z][a-zA-Z0-9]*)>").match(src, at + 1)
            if m is None:
                raise self.error("\\k is not followed by '<' for named capturing group", at + 2)
            self.emit("(?P=%s)" % m.group(1), at)
            self.i = m.end()
            self.last = "atom"
            return
        anchors = {"b": "\\b", "B": "\\B", "A": "\\A", "z": "\\Z", "Z": _JAVA_Z}
        if c in anchors:
            if c == "b" and src.startswith("{", at + 2):
                raise self.error("Unsupported escape sequence \\b{...}", at + 1)
            self.emit(anchors[c], at)
            self.i = at + 2
            self.last = "atom"
            return
        body, ch, self.i = self.escape_item(at)
        if ch is not None:
            self.emit(re.escape(ch), at)
        elif body.startswith("\\") and len(body) == 2:
            self.emit(body, at)
        else:
            self.emit("[" + body + "]", at)
        self.last = "atom"

    def backreference(self, at: int) -> None:
        """Java reads further digits only while the number names an existing group."""
        j = at + 1
        number = int(self.src[j])
        j += 1
        while j < self.n and self.src[j].isdigit() and number * 10 + int(self.src[j]) <= self.groups:
            number = number * 10 + int(self.src[j])
            j += 1
        self.emit("(?:\\%d)" % number, at)
        self.i = j
        self.last = "atom"

    def quoted(self, at: int) -> tuple[str, int]:
        """``\\Q...\\E``: the literal text and the index after it (an unterminated quote runs to the end)."""
        end = self.src.find("\\E", at + 2)
        if end < 0:
            return self.src[at + 2:], self.n
        return self.src[at + 2:end], end + 2

    def escape_item(self, at: int) -> tuple[str, str | None, int]:
        """A backslash sequence usable inside or outside a class: (class body, literal char or None, next index).

        The class body is the text to put inside ``[...]`` (``\\d``, property ranges...).
        """
        src = self.src
        c = src[at + 1]
        nxt = at + 2
        if c in _SIMPLE_ESCAPES:
            return "", _SIMPLE_ESCAPES[c], nxt
        if c in "dDsSwW":
            return "\\" + c, None, nxt
        if c == "v":
            return _VERTICAL, None, nxt
        if c == "V":
            return "^" + _VERTICAL, None, nxt  # only meaningful outside a class; see char_class
        if c == "0":
            m = re.compile(r"[0-3][0-7]{2}|[0-7]{1,2}").match(src, nxt)
            if m is None:
                raise self.error("Illegal octal escape sequence", nxt)
            return "", chr(int(m.group(0), 8)), m.end()
        if c == "x":
            m = re.compile(r"\{([0-9a-fA-F]+)\}|[0-9a-fA-F]{2}").match(src, nxt)
            if m is None or int(m.group(1) or m.group(0), 16) > 0x10FFFF:
                raise self.error("Illegal hexadecimal escape sequence", nxt)
            return "", chr(int(m.group(1) or m.group(0), 16)), m.end()
        if c == "u":
            m = re.compile(r"[0-9a-fA-F]{4}").match(src, nxt)
            if m is None:
                raise self.error("Illegal Unicode escape sequence", nxt)
            unit = int(m.group(0), 16)
            low = re.compile(r"\\u([dD][c-fC-F][0-9a-fA-F]{2})").match(src, m.end())
            if 0xD800 <= unit <= 0xDBFF and low is not None:
                cp = 0x10000 + ((unit - 0xD800) << 10) + (int(low.group(1), 16) - 0xDC00)
                return "", chr(cp), low.end()
            return "", chr(unit), m.end()
        if c == "c":
            if nxt >= self.n:
                raise self.error("Illegal control escape sequence", nxt)
            return "", chr(ord(src[nxt]) ^ 64), nxt + 1
        if c == "N":
            import unicodedata

            m = re.compile(r"\{([^}]*)\}").match(src, nxt)
            try:
                ch = unicodedata.lookup(m.group(1)) if m else None
            except KeyError:
                ch = None
            if m is None or ch is None:
                raise self.error("Unknown character name", nxt)
            return "", ch, m.end()
        if c in "pP":
            return self.property(at)
        if c in _UNSUPPORTED_ESCAPES:
            raise self.error("Unsupported escape sequence \\%s (no Python equivalent)" % c, at + 1)
        if c.isalnum():
            raise self.error("Illegal/unsupported escape sequence", at + 1)
        return "", c, nxt

    def property(self, at: int) -> tuple[str, str | None, int]:
        src = self.src
        negated = src[at + 1] == "P"
        if src.startswith("{", at + 2):
            end = src.find("}", at + 3)
            if end < 0:
                raise self.error("Unclosed character family", self.n)
            name = src[at + 3:end]
            nxt = end + 1
        elif at + 2 < self.n:
            name = src[at + 2]
            nxt = at + 3
        else:
            raise self.error("Illegal character family", at + 2)
        if name.startswith("^"):
            negated = not negated
            name = name[1:]
        ranges = _property_ranges(name)
        if ranges is None:
            raise self.error("Unknown or unsupported character property name {%s}" % name, nxt - 1)
        return _ranges_body(_complement(list(ranges)) if negated else ranges), None, nxt

    # -- character classes

    def char_class(self) -> str:
        """A ``[...]`` class starting at ``self.i``; returns its Python text and moves past it."""
        body, negated = self.class_body()
        return "[" + ("^" if negated else "") + body + "]"

    def class_body(self) -> tuple[str, bool]:
        src = self.src
        start = self.i
        j = start + 1
        negated = j < self.n and src[j] == "^"
        if negated:
            j += 1
        items: list[str] = []
        first = True
        comments = "x" in self.frames[-1].flags
        while True:
            if j >= self.n:
                raise self.error("Unclosed character class", self.n - 1)
            c = src[j]
            if comments and c in " \t\n\x0b\f\r":
                j += 1
                continue
            if c == "]" and not first:
                j += 1
                break
            first = False
            if c == "[":
                self.i = j
                inner, inner_negated = self.class_body()
                if inner_negated:
                    raise self.error("Unsupported negated class inside a class (no Python equivalent)", j)
                items.append(inner)
                j = self.i
                continue
            if c == "&" and src.startswith("&&", j):
                raise self.error("Unsupported class intersection && (no Python equivalent)", j)
            body, ch, j = self.class_atom(j)
            if ch is not None and j + 1 < self.n and src[j] == "-" and src[j + 1] != "]":
                hi_body, hi, k = self.class_atom(j + 1)
                if hi is None or ord(hi) < ord(ch):
                    raise self.error("Illegal character range", k - 1)
                items.append(_class_char(ch) + "-" + _class_char(hi))
                j = k
            else:
                items.append(body)
        self.i = j
        return "".join(items), negated

    def class_atom(self, j: int) -> tuple[str, str | None, int]:
        """One class member at ``j``: (body text, the literal char if it is one, next index)."""
        src = self.src
        c = src[j]
        if c != "\\":
            return _class_char(c), c, j + 1
        if j + 1 >= self.n:
            raise self.error("Unclosed character class", self.n - 1)
        e = src[j + 1]
        if e == "Q":
            text, k = self.quoted(j)
            return "".join(_class_char(x) for x in text), None, k
        if e in "bBAzZk" or e.isdigit() and e != "0":
            raise self.error("Illegal/unsupported escape sequence", j + 1)
        if e == "V":
            raise self.error("Unsupported escape sequence \\V inside a class (no Python equivalent)", j + 1)
        body, ch, k = self.escape_item(j)
        if ch is not None:
            return _class_char(ch), ch, k
        return body, None, k


def _class_char(c: str) -> str:
    return "\\" + c if c in _CLASS_SPECIAL else c


def translate(source: str) -> tuple[str, int]:
    """The Python pattern text and ``re`` flags equivalent to the Java pattern ``source``."""
    return _Translator(source).run()


def compile_java(source: str) -> re.Pattern[str]:
    """The compiled Python pattern for a Java pattern source, cached by source text."""
    cached = _CACHE.get(source)
    if cached is not None:
        return cached
    translator = _Translator(source)
    text, flags = translator.run()
    try:
        compiled = re.compile(text, flags)
    except re.error as e:
        index = translator.source_index(e.pos) if e.pos is not None else -1
        raise HostError(syntax_message(e.msg[:1].upper() + e.msg[1:], source, index)) from None
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[source] = compiled
    return compiled


# --------------------------------------------------------------------------- matching


def pattern_of(x: Any) -> re.Pattern[str]:
    """The compiled pattern for a regex argument: a ``#"..."`` value or a pattern string."""
    t = type(x)
    if t is str:
        return compile_java(x)
    if t is Pattern:
        compiled: re.Pattern[str] | None = x._compiled
        if compiled is None:
            compiled = compile_java(x.source)
            x._compiled = compiled
        return compiled
    if x is None:
        raise HostError("Cannot use nil as a regex pattern")
    raise cast_error(x, "java.util.regex.Pattern")


def subject_of(s: Any) -> str:
    """The string a regex is applied to (``CharSequence`` in the reference)."""
    if type(s) is str:
        return s
    if s is None:
        raise HostError("Cannot match a regex against nil")
    raise cast_error(s, "java.lang.CharSequence")


def java_finditer(p: re.Pattern[str], s: str) -> Iterator[re.Match[str]]:
    """Successive ``Matcher.find`` results: after an empty match the search resumes one further on."""
    pos = 0
    n = len(s)
    while pos <= n:
        m = p.search(s, pos)
        if m is None:
            return
        yield m
        end = m.end()
        pos = end + 1 if end == m.start() else end


def java_split(p: re.Pattern[str], s: str) -> list[str]:
    """Java ``Pattern.split(s)`` (limit 0): no leading empty piece for a zero-width match at 0,
    trailing empty pieces removed, ``[s]`` when nothing matches."""
    pieces: list[str] = []
    index = 0
    for m in java_finditer(p, s):
        start = m.start()
        if index == 0 and start == 0 and m.end() == 0:
            continue
        pieces.append(s[index:start])
        index = m.end()
    if index == 0:
        return [s]
    pieces.append(s[index:])
    while pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


_JAVA_META: Final = frozenset("\\^$.|?*+()[]{}")
"""The characters that make a Java pattern more than its literal text."""


def literal_separator(pattern: Any) -> str | None:
    """``pattern`` itself when it is a non-empty pattern string with no regex metacharacter: such a
    split needs no compiled regex (Java's ``String.split`` has the same fast path). None otherwise."""
    if type(pattern) is not str or not pattern or not _JAVA_META.isdisjoint(pattern):
        return None
    return pattern


def split_literal(s: str, separator: str) -> list[str]:
    """``java_split`` by a literal, non-empty ``separator``: the same pieces as the compiled pattern
    gives (``[s]`` when it never occurs, trailing empty pieces removed), without compiling one."""
    pieces = s.split(separator)
    if len(pieces) == 1:
        return pieces
    while pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


def split_lines(s: str) -> list[str]:
    """``java_split`` by ``\\r?\\n`` (``strings/split-lines``) without compiling the pattern."""
    pieces = s.split("\n")
    if len(pieces) == 1:
        return pieces
    last = len(pieces) - 1
    for i in range(last):
        if pieces[i].endswith("\r"):
            pieces[i] = pieces[i][:-1]
    while pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


def match_value(m: re.Match[str]) -> Any:
    """Clojure ``re-groups``: the match, or ``[whole g1 ... gn]`` with nil for groups that did not take part."""
    if m.re.groups == 0:
        return m.group(0)
    return vec((m.group(0),) + m.groups())


@builtin("re-find", host="re-find")
def re_find(re_: Any, s: Any) -> Any:
    p = pattern_of(re_)
    m = p.search(subject_of(s))
    return None if m is None else match_value(m)


@builtin("re-matches", host="re-matches")
def re_matches(re_: Any, s: Any) -> Any:
    p = pattern_of(re_)
    m = p.fullmatch(subject_of(s))
    return None if m is None else match_value(m)


@builtin("re-seq", host="re-seq")
def re_seq(re_: Any, s: Any) -> Any:
    """Δ a vector of every match (``[]`` when none)."""
    p = pattern_of(re_)
    return vec(match_value(m) for m in java_finditer(p, subject_of(s)))
