"""Limits (runtime.md §4.2) and the builtins ``serialize`` / ``context-forms``."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from snapshot_values import kw, smap, units
from spell_runtime.context import CTX_KEY, Context
from spell_runtime.data import BigInt, Symbol, plist, spell_eq, symbol, vec
from spell_runtime.errors import ControlError, SpellArgumentError
from spell_runtime.snapshot import (
    DEFAULT_LIMIT,
    LIMIT_MESSAGE,
    check_limit,
    effective_limit,
    grace,
    snapshot,
    snapshot_form,
    snapshot_text,
)
from spell_runtime.snapshot.serialize import RUN_OPTION, context_forms, serialize

import spellc


@pytest.mark.parametrize("bad", [True, False, 1.0, 127, 0, -1, 128.0, "200", Decimal(200), kw("x")])
def test_invalid_limits_raise_the_typed_error(bad: Any) -> None:
    with pytest.raises(ControlError) as info:
        snapshot_text("x", bad)
    assert info.value.message == LIMIT_MESSAGE == "Context character limit must be an integer of at least 128"
    data = info.value.data
    assert data.get(kw("type")) is kw("invalid-context-limit")
    assert data.get(kw("max-chars")) is bad


def test_limit_bounds_and_defaults() -> None:
    assert check_limit(128) == 128 and check_limit(BigInt(300)) == 300
    assert effective_limit(None) == DEFAULT_LIMIT == 10000
    assert effective_limit(None, 500) == 500
    assert effective_limit(None, None) == 10000
    assert effective_limit(20000, 500) == 20000  # an override may exceed the run default
    with pytest.raises(ControlError):
        effective_limit(None, 100)  # a bad run default is refused too
    assert grace(128) == 153 and grace(10000) == 12000 and grace(129) == 154


def test_run_default_decides_for_nil() -> None:
    text, truncated = snapshot_text("q" * 1000, None, run_default=128)
    assert units(text) <= 128 and truncated
    assert snapshot_text("q" * 1000)[0] == '"' + "q" * 1000 + '"'


def test_default_target_and_its_grace() -> None:
    assert units(snapshot_text("x" * 11998)[0]) == 12000
    assert units(snapshot_text("x" * 12000)[0]) == 10000
    assert units(snapshot_text("x" * 20000, 30000)[0]) == 20002


def test_snapshot_returns_value_form_and_flag() -> None:
    snap = snapshot(smap(kw("a"), symbol("s")), 200)
    assert spell_eq(snap.form, plist([Symbol("quote"), smap(kw("a"), symbol("s"))]))
    assert snap.truncated is False
    assert spell_eq(snapshot_form(vec([symbol("s")])), vec([plist([Symbol("quote"), symbol("s")])]))


# -- builtins -----------------------------------------------------------------------------------

def test_serialize_through_the_evaluator() -> None:
    assert spellc.eval_string("(serialize 42)") == "42"
    assert spellc.eval_string('(serialize "hi")') == '"hi"'
    assert spellc.eval_string("(serialize {:a 1 :b [2 3]})") == "(quote {:a 1 :b [2 3]})"
    assert spellc.eval_string("(serialize '(1 2))") == "(quote (1 2))"
    assert spellc.eval_string("(serialize 'sym)") == "(quote sym)"
    assert spellc.eval_string("(serialize [{:k 1} :a])") == "[(quote {:k 1}) :a]"
    assert spellc.eval_string("(serialize (fn [x] (+ x 1)))") == "(fn [x] (+ x 1))"
    assert spellc.eval_string('(serialize (first-line 3 ["x" "y"]))') == '(first-line 3 [\n "x" ; 3\n "y" ; 4\n])'
    assert spellc.eval_string('(serialize (subvec (first-line 10 ["a" "b" "c" "d"]) 1 3))') == (
        '(first-line 11 [\n "b" ; 11\n "c" ; 12\n])')
    assert spellc.eval_string("(serialize [1 2] nil)") == "[1 2]"
    assert spellc.eval_string('(count (serialize (apply str (repeat 152 "x")) 128))') == 128


@pytest.mark.parametrize("limit", ["100", "-1", "true", "1.0", "127"])
def test_serialize_rejects_a_program_limit_as_an_argument_error(limit: str) -> None:
    with pytest.raises(spellc.SpellError) as info:
        spellc.eval_string("(serialize 1 %s)" % limit)
    assert str(info.value) == "Function call failed: serialize: " + LIMIT_MESSAGE


def _table(run_limit: Any = None) -> dict[Any, Any]:
    return {CTX_KEY: Context({}, options={RUN_OPTION: run_limit})}


def test_builtins_read_the_run_default_from_the_context() -> None:
    assert units(serialize(_table(128), "x" * 1000)) == 128
    assert serialize(_table(None), "x" * 1000) == '"' + "x" * 1000 + '"'
    assert serialize({}, "x" * 1000) == '"' + "x" * 1000 + '"'
    assert units(serialize(_table(128), "x" * 1000, 300)) == 300


def test_program_limit_error_is_recoverable_not_typed() -> None:
    with pytest.raises(SpellArgumentError) as info:
        serialize(_table(), 1, 127)
    assert info.value.message == LIMIT_MESSAGE
    assert not isinstance(info.value, ControlError)
    with pytest.raises(SpellArgumentError):
        context_forms(_table(), vec([smap(kw("value"), 1)]), 10)


def test_context_forms_one_form_per_descriptor() -> None:
    descriptors = vec([
        smap(kw("name"), symbol("a"), kw("value"), vec([1, 2])),
        smap(kw("value"), "s" * 500),
        smap(kw("form"), plist([symbol("prune"), 2])),
    ])
    forms = context_forms(_table(), descriptors, 200)
    assert len(forms) == 3
    assert spell_eq(forms[0], plist([symbol("def"), symbol("a"), vec([1, 2])]))
    assert type(forms[1]) is str and units('"' + forms[1] + '"') <= 200  # clipped against its own target
    assert spell_eq(forms[2], plist([symbol("prune"), 2]))


def test_context_forms_targets_are_per_output() -> None:
    descriptors = vec([smap(kw("name"), symbol("a"), kw("value"), "a" * 900),
                       smap(kw("name"), symbol("b"), kw("value"), "b" * 900)])
    forms = context_forms(_table(), descriptors, 1000)
    assert [f[2] for f in forms] == ["a" * 900, "b" * 900]


def test_context_forms_message_body_only() -> None:
    message = smap(kw("from"), "x" * 300, kw("body"), "y" * 5000)
    form = context_forms(_table(), vec([smap(kw("value"), message, kw("body-only?"), True)]), 128)[0]
    assert form.first is Symbol("quote")
    shown = form[1]
    kept = shown.get(kw("body"))
    assert shown.get(kw("from")) == "x" * 300  # envelope fields stay exact
    assert kept.startswith("yyy") and "omitted" in kept and units(kept) < 128


def test_context_forms_through_the_evaluator() -> None:
    out = spellc.eval_string("(context-forms [{:name 'n :value 42} {:value [1 'x]}])")
    assert spellc.pr_str(out) == "[(def n 42) [1 (quote x)]]"
