"""The execution trace directory of a run (runtime.md §8.2).

One node per model call (``:default``) and per ``leaf-llm`` call (``:leaf``),
linked parent → child through the call nesting: the node of the completion
being evaluated is the parent of every model call its program makes. The
recorder only collects; ``write`` lays the files out at the end of the run
(also on failure) and, best effort, at interpreter exit.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, vec
from spell_runtime.printer import pr_str

VARIANT_DEFAULT: Final = "default"
VARIANT_LEAF: Final = "leaf"
K_FAULT: Final = Keyword("fault", "spell")
K_REASON: Final = Keyword("reason", "spell")


def _now_ms() -> int:
    return int(time.time() * 1000)


def _clip(text: str, n: int) -> str:
    return text[:n] + "..." if len(text) > n else text


MAIN: Final = Keyword("main")


class TraceRecorder:
    """Collects trace nodes (thread-safe); ``write(dir)`` produces the files of §8.2."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.nodes: list[dict[str, Any]] = []
        self.root: Optional[int] = None
        self.warnings: list[dict[str, Any]] = []
        self.edges: Optional[Callable[[], Any]] = None
        """Multi-agent runs: the coordinator's edge log (runtime.md §11.3), written as ``:edges``."""
        self._written = False
        self._at_exit: Optional[Callable[[], None]] = None

    def begin(self, parent: Optional[int], depth: int, variant: str, prompt: str, handle: Any = None) -> int:
        """Register a node before its model call; returns its id (0, 1, 2... in start order)."""
        with self._lock:
            node_id = len(self.nodes)
            node: dict[str, Any] = {"id": node_id, "parent": parent, "depth": depth, "variant": variant,
                                    "prompt": prompt, "start-ms": _now_ms(), "children": []}
            if handle is not None:
                node["handle"] = handle
            self.nodes.append(node)
            if self.root is None:
                self.root = node_id
            if parent is not None and 0 <= parent < len(self.nodes):
                self.nodes[parent]["children"].append({"child-id": node_id, "call-prompt": prompt})
            return node_id

    def update(self, node_id: int, **fields: Any) -> None:
        """Attach facts to a node (``response``, ``raw_text``, ``program``); underscores become dashes."""
        with self._lock:
            node = self.nodes[node_id]
            for key, value in fields.items():
                node[key.replace("_", "-")] = value

    def succeed(self, node_id: int, value: Any) -> None:
        with self._lock:
            node = self.nodes[node_id]
            node["end-ms"] = _now_ms()
            node["value"] = value

    def fail(self, node_id: int, message: str, fault: Any = None, reason: Any = None) -> None:
        with self._lock:
            node = self.nodes[node_id]
            node["end-ms"] = _now_ms()
            node["error"] = message
            if fault is not None:
                node["spell/fault"] = fault
            if reason is not None:
                node["spell/reason"] = reason

    def warn(self, message: str, data: Any = None) -> None:
        with self._lock:
            self.warnings.append({"message": message, "data": data, "timestamp-ms": _now_ms()})

    # -- output ------------------------------------------------------------------------------------
    @staticmethod
    def file_name(node: dict[str, Any]) -> str:
        return "%04d%s" % (node["id"], ".txt" if node["variant"] == VARIANT_LEAF else ".spl")

    def as_data(self) -> SpellMap:
        """The trace as Spell data (nodes without their raw text, which lives in the node files)."""
        with self._lock:
            nodes = [dict(n) for n in self.nodes]
            warnings = [dict(w) for w in self.warnings]
            root = self.root
        clean = []
        for node in nodes:
            node.pop("raw-text", None)
            node["file"] = self.file_name(node)
            node["variant"] = Keyword(node["variant"])
            node["children"] = vec(_spell_map(c) for c in node["children"])
            clean.append(_spell_map(node))
        data = {"nodes": vec(clean), "next-id": len(nodes), "root": root,
                "warnings": vec(_spell_map(w) for w in warnings)}
        if self.edges is not None:
            data["edges"] = self.edges()
        return _spell_map(data)

    def tree_text(self) -> str:
        """The readable tree: one line per node, children drawn with box characters."""
        with self._lock:
            nodes = [dict(n) for n in self.nodes]
        if not nodes:
            return ""

        def label(node: dict[str, Any]) -> str:
            text = "%d%s %s" % (node["id"], " [leaf]" if node["variant"] == VARIANT_LEAF else "",
                                _clip(str(node["prompt"]), 40))
            if "error" in node:
                return text + " \u2717 " + _clip(str(node["error"]), 30)
            if "value" in node:
                return text + " \u2192 " + _clip(pr_str(node["value"]), 30)
            return text

        def render(node_id: int, prefix: str) -> str:
            node = nodes[node_id]
            text = label(node) + "\n"
            children = [c["child-id"] for c in node["children"]]
            for i, child in enumerate(children):
                last = i == len(children) - 1
                text += prefix + ("\u2514\u2500 " if last else "\u251c\u2500 ")
                text += render(child, prefix + ("   " if last else "\u2502  "))
            return text

        roots = [render(n["id"], "") for n in nodes if n["parent"] is None]
        return "".join(roots).rstrip()

    def write(self, directory: str) -> str:
        """Write ``NNNN.spl``/``NNNN.txt``, ``trace.edn`` and ``tree.txt`` into ``directory``."""
        os.makedirs(directory, exist_ok=True)
        with self._lock:
            texts = [(self.file_name(n), n.get("raw-text"), n.get("handle")) for n in self.nodes]
        several_agents = any(h is not None and h != MAIN for _n, _t, h in texts)
        for name, text, handle in texts:
            if isinstance(text, str):
                with open(os.path.join(directory, name), "w", encoding="utf-8") as fh:
                    fh.write(text)
                if several_agents and handle is not None:
                    # A folder per agent handle: that agent's turns in order (runtime.md §11, §8.2).
                    folder = os.path.join(directory, "agents", _folder_name(handle))
                    os.makedirs(folder, exist_ok=True)
                    with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
                        fh.write(text)
        with open(os.path.join(directory, "trace.edn"), "w", encoding="utf-8") as fh:
            fh.write(pr_str(self.as_data()) + "\n")
        with open(os.path.join(directory, "tree.txt"), "w", encoding="utf-8") as fh:
            fh.write(self.tree_text() + "\n")
        self._written = True
        if self._at_exit is not None:
            atexit.unregister(self._at_exit)  # do not keep finished traces alive until exit
            self._at_exit = None
        return directory

    def write_at_exit(self, directory: str) -> None:
        """Best effort: write at interpreter exit unless ``write`` runs first (which cancels this)."""

        def flush() -> None:
            if not self._written:
                try:
                    self.write(directory)
                except Exception:  # noqa: BLE001 - nothing left to report to at exit
                    pass

        self._at_exit = flush
        atexit.register(flush)


def _folder_name(handle: Any) -> str:
    """A file-system-safe folder name for an agent handle (``:kid`` → ``kid``)."""
    text = handle.name if type(handle) is Keyword and handle.ns is None else str(handle).lstrip(":")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in text)
    return safe.strip(".") or "_"


def _spell_map(d: dict[str, Any]) -> SpellMap:
    return SpellMap.from_pairs((Keyword(k.split("/")[1], k.split("/")[0]) if "/" in k else Keyword(k), v)
                               for k, v in d.items())
