"""Generated code never makes CPython's compiler warn (issue 12: a warning is an error under -W error)."""

from __future__ import annotations

import pytest

import spellc


@pytest.mark.parametrize("source", ["(first nil)", "(nth nil 0)", "(nth 5 0)", "(count nil)", "(conj nil 1)",
                                    "(get nil :x)", "(assoc nil :a 1)"])
def test_literal_collection_operands_compile_without_python_warnings(source: str) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        try:
            spellc.eval_string(source)
        except spellc.SpellError:
            pass  # (nth 5 0) is a Spell error; what matters is that compiling it did not warn
