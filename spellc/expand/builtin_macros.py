"""The 33 built-in macros of language.md §10.3 as form → form functions.

Built-in macro names cannot be shadowed (§6.3 rule 1), so the analyzer expands
them statically, once, when it compiles a form. An expander that rejects its
arguments raises ``MacroArgError``; the analyzer turns that into code that fails
with the message when (and only when) the form is evaluated, because in Spell an
error is a result of evaluation, not of reading.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spell_runtime.data import (
    EMPTY,
    Keyword,
    PList,
    SpellMap,
    Symbol,
    is_vector,
    plist,
    spell_map,
    vec,
)
from spell_runtime.data.atoms import K_EXPANDER, K_SPELL_MACRO
from spell_runtime.gensym import gensym


class MacroArgError(Exception):
    """A built-in macro refused its arguments; ``str()`` is the Spell message."""


def S(name: str) -> Symbol:
    return Symbol(name)


QUOTE, DO, IF, LET, DEF, FN = S("quote"), S("do"), S("if"), S("let"), S("def"), S("fn")
K_MAX_CHARS = Keyword("max-chars")
K_NAME, K_VALUE, K_FORM, K_RECEIVE = Keyword("name"), Keyword("value"), Keyword("form"), Keyword("receive?")
COMPLETION = S("completion")
K_ELSE = Keyword("else")

Expander = Callable[[str, list[Any]], Any]


def L(*items: Any) -> PList:
    return plist(items)


def _arity(name: str, args: list[Any], lo: int, hi: int | None = None) -> None:
    if len(args) < lo or (hi is not None and len(args) > hi):
        raise MacroArgError("Wrong number of args (%d) passed to: %s" % (len(args), name))


def _is_list(x: Any) -> bool:
    return type(x) is PList


def _when(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1)
    return L(IF, a[0], plist([DO, *a[1:]]))


def _defn(name: str, a: list[Any]) -> Any:
    _arity(name, a, 2)
    return L(DEF, a[0], plist([FN, a[1], *a[2:]]))


def _define(name: str, a: list[Any]) -> Any:
    _arity(name, a, 2, 2)
    return L(DEF, a[0], a[1])


def _defmacro(name: str, a: list[Any]) -> Any:
    _arity(name, a, 2)
    return L(DEF, a[0], spell_map(K_SPELL_MACRO, True, K_EXPANDER, plist([FN, a[1], *a[2:]])))


def _and(name: str, a: list[Any]) -> Any:
    if not a:
        return True
    if len(a) == 1:
        return a[0]
    g = gensym("and__")
    return L(LET, vec([g, a[0]]), L(IF, g, plist([S("and"), *a[1:]]), g))


def _or(name: str, a: list[Any]) -> Any:
    if not a:
        return None
    if len(a) == 1:
        return a[0]
    g = gensym("or__")
    return L(LET, vec([g, a[0]]), L(IF, g, g, plist([S("or"), *a[1:]])))


def _cond(name: str, a: list[Any]) -> Any:
    if not a:
        return None
    return L(IF, a[0], a[1] if len(a) > 1 else None, plist([S("cond"), *a[2:]]))


def _first_two(bindings: Any) -> tuple[Any, Any]:
    items = list(bindings) if (is_vector(bindings) or _is_list(bindings)) else []
    return (items[0] if items else None, items[1] if len(items) > 1 else None)


def _if_let_like(prefix: str, test_some: bool) -> Expander:
    def expand(name: str, a: list[Any]) -> Any:
        _arity(name, a, 2, 3)
        pattern, test = _first_two(a[0])
        g = gensym(prefix)
        cond = L(S("some?"), g) if test_some else g
        return L(LET, vec([g, test]), L(IF, cond, L(LET, vec([pattern, g]), a[1]), a[2] if len(a) > 2 else None))

    return expand


def _when_let_like(prefix: str, test_some: bool) -> Expander:
    def expand(name: str, a: list[Any]) -> Any:
        _arity(name, a, 1)
        pattern, test = _first_two(a[0])
        g = gensym(prefix)
        inner = plist([LET, vec([pattern, g]), *a[1:]])
        if test_some:
            return L(LET, vec([g, test]), L(IF, L(S("some?"), g), inner, None))
        return L(LET, vec([g, test]), L(S("when"), g, inner))

    return expand


def _case(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1)
    g = gensym("case__")
    clauses = a[1:]
    pairs = len(clauses) // 2
    cond: list[Any] = [S("cond")]
    for i in range(pairs):
        cond.append(L(S("="), g, clauses[2 * i]))
        cond.append(clauses[2 * i + 1])
    default = clauses[-1] if len(clauses) % 2 else L(S("throw"), L(S("str"), "No matching clause: ", g))
    cond.append(K_ELSE)
    cond.append(default)
    return L(LET, vec([g, a[0]]), plist(cond))


def _thread(first: bool) -> Expander:
    def expand(name: str, a: list[Any]) -> Any:
        _arity(name, a, 1)
        acc = a[0]
        for step in a[1:]:
            form = list(step) if _is_list(step) else [step]
            if first:
                acc = plist([form[0], acc, *form[1:]]) if form else L(None, acc)
            else:
                acc = plist([*form, acc])
        return acc

    return expand


def _as_thread(name: str, a: list[Any]) -> Any:
    _arity(name, a, 2)
    expr, nm, forms = a[0], a[1], a[2:]
    if not forms:
        return expr
    bindings: list[Any] = [nm, expr]
    for f in forms[:-1]:
        bindings += [nm, f]
    return L(LET, vec(bindings), forms[-1])


def _steps_let(g: Symbol, expr: Any, steps: list[Any]) -> Any:
    if not steps:
        return L(LET, vec([g, expr]), g)
    bindings: list[Any] = [g, expr]
    for s in steps[:-1]:
        bindings += [g, s]
    return L(LET, vec(bindings), steps[-1])


def _cond_thread(arrow: str) -> Expander:
    def expand(name: str, a: list[Any]) -> Any:
        _arity(name, a, 1)
        g = gensym(name + "__")
        clauses = a[1:]
        steps = [L(IF, clauses[i], L(S(arrow), g, clauses[i + 1]), g) for i in range(0, len(clauses) - 1, 2)]
        return _steps_let(g, a[0], steps)

    return expand


def _some_thread(arrow: str) -> Expander:
    def expand(name: str, a: list[Any]) -> Any:
        _arity(name, a, 1)
        g = gensym(name + "__")
        steps = [L(IF, L(S("nil?"), g), None, L(S(arrow), g, s)) for s in a[1:]]
        return _steps_let(g, a[0], steps)

    return expand


def _think(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1)
    if len(a) == 1:
        return None
    return plist([DO, *a[1:], None])


def _rethink(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1)
    from decimal import Decimal
    from fractions import Fraction

    rest = a[2:] if type(a[0]) in (int, float, Fraction, Decimal) else a[1:]
    if not rest:
        return None
    return plist([DO, *rest, None])


def _prune(name: str, a: list[Any]) -> Any:
    from decimal import Decimal
    from fractions import Fraction

    from spell_runtime.data import BigInt, Float32

    if not a or (len(a) == 1 and type(a[0]) in (int, float, BigInt, Float32, Fraction, Decimal)):
        return None
    raise MacroArgError("prune: expected 0 args (prune 1) or 1 numeric arg (prune k)")


def _first_line(name: str, a: list[Any]) -> Any:
    from spell_runtime.data import BigInt, LineVector, as_pvector

    if not a or len(a) % 2:
        raise MacroArgError("first-line expects start/vector pairs")
    rows: list[Any] = []
    segments: list[tuple[int | None, int]] = []
    for i in range(0, len(a), 2):
        start, block = a[i], a[i + 1]
        if not is_vector(block):
            raise MacroArgError("first-line expects a vector literal")
        if start is not None and not (type(start) in (int, BigInt) and start > 0):
            raise MacroArgError("first-line expects positive line numbers or nil")
        items = list(as_pvector(block))
        rows.extend(items)
        segments.append((None if start is None else int(start), len(items)))
    return L(QUOTE, LineVector(vec(rows), tuple(segments)))


def _future(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1, 1)
    return L(S("future*"), L(FN, vec([]), a[0]))


def _plet(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1)
    items = list(a[0]) if (is_vector(a[0]) or _is_list(a[0])) else []
    futs: list[Any] = []
    awaits: list[Any] = []
    for i in range(0, len(items) - 1, 2):
        sym, expr = items[i], items[i + 1]
        g = gensym("%s__fut__" % sym)
        futs += [g, L(S("future"), expr)]
        awaits += [sym, L(Symbol("await", "blocking"), g)]
    return L(LET, vec(futs), plist([LET, vec(awaits), *a[1:]]))


def _output_options(name: str, a: list[Any]) -> tuple[Any, list[Any]]:
    """Split an optional leading ``{:max-chars N}`` map off the arguments."""
    if a and isinstance(a[0], SpellMap) and a[0].contains(K_MAX_CHARS):
        if len(a[0]) != 1:
            raise MacroArgError("Output options support only :max-chars")
        return a[0].get(K_MAX_CHARS), a[1:]
    return None, a


def _continuation(limit: Any, bindings: list[Any], descriptors: list[Any]) -> Any:
    f = gensym("context-forms__")
    let_bindings = [*bindings, f, L(S("context-forms"), vec(descriptors), limit)]
    extras = [L(S("reopen-eval"), L(S("nth"), f, i)) for i in range(len(descriptors))]
    reopened = plist([S("reopen"), L(S("edit-reopen"), COMPLETION), *extras])
    return L(LET, vec(let_bindings), L(S("!llm-self"), reopened, spell_map(K_RECEIVE, True)))


def _call_now_like(peek: bool) -> Expander:
    def expand(name: str, a: list[Any]) -> Any:
        limit, rest = _output_options(name, a)
        if not rest or len(rest) % 2:
            raise MacroArgError("%s: expected 2 args per name/expression pair, with optional leading {:max-chars N}"
                                % name)
        bindings: list[Any] = []
        descriptors: list[Any] = []
        for i in range(0, len(rest), 2):
            t = gensym("call-now__")
            bindings += [t, rest[i + 1]]
            descriptors.append(spell_map(K_NAME, L(QUOTE, rest[i]), K_VALUE, t))
        if peek:
            descriptors.append(spell_map(K_FORM, L(QUOTE, L(S("prune"), len(rest) // 2 + 1))))
        return _continuation(limit, bindings, descriptors)

    return expand


def _print(name: str, a: list[Any]) -> Any:
    limit, rest = _output_options(name, a)
    bindings: list[Any] = []
    descriptors: list[Any] = []
    for expr in rest:
        t = gensym("print__")
        bindings += [t, expr]
        descriptors.append(spell_map(K_VALUE, t))
    return _continuation(limit, bindings, descriptors)


def _describe(name: str, a: list[Any]) -> Any:
    _arity(name, a, 1)
    describe = S("describe-fn")
    if type(a[0]) is Keyword:
        raise MacroArgError("!describe: a keyword cannot be a namespace; repeat the namespace for each key, "
                            "e.g. (!describe skills :coding skills :spell-developer)")
    if len(a) == 1:
        return L(S("!print"), L(describe, a[0]))
    if len(a) == 2 and type(a[1]) is Keyword:
        return L(S("!print"), L(describe, a[0], a[1]))
    parts: list[Any] = []
    i = 0
    while i < len(a):
        ns = a[i]
        if type(ns) is Keyword:
            raise MacroArgError("!describe: a keyword cannot be a namespace; repeat the namespace for each key, "
                                "e.g. (!describe skills :coding skills :spell-developer)")
        if i + 1 < len(a) and type(a[i + 1]) is Keyword:
            from spell_runtime.printer import display_str

            parts += ["## %s %s\n" % (display_str(ns), display_str(a[i + 1])), L(describe, ns, a[i + 1]), "\n\n"]
            i += 2
        else:
            from spell_runtime.printer import display_str

            parts += ["## %s\n" % display_str(ns), L(describe, ns), "\n\n"]
            i += 1
    return L(S("!print"), plist([S("cat"), *parts]))


def _extend(name: str, a: list[Any]) -> Any:
    _arity(name, a, 0, 1)
    q = a[0] if a else COMPLETION
    return L(S("!llm-self"), L(S("edit-reopen"), q), spell_map(K_RECEIVE, True))


COMPACT_SUFFIX = (
    '(think "compact" "Rewrite the context above as the smallest set of forms that keeps every fact, '
    'definition and open task still needed; quote forms that must not be evaluated.") '
    "'((fn [next-context] (!llm-self next-context {:receive? true})) (wrap-cat "
)


def _compact(name: str, a: list[Any]) -> Any:
    _arity(name, a, 0, 1)
    if not a:
        return L(S("!compact"), COMPLETION)
    return L(S("!llm-self"), L(S("str"), L(S("serialize-prefix"), L(S("edit-reopen"), a[0])), COMPACT_SUFFIX),
             spell_map(K_RECEIVE, False))


MACROS: dict[Symbol, Expander] = {
    S("when"): _when,
    S("defn"): _defn,
    S("and"): _and,
    S("or"): _or,
    S("cond"): _cond,
    S("if-let"): _if_let_like("if-let__", False),
    S("when-let"): _when_let_like("when-let__", False),
    S("if-some"): _if_let_like("if-some__", True),
    S("when-some"): _when_let_like("when-some__", True),
    S("case"): _case,
    S("as->"): _as_thread,
    S("cond->"): _cond_thread("->"),
    S("cond->>"): _cond_thread("->>"),
    S("some->"): _some_thread("->"),
    S("some->>"): _some_thread("->>"),
    S("->"): _thread(True),
    S("->>"): _thread(False),
    S("define"): _define,
    S("defmacro"): _defmacro,
    S("think"): _think,
    S("rethink"): _rethink,
    S("prune"): _prune,
    S("first-line"): _first_line,
    S("future"): _future,
    Symbol("plet", "blocking"): _plet,
    S("!call-now"): _call_now_like(False),
    S("!peek-now"): _call_now_like(True),
    S("!peek"): _call_now_like(True),
    S("!print"): _print,
    S("print"): _print,
    S("!describe"): _describe,
    S("!extend"): _extend,
    S("!compact"): _compact,
}


def expand_builtin(form: PList) -> Any:
    """Expand a built-in macro call once (the head must be a key of ``MACROS``)."""
    head = form.first
    return MACROS[head](str(head), list(form)[1:])


__all__ = ["MACROS", "MacroArgError", "expand_builtin", "EMPTY"]
