"""Run a package's ``tests/*.spl`` before it is built (packages.md §3 step 6).

testing.md specifies the Spell test runner (a pytest plugin, ``spellc.testing``),
which another engineer is building; until it lands this is the small stand-in
``spellc package`` calls through ``run_package_tests`` — the single place to
point at the real runner later. It covers the part of testing.md a package
build needs: top-level forms other than ``deftest`` are the prelude, evaluated
once; each ``(deftest name body…)`` runs in its own copy of that environment;
``(is form msg?)`` (directly in the body or inside ``(testing "…" …)``) records a
failure without stopping the test, with ``(thrown? expr)`` and, for ``(= e a)``,
both values in the report; any other error ends the test as an error. The
package's library namespaces are visible, as they are to its agents.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Final, Optional

from spell_runtime.data import SpellMap, Symbol
from spell_runtime.data.fn import is_truthy
from spell_runtime.data.plist import PList
from spell_runtime.data.positions import span_of
from spell_runtime.errors import SpellError
from spell_runtime.printer import pr_str

S_DEFTEST: Final = Symbol("deftest")
S_IS: Final = Symbol("is")
S_TESTING: Final = Symbol("testing")
S_THROWN: Final = Symbol("thrown?")
S_EQ: Final = Symbol("=")


@dataclass
class TestResult:
    """One deftest: its failures and error (both empty when it passed)."""

    name: str
    where: str
    failures: list[str] = field(default_factory=list)
    error: Optional[str] = None

    @property
    def passed(self) -> bool:
        return not self.failures and self.error is None


def run_package_tests(root: str, libraries: dict[str, SpellMap]) -> list[TestResult]:
    """Every deftest of ``root/tests/*.spl`` (sorted by file), run with ``libraries`` visible."""
    folder = os.path.join(root, "tests")
    if not os.path.isdir(folder):
        return []
    results: list[TestResult] = []
    for entry in sorted(os.listdir(folder)):
        if entry.endswith(".spl"):
            path = os.path.join(folder, entry)
            results.extend(run_test_file(path, os.path.relpath(path, root), libraries))
    return results


def run_test_file(path: str, display: str, libraries: dict[str, SpellMap]) -> list[TestResult]:
    from spell_runtime.program import close_env

    from ..api import new_env
    from ..compiler import run_form
    from ..reader import ReaderError, read_all_with_spans

    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    try:
        forms = read_all_with_spans(text, display)
    except ReaderError as e:
        return [TestResult("<read>", display, error="%s:%d:%d: %s" % (display, e.line, e.column, e))]
    tests = [(f, s) for f, s in forms if type(f) is PList and len(f) >= 2 and f[0] == S_DEFTEST]
    prelude = [f for f, _ in forms if not (type(f) is PList and len(f) >= 2 and f[0] == S_DEFTEST)]
    library = {Symbol(n): ns for n, ns in libraries.items()}
    base = new_env(library=library)
    results: list[TestResult] = []
    try:
        for form in prelude:
            run_form(base, form, display, text)
        for form, span in tests:
            result = TestResult(pr_str(form[1]), "%s:%d:%d" % (display, span[0], span[1] + 1))
            D = dict(base)
            try:
                for body_form in list(form)[2:]:
                    _run(D, body_form, result, display, text)
            except SpellError as e:
                result.error = "%s: %s" % (_where(display, e.expr, span), e.message)
            results.append(result)
    except SpellError as e:
        results.append(TestResult("<prelude>", display, error="%s: %s" % (display, e.message)))
    finally:
        close_env(base)
    return results


def _where(display: str, form: Any, fallback: Any) -> str:
    span = span_of(form) if form is not None else None
    span = span if span is not None else fallback
    return "%s:%d:%d" % (display, span[0], span[1] + 1)


def _value(D: dict[Any, Any], form: Any, display: str, text: str) -> Any:
    from ..compiler import eval_in

    return eval_in(D, form)


def _run(D: dict[Any, Any], form: Any, result: TestResult, display: str, text: str) -> None:
    from ..compiler import run_form

    if type(form) is PList and len(form) >= 2 and form[0] == S_TESTING:
        for inner in list(form)[2:]:
            _run(D, inner, result, display, text)
        return
    if not (type(form) is PList and len(form) in (2, 3) and form[0] == S_IS):
        run_form(D, form, display, text)
        return
    expr = form[1]
    message = form[2] if len(form) == 3 else None
    where = _where(display, form, (0, 0))
    if type(expr) is PList and len(expr) == 2 and expr[0] == S_THROWN:
        try:
            _value(D, expr[1], display, text)
        except SpellError:
            return
        result.failures.append("FAIL %s: expected an error from %s" % (where, pr_str(expr[1])))
        return
    if type(expr) is PList and len(expr) >= 3 and expr[0] == S_EQ:
        values = [_value(D, e, display, text) for e in list(expr)[1:]]
        if all(v == values[0] for v in values[1:]):
            return
        result.failures.append("FAIL %s: %s%s\n  expected: %s\n    actual: %s" % (
            where, pr_str(expr), ("\n  " + str(message)) if message else "", pr_str(values[0]),
            " ".join(pr_str(v) for v in values[1:])))
        return
    if not is_truthy(_value(D, expr, display, text)):
        result.failures.append("FAIL %s: %s%s" % (where, pr_str(expr), ("\n  " + str(message)) if message else ""))
