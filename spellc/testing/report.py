"""The text of a failed or erroring Spell test, in the shape of testing.md §4.

One block per failed or erroring ``is``, then the error that ended the test, if any:

    FAIL in NAME (FILE:LINE:COL)
      testing context, message
        LINE | (is (= sample (normalize sample)) "maps pass through")
             | ^
      expected: ...
        actual: ...
    ERROR in NAME (FILE:LINE:COL)
      FILE:LINE:COL: message            <- the text ``spellc run`` prints for the error
        in (call path) ...

Lines and columns count from 1. The caret stands under the first character of the ``(is``
form in its source line, shown without its indentation. Values go through the bounded
snapshot renderer (``assertions.render_value``) and errors through ``spell_error_text``, so a
report never holds a Python frame or a file path of the runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .assertions import Assertion
    from .runner import TestResult


def error_report(e: Any, path: str, where: Optional[str] = None, form: Any = None) -> str:
    """The report of a Spell error: the same text ``spellc run`` prints (location line plus call path).

    An error about a symbol (``Unbound symbol: x``) has no position of its own, because
    symbols are interned and carry none; it is placed at the symbol's first occurrence in the
    form that failed (``containing_form``, else ``form``, the top-level form being run).
    """
    from ..cli_compile import spell_error_text
    from ..error_position import locate_error

    if getattr(e, "position", None) is None:
        e.position = locate_error(e, form)
    text = spell_error_text(e, path)
    return text if where is None else "%s (%s)" % (text, where)


def source_excerpt(text: str, line: int, col0: int) -> list[str]:
    """The numbered source line and a caret line under column ``col0`` (0-based)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return []
    raw = lines[line - 1].rstrip("\r")
    body = raw.lstrip()
    indent = len(raw) - len(body)
    number = str(line)
    pad = " " * len(number)
    return ["    %s | %s" % (number, body), "    %s | %s^" % (pad, " " * max(0, col0 - indent))]


def _assertion_block(result: TestResult, a: Assertion, text: str) -> list[str]:
    span = a.site.span
    line, col0 = (span[0], span[1]) if span is not None else (result.line, result.column - 1)
    head = "FAIL" if a.outcome == "failed" else "ERROR"
    out = ["%s in %s (%s:%d:%d)" % (head, result.name, result.path, line, col0 + 1)]
    notes = [*a.contexts, *([a.message] if a.message else [])]
    if notes:
        out.append("  " + ", ".join(notes))
    out.extend(source_excerpt(text, line, col0))
    if a.outcome == "failed":
        out.append("  expected: %s" % a.expected)
        out.append("    actual: %s" % a.actual)
    elif a.error is not None:
        out.extend("  " + row for row in error_report(a.error, result.path, form=a.site.form).split("\n"))
    return out


def result_report(result: TestResult, text: Optional[str] = None) -> str:
    """The whole report of a test ("" when it passed)."""
    if text is None:
        text = _file_text(result.path)
    out: list[str] = []
    for a in result.assertions:
        if a.outcome != "passed":
            out.extend(_assertion_block(result, a, text))
    if result.error is not None:
        out.append("ERROR in %s (%s:%d:%d)" % (result.name, result.path, result.line, result.column))
        out.extend("  " + row for row in result.error.split("\n"))
    return "\n".join(out)


def _file_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return ""
