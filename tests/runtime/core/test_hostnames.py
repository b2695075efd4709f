"""JVM class names and host-error texts."""

from __future__ import annotations

from fractions import Fraction

import pytest
from spell_runtime.core import seqs
from spell_runtime.core.combinators import comp
from spell_runtime.core.hostnames import (
    cast_error,
    cast_message,
    class_name,
    int_cast,
    long_cast,
    not_seqable,
    simple_class_name,
)
from spell_runtime.core.reducing import make_reduced
from spell_runtime.data.atoms import BigInt, Char, Keyword
from spell_runtime.data.hashmap import SpellMap, SpellSet
from spell_runtime.data.plist import EMPTY, plist
from spell_runtime.data.sorted import sorted_map, sorted_set
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError


@pytest.mark.parametrize("value, name", [
    (5, "java.lang.Long"),
    (True, "java.lang.Boolean"),
    ("s", "java.lang.String"),
    (Char("a"), "java.lang.Character"),
    (Keyword("k"), "clojure.lang.Keyword"),
    (vec([1]), "clojure.lang.PersistentVector"),
    (plist([1]), "clojure.lang.PersistentList"),
    (EMPTY, "clojure.lang.PersistentList$EmptyList"),
    (plist([1], is_seq=True), "clojure.lang.LazySeq"),
    (SpellMap.from_pairs([(1, 2)]), "clojure.lang.PersistentArrayMap"),
    (SpellMap.from_pairs([(i, i) for i in range(9)]), "clojure.lang.PersistentHashMap"),
    (sorted_map([(1, 2)]), "clojure.lang.PersistentTreeMap"),
    (SpellSet.from_items([1]), "clojure.lang.PersistentHashSet"),
    (sorted_set([1]), "clojure.lang.PersistentTreeSet"),
    (make_reduced(1), "clojure.lang.Reduced"),
    (seqs.first, "clojure.core$first"),
    (seqs.reverse, "spell.eval$reverse"),
])
def test_class_names(value: object, name: str) -> None:
    assert class_name(value) == name


def test_closures_and_simple_names() -> None:
    assert class_name(comp()) == "spell.eval$comp$fn"
    assert simple_class_name(5) == "Long"
    assert simple_class_name(seqs.first) == "core$first"


def test_cast_message_layouts_match_the_spec_examples() -> None:
    assert cast_message("java.lang.String", "java.lang.Number") == (
        "class java.lang.String cannot be cast to class java.lang.Number (java.lang.String and "
        "java.lang.Number are in module java.base of loader 'bootstrap')")
    assert cast_message("java.lang.Long", "clojure.lang.IFn") == (
        "class java.lang.Long cannot be cast to class clojure.lang.IFn (java.lang.Long is in module java.base "
        "of loader 'bootstrap'; clojure.lang.IFn is in unnamed module of loader 'app')")
    assert cast_message("clojure.lang.PersistentList", "clojure.lang.Associative") == (
        "class clojure.lang.PersistentList cannot be cast to class clojure.lang.Associative "
        "(clojure.lang.PersistentList and clojure.lang.Associative are in unnamed module of loader 'app')")
    assert cast_message("clojure.lang.PersistentVector", "java.util.Map$Entry").endswith(
        "(clojure.lang.PersistentVector is in unnamed module of loader 'app'; java.util.Map$Entry is in "
        "module java.base of loader 'bootstrap')")
    assert cast_error(5, "clojure.lang.IFn").message.startswith("class java.lang.Long cannot be cast")


def test_not_seqable_text() -> None:
    assert not_seqable(5).message == "Don't know how to create ISeq from: java.lang.Long"
    assert not_seqable(Keyword("a")).message == "Don't know how to create ISeq from: clojure.lang.Keyword"


def test_int_cast_follows_rt_int_cast() -> None:
    assert int_cast(3) == 3
    assert int_cast(BigInt(4)) == 4
    assert int_cast(2.9) == 2 and int_cast(-2.9) == -2
    assert int_cast(Fraction(7, 2)) == 3
    assert int_cast(Char("a")) == 97
    assert int_cast(float("nan")) == 0
    with pytest.raises(HostError, match="^Value out of range for int: 5000000000$"):
        int_cast(5_000_000_000)
    with pytest.raises(HostError, match="Keyword cannot be cast to class java.lang.Character"):
        int_cast(Keyword("k"))
    with pytest.raises(HostError, match="Boolean cannot be cast"):
        int_cast(True)
    with pytest.raises(HostError, match="because \"x\" is null"):
        int_cast(None)


def test_long_cast_range() -> None:
    assert long_cast(2**63 - 1) == 2**63 - 1
    with pytest.raises(HostError, match="^Value out of range for long: 9223372036854775808$"):
        long_cast(BigInt(2**63))
    with pytest.raises(HostError, match="^Value out of range for long: 1.0E20$"):
        long_cast(1e20)
