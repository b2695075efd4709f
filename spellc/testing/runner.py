"""Running a collected test file: the prelude once, then each test in its own copy (testing.md §1, §3).

Prelude isolation. The prelude (every top-level form that is not a ``deftest``) is evaluated
once, in order, in a fresh environment that already holds ``is``/``testing``/``thrown?``/
``thrown-with-msg?`` and the ``spell-test`` namespace. spellc's environment is one binding
dict ``D`` (``spell_runtime.context``), so a test's environment is a shallow copy of the
prelude's ``D`` with its own ``Context``: a test's ``def`` cannot leak into the next test.
Values themselves are shared, as in Clojure: an atom the prelude made is the same atom in
every test.

Each top-level form of a test body is compiled under its own source name
(``path@line:col#run``). The compiler caches units by their printed text and source name, and
a unit holds the very form objects it was compiled from (their positions, and the ``is``
arguments ``assertions.Sites`` recognizes by identity): two identical-looking forms at different
lines, or the same file collected twice in one process, must not share a unit.

``run_file`` is the structured API other runners use (``spellc package`` runs a package's
tests through it, with the package's library namespaces visible as they are to its agents:
``library``); the pytest plugin drives ``PreludeRun``/``run_test`` itself so that
skip/xfail/marks stay pytest's business.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional

from spell_runtime.bigstack import on_large_stack
from spell_runtime.data import Symbol
from spell_runtime.errors import ControlError, SpellError

from .assertions import MACROS, Assertion, Sites, TestNamespace
from .collection import CollectionError, TestDef, TestFile, collect_file

_RUN_NUMBERS = itertools.count()


@dataclass
class TestResult:
    """One test's outcome: ``passed``, ``failed``, ``error``, ``skipped``, ``xfailed`` or ``xpassed``."""

    __test__ = False

    name: str
    path: str
    line: int
    column: int
    outcome: str
    report: str = ""
    assertions: list[Assertion] = field(default_factory=list)
    error: Optional[str] = None
    reason: Optional[str] = None
    marks: tuple[str, ...] = ()
    seconds: float = 0.0


class PreludeRun:
    """A file's prelude, evaluated once; ``fresh_copy`` gives each test its own environment."""

    def __init__(self, test_file: TestFile, display_path: Optional[str] = None,
                 library: Optional[Mapping[Symbol, Any]] = None) -> None:
        from ..api import new_env
        from ..compiler import run_form
        from ..reader import read_all

        self.file = test_file
        self.run_number = next(_RUN_NUMBERS)
        self.display_path = display_path or test_file.path
        self.sites = Sites()
        prelude = [self.sites.prepare(form) for form in test_file.prelude]
        self.bodies = {test.name: tuple(self.sites.prepare(form) for form in test.body) for test in test_file.tests}
        self.names = TestNamespace(self.sites, self.display_path)
        self.D: dict[Any, Any] = new_env(library=dict(library)) if library else new_env()
        self.D[Symbol("spell-test")] = self.names.namespace()
        self.error: Optional[SpellError] = None
        for form in read_all(MACROS):
            run_form(self.D, form, "<spell-test>")
        self.error_form: Any = None
        on_large_stack(self._evaluate, prelude)

    def _evaluate(self, prelude: list[Any]) -> None:
        from ..compiler import run_form

        try:
            for form in prelude:
                self.error_form = form
                run_form(self.D, form, self.unit_name(form), self.file.text)
        except SpellError as e:
            self.error = e

    def fresh_copy(self) -> dict[Any, Any]:
        from spell_runtime.context import CTX_KEY, context_of

        D = dict(self.D)
        D[CTX_KEY] = context_of(self.D).copy()
        return D

    def close(self) -> None:
        from spell_runtime.program import close_env

        close_env(self.D)

    def unit_name(self, form: Any) -> str:
        """The source name ``form`` is compiled under (see the module docstring); call paths show
        only the path (``callpath.display_source``)."""
        from spell_runtime.callpath import unit_source
        from spell_runtime.data.positions import span_of

        return unit_source(self.display_path, span_of(form), self.run_number)


def run_test(prelude: PreludeRun, test: TestDef) -> TestResult:
    """Run one test body (no skip/xfail handling): ``passed``, ``failed`` or ``error`` with its report.

    The prelude and each body are evaluated on a thread with a large stack (``spell_runtime.bigstack``),
    as ``spellc run`` evaluates: on pytest's main thread, a test recursing through a builtin ran its C
    stack out and crashed the whole run instead of failing with ``Stack overflow``."""
    return on_large_stack(_run_test, prelude, test)


def _run_test(prelude: PreludeRun, test: TestDef) -> TestResult:
    from ..compiler import run_form
    from .report import error_report, result_report

    path = prelude.display_path
    result = TestResult(test.name, path, test.line, test.column, "passed", marks=test.marks)
    started = time.perf_counter()
    if prelude.error is not None:
        result.outcome = "error"
        result.error = error_report(prelude.error, path, "in the file's prelude", prelude.error_form)
        result.report = result_report(result, prelude.file.text)
        return result
    recorder = prelude.names.recorder
    recorder.assertions.clear()
    recorder.contexts.clear()
    D = prelude.fresh_copy()
    form: Any = None
    try:
        for form in prelude.bodies.get(test.name, test.body):
            run_form(D, form, prelude.unit_name(form), prelude.file.text)
    except SpellError as e:
        result.outcome = "error"
        result.error = error_report(e, path, form=form)
    except RecursionError:
        result.outcome = "error"
        result.error = "%s:%d:%d: Stack overflow" % (path, test.line, test.column)
    except ControlError as e:  # typed runtime exceptions (display limit, depth...) pass through try
        result.outcome = "error"
        result.error = "%s:%d:%d: %s" % (path, *_line_col(form, test), e.message)
    result.assertions = list(recorder.assertions)
    if result.outcome == "passed" and any(a.outcome != "passed" for a in result.assertions):
        result.outcome = "error" if any(a.outcome == "error" for a in result.assertions) else "failed"
    result.seconds = time.perf_counter() - started
    result.report = result_report(result, prelude.file.text)
    return result


def _line_col(form: Any, test: TestDef) -> tuple[int, int]:
    from spell_runtime.data.positions import span_of

    span = span_of(form)
    return (span[0], span[1] + 1) if span is not None else (test.line, test.column)


def run_file(path: str | os.PathLike[str], *, library: Optional[Mapping[Symbol, Any]] = None) -> list[TestResult]:
    """Collect and run every test of the Spell test file at ``path``, honouring skip and xfail metadata.

    ``library`` binds namespace maps (``tally`` → its fns) visible everywhere in the file, as
    library namespaces are to an agent. Raises ``CollectionError`` when the file cannot be
    collected (reader error, duplicate name, nested ``deftest``).
    """
    test_file = collect_file(os.fspath(path))
    prelude = PreludeRun(test_file, library=library)
    results: list[TestResult] = []
    try:
        for test in test_file.tests:
            if test.skip is not None:
                results.append(TestResult(test.name, test_file.path, test.line, test.column, "skipped",
                                          reason=test.skip, marks=test.marks))
                continue
            result = run_test(prelude, test)
            if test.xfail is not None:
                result.reason = test.xfail
                result.outcome = "xpassed" if result.outcome == "passed" else "xfailed"
            results.append(result)
    finally:
        prelude.close()
    return results


__all__ = ["TestResult", "PreludeRun", "run_test", "run_file", "CollectionError"]
