"""For ANY text the reader returns forms or raises ReaderError: never another exception, never a hang."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spell_runtime.printer import pr_str

from spellc.reader import ReaderError, read_all, read_first, read_first_span

_PIECES = list("()[]{}#\\\"';`~@^%:/,.\n \t0123456789abcxNMrRe+-_!?=<&*") + [
    "\\u", "\\o", "#{", "#(", "#:", "::", "##", "#_", "#'", "#!", "#=", "#?", "#\"", "%&", "%1", "1/0", "0x",
    "2r", "#inst ", "#uuid ", '"\\u00', "//", "/*", "*/", "~@", "^:", "\\newline", "Inf", "NaN", "é",
    "\U0001F600", "\u00a0", "\u2003", "\u0085", "\ud83d",
]
_RICH = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)
_TEXTS = st.one_of(_RICH, st.text(max_size=60))
_GENSYM = re.compile(r"__\d+")


def _read_or_error(fn: object, text: str) -> object:
    try:
        return fn(text)  # type: ignore[operator]
    except ReaderError as e:
        assert str(e), "a reader error always has a message"
        assert 1 <= e.line <= text.count("\n") + 1
        assert e.column >= 1
        assert e.position == (e.line, e.column - 1, e.line, e.column)
        return e


@settings(max_examples=3000, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXTS)
def test_any_text_reads_or_raises_reader_error(text: str) -> None:
    every = _read_or_error(read_all, text)
    first = _read_or_error(read_first, text)
    _read_or_error(read_first_span, text)
    if isinstance(every, list) and every and not isinstance(first, ReaderError):
        # read_first agrees with read_all on the first form (gensym numbers aside).
        assert _GENSYM.sub("__N", pr_str(first)) == _GENSYM.sub("__N", pr_str(every[0]))


# No deadline: a 20,000-deep read takes seconds on a loaded shared machine; what this test checks is that
# it never overflows the stack, not how fast it is (speed lives in benchmarks/bench_reader.py).
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 20_000), st.sampled_from(["(", "[", "{", "#{", "'", "`", "#_", "^:a ", "@", "~", "#(", "#:a{"]))
def test_deep_nesting_never_overflows_the_stack(depth: int, opener: str) -> None:
    _read_or_error(read_all, opener * depth)
    _read_or_error(read_all, opener * depth + "x" + ")" * depth)


def test_deep_balanced_lists_read() -> None:
    depth = 100_000
    [form] = read_all("(" * depth + "x" + ")" * depth)
    for _ in range(depth - 1):
        form = form.first
    assert list(form) == [read_all("x")[0]]
