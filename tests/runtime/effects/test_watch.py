"""io/watch-send and io/event-send: nil now, a message later through the run's channel."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from spell_runtime.core.registry import EnvFn
from spell_runtime.data import Keyword, SpellMap, spell_map
from spell_runtime.effects import EffectContext
from spell_runtime.effects.io_watch import changes
from spell_runtime.errors import HostError, SpellArgumentError

K = Keyword


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[Any, Any, Any]] = []
        self.arrived = threading.Event()

    def send(self, handle: Any, value: Any, sender: Any) -> None:
        self.messages.append((handle, value, sender))
        self.arrived.set()


def test_watch_send_reports_changes(tmp_path: Path) -> None:
    inbox = Inbox()
    (tmp_path / "old.txt").write_text("x")
    with EffectContext(cwd=str(tmp_path), send=inbox.send) as ctx:
        watch = ctx.namespace("io").get(K("watch-send"))
        assert watch(".", K("main"), 5000) is None
        time.sleep(0.3)
        (tmp_path / "new.txt").write_text("y")
        assert inbox.arrived.wait(5)
    handle, value, sender = inbox.messages[0]
    assert handle is K("main") and sender is K("watch-send")
    assert spell_map(K("kind"), K("create"), K("name"), "new.txt") in list(value)


def test_watch_send_sends_nothing_on_timeout_or_error(tmp_path: Path) -> None:
    inbox = Inbox()
    with EffectContext(cwd=str(tmp_path), send=inbox.send) as ctx:
        watch = ctx.namespace("io").get(K("watch-send"))
        assert watch("missing-dir", K("main")) is None
        assert watch(".", K("main"), 100) is None
        time.sleep(0.6)
    assert inbox.messages == []


def test_watch_send_argument_checks(tmp_path: Path) -> None:
    with EffectContext(cwd=str(tmp_path)) as ctx:
        watch = ctx.namespace("io").get(K("watch-send"))
        with pytest.raises(HostError, match="no agent message channel"):
            watch(".", K("main"))
    with EffectContext(cwd=str(tmp_path), send=Inbox().send) as ctx:
        with pytest.raises(SpellArgumentError):
            ctx.namespace("io").get(K("watch-send"))(".", K("main"), "soon")


def test_changes_classifies_events() -> None:
    events = changes({"a": (1, 1), "b": (1, 1), "c": (1, 1)}, {"a": (1, 1), "b": (2, 5), "d": (0, 0)})
    assert [(e.get(K("kind")).name, e.get(K("name"))) for e in events] == [
        ("modify", "b"), ("delete", "c"), ("create", "d")]


def test_event_send_delivers_ok_and_errors(tmp_path: Path) -> None:
    inbox = Inbox()
    with EffectContext(send=inbox.send) as ctx:
        event_send = ctx.namespace("io").get(K("event-send"))
        assert isinstance(event_send, EnvFn)
        assert event_send.fn({}, lambda: spell_map(K("ok"), 7), K("h"), K("me")) is None
        assert inbox.arrived.wait(5)
        inbox.arrived.clear()
        event_send.fn({}, lambda: spell_map(K("abort"), True), K("h"), K("me"))

        def boom() -> SpellMap:
            raise HostError("it broke")

        event_send.fn({}, boom, K("h"), K("me"))
        assert inbox.arrived.wait(5)
    assert inbox.messages[0] == (K("h"), 7, K("me"))
    assert inbox.messages[1] == (K("h"), spell_map(K("error"), "it broke"), K("me"))
    assert len(inbox.messages) == 2
