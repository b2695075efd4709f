"""Reading a batch: the requests file (one JSON request with an ``id`` per line) and the ids already done.

A bad line never stops a batch (issue 17): it becomes a ``BadLine`` that the
runner writes as that id's ``invalid_request`` result, so a sweep of 1,000 items
with one typo still runs 999. Items are keyed by their id's JSON text (``1`` and
``"1"`` are different ids); a line without a usable id is keyed by its line
number, so ``--resume`` skips it too once its error was written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Optional, Union


@dataclass
class BatchItem:
    """One request of a batch, with what the runner tracks about it."""

    id: Any
    line: int
    request: dict[str, Any]
    attempts: int = 0
    not_before: float = 0.0
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.key = id_key(self.id)


@dataclass
class BadLine:
    """A line that is not a runnable request; ``id`` is None when the line has no usable id."""

    id: Any
    line: int
    error: str

    @property
    def key(self) -> str:
        return line_key(self.line) if self.id is None else id_key(self.id)

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "line": self.line, "ok": False, "mode": None, "error": self.error,
                               "error_type": "invalid_request"}
        return out


Entry = Union[BatchItem, BadLine]


def id_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def line_key(line: int) -> str:
    return "#line %d" % line


def _usable_id(value: Any) -> bool:
    return (isinstance(value, (str, int)) and not isinstance(value, bool)) and value != ""


def parse_line(text: str, line: int, seen: dict[str, int]) -> Optional[Entry]:
    """One line of the requests file (None for a blank line); ``seen`` maps id keys to their first line."""
    if not text.strip():
        return None
    try:
        request = json.loads(text)
    except ValueError as e:
        return BadLine(None, line, "line %d is not valid JSON: %s" % (line, e))
    if not isinstance(request, dict):
        return BadLine(None, line, "line %d is not a JSON object" % line)
    if "id" not in request:
        return BadLine(None, line, "line %d has no id" % line)
    item_id = request["id"]
    if not _usable_id(item_id):
        return BadLine(None, line, "line %d: id must be a non-empty string or an integer, got %s"
                       % (line, json.dumps(item_id)))
    key = id_key(item_id)
    if key in seen:
        return BadLine(None, line, "line %d repeats id %s (first on line %d)" % (line, key, seen[key]))
    seen[key] = line
    body = {k: v for k, v in request.items() if k != "id"}
    return BatchItem(item_id, line, body)


def read_requests(path: str) -> Iterator[Entry]:
    """Every non-blank line of a JSONL file, in order."""
    seen: dict[str, int] = {}
    with open(path, encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            entry = parse_line(text, number, seen)
            if entry is not None:
                yield entry


def read_done(path: str) -> tuple[set[str], list[dict[str, Any]]]:
    """Keys of the results already in a results file, and those results (a torn last line is ignored)."""
    keys: set[str] = set()
    results: list[dict[str, Any]] = []
    try:
        fh = open(path, encoding="utf-8")
    except FileNotFoundError:
        return keys, results
    with fh:
        for text in fh:
            try:
                result = json.loads(text)
            except ValueError:
                continue  # a line cut short when a previous batch was killed mid-write
            if not isinstance(result, dict) or "id" not in result:
                continue
            if result["id"] is None and isinstance(result.get("line"), int):
                keys.add(line_key(result["line"]))
            else:
                keys.add(id_key(result["id"]))
            results.append(result)
    return keys, results
