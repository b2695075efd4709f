"""Resuming the reader after a rendered prefix gives exactly the full read (issue 14).

Property: for any program spellc renders into a prefix and any response text — quotes,
backslashes, comments, C-style comment lines, stray or missing closers, reader macros —
``read_completion`` (which resumes from the prefix's checkpoint) returns the same
balanced text and the same forms, types and spans as balancing and reading the whole
completion, or fails with the same reader error.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime import gensym
from spell_runtime.core.quine import wrap_forms
from spell_runtime.data import Keyword, SpellMap, Symbol, plist, vec

from spellc.loop.incremental import read_completion, render_prefix
from spellc.loop.incremental.compare import first_difference
from spellc.loop.incremental.prefix import checkpoint_for
from spellc.reader import ReaderError, balance_parens, read_first
from spellc.reader.resume import checkpoint, piece_balance, read_after

atoms = st.one_of(
    st.integers(-10**6, 10**6),
    st.text(alphabet='ab \\"\n;()/*\t', max_size=8),
    st.sampled_from([Keyword("k"), Keyword("x", "ns"), Symbol("f"), Symbol("a-b?"), None, True, 1.5]),
)
forms = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4).map(lambda xs: plist([Symbol("g"), *xs])),
        st.lists(inner, max_size=4).map(vec),
        st.dictionaries(st.sampled_from([Keyword("a"), Keyword("b"), 7]), inner, max_size=2).map(
            lambda d: SpellMap.from_pairs(d.items())),
    ),
    max_leaves=10,
)
PIECES = ["(", ")", "[", "]", "{", "}", '"', "\\", ";", "\n", "//", " ", "a", "1", ":k", "'", "#(", "%",
          "`", "~", "#_", ",", "\\a", '"x\\q"', "(def v 1)", "'(!extend)", "\r", "*/", "#{1 2}", "@x"]
responses = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def _read(fn: Any) -> tuple[str, Any]:
    gensym._counter = itertools.count(10_000)
    try:
        return "ok", fn()
    except ReaderError as e:
        return "error", str(e)


@settings(max_examples=300, deadline=None)
@given(st.lists(forms, max_size=5), responses)
def test_resumed_read_equals_full_read(body: list[Any], response: str) -> None:
    prefix = render_prefix(wrap_forms(body))
    completion = prefix + response
    full = _read(lambda: (balance_parens(completion), read_first(balance_parens(completion))))
    resumed = _read(lambda: read_completion(completion, prefix))
    assert resumed[0] == full[0]
    if full[0] == "error":
        assert resumed[1] == full[1]
        return
    assert resumed[1][0] == full[1][0]
    assert first_difference(resumed[1][1], full[1][1]) is None


@settings(max_examples=100, deadline=None)
@given(st.lists(forms, max_size=5))
def test_rendered_prefixes_have_checkpoints(body: list[Any]) -> None:
    """Rendered plain data is always clean: no prefix of such a program falls back to the full read."""
    prefix = render_prefix(wrap_forms(body))
    assert checkpoint_for(prefix) is not None


def test_unclean_prefixes_have_no_checkpoint() -> None:
    assert checkpoint('(quine completion (eval (do "open string ') is None  # ends inside a string
    assert checkpoint("(quine completion (eval (do ; a comment") is None  # the comment runs on
    assert checkpoint("(quine completion (eval (do\n") is None  # last line blank: a marker could start it
    assert checkpoint("(quine completion (eval (do #(+ % 1) ") is None  # gensyms are per read
    assert checkpoint("(quine completion (eval (do (+ 1 2))") is None  # nothing left open
    assert piece_balance('"a \\q"', False) is None  # the sanitizer would repair it


def test_resume_from_a_plain_checkpoint() -> None:
    cp = checkpoint("(quine completion (eval (do (def x 1) ")
    assert cp is not None and cp.balance == 3
    text, form = read_after(cp, "x)")
    assert text == "(quine completion (eval (do (def x 1) x)\n))"
    assert form == read_first(text)
    assert first_difference(form, read_first(text)) is None
