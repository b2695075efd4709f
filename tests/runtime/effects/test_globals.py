"""globals/: initial state, raw values, atomic update/pop, event-driven wait-until (runtime.md §2.4)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from spell_runtime.data import EMPTY, Keyword, PList, SpellMap, spell_map, vec
from spell_runtime.effects import EffectContext, GlobalsStore
from spell_runtime.effects.globals import first_and_rest

Member = Callable[..., Any]
K = Keyword


@pytest.fixture
def g() -> Iterator[Callable[[str], Any]]:
    with EffectContext() as ctx:
        ns = ctx.namespace("globals")
        yield lambda name: ns.get(K(name))


def call(member: Any, *args: Any) -> Any:
    """Call a member the way the evaluator does (EnvFn members take the environment first)."""
    from spell_runtime.core.registry import EnvFn

    if isinstance(member, EnvFn):
        return member.fn({}, *args)
    return member(*args)


def test_initial_state(g: Callable[[str], Any]) -> None:
    assert call(g("get"), K("roles")) == SpellMap()
    assert list(call(g("get"), K("tasks"))) == [] and call(g("get"), K("missing")) is None
    assert list(call(g("keys"))) == [K("roles"), K("tasks")]


def test_set_get_all(g: Callable[[str], Any]) -> None:
    assert call(g("set"), K("x"), 42) == 42
    assert call(g("get"), K("x")) == 42
    assert call(g("all")).get(K("x")) == 42
    assert call(g("set"), "string key", None) is None
    assert call(g("all")).contains("string key")


def test_update_with_host_function(g: Callable[[str], Any]) -> None:
    new = call(g("update"), K("roles"), lambda m: m.assoc(K("h1"), "worker"))
    assert new == spell_map(K("h1"), "worker") and call(g("get"), K("roles")) == new
    assert call(g("update"), K("n"), lambda v: 1 if v is None else v + 1) == 1


def test_pop_returns_first_and_leaves_a_seq(g: Callable[[str], Any]) -> None:
    call(g("set"), K("q"), vec([K("a"), K("b")]))
    assert call(g("pop"), K("q")) is K("a")
    rest = call(g("get"), K("q"))
    assert type(rest) is PList and list(rest) == [K("b")]
    assert call(g("pop"), K("q")) is K("b")
    assert call(g("pop"), K("q")) is None
    assert call(g("pop"), K("absent")) is None
    assert not call(g("all")).contains(K("absent"))


def test_first_and_rest_shapes() -> None:
    assert first_and_rest(None) == (None, EMPTY)
    head, rest = first_and_rest("ab")
    assert head.ch == "a" and [c.ch for c in rest] == ["b"]
    with pytest.raises(Exception, match="not sequential"):
        first_and_rest(5)


def test_concurrent_updates_are_atomic() -> None:
    store = GlobalsStore()
    store.set(K("n"), 0)

    def bump() -> None:
        for _ in range(200):
            store.update(K("n"), lambda v: v + 1)

    threads = [threading.Thread(target=bump) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.get(K("n")) == 1600


def test_concurrent_pops_hand_out_each_task_once() -> None:
    store = GlobalsStore()
    store.set(K("tasks"), vec(range(500)))
    got: list[Any] = []
    lock = threading.Lock()

    def worker() -> None:
        while (item := store.pop(K("tasks"))) is not None:
            with lock:
                got.append(item)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == list(range(500))


def test_wait_until_returns_immediately_when_satisfied(g: Callable[[str], Any]) -> None:
    assert call(g("wait-until"), lambda m: m.contains(K("roles"))) is True


def test_wait_until_wakes_on_change_without_polling() -> None:
    store = GlobalsStore()
    calls: list[int] = []

    def pred(m: SpellMap) -> bool:
        calls.append(1)
        return m.get(K("done")) is True

    result: list[bool] = []
    waiter = threading.Thread(target=lambda: result.append(store.wait_until(pred)))
    waiter.start()
    time.sleep(0.3)
    assert calls == [1]  # evaluated once, then asleep until a change
    store.set(K("other"), 1)
    time.sleep(0.1)
    store.set(K("done"), True)
    waiter.join(5)
    assert result == [True] and len(calls) == 3


def test_wait_until_timeout() -> None:
    assert GlobalsStore().wait_until(lambda m: False, timeout=0.1) is False


def test_each_context_has_its_own_store() -> None:
    with EffectContext() as a, EffectContext() as b:
        a.globals.set(K("k"), 1)
        assert b.globals.get(K("k")) is None
