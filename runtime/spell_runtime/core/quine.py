"""The pure quine-manipulation builtins (language.md §11, runtime.md §5.3–§5.5).

A Spell program's next turn starts from a *prefix*: its own wrapper quine
``(quine NAME inert... (eval (do BODY...)))``, edited and re-rendered as open
text. These builtins let programs (and the turn loop, which calls the plain
functions here directly) take that quine apart, extend it, apply edit markers
and serialize it.

Choice recorded here: inert quine arguments are serialized with the source
renderer like the body (runtime.md decision D6), not with ``pr-str`` as the
reference does (language.md §11.4 describes the reference); the two differ only
in map commas and ``first-line`` layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from ..data.atoms import BigInt, Char, Float32, Keyword, Symbol
from ..data.hashmap import spell_map
from ..data.plist import PList, owned_plist, plist
from ..data.text import from_units, to_units
from ..errors import HostError
from ..printer import display_str, pr_str
from ..readable import is_java_whitespace
from ..rendercache import rendered
from .registry import builtin

if TYPE_CHECKING:
    from ..edits import apply_edits, process_siblings

__all__ = [
    "apply_edits", "process_siblings", "split_quine", "reopen_quine", "wrap_forms", "serialize_prefix",
    "strip_parens",
]

S_QUINE: Final = Symbol("quine")
S_EVAL: Final = Symbol("eval")
S_DO: Final = Symbol("do")
S_COMPLETION: Final = Symbol("completion")

K_FORM: Final = Keyword("form")
K_TAIL: Final = Keyword("tail")
K_N: Final = Keyword("n")
K_LENGTH: Final = Keyword("length")
K_CHAR: Final = Keyword("char")
K_POSITION: Final = Keyword("position")

_NUMBER_TYPES: Final = frozenset({int, BigInt, float, Float32, Fraction, Decimal})

NOT_A_QUINE: Final = "reopen expects a quine form"
BAD_TAIL: Final = "reopen expects quine tail of the form (eval (do ...))"


def split_quine(q: Any) -> tuple[Any, list[Any], list[Any]]:
    """(name, inert arguments, body forms) of a wrapper quine; ``HostError`` for any other shape."""
    if type(q) is not PList or q.count < 3 or q.first is not S_QUINE:
        raise HostError(NOT_A_QUINE, spell_map(K_FORM, q))
    elements = list(q)
    last = elements[-1]
    if not (type(last) is PList and last.count == 2 and last.first is S_EVAL):
        raise HostError(BAD_TAIL, spell_map(K_FORM, q, K_TAIL, last))
    do_form = last[1]
    if not (type(do_form) is PList and do_form.count and do_form.first is S_DO):
        raise HostError(BAD_TAIL, spell_map(K_FORM, q, K_TAIL, last))
    return elements[1], elements[2:-1], list(do_form)[1:]


def _quine_of(name: Any, inert: list[Any], body: list[Any]) -> PList:
    tail = plist([S_EVAL, owned_plist([S_DO, *body])])
    return plist([S_QUINE, name, *inert, tail])


def reopen_quine(q: Any, extra: list[Any]) -> PList:
    """``q`` with ``extra`` forms appended to its ``(do ...)`` body (what ``reopen`` returns)."""
    name, inert, body = split_quine(q)
    return _quine_of(name, inert, body + list(extra))


def wrap_forms(forms: list[Any]) -> PList:
    """``(quine completion (eval (do forms...)))``: a fresh program holding exactly ``forms``."""
    return _quine_of(S_COMPLETION, [], list(forms))


def serialize_prefix(q: Any) -> str:
    """The open prefix text of wrapper quine ``q``: ends with one space and three unclosed parens."""
    name, inert, body = split_quine(q)
    parts = ["(quine ", display_str(name), " "]
    for arg in inert:
        parts.append(rendered(arg))
        parts.append(" ")
    parts.append("(eval (do ")
    parts.append(" ".join([rendered(form) for form in body]))
    parts.append(" ")
    return "".join(parts)


def strip_parens(n: Any, s: Any) -> str:
    """``s`` right-trimmed with exactly ``n`` trailing ``)`` removed (positions in UTF-16 units)."""
    text = to_units(s if type(s) is str else pr_str(s))
    end = len(text)
    while end and is_java_whitespace(text[end - 1]):
        end -= 1
    length = end
    remaining = n
    i = end - 1
    while True:
        if _is_zero(remaining):
            return from_units(text[: i + 1])
        if i < 0:
            raise HostError("strip: not enough closing parens", spell_map(K_N, n, K_LENGTH, length))
        if text[i] != ")":
            raise HostError("strip: expected ')'", spell_map(K_CHAR, Char(text[i]), K_POSITION, i))
        i -= 1
        remaining = remaining - 1


def _is_zero(x: Any) -> bool:
    """Clojure ``zero?`` on the parens count; a non-number fails as the JVM cast does."""
    if type(x) in _NUMBER_TYPES:
        return bool(x == 0)
    if x is None:
        raise HostError("Cannot perform arithmetic on nil")
    from ..invoke import host_class_name

    cls = host_class_name(x)
    if cls.startswith("java."):
        where = f"{cls} and java.lang.Number are in module java.base of loader 'bootstrap'"
    else:
        where = (f"{cls} is in unnamed module of loader 'app'; java.lang.Number is in module java.base of "
                 "loader 'bootstrap'")
    raise HostError(f"class {cls} cannot be cast to class java.lang.Number ({where})")


@builtin("edit-reopen", env=True, host="edit-reopen")
def edit_reopen(D: Mapping[Any, Any], form: Any) -> Any:
    """``(edit-reopen form)``: apply edit markers with ``persist`` values from the calling env."""
    from ..edits import apply_edits

    return apply_edits(form, D)


@builtin("wrap-cat", host="wrap-cat")
def wrap_cat(*forms: Any) -> PList:
    """``(wrap-cat x...)``: the values, as forms, in a fresh completion wrapper."""
    return wrap_forms(list(forms))


@builtin("serialize-prefix", host="serialize-prefix")
def serialize_prefix_builtin(q: Any) -> str:
    """``(serialize-prefix q)``: the open prefix text of a wrapper quine."""
    return serialize_prefix(q)


@builtin("strip-parens", host="strip-parens")
def strip_parens_builtin(n: Any, s: Any) -> str:
    """``(strip-parens n s)``: drop ``n`` trailing close parens."""
    return strip_parens(n, s)


def __getattr__(name: str) -> Any:
    """``apply_edits`` and ``process_siblings`` (re-exported from ``spell_runtime.edits``), imported on
    first use: every start-up registers ``edit-reopen``, few programs apply edit markers (issue 12)."""
    if name in ("apply_edits", "process_siblings"):
        from .. import edits

        value = getattr(edits, name)
        globals()[name] = value
        return value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
