"""Snapshot clipping cost against input size (issue 6, runtime.md §4).

Run: ``python benchmarks/bench_snapshot.py [--quick]`` (prints a table). Every
value is clipped to the default 10,000-unit target; the figures are medians of
repeated runs of the compiled core (when the mypyc extension is built) and of
the same modules interpreted. Clipping is meant to cost what its *output*
costs, so each family's time should stay flat as the input grows by orders of
magnitude; the last rows give ``pr_str`` of a value whose full text is about
10,000 characters for scale.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from spell_runtime.data import SpellMap, keyword, vec
from spell_runtime.printer import pr_str, render_form
from spell_runtime.snapshot import backend
from spell_runtime.valueform import value_form

LIMIT = 10000


CLOCK = time.process_time
"""CPU time of this (single-threaded) process: on a machine shared with other busy processes, wall
time mostly measures the scheduler (the same reason bench_turns.py uses thread time)."""


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm caches (first touch of a large input is paged in, not clipped)
    times = []
    for _ in range(repeat):
        start = CLOCK()
        fn()
        times.append(CLOCK() - start)
    return statistics.median(times) * 1000


def ints(n: int) -> Any:
    return vec(range(n))


def keyword_map(n: int) -> Any:
    return SpellMap.from_pairs((keyword("k%d" % i), i) for i in range(n))


def ascii_text(n: int) -> Any:
    return "x" * n


def bmp_text(n: int) -> Any:
    return "\u00e9" * n


def astral_text(n: int) -> Any:
    return "\U0001f600" * n


def nested(depth: int) -> Any:
    v: Any = vec([1, 2, 3])
    for _ in range(depth):
        v = vec([v, "x"])
    return v


def records(n: int) -> Any:
    return vec(SpellMap.from_pairs([(keyword("id"), i), (keyword("xs"), vec(range(20)))]) for i in range(n))


def maps_in_vector(n: int) -> Any:
    """Four keyword maps of ``n`` entries each in a vector (issue 14: vectors of maps)."""
    return vec(keyword_map(n) for _ in range(4))


def cases(quick: bool) -> list[tuple[str, Callable[[int], Any], list[int]]]:
    top = 6 if quick else 7
    return [
        ("vector of ints", ints, list(range(3, top + 1))),
        ("map keyword->int", keyword_map, list(range(3, min(top, 6) + 1))),
        ("string, ASCII", ascii_text, list(range(3, top + 2))),
        ("string, BMP (é)", bmp_text, [3, 6, top + 1]),
        ("string, astral (😀)", astral_text, [3, 5, 6]),
        ("nested vectors, depth", nested, [2, 4, 5]),
        ("vector of maps of vectors", records, [2, 4, 5]),
        ("vector of 4 keyword maps", maps_in_vector, [2, 3, 5]),
    ]


def row(name: str, size: str, v: Any, pure: ModuleType, compiled: ModuleType | None, repeat: int) -> str:
    text = pure.render(pure.snapshot(v, LIMIT)[0])
    fast = "%12.3f" % median_ms(lambda: compiled.snapshot(v, LIMIT), repeat) if compiled else "%12s" % "-"
    slow = median_ms(lambda: pure.snapshot(v, LIMIT), repeat)
    return "%-28s %8s %s %14.3f %8d" % (name, size, fast, slow, len(text))


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = 5 if quick else 11
    pure = backend.load_pure()
    compiled = backend.core if backend.COMPILED else None
    print("snapshot clipping at limit %d; compiled core: %s" % (LIMIT, "yes" if compiled else "NOT BUILT"))
    print("%-28s %8s %12s %14s %8s" % ("value", "size", "compiled ms", "interpreted ms", "chars"))
    for name, make, exponents in cases(quick):
        for e in exponents:
            print(row(name, "10^%d" % e, make(10**e), pure, compiled, repeat))
    print()
    big = keyword_map(10**6)
    shown = keyword_map(900)
    print_ms = median_ms(lambda: pr_str(shown), repeat)
    clip_slow = median_ms(lambda: pure.snapshot(big, LIMIT), repeat)
    clip_fast = median_ms(lambda: compiled.snapshot(big, LIMIT), repeat) if compiled else None
    print("issue 14 map rows (target: clip <= 3 x pr-str)")
    print("%-40s %10.3f ms %8d chars" % ("clip a 10^6-entry map to %d, interpreted" % LIMIT, clip_slow,
                                         len(pure.render(pure.snapshot(big, LIMIT)[0]))))
    if clip_fast is not None:
        print("%-40s %10.3f ms" % ("clip a 10^6-entry map to %d, compiled" % LIMIT, clip_fast))
    print("%-40s %10.3f ms %8d chars" % ("pr-str of a 900-entry map", print_ms, len(pr_str(shown))))
    print("%-40s %10.1f" % ("ratio clip / pr-str, interpreted", clip_slow / print_ms))
    if clip_fast is not None:
        print("%-40s %10.1f" % ("ratio clip / pr-str, compiled", clip_fast / print_ms))
    print()
    ref = vec(range(2200))
    form = value_form(ref)
    print("%-28s %8s %12.3f %14s %8d" % ("reference: pr_str", "10^4 ch", median_ms(lambda: pr_str(ref), repeat), "",
                                          len(pr_str(ref))))
    print("%-28s %8s %12.3f %14s %8d" % ("reference: render_form", "10^4 ch",
                                          median_ms(lambda: render_form(form), repeat), "", len(render_form(form))))


if __name__ == "__main__":
    main()
