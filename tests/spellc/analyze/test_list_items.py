"""The analyzer takes a list form apart by walking its cells (``analyzer._rest_items``): every kind of
list a form can be — eager cells, the reader's views of long lists, eager cells chained onto a view —
gives the elements after the head, in order, as iterating the list does."""

from __future__ import annotations

from typing import Any

from spell_runtime.data import Symbol
from spell_runtime.data.plist import VIEW_MIN, PList, plist, seq_chain_onto, view

from spellc.analyze import ir
from spellc.analyze.analyzer import _rest_items, analyze_form
from spellc.api import read_all


def lists() -> list[PList]:
    long_items = list(range(VIEW_MIN + 8))
    return [
        plist([1]),
        plist([1, 2, 3]),
        plist(list(range(VIEW_MIN + 3))),  # eager, longer than the walk takes
        view(long_items, 0, len(long_items), False),
        view(long_items, 5, 4, False),  # a short view (its cells are filled on demand)
        seq_chain_onto([1, 2], view(long_items, 0, 3)),  # eager head cells, then a view
        seq_chain_onto(list(range(VIEW_MIN + 4)), view(long_items, 0, 3)),
        read_all("(f " + " ".join(str(i) for i in range(VIEW_MIN + 1)) + ")")[0],  # the reader's view
        read_all("(f a b c)")[0],
    ]


def test_rest_items_are_the_elements_after_the_head() -> None:
    for form in lists():
        expected = list(form)[1:]
        assert _rest_items(form) == expected
        assert list(form)[1:] == expected  # walking the cells did not change what the list holds


def test_short_view_chains_keep_their_count() -> None:
    form = seq_chain_onto([1, 2], view([7, 8, 9], 0, 3))
    assert _rest_items(form) == [2, 7, 8, 9]
    assert form.count == 5 and list(form) == [1, 2, 7, 8, 9]


def call_args(text: str) -> tuple[Any, ...]:
    node, _ = analyze_form(read_all(text)[0])
    while type(node) is ir.Late:
        node = node.node
    assert isinstance(node, (ir.Call, ir.BuiltinCall, ir.NativeOp, ir.KeywordCall))
    return tuple(a.value if type(a) is ir.Const else a.sym for a in node.args)


def test_calls_of_every_length_get_all_their_arguments_in_order() -> None:
    for n in (0, 1, 2, VIEW_MIN - 2, VIEW_MIN - 1, VIEW_MIN, VIEW_MIN + 1, 3 * VIEW_MIN):
        args = " ".join(str(i) for i in range(n))
        assert call_args("(some-unknown-fn %s)" % args) == tuple(range(n))
        assert call_args("(vector %s)" % args) == tuple(range(n))
    assert call_args("(:k m 1)") == (Symbol("m"), 1)
