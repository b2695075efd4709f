"""Text to Spell forms, as the reference's Clojure reader reads them (language.md §2).

Shape: one compiled regular expression finds the next token (skipping whitespace,
commas and ``;`` comments); the common tokens — delimiters, symbols, numbers,
strings without escapes — are handled inline, everything that starts with a
reader-macro character goes through ``Reader.special``. Nesting is an explicit stack
of frames, never Python recursion, so any input either reads or raises
``ReaderError`` (deeply nested text included). Reader macros that wrap the next
form (``'``, ``@``, ``~``, `` ` ``, ``^``, ``#_``, ``#'``, ``#tag``, ``##``, ``%N``)
are frames waiting for one form; a finished form is handed to the frame on top.

Positions: every collection gets ``set_span(coll, span, child_spans)`` with spans
(line, column, end line, end column) — lines 1-based, columns 0-based code points,
end exclusive, lines separated by ``\\n`` only — measured on the ORIGINAL text:
sanitizing keeps lines and only shifts columns after backslashes it inserted,
which ``inserts`` undoes. The shared empty list and empty vector carry no span of
their own (their parent's ``child_spans`` still locates them).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Final, Optional

from spell_runtime.data.atoms import Keyword, Pattern, Symbol
from spell_runtime.data.hashmap import SpellMap
from spell_runtime.data.plist import EMPTY, Span, owned_plist, plist
from spell_runtime.data.positions import set_span
from spell_runtime.data.vector import is_vector, vec
from spell_runtime.gensym import next_id

from . import chars, lexer, tags
from .build import is_imeta, is_number, java_int_value, make_map, make_set, qualify_keys, stamp
from .errors import ReadFailure
from .hosttext import host_text
from .literals import char_from_token, read_regex, read_string
from .numbers import read_number
from .syntax_quote import QUOTE, UNQUOTE, UNQUOTE_SPLICING, Budget, syntax_quote
from .tokens import CURRENT_NS, TOKEN_CACHE, interpret_token

_DEREF: Final = Symbol("deref", "clojure.core")
_VAR: Final = Symbol("var")
_FN_STAR: Final = Symbol("fn*")
_AMP: Final = Symbol("&")
_SYMBOLIC: Final = {"Inf": float("inf"), "-Inf": float("-inf"), "NaN": float("nan")}
_MAX_ARG: Final = 9999
_UNCACHED: Final[Any] = object()  # not a token's value (those include None: ``nil``)

# Collection frame kinds.
_LIST: Final = 0
_VECTOR: Final = 1
_MAP: Final = 2
_SET: Final = 3
_FN: Final = 4
_NSMAP: Final = 5
_OPENERS: Final = {"(": (_LIST, ")"), "[": (_VECTOR, "]"), "{": (_MAP, "}")}

# Wrapper frame kinds: each waits for the next form.
_W_WRAP: Final = 0  # (head form): quote, deref, var, unquote, unquote-splicing
_W_DISCARD: Final = 1
_W_META: Final = 2  # waiting for the metadata form
_W_META_TARGET: Final = 3  # waiting for the form the metadata applies to
_W_SYNTAX_QUOTE: Final = 4
_W_TAG: Final = 5
_W_SYMBOLIC: Final = 6
_W_NSMAP: Final = 7  # waiting for the namespace symbol of #:ns{...}
_W_ARG: Final = 8  # waiting for the N of %N inside #(...)


class _Coll:
    """An open collection: its elements so far, their spans, and where it began."""

    __slots__ = ("kind", "items", "spans", "line", "col", "closer", "ns")

    def __init__(self, kind: int, line: int, col: int, closer: str, ns: Optional[str] = None) -> None:
        self.kind = kind
        self.items: list[Any] = []
        self.spans: list[Span] = []
        self.line = line
        self.col = col
        self.closer = closer
        self.ns = ns


class _Wrap:
    """A reader macro waiting for the form it applies to."""

    __slots__ = ("kind", "line", "col", "data", "prefix")

    def __init__(self, kind: int, line: int, col: int, data: Any = None, prefix: int = 1) -> None:
        self.kind = kind
        self.line = line
        self.col = col
        self.data = data
        self.prefix = prefix


class Reader:
    """One read of one sanitized text. ``run`` is the loop; the rest are its slow paths."""

    def __init__(self, text: str, inserts: list[int], first_only: bool) -> None:
        self.text = text
        self.inserts = inserts
        self.first_only = first_only
        self.forms: list[Any] = []
        self.spans: list[Span] = []
        self.stack: list[Any] = []
        self.arg_env: Optional[dict[int, Symbol]] = None
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.tracked = 0
        self.at = 0  # where the token being handled starts (for error positions)
        self.budget = Budget()

    # -- positions ---------------------------------------------------------------------
    def loc(self, off: int) -> tuple[int, int]:
        """(line, column) of ``off``; offsets must be asked in increasing order."""
        text = self.text
        nl = text.rfind("\n", self.tracked, off)
        if nl >= 0:
            self.line += text.count("\n", self.tracked, nl + 1)
            self.line_start = nl + 1
        self.tracked = off
        col = off - self.line_start
        if self.inserts:
            col -= bisect_left(self.inserts, off) - bisect_left(self.inserts, self.line_start)
        return self.line, col

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> None:
        """Read forms until the text ends (or, for ``read_first``, until the first one).

        A ``ReadFailure`` without an offset happened at ``self.at``.
        """
        # Hot loop: everything per token lives in locals; ``self`` is synced only around the slow
        # paths (``special``, ``apply_wrapper``, multi-line strings), which read and move positions.
        text = self.text
        stack = self.stack
        forms = self.forms
        spans = self.spans
        match = lexer.NEXT.match
        rfind = text.rfind
        count = text.count
        cached = TOKEN_CACHE.get  # a miss gives _UNCACHED: no KeyError raised and caught per new token
        inserts = self.inserts
        first_only = self.first_only
        # A fresh reader starts at offset 0 of line 1; a resumed one (``reader.resume``) where its
        # checkpoint left off, and a piece read at a column of a longer line with ``line_start < 0``.
        pos = self.pos
        line = self.line
        line_start = self.line_start
        tracked = self.tracked
        # Sanitizer insertions before the token (``ip``) and before its line (``line_ip``): token
        # starts only increase, so a pointer replaces a bisection per token.
        n_inserts = len(inserts)
        ip = bisect_left(inserts, pos) if n_inserts else 0
        line_ip = bisect_left(inserts, line_start) if n_inserts else 0
        # The newline that ends the current line: a token starting before it is on this line, which
        # one comparison tells (most tokens), instead of searching back for a newline per token.
        find = text.find
        beyond = len(text)
        line_end = find("\n", max(line_start, 0))
        if line_end < 0:
            line_end = beyond
        while True:
            m = match(text, pos)
            if m is None:
                if stack:
                    # Where the open collections were left, for ``resume.checkpoint``.
                    self.pos, self.line, self.line_start, self.tracked = pos, line, line_start, tracked
                    raise ReadFailure("EOF while reading", len(text))
                self.pos = len(text)
                return
            g = m.lastindex
            te = m.end()
            ts = m.start(g)  # type: ignore[arg-type]
            if g == 2:  # lexer.PLAIN_STRING
                ts -= 1  # group 2 is the body; the token starts at its opening quote
            # Line and column of the token start, tracked incrementally.
            if ts > line_end:  # on a later line
                nl = rfind("\n", tracked, ts)
                line += count("\n", tracked, nl + 1)
                line_start = nl + 1
                line_end = find("\n", ts)
                if line_end < 0:
                    line_end = beyond
                if n_inserts:
                    line_ip = bisect_left(inserts, line_start)
            tracked = ts
            col = ts - line_start
            if n_inserts:
                while ip < n_inserts and inserts[ip] < ts:
                    ip += 1
                col -= ip - line_ip
            if g == 3:  # lexer.TOKEN
                tok = m.group(3)
                value = cached(tok, _UNCACHED)
                if value is _UNCACHED:
                    self.at = ts
                    value = interpret_token(tok)
                pos = te
                span: Span = (line, col, line, col + te - ts)
            elif g == 1:  # lexer.DELIMITER
                c = m.group(1)
                pos = te
                opener = _OPENERS.get(c)
                if opener is not None:
                    stack.append(_Coll(opener[0], line, col, opener[1]))
                    continue
                if not stack:
                    raise ReadFailure("Unmatched delimiter: " + c, ts)
                top = stack[-1]
                if type(top) is not _Coll or top.closer != c:
                    raise ReadFailure("Unmatched delimiter: " + c, ts)
                stack.pop()
                span = (top.line, top.col, line, col + 1)
                self.at = ts
                value = self.build(top, span)
            elif g == 4:  # lexer.NUMBER
                self.at = ts
                value = read_number(m.group(4))
                pos = te
                span = (line, col, line, col + te - ts)
            else:
                self.at = ts
                self.line = line
                self.line_start = line_start
                self.tracked = ts
                if g == 2:  # lexer.PLAIN_STRING
                    value = m.group(2)
                    pos = te
                    if "\n" in value:
                        end_line, end_col = self.loc(te)
                        span = (line, col, end_line, end_col)
                    else:
                        span = (line, col, line, col + te - ts)
                    produced: Optional[tuple[Any, Span]] = (value, span)
                else:
                    self.pos = ts
                    produced = self.special(ts, line, col)
                    pos = self.pos
                if self.line_start != line_start and n_inserts:
                    line_ip = bisect_left(inserts, self.line_start)
                line = self.line
                if self.line_start != line_start:
                    line_start = self.line_start
                    line_end = find("\n", max(line_start, 0))
                    if line_end < 0:
                        line_end = beyond
                tracked = self.tracked
                if produced is None:
                    continue
                value, span = produced

            # Hand the finished form to whatever is waiting for it.
            while True:
                if not stack:
                    forms.append(value)
                    spans.append(span)
                    if first_only:
                        self.pos = pos
                        return
                    break
                top = stack[-1]
                if type(top) is _Coll:
                    top.items.append(value)
                    top.spans.append(span)
                    break
                self.pos = pos
                delivered = self.apply_wrapper(top, value, span)
                pos = self.pos
                if delivered is None:
                    break
                value, span = delivered

    # -- collections -------------------------------------------------------------------
    def build(self, top: _Coll, span: Span) -> Any:
        kind = top.kind
        items = top.items
        child_spans = tuple(top.spans)
        value: Any
        if kind == _LIST:
            if not items:
                return EMPTY
            value = owned_plist(items)  # the frame is done with its list: a long one is viewed, not copied
            value.span = span
            value.child_spans = child_spans
            return value
        if kind == _VECTOR:
            value = vec(items)
            if items:
                set_span(value, span, child_spans)
            return value
        if kind == _MAP:
            value = make_map(items, "Map literal must contain an even number of forms")
        elif kind == _SET:
            value = make_set(items)
        elif kind == _NSMAP:
            assert top.ns is not None
            value = make_map(qualify_keys(items, top.ns), "Namespaced map literal must contain an even number of forms")
        else:
            return self.build_fn(top, span, child_spans)
        value.span = span
        value.child_spans = child_spans
        return value

    def build_fn(self, top: _Coll, span: Span, child_spans: tuple[Span, ...]) -> Any:
        """``#(...)`` → ``(fn* [p1__N# ...] (...))``."""
        env = self.arg_env or {}
        self.arg_env = None
        body_span = (span[0], span[1] + 1, span[2], span[3])
        body: Any = EMPTY
        if top.items:
            body = plist(top.items)
            body.span = body_span
            body.child_spans = child_spans
        params: list[Any] = []
        if env:
            high = max(env)
            for i in range(1, high + 1):
                sym = env.get(i)
                params.append(sym if sym is not None else self.arg_symbol(i))
            rest = env.get(-1)
            if rest is not None:
                params.append(_AMP)
                params.append(rest)
        args = vec(params)
        if params:
            set_span(args, span, (span,) * len(params))
        form = plist((_FN_STAR, args, body))
        hash_span = (span[0], span[1], span[0], span[1] + 1)
        form.span = span
        form.child_spans = (hash_span, span, body_span)
        return form

    @staticmethod
    def arg_symbol(n: int) -> Symbol:
        prefix = "rest" if n == -1 else f"p{n}"
        return Symbol(f"{prefix}__{next_id()}#")

    def register_arg(self, n: int) -> Symbol:
        env = self.arg_env
        assert env is not None
        sym = env.get(n)
        if sym is None:
            if n > _MAX_ARG:
                raise ReadFailure(f"Arg literal %{n} is too large")
            sym = self.arg_symbol(n)
            env[n] = sym
        return sym

    # -- reader macros -----------------------------------------------------------------
    def wrap(self, kind: int, line: int, col: int, data: Any = None, prefix: int = 1) -> None:
        self.stack.append(_Wrap(kind, line, col, data, prefix))

    def special(self, ts: int, line: int, col: int) -> Optional[tuple[Any, Span]]:
        """Handle the reader-macro character at ``ts``: push a frame (None) or return (form, span)."""
        text = self.text
        n = len(text)
        c = text[ts]
        self.pos = ts + 1
        if c == "'":
            self.wrap(_W_WRAP, line, col, QUOTE)
        elif c == '"':
            value, end = read_string(text, ts)
            self.pos = end
            end_line, end_col = self.loc(end)
            return value, (line, col, end_line, end_col)
        elif c == "\\":
            if ts + 1 >= n:
                raise ReadFailure("EOF while reading character", n)
            tm = lexer.CHAR_TOKEN.match(text, ts + 1)
            assert tm is not None
            self.pos = tm.end()
            end_line, end_col = self.loc(tm.end())
            return char_from_token(tm.group()), (line, col, end_line, end_col)
        elif c == "@":
            self.wrap(_W_WRAP, line, col, _DEREF)
        elif c == "`":
            self.wrap(_W_SYNTAX_QUOTE, line, col)
        elif c == "~":
            if ts + 1 >= n:
                raise ReadFailure("EOF while reading character", n)
            if text[ts + 1] == "@":
                self.pos = ts + 2
                self.wrap(_W_WRAP, line, col, UNQUOTE_SPLICING, 2)
            else:
                self.wrap(_W_WRAP, line, col, UNQUOTE)
        elif c == "^":
            self.wrap(_W_META, line, col)
        elif c == "%":
            return self.percent(ts, line, col)
        elif c == "#":
            return self.dispatch(ts, line, col)
        else:  # pragma: no cover - the lexer sends only reader-macro characters here
            raise ReadFailure("Unexpected character: " + c, ts)
        return None

    def percent(self, ts: int, line: int, col: int) -> Optional[tuple[Any, Span]]:
        text = self.text
        if self.arg_env is None:
            tm = lexer.PERCENT_TOKEN.match(text, ts)
            assert tm is not None
            self.pos = tm.end()
            return interpret_token(tm.group()), (line, col, line, col + tm.end() - ts)
        nxt = text[ts + 1] if ts + 1 < len(text) else ""
        if nxt == "" or nxt in chars.READER_WHITESPACE or nxt in chars.TERMINATING:
            return self.register_arg(1), (line, col, line, col + 1)
        self.wrap(_W_ARG, line, col)
        return None

    def dispatch(self, ts: int, line: int, col: int) -> Optional[tuple[Any, Span]]:
        text = self.text
        n = len(text)
        if ts + 1 >= n:
            raise ReadFailure("EOF while reading character", n)
        d = text[ts + 1]
        self.pos = ts + 2
        if d == "(":
            if self.arg_env is not None:
                raise ReadFailure("Nested #()s are not allowed", ts)
            self.arg_env = {}
            self.stack.append(_Coll(_FN, line, col, ")"))
        elif d == "{":
            self.stack.append(_Coll(_SET, line, col, "}"))
        elif d == '"':
            source, end = read_regex(text, ts + 1)
            self.pos = end
            end_line, end_col = self.loc(end)
            return Pattern(source), (line, col, end_line, end_col)
        elif d == "'":
            self.wrap(_W_WRAP, line, col, _VAR, 2)
        elif d == "_":
            self.wrap(_W_DISCARD, line, col)
        elif d == "^":
            self.wrap(_W_META, line, col)
        elif d == "#":
            self.wrap(_W_SYMBOLIC, line, col)
        elif d == "!":
            rest = lexer.LINE_REST.match(text, ts + 2)
            assert rest is not None
            self.pos = rest.end()
        elif d == ":":
            self.namespace_map_start(ts + 2, line, col)
        elif d == "=":
            raise ReadFailure("EvalReader not allowed when *read-eval* is false.", ts)
        elif d == "?":
            raise ReadFailure("Conditional read not allowed", ts)
        elif d == "<":
            raise ReadFailure("Unreadable form", ts)
        else:
            tm = lexer.TAG_TOKEN.match(text, ts + 1)
            if tm is None:
                raise ReadFailure("No dispatch macro for: " + d, ts + 1)
            self.at = ts + 1
            tag = interpret_token(tm.group())
            if type(tag) is not Symbol:
                raise ReadFailure("Reader tag must be a symbol", ts + 1)
            self.pos = tm.end()
            self.wrap(_W_TAG, line, col, tag)
        return None

    def namespace_map_start(self, p: int, line: int, col: int) -> None:
        """After ``#:``: the namespace is ``::`` (current), a symbol still to read, or missing."""
        text = self.text
        n = len(text)
        auto = p < n and text[p] == ":"
        if auto:
            p += 1
        nxt = text[p] if p < n else ""
        if nxt and nxt in chars.READER_WHITESPACE:
            if not auto:
                raise ReadFailure("Namespaced map must specify a namespace", p)
            while p < n and text[p] in chars.READER_WHITESPACE:
                p += 1
            if p >= n or text[p] != "{":
                raise ReadFailure("Namespaced map must specify a namespace", p)
            self.pos = p + 1
            self.stack.append(_Coll(_NSMAP, line, col, "}", CURRENT_NS))
        elif nxt == "{":
            if not auto:
                raise ReadFailure("Namespaced map must specify a valid namespace: null", p)
            self.pos = p + 1
            self.stack.append(_Coll(_NSMAP, line, col, "}", CURRENT_NS))
        else:
            self.pos = p
            self.wrap(_W_NSMAP, line, col, auto)

    def namespace_map_open(self, top: _Wrap, sym: Any) -> None:
        """The namespace form of ``#:ns{`` has been read; the map must follow."""
        text = self.text
        n = len(text)
        p = self.pos
        while p < n and text[p] in chars.READER_WHITESPACE:
            p += 1
        if p >= n or text[p] != "{":
            raise ReadFailure("Namespaced map must specify a map", p)
        if type(sym) is not Symbol or sym.ns is not None:
            raise ReadFailure("Namespaced map must specify a valid namespace: " + host_text(sym), p)
        if top.data:  # #::alias{...}: no aliases exist
            raise ReadFailure("Unknown auto-resolved namespace alias: " + str(sym), p)
        self.pos = p + 1
        self.stack.append(_Coll(_NSMAP, top.line, top.col, "}", sym.name))

    def apply_wrapper(self, top: _Wrap, value: Any, span: Span) -> Optional[tuple[Any, Span]]:
        """Give ``value`` to the wrapper on top of the stack; return what it produces, if anything."""
        stack = self.stack
        stack.pop()
        kind = top.kind
        whole = (top.line, top.col, span[2], span[3])
        if kind == _W_WRAP:
            form = plist((top.data, value))
            form.span = whole
            form.child_spans = ((top.line, top.col, top.line, top.col + top.prefix), span)
            return form, whole
        if kind == _W_DISCARD:
            return None
        if kind == _W_META:
            t = type(value)
            if not (t is Symbol or t is str or t is Keyword or t is SpellMap or is_vector(value)):
                raise ReadFailure("Metadata must be Symbol,Keyword,String,Map or Vector", self.pos)
            top.kind = _W_META_TARGET
            stack.append(top)
            return None
        if kind == _W_META_TARGET:
            if not is_imeta(value):
                raise ReadFailure("Metadata can only be applied to IMetas", self.pos)
            return value, span
        if kind == _W_SYNTAX_QUOTE:
            form = syntax_quote(value, self.budget)
            stamp(form, whole)
            return form, whole
        if kind == _W_TAG:
            return tags.read_tagged(top.data, value), whole
        if kind == _W_SYMBOLIC:
            if type(value) is not Symbol:
                raise ReadFailure("Invalid token: ##" + host_text(value), self.pos)
            special = _SYMBOLIC.get(value.name) if value.ns is None else None
            if special is None:
                raise ReadFailure("Unknown symbolic value: ##" + str(value), self.pos)
            return special, whole
        if kind == _W_NSMAP:
            self.namespace_map_open(top, value)
            return None
        # _W_ARG
        if value is _AMP:
            n = -1
        elif is_number(value):
            n = java_int_value(value)
        else:
            raise ReadFailure("arg literal must be %, %& or %integer", self.pos)
        return self.register_arg(n), whole
