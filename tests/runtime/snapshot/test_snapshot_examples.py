"""The worked examples of runtime.md §4.10, exactly."""

from __future__ import annotations

from snapshot_values import Finite, Naturals, Opaque, envelope, kw, lines, smap, units
from spell_runtime.data import SpellMap, plist, symbol, vec
from spell_runtime.snapshot import snapshot, snapshot_text

Opaque.__module__ = "mymod"


def text(value: object, limit: int) -> str:
    return snapshot_text(value, limit)[0]


def test_1_within_grace_is_whole() -> None:
    out, truncated = snapshot_text("x" * 151, 128)
    assert out == '"' + "x" * 151 + '"' and units(out) == 153
    assert truncated is False


def test_2_past_grace_is_shortened_toward_the_limit() -> None:
    out, truncated = snapshot_text("x" * 152, 128)
    assert out == '"' + "x" * 62 + "... [omitted 69 UTF-16; 62..131 of 152] ..." + "x" * 21 + '"'
    assert units(out) == 128 and truncated is True


def test_3_head_and_tail_survive() -> None:
    out = text("HEAD" + "x" * 20000 + "TAIL", 128)
    assert out == '"HEAD' + "x" * 53 + "... [omitted 19932 UTF-16; 57..19989 of 20008] ..." + "x" * 15 + 'TAIL"'
    assert units(out) == 128


def test_4_no_surrogate_pair_is_split() -> None:
    out = text("ab" + "😀" * 200, 128)
    assert out == '"ab' + "😀" * 30 + "... [omitted 320 UTF-16; 62..382 of 402] ..." + "😀" * 10 + '"'


def test_5_thousand_characters() -> None:
    assert text("x" * 1000, 128) == '"' + "x" * 60 + "... [omitted 919 UTF-16; 60..979 of 1000] ..." + "x" * 21 + '"'


def test_6_vector_counts_original_elements() -> None:
    assert text(vec(range(10000)), 300) == "[0 1 2 3 4 5 6 7 8 (quote {:spell/omitted 9988}) 9997 9998 9999]"


def test_7_list_realises_only_the_fuel() -> None:
    assert text(plist(range(10000)), 300) == (
        "(quote (0 1 2 3 4 5 6 7 8 {:spell/omitted 708} 717 718 {:spell/omitted :unknown}))")


def test_8_infinite_lazy_sequence() -> None:
    seq = Naturals()
    assert text(seq, 128) == "(quote (0 1 2 {:spell/omitted 301} 304 {:spell/omitted :unknown}))"
    assert seq.pulled < 2 * 153 + 2


def test_9_long_keys_are_never_cut_into_colliding_prefixes() -> None:
    m = SpellMap.from_pairs([("k" * 1000 + "A", 1), ("k" * 1000 + "B", 2)])
    assert text(m, 128) == "(quote {:spell/omitted 2})"


def test_10_user_marker_key_is_preserved() -> None:
    m = smap(kw("omitted", "spell"), "USER", kw("big"), "x" * 10000)
    assert text(m, 128) == '(quote {:spell/omitted "USER" :spell/omitted-1 1})'


def test_11_unsupported_key_is_dropped() -> None:
    m = SpellMap.from_pairs([(Opaque(), kw("unsupported")), (kw("omitted", "spell"), "USER"), (kw("good"), 7)])
    assert text(m, 1000) == '(quote {:spell/omitted "USER" :good 7 :spell/omitted-1 :unknown})'


def test_12_host_object_becomes_a_diagnostic() -> None:
    assert text(Opaque(), 128) == (
        '(quote {:spell/representation-unavailable true :type "mymod.Opaque" :reason "unsupported host value"})')


def test_13_envelope_keeps_status_and_clips_out() -> None:
    v = envelope(False, "x" * 10000 + "TAIL", None, exit=17, status=503)
    out = text(v, 300)
    assert out == ('(quote {:ok false :exit 17 :status 503 :out "' + "x" * 129
                   + "... [omitted 9832 UTF-16; 129..9961 of 10004] ..." + "x" * 39 + 'TAIL" :err nil :truncated true})')
    assert units(out) == 294


def test_14_clean_envelope_gains_truncated_false() -> None:
    out, truncated = snapshot_text(envelope(True, "hello\n", None, exit=0), 300)
    assert out == '(quote {:ok true :exit 0 :out "hello\\n" :err nil :truncated false})'
    assert truncated is False


def test_15_failed_envelope_is_not_truncated() -> None:
    v = envelope(False, "", "grep: Unmatched [ or [^\n", exit=2)
    assert text(v, 300) == '(quote {:ok false :exit 2 :out "" :err "grep: Unmatched [ or [^\\n" :truncated false})'


def test_16_lazy_extra_inside_an_envelope() -> None:
    v = envelope(False, "payload", None, exit=17, status=503, metadata=Finite(10000))
    assert text(v, 512) == ('(quote {:ok false :exit 17 :status 503 :out "payload" :err nil :truncated true '
                            ':metadata (0 {:spell/omitted 1222} {:spell/omitted :unknown})})')


def test_17_vector_of_maps() -> None:
    files = vec(smap(kw("name"), "f%d.txt" % i, kw("size"), i * 10) for i in range(100))
    expected = ("(quote {:files [" + " ".join('{:name "f%d.txt" :size %d}' % (i, i * 10) for i in range(5))
                + " {:spell/omitted 93} "
                + '{:name "f98.txt" :size 980} {:name "f99.txt" :size 990}]})')
    assert text(smap(kw("files"), files), 400) == expected


def test_18_vector_of_strings() -> None:
    v = vec("alpha-%03d" % i for i in range(200))
    assert text(v, 200) == ("[" + " ".join('"alpha-%03d"' % i for i in range(6))
                            + ' (quote {:spell/omitted 192}) "alpha-198" "alpha-199"]')


def test_19_unreadable_symbol() -> None:
    assert text(symbol("a b"), 128) == '(symbol "a b")'


def test_20_small_map_is_quoted_whole() -> None:
    assert text(smap(kw("a"), 1, kw("b"), vec([1, 2, 3]), kw("c"), "x"), 128) == '(quote {:a 1 :b [1 2 3] :c "x"})'


def test_21_read_lines_envelope() -> None:
    v = envelope(True, lines(["row %d" % i for i in range(1, 51)]), None)
    assert text(v, 300) == "\n".join([
        "{:ok true :out (first-line 1 [",
        *(' "row %d" ; %d' % (i, i) for i in range(1, 8)),
        "] nil [",
        ' "... [omitted 40 rows; source 8..47] ..."',
        "] 48 [",
        *(' "row %d" ; %d' % (i, i) for i in range(48, 51)),
        "]) :err nil :truncated true}",
    ])


def test_22_hundred_thousand_lines() -> None:
    snap = snapshot(lines(["L%d" % i for i in range(1, 100001)]), 1000)
    kept = snap.value
    assert kept.segments == ((1, 30), (None, 1), (99990, 11))
    assert list(kept)[30] == "... [omitted 99959 rows; source 31..99989] ..."
    assert list(kept)[:2] == ["L1", "L2"] and list(kept)[-1] == "L100000"


def test_23_single_huge_line_is_shortened_in_place() -> None:
    v = smap(kw("out"), lines(["HEAD" + "a" * 10000 + "TAIL"], 77))
    out = text(v, 500)
    row = '"HEAD' + "a" * 245 + "... [omitted 9675 UTF-16; 249..9924 of 10008] ..." + "a" * 80 + 'TAIL"'
    assert out == "{:out (first-line 77 [\n " + row + " ; 77\n])}"
    assert units(out) == 417


def test_numbered_snapshot_positions_and_subvec() -> None:
    """runtime.md §4.6.4: rows 0–13 at 41…54, the gap, rows 15…19 at 536…540; subvec keeps them.

    (The spec does not say what held the vector; under ``:out`` of a map, as in
    example 23, its budget is 464 and exactly these rows are kept. Bare, the
    vector's budget is 500 and one more head row fits.)
    """
    kept = snapshot(smap(kw("out"), lines(["line-%d" % i for i in range(500)], 41)), 500).value.get(kw("out"))
    assert kept.segments == ((41, 14), (None, 1), (536, 5))
    assert [kept.line_of(i) for i in (0, 13, 14, 15, 19)] == [41, 54, None, 536, 540]
    assert kept[14] == "... [omitted 481 rows; source 55..535] ..."
    tail = kept.subvec(14, len(kept))
    assert tail.line_of(0) is None and tail.line_of(len(tail) - 1) == 540


def test_bare_numbered_vector_uses_its_whole_budget() -> None:
    kept = snapshot(lines(["line-%d" % i for i in range(500)], 41), 500).value
    assert kept.segments == ((41, 15), (None, 1), (536, 5))
    assert kept[15] == "... [omitted 480 rows; source 56..535] ..."
