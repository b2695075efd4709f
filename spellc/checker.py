"""Static checks of a Spell program without running it (``spellc check``).

The program is read and analyzed by the compiler's own reader and analyzer (built-in macros
are expanded there); this module only walks the resulting IR, in two passes over the whole
program:

1. every name the program binds anywhere — ``def``/``defn``, ``let``/``loop``/``for``
   bindings, parameters, ``catch``, ``quine`` — and every ``defn`` with its arity;
2. the references: a symbol nothing binds (neither the program nor the builtins) is
   reported. Spell is dynamically scoped (language.md §8.3): a function body sees its
   *caller's* bindings, so a name bound by any caller anywhere counts as bound — the check
   is deliberately "is this name bound anywhere at all", never lexical.

Also reported: a call of a ``defn`` the program defines exactly once, with an argument count
its parameter vector does not take (the text of the runtime's own arity error); and an effect
namespace or effect builtin (``io/``, ``web/``, ``!llm-self``...) evaluated outside ``eval``
(language.md §12.4: the gate is dynamic, so uses inside function bodies, which may run under
``eval``, are left alone; the quoted trailing expression of ``(eval '...)`` is analyzed as code
and checked too). Arguments of a *user* macro's call are not checked: the macro decides what
they mean. A Spell test file (one with a top-level ``deftest``) may also use ``deftest``, ``is``,
``testing``, ``thrown?``, ``thrown-with-msg?`` and ``spell-test/`` (testing.md §3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from spell_runtime.data import Symbol
from spell_runtime.data.plist import PList

from .analyze.ir import (
    Binding,
    BuiltinRef,
    Call,
    Const,
    Def,
    Fail,
    Fn,
    FnBody,
    Global,
    Local,
    MapLit,
    Node,
    NsRef,
    Quine,
    Record,
    Try,
)

EFFECT_NAMESPACES = frozenset({"io", "io-read", "io-write", "io-exec", "web", "globals", "agents", "patterns",
                               "workers", "feedback", "blocking"})
EFFECT_BUILTINS = frozenset({"!llm-self", "receive", "!ask-await", "leaf-llm", "describe-fn", "llm"})
S_EVAL = Symbol("eval")
S_DEFTEST = Symbol("deftest")
EXPECTS_ERRORS = frozenset({Symbol("thrown?"), Symbol("thrown-with-msg?")})
# What a Spell test file may use beyond the program's own names (shared/spec/testing.md §3).
TEST_FILE_NAMES = frozenset(Symbol(n) for n in ("deftest", "is", "testing", "thrown?", "thrown-with-msg?",
                                                "spell-test"))
S_QUOTE = Symbol("quote")


@dataclass(frozen=True)
class Problem:
    """One finding: 1-based line and column, and the message."""

    line: int
    column: int
    message: str

    def render(self, name: str) -> str:
        return "%s:%d:%d: %s" % (name, self.line, self.column, self.message)


def check_text(text: str, name: str = "<string>") -> list[Problem]:
    """Every problem found in the program ``text``, in source order."""
    from .compiler import base_namespace
    from .reader import ReaderError, read_all_with_spans

    try:
        forms = read_all_with_spans(text, source_name=name)
    except ReaderError as e:
        return [Problem(e.line, e.column, "Reader error: %s" % e.message)]
    base_namespace()  # loads the builtins the analyzer and this check consult
    from .analyze.analyzer import analyze_form

    nodes = [analyze_form(form)[0] for form, _ in forms]
    checker = _Checker()
    if any(type(form) is PList and form.count > 0 and form.first is S_DEFTEST for form, _ in forms):
        checker.bound.update(TEST_FILE_NAMES)  # a test file: (deftest name body...) and the assertions
    for node in nodes:
        checker.collect(node)
    checker.finish_collecting()
    for node, (form, _) in zip(nodes, forms):
        checker.top_form = form
        checker.check(node, in_fn=False, in_eval=False)
    return sorted(checker.problems, key=lambda p: (p.line, p.column))


class _Checker:
    def __init__(self) -> None:
        from spell_runtime.core.registry import BUILTINS

        self.builtins = BUILTINS
        self.bound: set[Symbol] = set()
        self.defn_arity: dict[Symbol, Optional[int]] = {}  # None: defined more than once or otherwise bound
        self.macros: set[Symbol] = set()
        self.other_bindings: set[Symbol] = set()
        self.call_symbols: dict[Symbol, set[Symbol]] = {}
        self.top_form: Any = None
        self.problems: list[Problem] = []

    # ---------------------------------------------------------------- pass 1: what is bound
    def collect(self, node: Any) -> None:
        for item in _walk(node):
            if isinstance(item, Def) and type(item.sym) is Symbol:
                self.bound.add(item.sym)
                if isinstance(item.value, Fn):
                    arity = _arity(item.value.params)
                    seen = item.sym in self.defn_arity
                    self.defn_arity[item.sym] = None if seen else arity
                else:
                    self.other_bindings.add(item.sym)
                    if isinstance(item.value, MapLit) and any(str(k) == ":spell/macro" for k in item.value.keys):
                        self.macros.add(item.sym)
            elif isinstance(item, Quine) and type(item.sym) is Symbol:
                self.bound.add(item.sym)
                self.other_bindings.add(item.sym)
            elif isinstance(item, Try) and type(item.catch_sym) is Symbol:
                self.bound.add(item.catch_sym)
                self.other_bindings.add(item.catch_sym)
            syms = getattr(item, "syms", None)
            if isinstance(syms, tuple):
                for s in syms:
                    if type(s) is Symbol:
                        self.bound.add(s)
                        self.other_bindings.add(s)
            if isinstance(item, Call) and isinstance(item.head, Global) and type(item.form) is PList:
                self.call_symbols.setdefault(item.head.sym, set()).update(_symbols(list(item.form)[1:]))
        for sym in self.other_bindings:
            if sym in self.defn_arity:
                self.defn_arity[sym] = None

    def finish_collecting(self) -> None:
        """A user macro may bind any symbol its calls mention (``(defconst k 9)``): count them as bound."""
        for macro in self.macros:
            self.bound.update(self.call_symbols.get(macro, ()))

    # ---------------------------------------------------------------- pass 2: references
    def check(self, node: Any, in_fn: bool, in_eval: bool) -> None:
        if isinstance(node, Global):
            self._reference(node.sym, node.pos, in_fn, in_eval)
        elif isinstance(node, NsRef):
            self._namespace(node, in_fn, in_eval)
        elif isinstance(node, Fail):
            self._add(node.pos, node.message)
        elif isinstance(node, Call):
            head = node.head
            head_sym = head.sym if isinstance(head, (Global, BuiltinRef, Local)) else None
            self.check(head, in_fn, in_eval)
            if head_sym is not None and head_sym in self.macros:
                return  # a user macro's arguments mean what the macro makes of them
            if isinstance(head, Global):
                self._arity(node, head.sym)
            if head_sym in EXPECTS_ERRORS and head_sym in self.bound:
                return  # (thrown? body): the body is meant to fail
            if head_sym is S_DEFTEST and head_sym in self.bound:
                for arg in node.args[1:]:  # the first argument is the test's name
                    self.check(arg, in_fn, in_eval)
                return
            if head_sym is S_EVAL:
                for arg in node.args:
                    if isinstance(arg, Const):
                        self._quoted_code(arg, in_fn)
                    else:
                        self.check(arg, in_fn, True)
                return
            for arg in node.args:
                self.check(arg, in_fn, in_eval)
            return
        elif isinstance(node, FnBody):
            self.check(node.body, True, in_eval)
            return
        if isinstance(node, Const):
            return
        for child in _children(node):
            self.check(child, in_fn, in_eval)

    def _quoted_code(self, arg: Const, in_fn: bool) -> None:
        """``(eval '(...))``: the quoted trailing expression is code that runs with effects."""
        form = arg.form
        if type(form) is PList and len(form) == 2 and form[0] is S_QUOTE:
            from .analyze.analyzer import analyze_form

            try:
                node, _ = analyze_form(form[1], pos=arg.pos)
            except Exception:  # data that is not code after all: nothing to check
                return
            self.collect(node)
            self.check(node, in_fn, True)

    def _reference(self, sym: Symbol, pos: Any, in_fn: bool, in_eval: bool) -> None:
        name = str(sym)
        if name in EFFECT_BUILTINS or name in EFFECT_NAMESPACES:
            if not in_fn and not in_eval:
                self._add(pos, "%s: %s is only available inside eval" % (name, name)
                          if name in EFFECT_BUILTINS else
                          "%s: %s/ is an effect namespace - use it in the trailing expression via eval"
                          % (name, name))
            return
        if sym in self.bound or sym in self.builtins or sym is S_EVAL:
            return
        self._add(self._symbol_pos(sym, pos), "Unbound symbol: %s" % name)

    def _symbol_pos(self, sym: Symbol, pos: Any) -> Any:
        """The symbol's own span. Built-in macro expansions (``defn`` → ``def`` of ``fn``) rebuild
        lists, so a bare symbol in a rebuilt body gets its parent's span from the analyzer; then
        look for the symbol in the source form (an unbound name has no binding occurrence)."""
        if pos is not None and pos[0] == pos[2] and pos[3] - pos[1] == len(str(sym)):
            return pos
        from .error_position import occurrence

        return occurrence(self.top_form, sym) or pos

    def _namespace(self, node: NsRef, in_fn: bool, in_eval: bool) -> None:
        root = node.root
        if root.name in EFFECT_NAMESPACES:
            if not in_fn and not in_eval:
                self._add(node.pos, "%s: %s/ is an effect namespace - use it in the trailing expression via eval"
                          % (node.whole, root.name))
            return
        if root in self.bound or root in self.builtins:
            return
        self._add(node.pos, "Unbound symbol: %s" % root)

    def _arity(self, call: Call, sym: Symbol) -> None:
        expected = self.defn_arity.get(sym)
        if expected is not None and expected != len(call.args):
            self._add(call.pos, "Wrong number of args to %s: expected %d, got %d" % (sym, expected, len(call.args)))

    def _add(self, pos: Any, message: str) -> None:
        line, col = (pos[0], pos[1] + 1) if pos else (1, 1)
        self.problems.append(Problem(line, col, message))


def _arity(params: Any) -> Optional[int]:
    """The argument count a Spell function takes: the size of its parameter vector (``fn.arity``)."""
    try:
        return len(params)
    except TypeError:
        return None


def _symbols(forms: Any) -> set[Symbol]:
    """Every symbol inside ``forms`` (raw forms: lists, vectors, maps, sets)."""
    out: set[Symbol] = set()
    stack = list(forms)
    while stack:
        x = stack.pop()
        if type(x) is Symbol:
            out.add(x)
        elif isinstance(x, (str, bytes)):
            continue
        elif hasattr(x, "items"):
            for k, v in x.items():
                stack += [k, v]
        elif hasattr(x, "__iter__"):
            try:
                stack.extend(x)
            except TypeError:
                continue
    return out


def _children(node: Any) -> list[Any]:
    out: list[Any] = []
    for field in type(node)._fields:
        if field in ("form", "pos", "ctx"):
            continue
        _gather(getattr(node, field, None), out)
    return out


def _gather(value: Any, out: list[Any]) -> None:
    if isinstance(value, (Node, FnBody, Binding)) or (isinstance(value, Record) and not isinstance(value, Node)):
        out.append(value)
    elif isinstance(value, tuple):
        for v in value:
            _gather(v, out)


def _walk(node: Any) -> list[Any]:
    """Every IR record under ``node``, itself included (preorder)."""
    out: list[Any] = []
    stack = [node]
    while stack:
        item = stack.pop()
        out.append(item)
        stack.extend(reversed(_children(item)))
    return out
