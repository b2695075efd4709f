"""Resolved callers: host functions run as themselves, Spell functions in the calling env, errors as §8.4 says."""

from __future__ import annotations

from typing import Any

import pytest
from spell_runtime.core import seqs
from spell_runtime.core.calling import call_fn, caller, spell_failure
from spell_runtime.core.registry import EnvFn
from spell_runtime.data.atoms import Keyword, Symbol
from spell_runtime.data.fn import SpellFn
from spell_runtime.data.hashmap import spell_map
from spell_runtime.data.plist import EMPTY
from spell_runtime.data.vector import vec
from spell_runtime.errors import HostError, SpellError

K = Symbol("k")


def spell_fn(params: list[str], code: Any) -> SpellFn:
    f = SpellFn(vec([Symbol(p) for p in params]), EMPTY)
    f.code = code
    return f


def test_registered_host_builtin_is_returned_as_is() -> None:
    assert caller({}, seqs.first, 1) is seqs.first


def test_host_builtin_with_a_wrong_count_gets_clojures_arity_text() -> None:
    g = caller({}, seqs.first, 2)
    with pytest.raises(HostError, match=r"^Wrong number of args \(2\) passed to: clojure.core/first$"):
        g([1], [2])
    with pytest.raises(HostError, match=r"Wrong number of args \(0\) passed to: clojure.core/first"):
        call_fn({}, seqs.first, ())


def test_env_fn_receives_the_calling_env() -> None:
    f = EnvFn(lambda D, x: (D["tag"], x), "probe")
    assert caller({"tag": "env"}, f, 1)(5) == ("env", 5)


def test_spell_fn_runs_its_compiled_body_in_the_calling_env() -> None:
    f = spell_fn(["x"], lambda D, head, x: (head, x * D[K]))
    assert caller({K: 10}, f, 1)(4) == (None, 40)
    g = spell_fn(["a", "b"], lambda D, head, a, b: a - b)
    assert caller({}, g, 2)(5, 3) == 2
    h = spell_fn(["a", "b", "c"], lambda D, head, a, b, c: [a, b, c])
    assert caller({}, h, 3)(1, 2, 3) == [1, 2, 3]


def test_spell_error_inside_becomes_a_host_error_carrying_the_result() -> None:
    def boom(D: Any, head: Any, x: Any) -> Any:
        raise SpellError("Unbound symbol: nope", Symbol("nope"))

    with pytest.raises(HostError) as info:
        caller({}, spell_fn(["x"], boom), 1)(1)
    assert info.value.message == "Unbound symbol: nope"
    assert info.value.data is None
    assert info.value.result.get(Keyword("err")) == "Unbound symbol: nope"
    assert spell_failure(SpellError("m")).message == "m"


def test_spell_fn_arity_mismatch_is_the_builtin_invoked_error() -> None:
    f = spell_fn(["x", "y"], lambda D, head, x, y: y)
    g = caller({}, f, 1)
    with pytest.raises(HostError) as info:
        g(1)
    assert info.value.message == "Wrong number of args: expected 2, got 1"
    assert info.value.data == spell_map(Keyword("expected"), 2, Keyword("actual"), 1)


def test_keywords_and_maps_are_called_as_lookups() -> None:
    a = Keyword("a")
    assert caller({}, a, 1)(spell_map(a, 7)) == 7
    assert caller({}, spell_map(1, "one"), 1)(1) == "one"
    with pytest.raises(HostError, match=r"Wrong number of args \(3\) passed to: :a"):
        caller({}, a, 3)(1, 2, 3)


def test_non_callables_fail_with_the_jvm_text() -> None:
    with pytest.raises(HostError, match="java.lang.Long cannot be cast to class clojure.lang.IFn"):
        caller({}, 5, 1)(1)
