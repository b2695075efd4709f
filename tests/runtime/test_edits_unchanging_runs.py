"""``edits.may_change`` on a long list that starts with the elements of a list already found
unchanging (issue 14): only the other elements are asked, and a marker among them is still seen."""

from __future__ import annotations

from spell_runtime import edits
from spell_runtime.data.plist import VIEW_MIN, owned_plist

import spellc


def body(n: int) -> list[object]:
    return list(spellc.read_string("(%s)" % " ".join("(def v%d %d)" % (i, i) for i in range(n))))


def test_a_grown_list_with_a_marker_among_its_new_elements_may_change() -> None:
    old = body(VIEW_MIN + 4)
    assert edits.may_change(owned_plist(list(old))) is False
    marker = spellc.read_string("(prune 1)")
    assert edits.may_change(owned_plist([*old, marker])) is True
    assert edits.may_change(owned_plist([*old, spellc.read_string("(def w 1)")])) is False


def test_a_marker_replacing_the_last_shared_element_is_seen() -> None:
    old = body(VIEW_MIN + 4)
    assert edits.may_change(owned_plist(list(old))) is False
    grown = [*old[:-1], spellc.read_string("(rethink)"), *body(3)]
    assert edits.may_change(owned_plist(grown)) is True


def test_unchanged_runs_give_the_same_edits_as_a_fresh_walk() -> None:
    old = body(VIEW_MIN + 4)
    edits.may_change(owned_plist(list(old)))
    grown = owned_plist([*old, spellc.read_string("(persist x 1)")])
    edited = edits.apply_edits(grown, {spellc.read_string("x"): 5})
    assert spellc.pr_str(edited).endswith("(persist x 5))")
