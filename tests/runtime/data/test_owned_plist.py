"""``owned_plist``: a long list the reader or the turn loop hands over becomes a view of it
(issue 14), which no Spell operation can tell from the cells ``plist`` builds."""

from __future__ import annotations

import pytest
from spell_runtime.data.equality import spell_eq, spell_hash
from spell_runtime.data.plist import VIEW_MIN, owned_plist, plist
from spell_runtime.printer import pr_str

import spellc
from spellc.api import new_env
from spellc.compiler import eval_in


@pytest.mark.parametrize("n", [0, 1, VIEW_MIN - 1, VIEW_MIN, 3 * VIEW_MIN + 5])
def test_an_owned_list_is_the_list_plist_builds(n: int) -> None:
    items = list(range(n))
    owned, cells = owned_plist(list(items)), plist(items)
    assert (owned._src is not None) == (n >= VIEW_MIN)
    assert pr_str(owned) == pr_str(cells)
    assert spell_eq(owned, cells) and spell_hash(owned) == spell_hash(cells)
    assert owned.count == n and list(owned) == items and not owned.is_seq
    if n:
        assert owned.rest.count == n - 1 and list(owned.rest) == items[1:]


def test_a_long_list_read_from_text_behaves_as_a_list() -> None:
    src = "(list? '(%s))" % " ".join(str(i) for i in range(VIEW_MIN + 8))
    assert eval_in(new_env(), spellc.read_string(src)) is True
    form = spellc.read_string("(+ %s)" % " ".join("1" for _ in range(VIEW_MIN + 8)))
    assert form._src is not None  # read as a view
    assert eval_in(new_env(), form) == VIEW_MIN + 8
    assert pr_str(spellc.read_string(pr_str(form))) == pr_str(form)
