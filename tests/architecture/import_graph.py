"""The static import graph of ``spellc`` and ``spell_runtime``, read from the source with ``ast``.

Why a graph of our own rather than ``import-linter``: the rules we keep (architecture.md §1.2,
house-review.md §4) fit in a page, and the tool would be one more pinned dependency. Three kinds
of edge are kept apart, because they cost differently:

* **module** — an import that runs when the importing module loads (module body, class bodies,
  module-level ``if``/``try``). A circle among these makes load order matter.
* **function** — an import inside a ``def``: it runs on first call. A circle that needs one of
  these is hidden from readers and tools and costs an import lookup per call.
* **type** — under ``if TYPE_CHECKING:``; never runs, so it is not counted at all.

An edge goes to the module named; importing ``a.b.c`` also runs ``a/__init__`` and
``a/b/__init__``, but those parents are deliberately not edges (every module would otherwise sit
in a circle with its own package). ``from pkg import name`` is an edge to ``pkg.name`` when that
is a module, else to ``pkg``.

Run ``python tests/architecture/import_graph.py`` to print today's circles.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_ROOTS = {"spellc": ROOT / "spellc", "spell_runtime": ROOT / "runtime" / "spell_runtime"}

# The one door the runtime has into the compiler (architecture.md §1.2): its edges into ``spellc``
# are lazy by design and are left out of the circle check.
SEAM = "spell_runtime.hooks"


@dataclass
class Graph:
    """Edges by kind: ``edges[kind][module]`` is the set of first-party modules it imports."""

    modules: dict[str, Path] = field(default_factory=dict)
    edges: dict[str, dict[str, set[str]]] = field(
        default_factory=lambda: {"module": {}, "function": {}, "type": {}})
    lines: dict[tuple[str, str, str], int] = field(default_factory=dict)

    def add(self, kind: str, source: str, target: str, line: int) -> None:
        if target == source:
            return
        self.edges[kind].setdefault(source, set()).add(target)
        self.lines.setdefault((kind, source, target), line)

    def union(self, *kinds: str, without_seam: bool = False) -> dict[str, set[str]]:
        merged: dict[str, set[str]] = {m: set() for m in self.modules}
        for kind in kinds:
            for source, targets in self.edges[kind].items():
                if without_seam and source == SEAM:
                    targets = {t for t in targets if not t.startswith("spellc")}
                merged[source] |= targets
        return merged


def module_files() -> Iterator[tuple[str, Path]]:
    for package, folder in PACKAGE_ROOTS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join([package, *parts]), path


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(body: Iterable[ast.stmt], kind: str) -> Iterator[tuple[str, ast.Import | ast.ImportFrom]]:
    """Every import statement under ``body`` with the kind of edge it makes."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield kind, node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _imports(node.body, "type" if kind == "type" else "function")
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _imports(node.body, "type")
            yield from _imports(node.orelse, kind)
        else:
            for child_field in ("body", "orelse", "finalbody", "handlers", "cases"):
                children = getattr(node, child_field, None)
                if isinstance(children, list):
                    statements = [c for c in children if isinstance(c, ast.stmt)]
                    for c in children:
                        if isinstance(c, (ast.ExceptHandler, ast.match_case)):
                            statements.extend(c.body)
                    yield from _imports(statements, kind)


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        stem = ".".join(base + ([node.module] if node.module else []))
    else:
        stem = node.module or ""
    for alias in node.names:
        candidate = "%s.%s" % (stem, alias.name)
        yield candidate if candidate in known else stem


def build() -> Graph:
    graph = Graph()
    for name, path in module_files():
        graph.modules[name] = path
    known = set(graph.modules)
    for name, path in graph.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for kind, node in _imports(tree.body, "module"):
            for target in _targets(name, is_package, node, known):
                while target and target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in known:
                    graph.add(kind, name, target, node.lineno)
    return graph


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def closing_edges(graph: Graph, component: list[str], kinds: tuple[str, ...]) -> list[str]:
    """The edges inside one circle, as ``source -> target (kind, line)``, for a readable failure."""
    members = set(component)
    shown = []
    for kind in kinds:
        for source in component:
            for target in sorted(graph.edges[kind].get(source, ())):
                if target in members:
                    shown.append("%s -> %s (%s, line %d)" % (source, target, kind,
                                                             graph.lines[(kind, source, target)]))
    return shown


def main() -> None:
    graph = build()
    function_count = sum(len(t) for t in graph.edges["function"].values())
    print("%d modules; %d module-level, %d function-level, %d type-only edges" % (
        len(graph.modules), sum(len(t) for t in graph.edges["module"].values()), function_count,
        sum(len(t) for t in graph.edges["type"].values())))
    for title, kinds, without_seam in (("module-level", ("module",), False),
                                       ("module+function-level, seam excluded", ("module", "function"), True)):
        found = circles(graph.union(*kinds, without_seam=without_seam))
        print("\n== circles among %s imports: %d" % (title, len(found)))
        for component in found:
            print("\n(%d) %s" % (len(component), " ".join(component)))
            for edge in closing_edges(graph, component, kinds):
                print("    " + edge)


if __name__ == "__main__":
    sys.exit(main())
