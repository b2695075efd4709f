"""The import rules of architecture.md §1.2 and house-review.md §4, checked on the static import graph.

* No circle among imports that run at load time (module-level edges).
* No circle once imports inside functions count too, except through the one door the runtime has
  into the compiler, ``spell_runtime/hooks.py``: a function-level import that closes a circle hides
  a dependency from readers and costs an import per call (the data types used to import equality
  and the printer inside every ``__eq__``/``__repr__``).
* ``spell_runtime`` imports ``spellc`` only from ``hooks.py``, and never at module level, so a
  compiled program that evaluates no new code runs with the runtime alone.

A failure names the modules of each circle and the import lines that close it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from . import import_graph
from .import_graph import SEAM, Graph, build, circles, closing_edges


@pytest.fixture(scope="module")
def graph() -> Graph:
    return build()


def _report(graph: Graph, found: list[list[str]], kinds: tuple[str, ...]) -> str:
    lines = []
    for component in found:
        lines.append("circle of %d: %s" % (len(component), ", ".join(component)))
        lines.extend("    " + edge for edge in closing_edges(graph, component, kinds))
    return "\n".join(lines)


def test_the_graph_sees_both_packages(graph: Graph) -> None:
    assert "spellc.api" in graph.modules and "spell_runtime.data.hashmap" in graph.modules
    assert "spell_runtime.data.atoms" in graph.edges["module"]["spell_runtime.data.hashmap"]
    assert "spellc.compiler" in graph.edges["function"][SEAM]


def test_no_circle_among_module_level_imports(graph: Graph) -> None:
    found = circles(graph.union("module"))
    assert not found, _report(graph, found, ("module",))


def test_no_circle_with_function_level_imports_except_through_hooks(graph: Graph) -> None:
    found = circles(graph.union("module", "function", without_seam=True))
    assert not found, _report(graph, found, ("module", "function"))


def test_runtime_reaches_the_compiler_only_through_hooks(graph: Graph) -> None:
    crossing = sorted((kind, source, target) for kind in ("module", "function")
                      for source, targets in graph.edges[kind].items() if source.startswith("spell_runtime")
                      for target in targets if target.startswith("spellc"))
    assert crossing and all(kind == "function" and source == SEAM for kind, source, _ in crossing), crossing


# --------------------------------------------------------------------------- the graph builder itself


def _graph_of(tmp_path: Path, files: dict[str, str]) -> Graph:
    for rel, text in files.items():
        path = tmp_path / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    roots = dict(import_graph.PACKAGE_ROOTS)
    try:
        import_graph.PACKAGE_ROOTS.clear()
        import_graph.PACKAGE_ROOTS["pkg"] = tmp_path / "pkg"
        return build()
    finally:
        import_graph.PACKAGE_ROOTS.clear()
        import_graph.PACKAGE_ROOTS.update(roots)


def test_edges_are_sorted_by_when_they_run(tmp_path: Path) -> None:
    g = _graph_of(tmp_path, {
        "__init__.py": "",
        "a.py": """
            from typing import TYPE_CHECKING
            from . import b
            try:
                from .sub import c
            except ImportError:
                pass
            if TYPE_CHECKING:
                from .d import Thing
            def later():
                from pkg.d import other
        """,
        "b.py": "",
        "d.py": "",
        "sub/__init__.py": "",
        "sub/c.py": "from .. import a\n",
    })
    assert g.edges["module"]["pkg.a"] == {"pkg.b", "pkg.sub.c"}
    assert g.edges["type"]["pkg.a"] == {"pkg.d"}
    assert g.edges["function"]["pkg.a"] == {"pkg.d"}
    assert g.edges["module"]["pkg.sub.c"] == {"pkg.a"}
    assert circles(g.union("module")) == [["pkg.a", "pkg.sub.c"]]
    assert circles(g.union("type")) == []


def test_a_circle_closed_inside_a_function_is_found(tmp_path: Path) -> None:
    g = _graph_of(tmp_path, {
        "__init__.py": "",
        "types.py": "class T:\n    def __eq__(self, other):\n        from .eq import eq\n        return eq(self, other)\n",
        "eq.py": "from .types import T\n",
    })
    assert circles(g.union("module")) == []
    assert circles(g.union("module", "function")) == [["pkg.eq", "pkg.types"]]
