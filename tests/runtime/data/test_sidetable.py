"""``IdentitySideTable``: facts about C vectors kept by identity, gone with their object."""

from __future__ import annotations

import gc

import pytest
from spell_runtime.data import vec
from spell_runtime.data.sidetable import IdentitySideTable


def test_entries_belong_to_the_object_not_to_equal_ones() -> None:
    table: IdentitySideTable[str] = IdentitySideTable()
    a, b = vec([1, 2]), vec([1, 2])
    table.put(a, "a")
    assert table.get(a) == "a" and table.get(b) is None
    table.put(b, "b")
    assert (table.get(a), table.get(b)) == ("a", "b")


def test_an_entry_goes_when_its_object_dies() -> None:
    table: IdentitySideTable[int] = IdentitySideTable()
    v = vec(range(10))
    table.put(v, 1)
    assert len(table) == 1
    del v
    gc.collect()
    assert len(table) == 0


def test_objects_without_weak_references_are_refused() -> None:
    with pytest.raises(TypeError):
        IdentitySideTable[int]().put(7, 1)
