"""Collections (language.md §2.7): kinds, order, and the literal checks."""

from __future__ import annotations

from typing import Any

from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.hashmap import SpellMap, SpellSet
from spell_runtime.data.plist import EMPTY, PList
from spell_runtime.data.vector import PVector

from spellc.reader import read_all

K = Keyword
S = Symbol


def read1(text: str) -> Any:
    [form] = read_all(text)
    return form


def test_list() -> None:
    form = read1("(+ 1 (f x))")
    assert type(form) is PList and not form.is_seq
    assert list(form)[:2] == [S("+"), 1]
    inner = form[2]
    assert type(inner) is PList and list(inner) == [S("f"), S("x")]


def test_empty_list_is_the_shared_empty() -> None:
    assert read1("()") is EMPTY


def test_vector() -> None:
    form = read1("[1 [2] []]")
    assert type(form) is PVector
    assert list(read1("[1 [2] []]")[1]) == [2] and len(read1("[[]]")[0]) == 0 and read1("[7]")[0] == 7


def test_map_keeps_source_order_at_every_size() -> None:
    keys = [K("k%d" % i) for i in range(20)]
    text = "{" + " ".join(":k%d %d" % (i, i) for i in range(20)) + "}"
    form = read1(text)
    assert type(form) is SpellMap
    assert list(form.keys()) == keys
    assert [form.get(k) for k in keys] == list(range(20))


def test_map_mixed_keys() -> None:
    form = read1('{:a 1 "b" 2 [1] 3}')
    assert form.get(K("a")) == 1 and form.get("b") == 2 and len(form) == 3


def test_map_keys_use_spell_equality() -> None:
    form = read1("{1 :long 1.0 :double}")
    assert len(form) == 2


def test_set() -> None:
    form = read1("#{3 1 2}")
    assert type(form) is SpellSet and list(form) == [3, 1, 2]


def test_namespaced_maps() -> None:
    form = read1("#:foo{:a 1 :_/b 2 c 3 :x/d 4}")
    assert list(form.keys()) == [K("a", "foo"), K("b"), S("c", "foo"), K("d", "x")]
    assert list(read1("#::{:a 1}").keys()) == [K("a", "user")]
    assert list(read1("#:: {:a 1}").keys()) == [K("a", "user")]
    assert list(read1("#:foo {:a 1}").keys()) == [K("a", "foo")]
