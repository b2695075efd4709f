"""Multi-agent costs (runtime.md §11): the coordinator's transitions and a fan-out run.

1. Coordinator round trips — one request, its drain (claiming the slot), the fill and the
   report's drain — per second, from one thread and from eight threads at once (one lock
   serialises every transition, so eight threads measure contention, not parallel speed-up).
2. Fan-out — ``(agents/!spawn-ask [...])`` of N children that each answer at once, then the
   parent's resumed turn: wall time of the whole run and per child lifecycle (thread start,
   one model call, receipt, fill, report).

Usage: python benchmarks/bench_agents.py [N ...]   (default fan-outs: 10 50)
"""

from __future__ import annotations

import re
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

from spell_runtime.agents import Coordinator
from spell_runtime.data import Keyword

import spellc

START = "(eval (do '(!llm-self \"(quine completion (eval (do \" {:receive? true})))"
ROUND_TRIPS = 20000


def coordinator_round_trips(threads: int) -> float:
    """Round trips per second with ``threads`` askers, each with its own worker."""
    coord = Coordinator()
    main = Keyword("main")
    coord.register(main)
    per_thread = ROUND_TRIPS // threads

    def asker(i: int) -> None:
        source, worker = Keyword("asker-%d" % i), Keyword("worker-%d" % i)
        coord.register(source, main)
        coord.register(worker, source)
        for n in range(per_thread):
            edge = coord.request(source, [worker], True, n)
            coord.drain(worker)
            coord.fill(edge, worker, n)
            coord.drain(source)

    workers = [threading.Thread(target=asker, args=(i,)) for i in range(threads)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return per_thread * threads / (time.perf_counter() - started)


def fan_out(children: int) -> tuple[float, int]:
    """(seconds for the whole run, model requests) of one parent and ``children`` instant children."""
    specs = " ".join('["Child %d." :c%d]' % (i, i) for i in range(children))

    def answer(prefix: str) -> Optional[str]:
        found = re.search(r'\(quine prompt "Child (\d+)\."\)', prefix)
        if found:
            return "%s)))" % found.group(1)
        if "wait resumed" in prefix:
            return ":done)))"
        return "'(agents/!spawn-ask [%s]))))" % specs

    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "agents.agent.edn"
        profile.write_text("{:namespaces {agents stdlib/agents}}", encoding="utf-8")
        provider = spellc.TestProvider(response_fn=answer)
        started = time.perf_counter()
        outcome = spellc.run(init=START, model_profile=provider, agent_profile=str(profile))
        elapsed = time.perf_counter() - started
    assert "error" not in outcome, outcome.get("error")
    return elapsed, len(provider.requests)


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [10, 50]
    print("coordinator round trips (request, drain, fill, report drain)")
    print("  %8s %14s" % ("threads", "round trips/s"))
    for threads in (1, 8):
        print("  %8d %14.0f" % (threads, coordinator_round_trips(threads)))
    print()
    print("fan-out: one !spawn-ask edge to N children answering at once")
    print("  %8s %10s %12s %16s" % ("children", "requests", "total (s)", "per child (ms)"))
    fan_out(2)  # warm the compiler caches
    for n in sizes:
        seconds, requests = fan_out(n)
        print("  %8d %10d %12.3f %16.2f" % (n, requests, seconds, 1000 * seconds / n))


if __name__ == "__main__":
    main(sys.argv[1:])
