"""``spellc batch``: run every request of a JSONL file on a backend and append one result line per id.

Order of events for each item: skipped if ``--resume`` found its id in the
results file; refused at once if its line was bad; otherwise started when a slot
is free and the budget ledger is not spent, run by the backend (which enforces
the timeout), retried after a pause if it failed on the environment
(``retry``), and finally written — as soon as it finishes, flushed, so a batch
killed half-way keeps every finished result and ``--resume`` picks up the rest.

Result lines are the contract response with the item's ``id`` first (plus
``attempts`` when an item was retried). Items never started because the budget
was spent get no line. The runner itself is single-threaded: the local backend
forks from it (see ``backends.local``).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any, Final, Optional

from .backends import Backend, ItemFn
from .benchmark_api import handle_request
from .jsonl import BadLine, BatchItem, read_done, read_requests
from .ledger import BudgetLedger
from .progress import Progress
from .retry import is_retryable, retry_delay

POLL_SEC: Final = 0.5


@dataclass
class BatchOptions:
    requests_path: str
    output_path: str
    backend: str = "local"
    concurrency: int = 2
    timeout: Optional[float] = None
    budget: Optional[float] = None
    resume: bool = False
    trace_dir: Optional[str] = None
    agent: Optional[str] = None
    retries: int = 2
    wheels: tuple[str, ...] = ()
    ray_address: Optional[str] = None


@dataclass
class BatchSummary:
    total: int = 0
    resumed: int = 0
    written: int = 0
    failed: int = 0
    retried: int = 0
    not_started: int = 0
    spent: float = 0.0
    failures_by_type: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        text = "%d items: %d written (%d failed), %d already done, %d not started (budget), spent $%.4f" % (
            self.total, self.written, self.failed, self.resumed, self.not_started, self.spent)
        if self.failures_by_type:
            text += "; failures: " + ", ".join("%s %d" % kv for kv in sorted(self.failures_by_type.items()))
        return text


def make_backend(options: BatchOptions, item_fn: ItemFn) -> Backend:
    if options.backend == "ray":
        from .backends.ray_backend import RayBackend

        return RayBackend(item_fn, options.timeout, address=options.ray_address, wheels=options.wheels)
    from .backends.local import LocalBackend

    return LocalBackend(item_fn, options.timeout)


def safe_name(item_id: Any) -> str:
    """A directory name for an item's trace (``--trace-dir D`` → ``D/<id>``)."""
    text = re.sub(r"[^A-Za-z0-9._-]+", "_", str(item_id)).strip("._") or "item"
    return text[:120]


def prepare_request(item: BatchItem, options: BatchOptions) -> None:
    """Batch-wide defaults an item's own keys override: the agent and the trace directory."""
    request = item.request
    if options.agent is not None and "agent" not in request and "agent-profile" not in request \
            and "agent_profile" not in request:
        request["agent"] = options.agent
    if options.trace_dir is not None and "trace_dir" not in request and "trace-dir" not in request:
        request["trace_dir"] = os.path.join(options.trace_dir, safe_name(item.id))


def _end_torn_line(path: str, out: IO[str]) -> None:
    """Start on a fresh line when a killed batch left the file's last line unfinished (``read_done`` skips it)."""
    if out.tell() == 0:
        return
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) != b"\n":
            out.write("\n")


class BatchRunner:
    """One batch run; ``run`` returns the summary (the command turns it into an exit status)."""

    def __init__(self, options: BatchOptions, item_fn: ItemFn = handle_request,
                 backend_factory: Callable[[BatchOptions, ItemFn], Backend] = make_backend,
                 progress: Optional[Progress] = None) -> None:
        self.options = options
        self.item_fn = item_fn
        self.backend_factory = backend_factory
        self.progress = progress
        self.summary = BatchSummary()

    def run(self) -> BatchSummary:
        done_keys, earlier = read_done(self.options.output_path) if self.options.resume else (set(), [])
        ledger = BudgetLedger(self.options.budget, earlier)
        pending: deque[BatchItem] = deque()
        entries = list(read_requests(self.options.requests_path))
        self.summary.total = len(entries)
        progress = self.progress if self.progress is not None else Progress(len(entries))
        with open(self.options.output_path, "a", encoding="utf-8") as out:
            _end_torn_line(self.options.output_path, out)
            for entry in entries:
                if entry.key in done_keys:
                    self.summary.resumed += 1
                elif isinstance(entry, BadLine):
                    self._write(out, entry.result(), ledger)
                else:
                    prepare_request(entry, self.options)
                    pending.append(entry)
            if pending:
                self._drive(pending, out, ledger, progress)
        progress.close()
        self.summary.spent = ledger.spent
        return self.summary

    def _drive(self, pending: deque[BatchItem], out: IO[str], ledger: BudgetLedger, progress: Progress) -> None:
        backend = self.backend_factory(self.options, self.item_fn)
        try:
            while pending or backend.running():
                self._start_ready(pending, backend, ledger)
                if not backend.running():
                    if ledger.exhausted:
                        break
                    if pending:  # only retries waiting for their pause remain
                        time.sleep(max(0.0, min(i.not_before for i in pending) - time.monotonic()))
                    continue
                for item, response in backend.poll(POLL_SEC):
                    self._finished(item, response, pending, out, ledger)
                progress.show(self.summary.written + self.summary.resumed, self.summary.failed, backend.running(),
                              ledger.spent)
        finally:
            backend.close()
        self.summary.not_started = len(pending)

    def _start_ready(self, pending: deque[BatchItem], backend: Backend, ledger: BudgetLedger) -> None:
        now = time.monotonic()
        for _ in range(len(pending)):
            if backend.running() >= self.options.concurrency or ledger.exhausted:
                return
            item = pending.popleft()
            if item.not_before > now:
                pending.append(item)  # a retry still pausing: keep it behind the others
                continue
            item.attempts += 1
            backend.submit(item)

    def _finished(self, item: BatchItem, response: dict[str, Any], pending: deque[BatchItem], out: IO[str],
                  ledger: BudgetLedger) -> None:
        if is_retryable(response) and item.attempts <= self.options.retries:
            ledger.record(response)  # a failed attempt may still have cost money
            item.not_before = time.monotonic() + retry_delay(item.attempts)
            pending.appendleft(item)
            self.summary.retried += 1
            return
        result = {"id": item.id, **response}
        if item.attempts > 1:
            result["attempts"] = item.attempts
        self._write(out, result, ledger)

    def _write(self, out: IO[str], result: dict[str, Any], ledger: BudgetLedger) -> None:
        out.write(json.dumps(result) + "\n")
        out.flush()
        ledger.record(result)
        self.summary.written += 1
        if result.get("ok") is not True:
            self.summary.failed += 1
            kind = str(result.get("error_type"))
            self.summary.failures_by_type[kind] = self.summary.failures_by_type.get(kind, 0) + 1
