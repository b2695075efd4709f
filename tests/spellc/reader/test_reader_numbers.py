"""``read_number``'s fast paths (plain decimal longs and doubles) read every token exactly as the full
patterns of ``match_number`` do: the same value of the same type, or the same error."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from spellc.reader import numbers
from spellc.reader.errors import ReadFailure
from spellc.reader.numbers import match_number, read_number

NUMBER_CHARS = "0123456789.-+eEMNrRxX/\u0663"


def _outcome(read: Any, text: str) -> tuple[str, Any, Any]:
    try:
        value = read(text)
    except ReadFailure as e:
        return "error", str(e), None
    return "ok", type(value), (math.copysign(1, value), value) if isinstance(value, float) else value


@given(st.text(alphabet=st.sampled_from(NUMBER_CHARS), min_size=1, max_size=10).map(lambda t: "1" + t)
       | st.from_regex(r"[-+]?[0-9]{1,4}\.[0-9]{0,4}", fullmatch=True))
@example("100.0")
@example("-0.0")
@example("+1.")
@example("01.50")
@example("1.2.3")
@example("1.5M")
@example("1.5e3")
@example("1.\u0663")
def test_fast_paths_read_as_the_full_patterns(text: str) -> None:
    assert _outcome(read_number, text) == _outcome(match_number, text)


def test_plain_doubles_do_not_compile_the_patterns(monkeypatch: Any) -> None:
    monkeypatch.setattr(numbers, "_compiled", None)
    assert read_number("49.90") == 49.9 and read_number("-0.5") == -0.5 and read_number("100.") == 100.0
    assert numbers._compiled is None
    assert read_number("1e3") == 1000.0
    assert numbers._compiled is not None
