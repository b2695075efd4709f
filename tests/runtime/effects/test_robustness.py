"""No io/ or web/ member lets a Python exception escape on odd arguments: envelope, raw value or argument error."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from spell_runtime.data import Keyword, SpellMap, plist, spell_map, vec
from spell_runtime.effects import EffectContext
from spell_runtime.errors import SpellArgumentError

ODD: list[Any] = [None, True, -1, 2.5, Keyword("k"), vec([]), vec([1, "a"]), plist([]), spell_map(Keyword("x"), 1),
                  "", "nope.txt", "\0"]
SKIP = {"watch-send", "event-send", "sh", "exec", "sh-test", "temp-file"}


def _members(ctx: EffectContext) -> list[tuple[str, Any]]:
    out = []
    for ns in ("io", "web"):
        for k, v in ctx.namespace(ns).items():
            if callable(v) and k.name not in SKIP:
                out.append((f"{ns}/{k.name}", v))
    return out


@pytest.mark.parametrize("arity", [1, 2, 3])
def test_odd_arguments_never_escape_as_python_errors(tmp_path: Path, arity: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERPER_API_KEY", raising=False)
    with EffectContext(cwd=str(tmp_path)) as ctx:
        for name, fn in _members(ctx):
            for args in itertools.product(ODD, repeat=arity):
                if name == "web/fetch" and type(args[0]) is str and args[0]:
                    continue  # a string that looks like a URL would go to the network
                try:
                    result = fn(*args)
                except SpellArgumentError:
                    continue
                except TypeError as e:
                    assert "argument" in str(e), (name, args, e)  # arity, reported by the evaluator
                    continue
                if isinstance(result, SpellMap) and result.contains(Keyword("ok")):
                    assert result.get(Keyword("ok")) in (True, False), (name, args)
