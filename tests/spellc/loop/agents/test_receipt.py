"""The receipt step's forms (runtime.md §5.9, §11.5): labels, order, one budget per message."""

from __future__ import annotations

import pytest
from spell_runtime.data import Keyword, SpellMap, Symbol, vec
from spell_runtime.printer import render_form

from spellc.loop.agents.receipt import PRE_EVAL, RECEIVE, append_receipt, is_wrapper_quine, receipt_forms
from spellc.reader import read_first

K = Keyword


def message(body: object, **fields: object) -> SpellMap:
    pairs = [(K("from"), K("observer")), *((K(k.replace("_", "-")), v) for k, v in fields.items())]
    return SpellMap.from_pairs([*pairs, (K("body"), body)])


@pytest.mark.parametrize(("limit", "fields"), [(128, {}), (180, {}), (180, {"edge_id": 7, "expects_response": True}),
                                              (1000, {"edge_id": 7, "expects_response": True})])
def test_each_contribution_fits_the_display_limit_and_keeps_routing_fields(limit: int, fields: dict[str, object]) -> None:
    body = SpellMap.from_pairs([(K("index"), 1), (K("detail"), "message-detail-" * 80)])
    forms = receipt_forms(Symbol("completion"), [message(body, **fields)] * 2, PRE_EVAL, limit)
    assert len(forms) == 6
    for i in (0, 3):
        think, definition, extend = forms[i:i + 3]
        assert render_form(think) == '(think "pre-eval: tail not run")'
        assert render_form(extend) == "(quote (!extend completion))"
        assert len(" ".join(render_form(f) for f in (think, definition, extend))) <= limit
        envelope = definition[2][1]  # (def msg-N (quote {...}))
        assert envelope.get(K("from")) == K("observer")
        assert envelope.get(K("edge-id")) == fields.get("edge_id")
        assert "message-detail-" * 80 not in render_form(definition)
    assert forms[1][1] != forms[4][1]  # fresh msg-N names


def test_routing_fields_are_never_clipped_even_past_the_budget() -> None:
    (_, definition, _) = receipt_forms(Symbol("completion"), [message("x" * 500, edge_id=7, expects_response=True)],
                                       PRE_EVAL, 128)
    envelope = definition[2][1]
    assert (envelope.get(K("edge-id")), envelope.get(K("expects-response"))) == (7, True)
    assert "x" * 100 not in render_form(definition)


def test_small_bodies_are_exact_and_bodyless_requests_have_no_body() -> None:
    forms = receipt_forms(Symbol("saved"), [message(vec([1, "two"])), SpellMap.from_pairs([(K("from"), K("a"))])],
                          RECEIVE, 10000)
    assert render_form(forms[1]).endswith('(quote {:from :observer :body [1 "two"]}))')
    assert render_form(forms[2]) == "(quote (!extend saved))"
    assert render_form(forms[4]).endswith("(quote {:from :a}))")


def test_append_keeps_the_quine_and_makes_the_continuation_the_tail() -> None:
    program = read_first("(quine completion (eval (do (def a 1) (quote (do :proposed)))))")
    assert is_wrapper_quine(program)
    received = append_receipt(program, [message(1)], PRE_EVAL, None)
    body = list(received[2][1])[1:]
    assert render_form(body[1]) == "(quote (do :proposed))"
    assert render_form(body[-1]) == "(quote (!extend completion))"
    assert append_receipt(program, [], PRE_EVAL, None) is program
    for shape in ["(do 1)", "(quine completion (eval (+ 1 2)))", '(quine "x" (eval (do 1)))']:
        assert not is_wrapper_quine(read_first(shape))
