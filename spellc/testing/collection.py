"""Collecting a Spell test file by *reading* it (testing.md §2): never evaluating anything.

A test file is a sequence of top-level forms. Each ``(deftest NAME body...)`` is one test;
every other top-level form belongs to the file's *prelude*, evaluated once before the tests
(see ``spellc.testing.runner``). A reader error, a duplicate test name or a ``deftest`` below
top level is a ``CollectionError`` at its ``file:line:col`` (1-based line and column, the
convention of every spellc report).

Metadata. Spell's reader discards metadata (language.md §2: it is invisible to evaluation),
and the reader is shared with the compiler, so rather than teach it to keep metadata this
module reads the test's metadata back from the *text* between ``deftest`` and the test name:
that stretch holds exactly the ``^meta`` prefixes, each read as an ordinary form.
``^:skip`` / ``^{:skip "why"}`` skip, ``^{:xfail "why"}`` expects a failure, any other
keyword is a mark of that name (testing.md §2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol
from spell_runtime.data.plist import PList, Span
from spell_runtime.data.positions import child_spans_of

from ..reader import ReaderError, read_all_with_spans, read_first_span

DEFTEST = Symbol("deftest")
K_SKIP = Keyword("skip")
K_XFAIL = Keyword("xfail")


class CollectionError(Exception):
    """A test file that cannot be collected: ``str()`` is ``file:line:col: message``."""

    def __init__(self, path: str, line: int, column: int, message: str) -> None:
        super().__init__("%s:%d:%d: %s" % (path, line, column, message))
        self.path = path
        self.line = line
        self.column = column
        self.message = message


@dataclass(frozen=True)
class TestDef:
    """One ``deftest``: its name, body forms, span (columns 0-based, as spans are) and metadata."""

    __test__ = False  # not a pytest test class despite its name

    name: str
    body: tuple[Any, ...]
    span: Span
    skip: Optional[str] = None
    xfail: Optional[str] = None
    marks: tuple[str, ...] = ()

    @property
    def line(self) -> int:
        return self.span[0]

    @property
    def column(self) -> int:
        """1-based column of the ``(deftest``."""
        return self.span[1] + 1


@dataclass
class TestFile:
    """A collected file: its text, the prelude forms and the tests, in source order."""

    __test__ = False

    path: str
    text: str
    prelude: list[Any] = field(default_factory=list)
    tests: list[TestDef] = field(default_factory=list)


def collect_text(path: str, text: str) -> TestFile:
    """Split ``text`` (the file at ``path``) into prelude and tests; raises ``CollectionError``."""
    try:
        forms = read_all_with_spans(text, source_name=path)
    except ReaderError as e:
        raise CollectionError(path, e.line, e.column, "Reader error: %s" % e.message) from None
    collected = TestFile(path, text)
    seen: dict[str, int] = {}
    lines = text.split("\n")
    for form, span in forms:
        if _is_deftest(form):
            test = _test_def(path, lines, form, span)
            if test.name in seen:
                raise CollectionError(path, span[0], span[1] + 1, "Duplicate deftest %s (first defined on line %d)"
                                      % (test.name, seen[test.name]))
            seen[test.name] = span[0]
            _refuse_nested(path, test.body, child_spans_of(form), 2)
            collected.tests.append(test)
        else:
            _refuse_nested(path, (form,), (span,), 0)
            collected.prelude.append(form)
    return collected


def collect_file(path: str) -> TestFile:
    """``collect_text`` of the file at ``path`` (read as UTF-8)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as e:
        raise CollectionError(path, 1, 1, "not UTF-8 text (%s at byte %d)" % (e.reason, e.start)) from None
    return collect_text(path, text)


def _is_deftest(form: Any) -> bool:
    return type(form) is PList and len(form) > 0 and form[0] is DEFTEST


def _test_def(path: str, lines: list[str], form: PList, span: Span) -> TestDef:
    items = list(form)
    spans = child_spans_of(form) or ()
    if len(items) < 2 or type(items[1]) is not Symbol:
        raise CollectionError(path, span[0], span[1] + 1, "deftest needs a name symbol: (deftest name body...)")
    name = str(items[1])
    meta = _metadata(path, lines, spans[0] if spans else None, spans[1] if len(spans) > 1 else None)
    skip: Optional[str] = None
    xfail: Optional[str] = None
    marks: list[str] = []
    for key, value in meta:
        if key == "skip":
            skip = value if isinstance(value, str) else "skipped"
        elif key == "xfail":
            xfail = value if isinstance(value, str) else "expected to fail"
        elif value is not False and value is not None:
            marks.append(key)
    return TestDef(name, tuple(items[2:]), span, skip, xfail, tuple(marks))


def _offset(lines: list[str], line: int, col: int) -> int:
    return sum(len(s) + 1 for s in lines[:line - 1]) + col


def _metadata(path: str, lines: list[str], head: Optional[Span], name: Optional[Span]) -> list[tuple[str, Any]]:
    """The (keyword name, value) pairs of the ``^meta`` prefixes written before the test name."""
    if head is None or name is None:
        return []
    text = "\n".join(lines)
    start, end = _offset(lines, head[2], head[3]), _offset(lines, name[0], name[1])
    stretch = text[start:end]
    out: list[tuple[str, Any]] = []
    rest = stretch.lstrip()
    while rest.startswith("^"):
        try:
            found, meta, used = read_first_span(rest[1:])
        except ReaderError as e:
            raise CollectionError(path, name[0], name[1] + 1, "Unreadable metadata: %s" % e.message) from None
        if not found:
            break
        out.extend(_meta_pairs(meta))
        rest = rest[1 + used:].lstrip()
    return out


def _meta_pairs(meta: Any) -> list[tuple[str, Any]]:
    if type(meta) is Keyword:
        return [(meta.name, True)]
    if isinstance(meta, SpellMap):
        return [(k.name, v) for k, v in meta.items() if type(k) is Keyword]
    return []  # ^Sym / ^"tag" mean :tag in Clojure: no test meaning


def _refuse_nested(path: str, forms: tuple[Any, ...], spans: Any, first_child: int) -> None:
    """A ``deftest`` anywhere inside ``forms`` is a collection error at its position."""
    all_spans = list(spans or ())[first_child:] if first_child else list(spans or ())
    for i, form in enumerate(forms):
        span = all_spans[i] if i < len(all_spans) else None
        _walk_nested(path, form, span, top=first_child == 0)


def _walk_nested(path: str, form: Any, span: Optional[Span], top: bool) -> None:
    if type(form) is PList and len(form) > 0:
        if form[0] is DEFTEST and not top:
            line, col = (span[0], span[1] + 1) if span else (1, 1)
            raise CollectionError(path, line, col, "deftest must be a top-level form")
        children = child_spans_of(form) or ()
        for i, child in enumerate(form):
            _walk_nested(path, child, children[i] if i < len(children) else None, top=False)
    elif isinstance(form, (SpellMap,)) or _is_coll(form):
        children = child_spans_of(form) or ()
        for i, child in enumerate(_items(form)):
            _walk_nested(path, child, children[i] if i < len(children) else None, top=False)


def _is_coll(form: Any) -> bool:
    from spell_runtime.data.vector import is_vector

    return bool(is_vector(form))


def _items(form: Any) -> list[Any]:
    if isinstance(form, SpellMap):
        return [x for kv in form.items() for x in kv]
    return list(form)
