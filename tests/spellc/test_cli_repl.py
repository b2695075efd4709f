"""``spellc repl``: the session (persistent environment, *1 *2 *3 *e, multi-line input), piped and on a pty."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spellc.repl import ReplSession

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "runtime")]))


def feed_all(session: ReplSession, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        for outcome in session.feed(line):
            out.append(outcome.value if outcome.value is not None else "ERR " + (outcome.error or ""))
    return out


def test_definitions_persist_between_inputs() -> None:
    session = ReplSession()
    assert feed_all(session, "(def x 41)", "(defn twice [n] (* 2 n))", "(twice (inc x))") == [
        "41", "{:spell/fn true, :params [n], :body ((* 2 n))}", "84"]


def test_history_values_and_the_last_error() -> None:
    session = ReplSession()
    assert feed_all(session, "1", "2", "3", "[*1 *2 *3]") == ["1", "2", "3", "[3 2 1]"]
    out = feed_all(session, "(/ 1 0)", "(:err *e)", "*1")
    assert out[0] == "ERR <repl>:1:1: Function call failed: /: Divide by zero"
    assert out[1:] == ['"Function call failed: /: Divide by zero"', '"Function call failed: /: Divide by zero"']


def test_multi_line_input_waits_for_balanced_forms() -> None:
    session = ReplSession()
    assert feed_all(session, "(defn f [x]") == [] and session.continuing
    assert feed_all(session, "  (+ x") == []
    assert feed_all(session, "     1))") == ["{:spell/fn true, :params [x], :body ((+ x 1))}"]
    assert not session.continuing
    assert feed_all(session, '["a', 'b"', "{:k") == []
    assert feed_all(session, "1}] (f 2)") == ['["a\\nb" {:k 1}]', "3"]


def test_reader_errors_and_spell_errors_do_not_end_the_session() -> None:
    session = ReplSession()
    out = feed_all(session, "(+ 1 2))", "(nope 1)", "(inc 1)")
    assert out[0] == "3"
    assert out[1] == "ERR <repl>:1:2: Unbound symbol: nope"
    assert out[2] == "2"


def test_piped_mode_prints_one_value_per_form(tmp_path: Path) -> None:
    text = "(def x 1) (inc x)\n(defn g [a]\n  (* a 10))\n(g 4)\n*3\n"
    done = subprocess.run([sys.executable, "-m", "spellc", "repl"], input=text, capture_output=True, text=True,
                          env=ENV, timeout=60, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == ["1", "2", "{:spell/fn true, :params [a], :body ((* a 10))}", "40", "2"]


def test_piped_mode_reports_errors_on_stderr_and_goes_on(tmp_path: Path) -> None:
    text = "(+ 1 2)\n(car 1)\n(inc 41)\n(unfinished\n"
    done = subprocess.run([sys.executable, "-m", "spellc", "repl"], input=text, capture_output=True, text=True,
                          env=ENV, timeout=60, cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["3", "42"]
    assert done.stderr.splitlines() == ["<repl>:1:2: Unbound symbol: car",
                                        "<repl>:2:1: Reader error: EOF while reading"]


def _read_until(fd: int, needle: bytes, timeout: float = 30.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("timed out waiting for %r; got %r" % (needle, seen))
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_terminal_mode_prompts_edits_and_keeps_history(tmp_path: Path) -> None:
    history = tmp_path / "history"
    controller, terminal = os.openpty()
    env = dict(ENV, SPELLC_HISTORY=str(history), TERM="dumb", INPUTRC=os.devnull)
    proc = subprocess.Popen([sys.executable, "-m", "spellc", "repl"], stdin=terminal, stdout=terminal,
                            stderr=terminal, env=env, cwd=tmp_path, close_fds=True)
    os.close(terminal)
    try:
        _read_until(controller, b"spell=> ")
        os.write(controller, b"(def y 20)\r")
        _read_until(controller, b"spell=> ")
        os.write(controller, b"(+ y\r")
        _read_until(controller, b"...> ")
        os.write(controller, b"  22)\r")
        assert b"42" in _read_until(controller, b"spell=> ")
        os.write(controller, b"(inc 1\x7f2)\r")  # backspace edits the line: (inc 2)
        assert b"3" in _read_until(controller, b"spell=> ")
        os.write(controller, b"\x1b[A\r")  # up arrow: the previous line again
        assert b"3" in _read_until(controller, b"spell=> ")
        os.write(controller, b"\x04")  # Ctrl-D ends the session
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        os.close(controller)
    assert "(inc 2)" in history.read_text(encoding="utf-8").splitlines()
