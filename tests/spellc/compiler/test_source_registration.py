"""The driver registers a program's text with ``linecache`` once, not once per top-level form, and
registers it again whenever ``linecache`` lost or replaced the entry (tracebacks read the ``.spl``)."""

from __future__ import annotations

import linecache

from spellc import compiler

TEXT = "(def a 1)\n(def b (+ a 1))\n(inc b)\n"


def test_the_same_text_is_split_once_per_file() -> None:
    compiler._register_source("<reg-test>", TEXT)
    first = linecache.cache["<reg-test>"]
    compiler._register_source("<reg-test>", TEXT)
    assert linecache.cache["<reg-test>"] is first
    assert linecache.getline("<reg-test>", 2) == "(def b (+ a 1))\n"


def test_a_cleared_or_replaced_entry_is_registered_again() -> None:
    compiler._register_source("<reg-test>", TEXT)
    linecache.clearcache()
    compiler._register_source("<reg-test>", TEXT)
    assert linecache.getline("<reg-test>", 3) == "(inc b)\n"
    linecache.cache["<reg-test>"] = (4, None, ["other\n"], "<reg-test>")
    compiler._register_source("<reg-test>", TEXT)
    assert linecache.getline("<reg-test>", 1) == "(def a 1)\n"


def test_another_file_or_text_gets_its_own_lines() -> None:
    compiler._register_source("<reg-a>", TEXT)
    compiler._register_source("<reg-b>", TEXT)
    compiler._register_source("<reg-a>", "(+ 1 2)\n")
    assert linecache.getline("<reg-a>", 1) == "(+ 1 2)\n"
    assert linecache.getline("<reg-b>", 1) == "(def a 1)\n"
