"""Spans of collections and of every child, checked against text laid out with known positions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Union

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.data.hashmap import SpellMap
from spell_runtime.data.plist import EMPTY, Span
from spell_runtime.data.positions import child_spans_of, span_of
from spell_runtime.data.vector import EMPTY_VECTOR

from spellc.reader import read_all, read_all_with_spans


@dataclass
class Atom:
    text: str


@dataclass
class Coll:
    kind: str  # "(", "[", "{", "#{" (map children alternate key, value)
    children: list[tuple[str, Node]]  # (separator before, child)
    trailing: str


@dataclass
class Quote:
    child: Node


Node = Union[Atom, Coll, Quote]

_SEPARATORS = st.sampled_from([" ", "  ", "\n", ", ", "\n  ", " ; note\n", "\t", " #_skip "])
_SYMBOLS = st.sampled_from(["x", "foo", "a/b", "+", "-", "é", "nil", "true", ":k", ":ns/k", "\\a", "\\space"])
_NUMBERS = st.integers(-1000, 10**20).map(str)
# Strings, some with escapes the sanitizer must repair (\\q, \\d): these shift sanitized columns.
_STRINGS = st.sampled_from(['"s"', '""', '"a\\qb"', '"\\d+\\w"', '"x\\ny"', '"multi\nline\\e"', '"\\u0041"'])
_ATOMS = st.one_of(_SYMBOLS, _NUMBERS, _STRINGS).map(Atom)


def _coll(kind: str) -> Any:
    return lambda children: st.builds(
        lambda seps, trailing: Coll(kind, list(zip(seps, children, strict=False)), trailing),
        st.lists(_SEPARATORS, min_size=len(children), max_size=len(children)),
        st.sampled_from(["", " ", "\n"]),
    )


def _map_children(values: list[Node]) -> list[Node]:
    """Distinct keyword keys (a duplicate key would be a reader error) before each value."""
    out: list[Node] = []
    for i, v in enumerate(values):
        out.append(Atom(":k%d" % i))
        out.append(v)
    return out


_SET_ELEMENTS = st.lists(st.integers(-50, 50), unique=True, max_size=5).map(lambda xs: [Atom(str(x)) for x in xs])


def _nodes() -> st.SearchStrategy[Node]:
    def extend(inner: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
        lists = st.lists(inner, max_size=5)
        return st.one_of(
            lists.flatmap(_coll("(")),
            lists.flatmap(_coll("[")),
            st.lists(inner, max_size=3).map(_map_children).flatmap(_coll("{")),
            _SET_ELEMENTS.flatmap(_coll("#{")),
            inner.map(Quote),
        )

    return st.recursive(_ATOMS, extend, max_leaves=25)


class Layout:
    """Writes a node tree to text while recording the span of every node."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.line = 1
        self.col = 0

    def put(self, text: str) -> None:
        self.parts.append(text)
        if "\n" in text:
            self.line += text.count("\n")
            self.col = len(text) - text.rfind("\n") - 1
        else:
            self.col += len(text)

    def write(self, node: Node) -> Expect:
        start = (self.line, self.col)
        if isinstance(node, Atom):
            self.put(node.text)
            return Expect((*start, self.line, self.col), [])
        if isinstance(node, Quote):
            self.put("'")
            quote_span = (*start, self.line, self.col)
            inner = self.write(node.child)
            return Expect((*start, self.line, self.col), [Expect(quote_span, []), inner])
        self.put(node.kind)
        kids = []
        for sep, child in node.children:
            self.put(sep)
            kids.append(self.write(child))
        self.put(node.trailing)
        self.put({"(": ")", "[": "]", "{": "}", "#{": "}"}[node.kind])
        return Expect((*start, self.line, self.col), kids)


@dataclass
class Expect:
    span: Span
    children: list[Expect] = field(default_factory=list)


def check(form: Any, expect: Expect, own: Optional[Span]) -> None:
    assert own == expect.span
    if not expect.children:
        return
    spans = child_spans_of(form)
    assert spans == tuple(e.span for e in expect.children)
    assert span_of(form) == expect.span
    kids = [x for kv in form.items() for x in kv] if isinstance(form, SpellMap) else list(form)
    for child, sub in zip(kids, expect.children, strict=True):
        check(child, sub, sub.span)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_SEPARATORS, _nodes()), min_size=1, max_size=4))
def test_spans_match_the_layout(program: list[tuple[str, Node]]) -> None:
    layout = Layout()
    expects = []
    for sep, node in program:
        layout.put(sep)
        expects.append(layout.write(node))
    text = "".join(layout.parts)
    got = read_all_with_spans(text)
    assert len(got) == len(expects), text
    for (form, span), expect in zip(got, expects, strict=True):
        check(form, expect, span)


def test_spans_example_with_sanitizer_insertion() -> None:
    text = '(defn f [x]\n  {:a "q\\e" :b \'y}) #{1 2}'
    [(defn, span), (st_, set_span)] = read_all_with_spans(text)
    assert span == (1, 0, 2, 19)
    m = defn[3]
    assert span_of(m) == (2, 2, 2, 18)
    assert child_spans_of(m) == ((2, 3, 2, 5), (2, 6, 2, 11), (2, 12, 2, 14), (2, 15, 2, 17))
    assert set_span == (2, 20, 2, 26) and span_of(st_) == set_span


def test_fn_literal_and_syntax_quote_spans() -> None:
    [fn] = read_all("  #(+ % 1)")
    assert span_of(fn) == (1, 2, 1, 10)
    assert child_spans_of(fn) == ((1, 2, 1, 3), (1, 2, 1, 10), (1, 3, 1, 10))
    assert span_of(fn[2]) == (1, 3, 1, 10)
    assert child_spans_of(fn[2]) == ((1, 4, 1, 5), (1, 6, 1, 7), (1, 8, 1, 9))
    [sq] = read_all("`(a ~b)")
    assert span_of(sq) == (1, 0, 1, 7)
    assert all(s is not None for s in child_spans_of(sq) or ())


def test_maps_sets_and_strings_spanning_lines() -> None:
    [m] = read_all('{:a "x\ny" :b #{1}}')
    assert span_of(m) == (1, 0, 2, 11)
    assert child_spans_of(m) == ((1, 1, 1, 3), (1, 4, 2, 2), (2, 3, 2, 5), (2, 6, 2, 10))


def test_shared_empties_carry_no_span() -> None:
    [v] = read_all("[() []]")
    assert v[0] is EMPTY and v[1] is EMPTY_VECTOR
    assert span_of(EMPTY) is None
    assert child_spans_of(v) == ((1, 1, 1, 3), (1, 4, 1, 6))
