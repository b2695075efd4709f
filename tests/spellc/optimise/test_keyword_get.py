"""``(get m :k)`` with a literal keyword key, inlined for maps of every tier (issue 13 item 3:
``emit.natives._keyword_read``), with the switch on and off: every kind of map and non-map, present
and absent keys, nil and false values, must give what the library's ``get`` gives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from optimise_programs import outcomes_both_ways, static_core_names

import spellc
from spellc.compiler import python_source


@pytest.fixture(autouse=True)
def get_static() -> Iterator[None]:
    yield from static_core_names("get", "into", "range", "zipmap", "sorted-map", "hash-map")


def test_a_literal_keyword_key_reads_a_map_through_its_entry_reader_without_the_method() -> None:
    src = python_source(spellc.read_string("(fn [m] (get m :b))"))
    assert "._r.get(_k" in src and "_get(" in src


@pytest.mark.parametrize("coll", [
    "{:a 1 :b 2}", "{:a 1}", "{}", "{:b nil}", "{:b false}", "{\"b\" 1 :b 3}",
    "(zipmap (map (fn [i] (keyword (str \"k\" i))) (range 40)) (range 40))",  # large tier
    "(assoc (zipmap (map (fn [i] (keyword (str \"k\" i))) (range 40)) (range 40)) :b 7)",
    "(into {} (map (fn [i] [(keyword (str \"k\" i)) i]) (range 40)))",
    "(sorted-map :b 1 :a 2)", "(hash-map :b 5)", "#{:b}", "nil", "[1 2]", "\"abc\"", "42",
])
@pytest.mark.parametrize("key", [":b", ":k3", ":zz"])
def test_get_with_a_keyword_agrees_both_ways(coll: str, key: str) -> None:
    text = "(let [f (fn [m] (get m %s))] [(f %s) (get %s %s)])" % (key, coll, coll, key)
    on, off = outcomes_both_ways(text)
    assert on == off, text
