"""The process-wide gensym counter: unique across threads, shared by every producer."""

from __future__ import annotations

import threading

from spell_runtime.data.atoms import Symbol
from spell_runtime.gensym import gensym, next_id


def test_ids_increase() -> None:
    a = next_id()
    b = next_id()
    assert b > a


def test_gensym_prefix_and_freshness() -> None:
    g = gensym()
    assert type(g) is Symbol and g.ns is None and g.name.startswith("G__")
    h = gensym("and__")
    assert h.name.startswith("and__") and h is not gensym("and__")
    assert int(h.name[len("and__"):]) > int(g.name[len("G__"):])


def test_ids_are_unique_across_threads() -> None:
    seen: list[list[int]] = []

    def work() -> None:
        seen.append([next_id() for _ in range(2000)])

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    flat = [i for ids in seen for i in ids]
    assert len(flat) == len(set(flat)) == 16000


def test_reader_draws_from_the_same_counter() -> None:
    from spellc.reader import read_all

    before = next_id()
    [form] = read_all("#(f %)")
    param = form[1][0].name  # p1__N#
    after = next_id()
    assert before < int(param[len("p1__"):-1]) < after
