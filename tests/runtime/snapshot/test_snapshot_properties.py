"""The properties of runtime.md §4.11, with hypothesis."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from snapshot_values import Naturals, Opaque, big_strings, data_values, envelope, kw, lines, smap, units, values
from spell_runtime.data import LineVector, PList, PVector, SpellMap, SpellSet, is_vector, plist, spell_eq, vec
from spell_runtime.data.atoms import Char, Keyword, Symbol
from spell_runtime.printer import render_form
from spell_runtime.snapshot import grace, snapshot, snapshot_text
from spell_runtime.snapshot.clip.shapes import is_envelope
from spell_runtime.valueform import value_form

import spellc
from spellc.reader import read_first

LIMITS = st.sampled_from([128, 129, 150, 200, 300, 500, 1000, 4000])
STRING_MARKER = re.compile(r"\.\.\. \[omitted ([0-9]+) UTF-16; ([0-9]+)\.\.([0-9]+) of ([0-9]+)\] \.\.\.")
GAP_ROW = re.compile(r"\.\.\. \[omitted ([0-9]+) rows; source ([0-9]+|unknown)\.\.([0-9]+|unknown)\] \.\.\.")
OMITTED = kw("omitted", "spell")
K_TRUNCATED, K_OK, K_EXIT, K_STATUS, K_ERR = kw("truncated"), kw("ok"), kw("exit"), kw("status"), kw("err")


def walk(v: Any) -> list[Any]:
    """Every value inside ``v`` (keys included), ``v`` first."""
    out = [v]
    stack = [v]
    while stack:
        x = stack.pop()
        children: list[Any] = []
        if isinstance(x, SpellMap):
            for k, y in x.items():
                children += [k, y]
        elif type(x) in (PVector, PList, LineVector) or isinstance(x, SpellSet):
            children = list(x)
        out += children
        stack += children
    return out


def expected_whole(v: Any) -> Any:
    """What a snapshot of plain data that fits must equal: ``v``, its envelopes gaining ``:truncated``."""
    if isinstance(v, SpellMap):
        pairs = [(expected_whole(k), expected_whole(x)) for k, x in v.items()]
        if not is_envelope(v):
            return SpellMap.from_pairs(pairs)
        m = dict((id(k), x) for k, x in pairs)
        order = [K_OK, K_EXIT, K_STATUS, kw("out"), K_ERR]
        head = [(k, m[id(k)]) for k in order if id(k) in m]
        extras = [(k, x) for k, x in pairs if not any(k is o for o in [*order, K_TRUNCATED])]
        return SpellMap.from_pairs([*head, (K_TRUNCATED, v.get(K_TRUNCATED) is True), *extras])
    if type(v) is LineVector:
        return LineVector(vec(expected_whole(x) for x in v), v.segments)
    if type(v) is PList:
        return plist([expected_whole(x) for x in v])
    if is_vector(v):
        return vec(expected_whole(x) for x in v)
    if isinstance(v, SpellSet):
        return SpellSet.from_items(expected_whole(x) for x in v)
    return v


def check_well_formed(result: Any) -> None:
    """Markers, gap rows and string markers have their product shapes; no surrogate pair is split."""
    for x in walk(result):
        if type(x) is str:
            x.encode("utf-8")  # a lone surrogate (a split pair) cannot be encoded
            for m in STRING_MARKER.finditer(x):
                n, h, t, total = (int(g) for g in m.groups())
                assert n == t - h and 0 <= h <= t <= total
        if type(x) is LineVector:
            for i, row in enumerate(x):
                if x.line_of(i) is None and type(row) is str and row.startswith("... [omitted"):
                    assert GAP_ROW.fullmatch(row)


def top_kind(v: Any) -> str:
    if isinstance(v, SpellMap):
        return "map"
    if type(v) in (PVector, LineVector):
        return "vector"
    if type(v) is PList:
        return "list"
    if isinstance(v, SpellSet):
        return "set"
    return "atom"


@settings(max_examples=300, deadline=None)
@given(values, LIMITS)
def test_snapshot_text_is_the_rendered_value_form(v: Any, limit: int) -> None:
    snap = snapshot(v, limit)
    text, truncated = snapshot_text(v, limit)
    assert text == render_form(snap.form) == render_form(value_form(snap.value))
    assert truncated is snap.truncated
    check_well_formed(snap.value)


@settings(max_examples=300, deadline=None)
@given(values, LIMITS)
def test_output_reads_back_as_its_form(v: Any, limit: int) -> None:
    snap = snapshot(v, limit)
    text = snapshot_text(v, limit)[0]
    assert spell_eq(read_first(text), snap.form)


@settings(max_examples=300, deadline=None)
@given(values, LIMITS)
def test_idempotence(v: Any, limit: int) -> None:
    first = snapshot(v, limit).value
    assert snapshot_text(first, limit)[0] == render_form(value_form(first))


@settings(max_examples=300, deadline=None)
@given(data_values, LIMITS)
def test_fitting_plain_data_is_unchanged(v: Any, limit: int) -> None:
    expected = expected_whole(v)
    full = render_form(value_form(expected))
    assume(units(full) <= grace(limit))
    text, truncated = snapshot_text(v, limit)
    assert text == full
    assert truncated is False


@settings(max_examples=300, deadline=None)
@given(data_values, LIMITS)
def test_bounded_output_and_kind(v: Any, limit: int) -> None:
    snap = snapshot(v, limit)
    text = render_form(snap.form)
    if snap.truncated:
        # Only mandatory envelope structure may push past the target, and a list or set, which is
        # shortened as a vector (runtime.md §4.5.3), by the width of its own wrapper: "(quote #{" + "})" less "[]".
        slack = 9 if top_kind(v) in ("list", "set") else 0
        if not any(is_envelope(x) for x in walk(snap.value)):
            assert units(text) <= limit + slack
        assert units(text) <= grace(limit) + 200
    assert top_kind(snap.value) == top_kind(v)


@settings(max_examples=200, deadline=None)
@given(big_strings, st.sampled_from([128, 129, 200, 300, 10000]))
def test_strings_keep_head_and_tail(s: str, limit: int) -> None:
    result = snapshot(s, limit).value
    assert type(result) is str
    if result == s:
        return
    m = STRING_MARKER.search(result)
    assert m is not None
    n, h, t, total = (int(g) for g in m.groups())
    assert total == units(s) and n == t - h
    head, tail = result[: m.start()], result[m.end():]
    encoded = s.encode("utf-16-le", "surrogatepass")
    assert head.encode("utf-16-le", "surrogatepass") == encoded[: 2 * h]
    assert tail.encode("utf-16-le", "surrogatepass") == encoded[2 * t:]
    head.encode("utf-8"), tail.encode("utf-8")
    assert units(render_form(result)) <= limit


@pytest.mark.parametrize("prefix", ["", "a", "ab", "abc"])
@pytest.mark.parametrize("limit", [128, 129, 200, 300])
def test_emoji_never_split(prefix: str, limit: int) -> None:
    result = snapshot(prefix + "😀" * 1000, limit).value
    result.encode("utf-8")
    assert result.startswith(prefix + "😀") and result.endswith("😀")


@pytest.mark.parametrize("limit", [128, 300, 10000])
@pytest.mark.parametrize("body", ["x", '"', "\\", "\n", "\t", "😀", "a\"b\\c\nd\te😀"])
def test_head_tail_with_escapes(limit: int, body: str) -> None:
    s = "HEAD" + body * 20000 + "TAIL"
    text = snapshot_text(s, limit)[0]
    assert text.startswith('"HEAD') and text.endswith('TAIL"') and units(text) <= limit


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=3), st.integers(0, 3000), LIMITS)
def test_envelope_status_is_never_altered(extras: list[int], size: int, limit: int) -> None:
    v = envelope(False, "o" * size, None, exit=3, status=404, **{"x%d" % i: "e" * (n * 300) for i, n in enumerate(extras)})
    result = snapshot(v, limit).value
    assert result.get(K_OK) is False and result.get(K_EXIT) == 3 and result.get(K_STATUS) == 404
    assert result.contains(K_ERR) and result.get(K_ERR) is None
    clipped = units(render_form(value_form(expected_whole(v)))) > grace(limit)
    assert result.get(K_TRUNCATED) is clipped
    assert list(result.keys())[:6] == [K_OK, K_EXIT, K_STATUS, kw("out"), K_ERR, K_TRUNCATED]


def test_truncated_is_per_envelope() -> None:
    clean = envelope(True, "ok", None, exit=0)
    result = snapshot(vec([Opaque(), clean]), 1000).value
    assert result[1].get(K_TRUNCATED) is False
    assert result[0].get(kw("representation-unavailable", "spell")) is True
    dirty = envelope(True, vec([Opaque()]), None)
    assert snapshot(vec([dirty]), 1000).value[0].get(K_TRUNCATED) is True
    already = SpellMap.from_pairs([(K_OK, True), (kw("out"), 1), (kw("err"), None), (K_TRUNCATED, True)])
    assert snapshot(already, 1000).value.get(K_TRUNCATED) is True


@pytest.mark.parametrize("n", [10, 100, 1000, 10**5])
@pytest.mark.parametrize("limit", [128, 300, 1000])
def test_vector_omission_counts_are_truthful(n: int, limit: int) -> None:
    result = snapshot(vec(range(n)), limit).value
    kept = [x for x in result if type(x) is int]
    omitted = sum(x.get(OMITTED) for x in result if isinstance(x, SpellMap))
    assert len(kept) + omitted == n
    head = [x for x in kept if x < n // 2]
    assert head == list(range(len(head)))
    tail = [x for x in kept if x >= n // 2]
    assert tail == list(range(n - len(tail), n))


@pytest.mark.parametrize("n", [40, 400, 4000])
def test_map_omission_counts_are_truthful(n: int) -> None:
    m = SpellMap.from_pairs((kw("k%d" % i), "v" * (i % 7)) for i in range(n))
    result = snapshot(m, 300).value
    counted = sum(1 for k in result.keys() if not (type(k) is Keyword and k.name.startswith("omitted")))
    marker = result.get(OMITTED)
    if n * 2 <= 2 * grace(300):  # pass 1 saw every entry
        assert counted + marker == n
    else:
        assert marker is kw("unknown")


def test_repeated_clipping_keeps_counting_original_elements() -> None:
    """D1: a marker left by an earlier snapshot counts as the elements it stands for."""
    once = snapshot(vec(range(10000)), 4000).value
    twice = snapshot(vec([*once, *range(5000)]), 300).value
    kept = [x for x in twice if type(x) is int]
    omitted = sum(x.get(OMITTED) for x in twice if isinstance(x, SpellMap))
    assert len(kept) + omitted == 15000


def test_numbered_gap_counts_rows_of_earlier_gaps() -> None:
    once = snapshot(lines(["r%d" % i for i in range(1, 2001)]), 1000).value
    twice = snapshot(once, 300).value
    gaps = [row for i, row in enumerate(twice) if twice.line_of(i) is None]
    assert len(gaps) == 1
    w, a, b = GAP_ROW.fullmatch(gaps[0]).groups()  # type: ignore[union-attr]
    kept = len(twice) - 1
    assert int(w) + kept == 2000
    assert int(a) == twice.line_of(twice.segments[0][1] - 1) + 1
    assert int(b) == twice.line_of(twice.segments[0][1] + 1) - 1


def test_bounded_work_on_infinite_and_deep_values() -> None:
    seq = Naturals()
    snapshot(vec([seq]), 1000)
    assert seq.pulled < 2 * grace(1000) + 2
    deep: Any = 1
    for _ in range(1000):
        deep = vec([deep])
    text, truncated = snapshot_text(deep, 10000)
    assert truncated and "bounded traversal" in text


def test_markers_are_never_shortened() -> None:
    """D2: a marker that does not fit its allowance stays a marker with its count."""
    v = vec([*range(50), smap(OMITTED, 123456789), *range(50)])
    result = snapshot(v, 128).value
    counts = [x.get(OMITTED) for x in result if isinstance(x, SpellMap)]
    assert sum(counts) + sum(1 for x in result if type(x) is int) == 100 + 123456789


def test_shortening_never_lengthens() -> None:
    """D3: a value whose diagnostic would be longer stays itself even when it misses its allowance."""
    v = vec([kw("k" * 40) for _ in range(30)])
    result = snapshot(v, 200).value
    assert all(type(x) is Keyword or isinstance(x, SpellMap) for x in result)
    assert not any(isinstance(x, SpellMap) and x.contains(kw("representation-unavailable", "spell")) for x in result)


@settings(max_examples=150, deadline=None)
@given(data_values, LIMITS)
def test_output_evaluates_back_to_the_snapshot(v: Any, limit: int) -> None:
    # A map whose keys are symbols or lists is written with those keys unquoted (runtime.md §4.3.3), which
    # evaluation would resolve; only values whose keys are self-evaluating round-trip through eval.
    # Characters are not evaluable literals (language.md Q4), and a keyword or symbol whose *name* holds a
    # slash has no spelling that evaluates back to it; both are left out.
    snap = snapshot(v, limit)
    for x in walk(snap.value):
        assume(type(x) is not Char)
        if type(x) in (Keyword, Symbol):
            assume("/" not in x.name)
        if isinstance(x, SpellMap):
            assume(all(k is None or type(k) in (str, int, bool, Keyword) for k in x.keys()))
        if isinstance(x, SpellSet):
            assume(all(not isinstance(e, SpellSet) for e in x))
    text = snapshot_text(v, limit)[0]
    assert spell_eq(spellc.eval_string(text), snap.value)
