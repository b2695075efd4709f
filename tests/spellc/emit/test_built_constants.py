"""A built module's constants survive the compact encoding (``spellc.emit.constants.ConstantEncoder``
→ ``spell_runtime.built_constants.decode_constants``, issue 12.1): every kind of value comes back
equal and of the same type, shared sub-forms come back as one object, and builtins as themselves."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.built_constants import decode_constants, pack_numbers, unpack_numbers
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import (
    BigInt,
    Char,
    Float32,
    Keyword,
    Pattern,
    PList,
    PVector,
    SpellMap,
    SpellSet,
    Symbol,
    plist,
    vec,
)

import spellc
from spellc.compiler import build_module
from spellc.emit.constants import ConstantEncoder, constants_source


def round_trip(consts: dict[str, Any]) -> dict[str, Any]:
    entries, entry_of = ConstantEncoder().encode(consts)
    decoded = decode_constants("[%s]" % ",".join(entries))
    return {name: decoded[entry_of[name]] for name in consts}


def test_every_kind_of_constant_comes_back_equal_and_of_its_type() -> None:
    big = 10 ** 5000
    values: dict[str, Any] = {
        "_k0": plist([Symbol("f"), 1, -2, 2.5, "s", "'quoted", "%x", None, True, False]),
        "_k1": vec([Keyword("a"), Keyword("b", "ns"), Symbol("floor", "math"), Symbol(":odd"), Symbol("$x")]),
        "_k2": SpellMap.from_pairs([(Keyword("k"), vec([])), ("x", plist([]))]),
        "_k3": SpellSet.from_items([1, 2, 3]),
        "_k4": (Char("a"), Pattern("a+b"), Fraction(3, 4), Decimal("1.50"), Float32(1.5), BigInt(7)),
        "_k5": (big, -big, BigInt(big), float("inf"), float("-inf"), -0.0, "\udc80 é"),
        "_k6": plist([1, 2], is_seq=True),
    }
    back = round_trip(values)
    pattern = values["_k4"][1]
    values["_k4"] = tuple(x for x in values["_k4"] if x is not pattern)  # patterns compare by identity
    assert back["_k4"][1].source == pattern.source
    back["_k4"] = tuple(x for i, x in enumerate(back["_k4"]) if i != 1)
    for name, value in values.items():
        assert back[name] == value
        assert type(back[name]) is type(value)
    assert [type(x) for x in back["_k4"]] == [type(x) for x in values["_k4"]]
    assert back["_k6"].is_seq
    assert [x.ns for x in back["_k1"][1:3]] == ["ns", "math"]
    assert str(back["_k5"][5]) == "-0.0"


def test_shared_sub_forms_and_builtins_keep_their_identity() -> None:
    inner = plist([Symbol("inc"), Symbol("x")])
    outer = plist([Symbol("+"), inner, inner])
    spellc.eval_string("1")  # loads the builtin library
    inc = BUILTINS[Symbol("inc")]
    back = round_trip({"_k0": outer, "_k1": inner, "_k2": inc})
    assert back["_k0"][1] is back["_k1"] and back["_k0"][2] is back["_k1"]
    assert back["_k2"] is inc


def test_equal_constants_share_one_entry() -> None:
    entries, entry_of = ConstantEncoder().encode({"_k0": vec([1, 2]), "_k1": vec([1, 2]), "_k2": vec([2])})
    assert entry_of["_k0"] == entry_of["_k1"] != entry_of["_k2"]
    assert len(entries) == 2


def test_the_constants_text_is_written_in_short_lines_that_rebuild_it() -> None:
    entries = [json.dumps("'" + "x" * n) for n in range(0, 300, 7)]
    source = constants_source(entries)
    assert all(len(line) <= 120 for line in source.splitlines())
    namespace: dict[str, Any] = {}
    exec("from spell_runtime.built_constants import bind_constants\n" + source, namespace)
    assert [namespace["_k%d" % i] for i in range(len(entries))] == ["x" * n for n in range(0, 300, 7)]


def test_a_built_module_binds_its_quoted_forms() -> None:
    source = build_module(spellc.read_all("(def q '(a :b [1 \"c\" {:d e}])) q"), "q.spl")
    namespace: dict[str, Any] = {"__name__": "built"}
    exec(compile(source, "built.py", "exec"), namespace)
    assert namespace["value"] == spellc.eval_string("'(a :b [1 \"c\" {:d e}])")
    assert max(len(line) for line in source.splitlines() if "bind_constants" not in line) < 400


def test_span_numbers_round_trip_in_one_or_two_characters_each() -> None:
    numbers = [0, 1, 31, 32, 1023, 1024, 10 ** 9, 7, 0]
    packed = pack_numbers(numbers)
    assert unpack_numbers(packed) == numbers
    assert len(pack_numbers([5] * 10)) == 10 and len(pack_numbers([120] * 10)) == 20
    assert packed.isascii() and "'" not in packed and "\\" not in packed


def test_call_form_list_heads_are_written_untagged_and_read_back_as_lists() -> None:
    head = Symbol("f")
    call = plist([head, 1])
    entries, entry_of = ConstantEncoder().encode({"_k0": head, "_k1": call, "_k2": plist([1, head])})
    assert json.loads(entries[entry_of["_k1"]])[0] == entry_of["_k0"]
    back = round_trip({"_k0": head, "_k1": call, "_k2": plist([1, head]), "_k3": plist([])})
    assert back["_k1"] == call and type(back["_k1"]) is type(call)
    assert back["_k2"] == plist([1, head]) and back["_k3"] == plist([])


_ATOMS = st.one_of(
    st.integers(-10 ** 30, 10 ** 30), st.floats(allow_nan=False), st.text(max_size=8), st.booleans(), st.none(),
    st.sampled_from([Symbol("f"), Symbol("x"), Symbol("$y"), Symbol(":z"), Symbol("floor", "math"),
                     Keyword("k"), Keyword("a", "ns")]),
)
_FORMS = st.recursive(_ATOMS, lambda inner: st.one_of(
    st.lists(inner, max_size=5).map(plist),
    st.lists(inner, max_size=5).map(lambda xs: plist([Symbol("g"), *xs])),  # a call form: written untagged
    st.lists(inner, max_size=5).map(lambda xs: plist(xs, is_seq=True)),
    st.lists(inner, max_size=5).map(vec),
    st.lists(inner, max_size=5).map(tuple),
), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(_FORMS, min_size=1, max_size=6))
def test_any_nesting_of_forms_comes_back_equal_with_its_list_cells_intact(forms: list[Any]) -> None:
    back = round_trip({"_k%d" % i: form for i, form in enumerate(forms)})

    def same(a: Any, b: Any) -> None:
        assert type(a) is type(b)
        if type(a) in (tuple, PVector, PList):
            assert len(a) == len(b)
            for x, y in zip(a, b):
                same(x, y)
        elif isinstance(a, float):
            assert str(a) == str(b)
        else:
            assert a == b
        if type(a) is PList:
            assert (a.is_seq, a.count) == (b.is_seq, b.count) and b.span is None
            cell = b  # every cell counts what follows it, down to the empty list
            while cell.count:
                assert cell.rest.count == cell.count - 1
                cell = cell.rest

    for i, form in enumerate(forms):
        same(form, back["_k%d" % i])
