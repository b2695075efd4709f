"""The pr-str builtin (language.md §5)."""

from __future__ import annotations

from spell_runtime.core import printing
from spell_runtime.core.registry import BUILTINS
from spell_runtime.data import keyword, spell_map, symbol, vec


def test_pr_str_joins_readable_forms_with_spaces() -> None:
    assert BUILTINS[symbol("pr-str")] is printing.pr_str_builtin
    assert printing.pr_str_builtin() == ""
    assert printing.pr_str_builtin(None, True, False) == "nil true false"
    assert printing.pr_str_builtin("a\"b") == '"a\\"b"'
    assert printing.pr_str_builtin(symbol("b", "a"), keyword("d", "c")) == "a/b :c/d"
    assert printing.pr_str_builtin(spell_map(keyword("a"), vec([1, 2]), keyword("b"), None)) == "{:a [1 2], :b nil}"
