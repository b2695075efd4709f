"""The envelope builder: canonical key order, booleans, absent vs nil keys, no :truncated."""

from __future__ import annotations

import pytest
from effects_support import field, keys
from spell_runtime.effects.envelope import envelope, fail, ok


def test_success_shape_and_order() -> None:
    env = ok("text")
    assert keys(env) == [":ok", ":out", ":err"]
    assert field(env, "ok") is True and field(env, "out") == "text" and field(env, "err") is None


def test_failure_keeps_available_output() -> None:
    env = fail("HTTP 404 from u", out="body", status=404)
    assert keys(env) == [":ok", ":status", ":out", ":err"]
    assert field(env, "ok") is False and field(env, "out") == "body" and field(env, "status") == 404


def test_process_keys_in_canonical_order_even_when_given_late() -> None:
    env = envelope(True, "o", "e", status=200, exit=0)
    assert keys(env) == [":ok", ":exit", ":status", ":out", ":err"]


def test_exit_nil_is_present_but_absent_exit_is_not() -> None:
    assert ":exit" in keys(envelope(False, "", "x", exit=None))
    assert field(envelope(False, "", "x", exit=None), "exit") is None
    assert ":exit" not in keys(fail("x"))


def test_extras_follow_canonical_keys() -> None:
    env = ok(1, source_line=3)
    assert keys(env) == [":ok", ":out", ":err", ":source-line"]


@pytest.mark.parametrize("name", ["truncated", "ok"])
def test_reserved_extras_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        fail("x", **{name: True})
    with pytest.raises(ValueError):
        ok(1, truncated=False)


def test_ok_flag_is_a_real_boolean() -> None:
    assert field(envelope(1, None, None), "ok") is False  # type: ignore[arg-type]
