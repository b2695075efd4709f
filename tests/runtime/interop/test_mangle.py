"""Hy's mangling rules, re-implemented in the runtime, agree with ``hy.mangle``/``hy.unmangle`` (packages.md §5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spell_runtime.interop.mangle import mangle, unmangle

hy = pytest.importorskip("hy", reason="the hy extra (in dev) is what this compares against")

SPELL_CHARS = st.sampled_from(list("abcxyzXU_-?!*+<>=/.'&%$019") + ["\u00e9", "\U0001f991", "\u2191", "\uff3f"])
names = st.text(SPELL_CHARS, min_size=1, max_size=12) | st.text(min_size=1, max_size=8)


def test_documented_examples() -> None:
    assert mangle("word-count") == "word_count"
    assert mangle("valid?") == "hyx_validXquestion_markX"
    assert unmangle("hyx_validXquestion_markX") == "valid?"
    assert mangle("\U0001f991") == "hyx_XsquidX"


@settings(max_examples=400, deadline=None)
@given(names)
def test_mangle_agrees_with_hy(name: str) -> None:
    try:
        expected = hy.mangle(name)
    except (AssertionError, ValueError):
        return  # a name hy itself refuses (only dots, say) says nothing about agreement
    assert mangle(name) == expected


@settings(max_examples=400, deadline=None)
@given(names)
def test_unmangle_agrees_with_hy(name: str) -> None:
    try:
        identifier = hy.mangle(name)
    except (AssertionError, ValueError):
        return
    try:
        expected = hy.unmangle(identifier)
    except KeyError:  # hy cannot read back what it wrote ("0.X0X": "X0X" names no character): nor can we
        with pytest.raises(KeyError):
            unmangle(identifier)
        return
    assert unmangle(identifier) == expected


def test_a_name_hy_cannot_unmangle_fails_alike() -> None:
    # Found by the property above: hy mangles "0.X0X" to "hyx_0.X0X", whose "X0X" reads as the character
    # named "0", and both unmanglers fail on it the same way.
    identifier = hy.mangle("0.X0X")
    with pytest.raises(KeyError):
        hy.unmangle(identifier)
    with pytest.raises(KeyError):
        unmangle(identifier)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(list("abcxyz?!*-<>=")), min_size=1, max_size=10).filter(lambda s: s[0] not in "-"))
def test_mangled_names_are_identifiers_and_idempotent(name: str) -> None:
    once = mangle(name)
    assert once.isidentifier()
    assert mangle(once) == once
