"""``is``, ``testing``, ``thrown?`` and ``thrown-with-msg?`` while a test file runs (testing.md §3).

How they are built. Each is a Spell *user macro* installed in the test file's environment
(``(defmacro is [& args] (spell-test/expand-is args))``) whose expander is a Python helper, so
the forms stay unevaluated and keep their source positions, and the runtime's ordinary macro
machinery does the rest. ``(is form msg)`` expands to

    (spell-test/is* SITE (fn [] CHECKED) msg EXTRA)

where ``SITE`` numbers the ``is`` occurrence (its form and position live in ``Sites``) and the
zero-argument function evaluates what must be checked: the operands *and* the operator of a
comparison (``[= e a]``, so a shadowed ``=`` is honoured and expected/actual can be shown), the
body of ``thrown?``, or the form itself. ``is*`` runs it in the calling environment — Spell
functions run in their caller's environment (language.md §8.3), so ``let`` bindings and stubs
are visible — catching the ``SpellError`` itself (with its position and call path) rather than
letting Spell's ``try`` reduce it to a ``{:message :expr}`` map. ``is`` never stops the test
(clojure.test); an error outside ``is`` propagates and ends the test as an error.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Optional

from spell_runtime.core.registry import BUILTINS, EnvFn
from spell_runtime.data import Keyword, SpellMap, SpellSet, Symbol, plist, spell_map, vec
from spell_runtime.data.fn import as_spell_fn
from spell_runtime.data.plist import PList, Span
from spell_runtime.data.positions import child_spans_of, set_span, span_of
from spell_runtime.errors import SpellError
from spell_runtime.invoke import call

COMPARISONS = frozenset({"=", "not=", "<", ">", "<=", ">="})
S_FN = Symbol("fn")
S_DO = Symbol("do")
S_IS = Symbol("is")
S_THROWN = Symbol("thrown?")
S_THROWN_MSG = Symbol("thrown-with-msg?")
NS = "spell-test"
_SITE_NUMBERS = itertools.count()

MACROS = """
(defmacro is [& args] (spell-test/expand-is args))
(defmacro testing [& args] (spell-test/expand-testing args))
(defmacro thrown? [& args] (spell-test/expand-thrown args))
(defmacro thrown-with-msg? [& args] (spell-test/expand-thrown-msg args))
"""


@dataclass(frozen=True)
class Site:
    """One ``(is ...)`` occurrence: the checked form, its kind and the position of the ``(is``."""

    form: Any
    kind: str  # "compare", "thrown", "thrown-msg" or "truthy"
    span: Optional[Span]
    shown: Any = None  # the form as written (an atom argument is checked as ``(do atom)``)


@dataclass
class Assertion:
    """The outcome of one evaluated ``is``: ``passed``, ``failed`` or ``error``."""

    outcome: str
    site: Site
    message: Optional[str] = None
    contexts: tuple[str, ...] = ()
    expected: Optional[str] = None
    actual: Optional[str] = None
    error: Optional[SpellError] = None


@dataclass
class Recorder:
    """What the running test has recorded so far; one per test."""

    assertions: list[Assertion] = field(default_factory=list)
    contexts: list[str] = field(default_factory=list)


class Sites:
    """The ``is`` sites of one test file, and where each ``(is`` form stands in the source.

    ``enclosing`` maps the identity of an ``is`` form's first argument to the span of the
    whole ``(is ...)`` form: ``prepare`` registers the file's forms before anything runs, and
    the macro expander receives those very argument objects. Atoms have no identity of their
    own (``(is true)`` twice is the same ``True``; symbols are interned), so ``prepare`` wraps
    an atom argument in ``(do atom)`` — same value, an identity of its own — and remembers
    the atom for display.
    """

    def __init__(self) -> None:
        self.sites: dict[int, Site] = {}
        self.enclosing: dict[int, Span] = {}
        self.display: dict[int, Any] = {}
        self._keep: list[Any] = []
        self._numbers: dict[int, int] = {}

    def prepare(self, form: Any) -> Any:
        """``form`` with its ``is`` sites registered (rebuilt, spans kept, only where an atom was wrapped)."""
        if type(form) is PList and form.count > 0:
            items = list(form)
            new = [self.prepare(x) for x in items]
            if len(items) >= 2 and items[0] is S_IS:
                span = span_of(form)
                if not _is_coll(items[1]):
                    spans = child_spans_of(form) or ()
                    atom_span = spans[1] if len(spans) > 1 else span
                    wrapped = plist([S_DO, items[1]])
                    set_span(wrapped, atom_span, (None, atom_span))
                    self.display[id(wrapped)] = items[1]
                    new[1] = wrapped
                if span is not None:
                    self.enclosing[id(new[1])] = span
                self._keep.append(new[1])  # ids stay valid while the forms live
            if any(a is not b for a, b in zip(new, items)):
                rebuilt = plist(new)
                set_span(rebuilt, span_of(form), child_spans_of(form))
                return rebuilt
            return form
        if _is_vector(form):
            items = list(form)
            new = [self.prepare(x) for x in items]
            if any(a is not b for a, b in zip(new, items)):
                rebuilt = vec(new)
                set_span(rebuilt, span_of(form), child_spans_of(form))
                return rebuilt
            return form
        if isinstance(form, SpellMap):
            for k, v in form.items():  # registered only: an is inside a map literal keeps its argument
                self.prepare(k)
                self.prepare(v)
        return form

    def add(self, form: Any, kind: str) -> int:
        """The number of the site of ``form`` (the same one each time a loop re-expands it).

        Numbers are unique in the process, not just in the file: the compiler caches an
        expansion's code by its text, and the number is what keeps the expansion of a site in
        one file from being the cached code of a same-looking site in another (whose forms, and
        so error positions, are the other file's).
        """
        known = self._numbers.get(id(form))
        if known is not None and self.sites[known].form is form:
            return known
        span = self.enclosing.get(id(form)) or span_of(form)
        number = next(_SITE_NUMBERS)
        self.sites[number] = Site(form, kind, span, self.display.get(id(form), form))
        self._numbers[id(form)] = number
        return number


def _is_coll(x: Any) -> bool:
    return type(x) is PList or isinstance(x, (SpellMap, SpellSet)) or _is_vector(x)


def _is_vector(x: Any) -> bool:
    from spell_runtime.data.vector import is_vector

    return bool(is_vector(x))


class TestNamespace:
    """The ``spell-test`` namespace of one file run: the expanders and the recording helpers."""

    __test__ = False

    def __init__(self, sites: Sites, file_path: str) -> None:
        self.sites = sites
        self.file_path = file_path
        self.recorder = Recorder()

    def namespace(self) -> SpellMap:
        from .agent import run_scripted

        members: list[Any] = []
        for name, fn in (("expand-is", self._expand_is), ("expand-testing", self._expand_testing),
                         ("expand-thrown", self._expand_thrown), ("expand-thrown-msg", self._expand_thrown_msg),
                         ("is*", self._is), ("thrown*", self._thrown), ("testing-begin", self._testing_begin),
                         ("testing-end", self._testing_end)):
            members += [Keyword(name), EnvFn(fn, "spell-test/" + name)]
        members += [Keyword("run"), run_scripted]
        return spell_map(*members)

    # -- expanders (run at macro-expansion time; they only build forms) --

    def _expand_is(self, D: Any, args: Any) -> Any:
        items = list(args)
        if not items:
            raise SpellError("is needs a form to check: (is form message?)")
        form = items[0]
        msg = items[1] if len(items) > 1 else None
        kind, checked, extra = "truthy", form, None
        if type(form) is PList and len(form) > 0 and type(form[0]) is Symbol:
            head = form[0]
            parts = list(form)
            if head.ns is None and head.name in COMPARISONS and len(parts) >= 3:
                kind, checked = "compare", vec(parts)
            elif head is S_THROWN:
                kind, checked = "thrown", plist([S_DO, *parts[1:]])
            elif head is S_THROWN_MSG and len(parts) >= 2:
                kind, checked, extra = "thrown-msg", plist([S_DO, *parts[2:]]), parts[1]
        site = self.sites.add(form, kind)
        return plist([Symbol("is*", NS), site, _thunk(checked), msg, extra])

    def _expand_testing(self, D: Any, args: Any) -> Any:
        items = list(args)
        label = items[0] if items else None
        return plist([Symbol("testing-end", NS), plist([Symbol("testing-begin", NS), label]),
                      plist([S_DO, *items[1:]])])

    def _expand_thrown(self, D: Any, args: Any) -> Any:
        return plist([Symbol("thrown*", NS), _thunk(plist([S_DO, *list(args)])), None])

    def _expand_thrown_msg(self, D: Any, args: Any) -> Any:
        items = list(args)
        if not items:
            raise SpellError("thrown-with-msg? needs a regex and a body")
        return plist([Symbol("thrown*", NS), _thunk(plist([S_DO, *items[1:]])), items[0]])

    # -- helpers called by the expansions --

    def _testing_begin(self, D: Any, label: Any) -> None:
        from spell_runtime.printer import display_str as spell_str

        self.recorder.contexts.append(spell_str(label))

    def _testing_end(self, D: Any, _begin: Any, value: Any) -> Any:
        if self.recorder.contexts:
            self.recorder.contexts.pop()
        return value

    def _thrown(self, D: Any, thunk: Any, pattern: Any) -> bool:
        try:
            run_thunk(D, thunk)
        except SpellError as e:
            return pattern is None or _matches(D, pattern, e.message)
        return False

    def _is(self, D: Any, site_id: int, thunk: Any, msg: Any, extra: Any) -> bool:
        site = self.sites.sites[site_id]
        record = Assertion("passed", site, None if msg is None else _text(msg), tuple(self.recorder.contexts))
        self.recorder.assertions.append(record)
        try:
            value = run_thunk(D, thunk)
        except SpellError as e:
            if site.kind in ("thrown", "thrown-msg"):
                if site.kind == "thrown" or _matches(D, extra, e.message):
                    return True
                record.outcome = "failed"
                record.expected = "an error matching %s" % render_value(extra)
                record.actual = "error: %s" % e.message
                return False
            record.outcome, record.error = "error", e
            return False
        if site.kind in ("thrown", "thrown-msg"):
            record.outcome = "failed"
            record.expected = "an error" if site.kind == "thrown" else "an error matching %s" % render_value(extra)
            record.actual = "no error; value %s" % render_value(value)
            return False
        if site.kind == "compare":
            op, *operands = list(value)
            try:
                ok = call(D, op, tuple(operands))
            except SpellError as e:
                record.outcome, record.error = "error", e
                return False
            except Exception as e:  # a host failure of the operator itself: the evaluator's wording
                record.outcome, record.error = "error", SpellError("Function call failed: %s: %s"
                                                                  % (site.form[0], e), site.form)
                return False
            if ok is None or ok is False:
                record.outcome = "failed"
                record.expected = render_value(operands[0])
                record.actual = render_value(operands[1]) if len(operands) == 2 else \
                    " ".join(render_value(x) for x in operands[1:])
            return not (ok is None or ok is False)
        if value is None or value is False:
            from spell_runtime.printer import pr_str

            record.outcome = "failed"
            record.expected = pr_str(site.shown)
            record.actual = render_value(value)
            return False
        return True


def _thunk(body: Any) -> Any:
    return plist([S_FN, vec([]), body])


def run_thunk(D: Any, thunk: Any) -> Any:
    """Call a zero-argument Spell function in ``D``, letting its own ``SpellError`` through unchanged."""
    fn = as_spell_fn(thunk)
    code = fn.code
    if code is None:
        from spell_runtime.hooks import compile_fn

        code = compile_fn(fn)
    return code(D, None)


def _matches(D: Any, pattern: Any, message: str) -> bool:
    found = call(D, BUILTINS[Symbol("re-find")], (pattern, message))
    return found is not None and found is not False


def _text(value: Any) -> str:
    from spell_runtime.printer import display_str as spell_str

    return str(spell_str(value))


VALUE_LIMIT = 2000


def render_value(value: Any) -> str:
    """A value as the report shows it: the bounded snapshot (runtime.md §4), printed with ``pr-str``.

    Values the snapshot has no representation for (a regex, a host object) print with
    ``pr-str``, cut at the same bound.
    """
    from spell_runtime.printer import pr_str
    from spell_runtime.snapshot import snapshot

    try:
        clipped = snapshot(value, VALUE_LIMIT).value
    except Exception:  # the clipper refused the value: print it plainly below
        clipped = _UNAVAILABLE
    if clipped is _UNAVAILABLE or (isinstance(clipped, SpellMap) and not isinstance(value, SpellMap)
                                   and clipped.get(K_UNAVAILABLE) is True):
        text = str(pr_str(value))
        return text if len(text) <= VALUE_LIMIT else text[:VALUE_LIMIT] + "..."
    return str(pr_str(clipped))


_UNAVAILABLE: Any = object()
K_UNAVAILABLE = Keyword("representation-unavailable", "spell")
