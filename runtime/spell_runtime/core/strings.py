"""Core string builtins: ``str cat subs format name namespace symbol keyword random-uuid read-string``
(language.md §14.5, §14.9).

Indices are UTF-16 code units (§16.2); the helpers in ``data.text`` keep the
common all-BMP case on plain ``str`` operations. ``symbol`` and ``keyword`` split
a qualified name at the *first* slash, as ``clojure.lang.Symbol.intern`` does,
so ``(= (keyword "a/b") :a/b)``.
"""

from __future__ import annotations

from typing import Any, Final, cast

from ..bigdigits import int_text
from ..data.atoms import Keyword, Symbol
from ..data.text import from_units, is_bmp, substring, to_units, utf16_len
from ..data.vector import vec
from ..errors import HostError, SpellError
from ..limits import check_text_size
from ..printer import to_str as to_str  # re-exported: callers import it from here
from .hostcast import cast_error
from .registry import builtin, member, register_value
from .registry import namespace as make_namespace

_NO_ARG: Final[Any] = object()


@builtin("str")
def str_(*args: Any) -> str:
    n = len(args)
    if n == 1:
        x = args[0]
        return x if type(x) is str else to_str(x)
    if n == 0:
        return ""
    try:
        out = "".join([x if type(x) is str else int.__repr__(x) if type(x) is int else to_str(x) for x in args])
    except ValueError:  # an integer past CPython's digit limit (rare): convert through bigdigits
        out = "".join([x if type(x) is str else int_text(x) if type(x) is int else to_str(x) for x in args])
    if len(out) > 16_000_000:
        check_text_size(len(out))  # a doubling loop ((str s s)) must not exhaust memory
    return out


@builtin("cat", host="cat")
def cat(*args: Any) -> str:
    """``(apply str args)``: an alias of ``str`` registered under its own Spell name."""
    return str_(*args)


def string_arg(s: Any, what: str = "a string") -> str:
    """``s`` when it is a string; the JVM cast text (or a readable nil text) otherwise."""
    if type(s) is str:
        return s
    if s is None:
        raise HostError("Cannot use nil as %s" % what)
    raise cast_error(s, "java.lang.String")


def _index(x: Any) -> int:
    from .numcoerce import to_int

    return to_int(x)


@builtin("subs")
def subs(s: Any, start: Any, end: Any = _NO_ARG) -> str:
    """Java ``String.substring`` by UTF-16 indices; bad bounds → ``begin 2, end 10, length 5``."""
    text = string_arg(s)
    n = utf16_len(text)
    b = _index(start)
    e = n if end is _NO_ARG else _index(end)
    if b < 0 or e > n or b > e:
        raise HostError("begin %d, end %d, length %d" % (b, e, n))
    return substring(text, b, e)


@builtin("format")
def format_(fmt: Any, *args: Any) -> str:
    from .jformat import java_format

    return java_format(string_arg(fmt, "a format string"), args)


@builtin("name")
def name(x: Any) -> str:
    t = type(x)
    if t is str:
        return cast(str, x)
    if t is Keyword or t is Symbol:
        return cast(str, x.name)
    raise cast_error(x, "clojure.lang.Named")


@builtin("namespace")
def namespace(x: Any) -> Any:
    t = type(x)
    if t is Keyword or t is Symbol:
        return x.ns
    raise cast_error(x, "clojure.lang.Named")


def _split_first_slash(text: str) -> tuple[str | None, str]:
    """``Symbol.intern(String)``: namespace before the first ``/`` (a lone ``/`` is a name)."""
    i = text.find("/")
    if i < 0 or text == "/":
        return None, text
    return text[:i], text[i + 1:]


@builtin("symbol")
def symbol(a: Any, b: Any = _NO_ARG) -> Symbol:
    if b is not _NO_ARG:
        ns = None if a is None else string_arg(a)
        return Symbol(string_arg(b), ns)
    t = type(a)
    if t is Symbol:
        return cast(Symbol, a)
    if t is str:
        ns, nm = _split_first_slash(a)
        return Symbol(nm, ns)
    if t is Keyword:
        return Symbol(a.name, a.ns)
    raise HostError("no conversion to symbol")


@builtin("keyword")
def keyword(a: Any, b: Any = _NO_ARG) -> Any:
    if b is not _NO_ARG:
        ns = None if a is None else string_arg(a)
        return Keyword(string_arg(b), ns)
    t = type(a)
    if t is Keyword:
        return a
    if t is Symbol:
        return Keyword(a.name, a.ns)
    if t is str:
        ns, nm = _split_first_slash(a)
        return Keyword(nm, ns)
    return None


@builtin("random-uuid", host="random-uuid")
def random_uuid() -> str:
    """Δ a version-4 UUID as a 36-character string."""
    import uuid  # only here: uuid imports platform, start-up that nothing else needs (issue 12.4)

    return str(uuid.uuid4())


@builtin("read-string")
def read_string(s: Any) -> Any:
    """The first form of ``s`` (nil for blank text); reader failures are host errors of this call."""
    from ..hooks import read_all

    text = string_arg(s)
    try:
        forms = read_all(text)
    except SpellError as e:
        raise HostError(e.message) from None
    for form in forms:
        return form
    return None


# --------------------------------------------------------------------------- the strings/ namespace (§14.10)

JAVA_WHITESPACE: Final = (" \t\n\x0b\f\r\x1c\x1d\x1e\x1f\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                          "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")
"""Java ``Character.isWhitespace`` over the BMP: space separators except the non-breaking ones, plus controls."""


def _units_find(s: str, sub: str, last: bool) -> int:
    if is_bmp(s) and is_bmp(sub):
        return s.rfind(sub) if last else s.find(sub)
    u = to_units(s)
    v = to_units(sub)
    return u.rfind(v) if last else u.find(v)


@member("strings/index-of")
def index_of(s: Any, sub: Any) -> Any:
    i = _units_find(to_str(s), to_str(sub), False)
    return None if i < 0 else i


@member("strings/last-index-of")
def last_index_of(s: Any, sub: Any) -> Any:
    i = _units_find(to_str(s), to_str(sub), True)
    return None if i < 0 else i


@member("strings/starts-with?")
def starts_with(s: Any, prefix: Any) -> bool:
    return to_str(s).startswith(to_str(prefix))


@member("strings/ends-with?")
def ends_with(s: Any, suffix: Any) -> bool:
    return to_str(s).endswith(to_str(suffix))


@member("strings/includes?")
def includes(s: Any, sub: Any) -> bool:
    return to_str(sub) in to_str(s)


@member("strings/blank?")
def blank(s: Any) -> bool:
    """True for nil, ``""`` or only Java whitespace; other non-strings are a cast error (no ``str`` here)."""
    if s is None:
        return True
    if type(s) is not str:
        raise cast_error(s, "java.lang.CharSequence")
    return not s.strip(JAVA_WHITESPACE)


@member("strings/trim")
def trim(s: Any) -> str:
    return to_str(s).strip(JAVA_WHITESPACE)


@member("strings/replace")
def replace(s: Any, match: Any, replacement: Any) -> str:
    """Literal replacement of every occurrence; an empty ``match`` inserts between UTF-16 units."""
    text = to_str(s)
    old = to_str(match)
    new = to_str(replacement)
    if not old and not is_bmp(text):
        return from_units(to_units(text).replace("", new))
    return text.replace(old, new)


@member("strings/split")
def split(s: Any, pattern: Any) -> Any:
    from .regex import java_split, literal_separator, pattern_of, split_literal

    separator = literal_separator(pattern)
    if separator is not None:
        return vec(split_literal(to_str(s), separator))
    return vec(java_split(pattern_of(pattern), to_str(s)))


@member("strings/split-lines")
def split_lines(s: Any) -> Any:
    from .regex import split_lines as split_at_line_ends

    return vec(split_at_line_ends(to_str(s)))


@member("strings/join")
def join(a: Any, b: Any = _NO_ARG) -> str:
    """``(join coll)`` or ``(join sep coll)``: the ``str`` of each element, nil as ``""``."""
    from .seqs import to_iter

    if b is _NO_ARG:
        return "".join(to_str(x) for x in to_iter(a))
    return to_str(a).join(to_str(x) for x in to_iter(b))


@member("strings/lower-case")
def lower_case(s: Any) -> str:
    return to_str(s).lower()


@member("strings/upper-case")
def upper_case(s: Any) -> str:
    return to_str(s).upper()


@member("strings/capitalize")
def capitalize(s: Any) -> str:
    """The first UTF-16 unit upper-cased, the rest lower-cased (clojure.string/capitalize)."""
    text = to_str(s)
    if is_bmp(text):
        return text[:1].upper() + text[1:].lower()
    u = to_units(text)
    return from_units(u[:1].upper() + from_units(u[1:]).lower())


_STRINGS_GUIDE: Final = """STRINGS - string functions in the style of clojure.string.

  Search:     index-of last-index-of starts-with? ends-with? includes?
  Whitespace: blank? trim
  Edit:       replace (literal text, not a regex) lower-case upper-case capitalize
  Split/join: split (by a regex given as a string) split-lines join

Every argument is converted with str first, so nil acts as "" (except in blank?).
Indices count UTF-16 code units, like count and subs.
split drops trailing empty pieces and returns a vector: (strings/split "a,b,," ",") ;=> ["a" "b"].

Related core builtins: str, subs, format, re-find, re-matches, re-seq.
Use (!describe strings :fn-name) for the details of one function."""

_STRINGS_DETAIL: Final = {
    "split": ("(strings/split s pattern) - split s around matches of the regex pattern, given as a string.\n"
              "Trailing empty strings are dropped; returns a vector.\n"
              "  (strings/split \"a,b,c\" \",\")          ;=> [\"a\" \"b\" \"c\"]\n"
              "  (strings/split \"one  two\" \"\\\\s+\")   ;=> [\"one\" \"two\"]"),
    "replace": ("(strings/replace s match replacement) - replace every occurrence of the literal text match.\n"
                "  (strings/replace \"a.b.c\" \".\" \"-\") ;=> \"a-b-c\""),
    "join": ("(strings/join coll) or (strings/join sep coll) - concatenate the elements with str.\n"
             "  (strings/join \", \" [1 2 3]) ;=> \"1, 2, 3\""),
    "index-of": "(strings/index-of s sub) - index of the first occurrence of sub in s, or nil.",
    "last-index-of": "(strings/last-index-of s sub) - index of the last occurrence of sub in s, or nil.",
    "trim": "(strings/trim s) - s without leading and trailing whitespace.",
    "blank?": "(strings/blank? s) - true when s is nil, empty or only whitespace.",
    "split-lines": "(strings/split-lines s) - split on \\n or \\r\\n; trailing empty lines are dropped.",
    "capitalize": "(strings/capitalize s) - first character upper-case, the rest lower-case.",
}

STRINGS_MEMBERS: Final[dict[str, Any]] = {
    "index-of": index_of, "last-index-of": last_index_of, "starts-with?": starts_with, "ends-with?": ends_with,
    "includes?": includes, "blank?": blank, "trim": trim, "replace": replace, "split": split,
    "split-lines": split_lines, "join": join, "lower-case": lower_case, "upper-case": upper_case,
    "capitalize": capitalize,
}

STRINGS_NS: Final = make_namespace(STRINGS_MEMBERS, short_docs="String manipulation and regex (mirrors clojure.string).",
                              guide=_STRINGS_GUIDE, detail=_STRINGS_DETAIL)

register_value("strings", STRINGS_NS, __name__)
