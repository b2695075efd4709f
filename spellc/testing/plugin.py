"""The pytest plugin for Spell tests (testing.md): registered as the ``pytest11`` entry point ``spellc``.

Once spellc is installed, pytest loads this module in *every* run, Spell tests or not (``-p
no:spellc`` turns it off), so it imports only pytest and the standard library at module level;
reading, compiling and running happen in ``collection``/``runner``, imported when a Spell file
is actually collected.

How outcomes map onto pytest's counts. testing.md §3 wants a Spell error outside ``is`` to end
the test as an *error* and a failed ``is`` as a *failure*; pytest counts as "error" only what
fails outside the call phase. So an item runs its Spell test in ``setup`` and raises there
when the test erred (pytest: ERROR), and ``runtest`` raises when an ``is`` failed (pytest:
FAILED). Both raise ``pytest.fail(report, pytrace=False)``, so pytest prints the Spell report
and never a Python frame. The prelude is evaluated once per file, in the file node's own
``setup`` (pytest sets a file up before its first test and tears it down after its last).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import pytest

if TYPE_CHECKING:
    from .collection import TestDef
    from .runner import PreludeRun, TestResult

DEFAULT_PATTERNS = ["test_*.spl", "*_test.spl"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("spell_files", type="args", default=DEFAULT_PATTERNS,
                  help="glob patterns of Spell test files (default: test_*.spl *_test.spl)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Optional[SpellFile]:
    patterns: list[str] = parent.config.getini("spell_files")
    if any(fnmatch.fnmatch(file_path.name, pattern) for pattern in patterns):
        return SpellFile.from_parent(parent, path=file_path)
    return None


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (how reports name files)."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


class SpellFile(pytest.File):
    """A Spell test file: collected by reading it, never by evaluating it."""

    prelude: Optional[PreludeRun] = None

    def collect(self) -> Iterator[SpellItem]:
        from .collection import collect_file

        self.test_file = collect_file(display_path(self.path))
        for test in self.test_file.tests:
            yield SpellItem.from_parent(self, name=test.name, test=test)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        from .collection import CollectionError

        if isinstance(excinfo.value, CollectionError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def setup(self) -> None:
        from .runner import PreludeRun

        self.prelude = PreludeRun(self.test_file, self.test_file.path)

    def teardown(self) -> None:
        if self.prelude is not None:
            self.prelude.close()
            self.prelude = None


class SpellItem(pytest.Item):
    """One ``deftest``; its skip/xfail metadata and other marks are pytest marks."""

    result: Optional[TestResult] = None

    def __init__(self, *, test: TestDef, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.test = test
        if test.skip is not None:
            self.add_marker(pytest.mark.skip(reason=test.skip))
        if test.xfail is not None:
            self.add_marker(pytest.mark.xfail(reason=test.xfail))
        for name in test.marks:
            _declare_mark(self.config, name)
            self.add_marker(name)

    def setup(self) -> None:
        from .runner import run_test

        assert isinstance(self.parent, SpellFile) and self.parent.prelude is not None
        self.result = run_test(self.parent.prelude, self.test)
        if self.result.outcome == "error":
            pytest.fail(self.result.report, pytrace=False)

    def runtest(self) -> None:
        if self.result is not None and self.result.outcome == "failed":
            pytest.fail(self.result.report, pytrace=False)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.test.line - 1, "deftest %s" % self.test.name


def _declare_mark(config: pytest.Config, name: str) -> None:
    """Register a mark named by Spell metadata (``^:slow``): the metadata is its declaration.

    Without this pytest warns "Unknown pytest.mark.slow" with a path into its own package.
    """
    declared = {line.split(":", 1)[0].split("(", 1)[0].strip() for line in config.getini("markers")}
    if name not in declared:
        config.addinivalue_line("markers", "%s: Spell test metadata ^:%s" % (name, name))


class SpellSession:
    """The ``spell`` fixture: evaluate Spell text in an environment of the test's own."""

    def __init__(self) -> None:
        from ..api import new_env

        self.env: dict[Any, Any] = new_env()

    def eval(self, source: str) -> Any:
        """Evaluate every form of ``source`` here (definitions persist between calls); the last value."""
        from ..compiler import run_form
        from ..reader import read_all

        value: Any = None
        for form in read_all(source):
            value, _ = run_form(self.env, form, "<spell fixture>", source)
        return value

    def run(self, path: str | os.PathLike[str]) -> Any:
        """Evaluate the program file at ``path`` in a fresh environment, as ``spellc run`` does; its value."""
        from ..api import eval_string

        with open(path, encoding="utf-8") as fh:
            return eval_string(fh.read(), os.fspath(path))

    def close(self) -> None:
        from spell_runtime.program import close_env

        close_env(self.env)


@pytest.fixture
def spell() -> Iterator[SpellSession]:
    """A fresh Spell environment: ``spell.eval("(def x 1) (inc x)")``, ``spell.run("prog.spl")``."""
    session = SpellSession()
    try:
        yield session
    finally:
        session.close()


def _run_agent(prompt: Optional[str] = None, responses: Any = (), **options: Any) -> dict[str, Any]:
    """A scripted agent run: ``{"result", "error", "error_data", "prompts", "usage"}``."""
    from .. import api
    from ..providers.test_provider import TestProvider

    provider = TestProvider(responses=list(responses))
    if prompt is not None:
        options["prompt"] = prompt
    outcome = api.run(model_profile=provider, **options)
    tracker = outcome.get("usage_tracker")
    return {"result": outcome.get("result"), "error": outcome.get("error"), "error_data": outcome.get("error_data"),
            "prompts": list(provider.requests), "usage": tracker.as_dict() if tracker is not None else {}}


@pytest.fixture
def spell_agent() -> Any:
    """Run a scripted agent: ``spell_agent(prompt="...", responses=["...", ...], **run_options)``."""
    return _run_agent
