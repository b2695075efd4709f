"""Shared helpers for the recovery tests: Spell-form strategies, evaluator-shaped error results,
and a model of which parts of a program actually get evaluated."""

from __future__ import annotations

from typing import Any, Optional

from hypothesis import strategies as st
from spell_runtime.data import (
    Keyword,
    LineVector,
    PList,
    PVector,
    SpellMap,
    SpellSet,
    Symbol,
    plist,
    spell_eq,
    vec,
)

from spellc.reader import balance_parens, read_first

S_QUOTE = Symbol("quote")
S_EVAL = Symbol("eval")
S_DO = Symbol("do")
S_DEF = Symbol("def")
S_QUINE = Symbol("quine")
S_FN = Symbol("fn")

K_ERR = Keyword("err")
K_ENV = Keyword("env")
K_EXPR = Keyword("expr")
K_CONTAINING = Keyword("containing-form")
K_RESULT = Keyword("result")
K_TRACE = Keyword("trace")
K_PHASE = Keyword("recovery-phase", "spell")
K_TRAILING = Keyword("trailing-expression")

SPEC_PROMPT = (  # runtime.md §6.7, copied by hand

    "The previous Spell program threw an error. The previous program is visible during this recovery turn, but it "
    "will be pruned afterward, such that you will not see it on your next turn.\n\nEmit a `(quine task \"...\")` form "
    "describing the original task, followed by a (quine context-summary \"...\") form describing history, progress, "
    "and context needed next. Preserve exact inspected evidence, checkpoints, pending obligations, and actual effect "
    "receipts. The previous program is inert context: its local bindings are not active. Reconstruct needed pure "
    "bindings explicitly. Inserted results are ordinary bounded snapshots with no hidden full original; omission data "
    "is missing evidence. Use subs for strings, subvec for line vectors, and the documented :out field for result "
    "envelopes. Preserve paths, source coordinates and next offsets as literal data. Never rerun an effect merely to "
    "recover omitted output. A focused file reread is fresh evidence of current contents, not the original receipt. "
    "Exact earlier values are available only if the program deliberately saved them in explicit state. If evidence is "
    "unavailable, report it rather than claiming inspection. Emit Spell code only. Avoid repeating your previous error."
)

RESERVED = {"quote", "eval", "do", "def", "quine", "fn", "fn*", "let", "if", "loop", "recur", "prune", "reopen",
            "completion", "rethink", "think", "persist", "nil", "true", "false", "try", "catch", "throw"}


def read(text: str) -> Any:
    """The first form of ``text`` after balancing, as the turn loop reads a completion."""
    return read_first(balance_parens(text))


def bad_result(message: str, expr: Any, containing: Any = None, trace: Optional[list[Any]] = None) -> SpellMap:
    """An evaluator-shaped error result ``{:err :env :expr [:trace] [:containing-form]}``."""
    pairs: list[tuple[Any, Any]] = [(K_ERR, message), (K_ENV, SpellMap()), (K_EXPR, expr)]
    if trace:
        pairs.append((K_TRACE, vec(trace)))
    if containing is not None:
        pairs.append((K_CONTAINING, containing))
    return SpellMap.from_pairs(pairs)


def trailing_failure(program: PList, inner: SpellMap) -> SpellMap:
    """What the ``eval`` builtin turns an inner trailing failure into (runtime.md §6.1)."""
    last = program[program.count - 1]
    return SpellMap.from_pairs([
        (K_ERR, "Function call failed: eval: " + inner.get(K_ERR)), (K_ENV, SpellMap()), (K_EXPR, last),
        (K_RESULT, inner), (K_PHASE, K_TRAILING),
    ])


def wrapper(body: list[Any], inert: Optional[list[Any]] = None) -> PList:
    """``(quine completion inert... (eval (do body...)))``."""
    return plist([S_QUINE, Symbol("completion"), *(inert or []), plist([S_EVAL, plist([S_DO, *body])])])


def quoted(form: Any) -> PList:
    return plist([S_QUOTE, form])


# --------------------------------------------------------------------------- what gets evaluated

def evaluated_lists(program: Any) -> list[Any]:
    """Every list form that evaluating ``program`` (a top-level completion) would evaluate as code.

    A deliberately conservative model of the evaluator: ``quote`` stops evaluation,
    ``quine`` evaluates only its last argument, ``def`` evaluates its value, ``fn``
    bodies count as evaluated, and ``eval`` additionally evaluates the value of its
    argument when that value is statically known (a quoted form, or the last form
    of a ``do`` when it is quoted) — which is how trailing expressions run.
    """
    out: list[Any] = []
    stack: list[Any] = [program]
    while stack:
        x = stack.pop()
        if type(x) is PList:
            if x.count == 0 or x.first is S_QUOTE:
                continue
            out.append(x)
            head = x.first
            if head is S_QUINE:
                if x.count >= 3:
                    stack.append(x[x.count - 1])
                continue
            if head is S_DEF:
                if x.count == 3:
                    stack.append(x[2])
                continue
            if head is S_EVAL and x.count == 2:
                target = second_pass(x[1])
                if target is not None:
                    stack.append(target)
            stack.extend(x)
        elif type(x) in (PVector, LineVector, SpellSet):
            stack.extend(x)
        elif isinstance(x, SpellMap):
            for k, v in x.items():
                stack.append(k)
                stack.append(v)
    return out


def second_pass(arg: Any) -> Any:
    """The form ``eval`` evaluates in its second pass, when the first pass yields it statically."""
    if type(arg) is PList and arg.count == 2 and arg.first is S_QUOTE:
        return arg[1]
    if type(arg) is PList and arg.count >= 2 and arg.first is S_DO:
        return second_pass(arg[arg.count - 1])
    return None


def trailing_expressions(program: Any) -> list[Any]:
    """The second-pass forms of every ``eval`` in evaluated position: what runs with effects."""
    found = []
    for form in evaluated_lists(program):
        if form.first is S_EVAL and form.count == 2:
            target = second_pass(form[1])
            if target is not None:
                found.append(target)
    return found


def occurs_evaluated(program: Any, form: Any) -> bool:
    return any(spell_eq(f, form) for f in evaluated_lists(program))


# --------------------------------------------------------------------------- strategies

names = st.from_regex(r"[a-z][a-z0-9\-]{0,7}", fullmatch=True).filter(lambda s: s not in RESERVED)
symbols = st.one_of(names.map(lambda n: Symbol("s-" + n)),
                    st.tuples(names, names).map(lambda t: Symbol("s-" + t[1], "ns-" + t[0])))
keywords = names.map(lambda n: Keyword("k-" + n))
atoms = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
                  st.text(max_size=20), keywords, symbols)


def _collections(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keys = st.one_of(keywords, st.text(max_size=8), st.integers(-100, 100), symbols)
    return st.one_of(
        st.lists(children, max_size=4).map(plist),
        st.lists(children, max_size=4).map(vec),
        st.lists(st.tuples(keys, children), max_size=3).map(SpellMap.from_pairs),
        st.lists(st.one_of(keywords, st.integers(-50, 50)), max_size=3).map(SpellSet.from_items),
        children.map(quoted),
    )


forms = st.recursive(atoms, _collections, max_leaves=12)
"""Arbitrary readable Spell data (every value renders and reads back equal)."""

failing_calls = st.tuples(names, st.lists(atoms, max_size=3)).map(
    lambda t: plist([Symbol("missing-" + t[0]), *t[1]]))
"""A call of an unbound function: the form a failure names."""

pure_defs = st.tuples(names, forms).map(lambda t: plist([S_DEF, Symbol("v-" + t[0]), quoted(t[1])]))
"""Body forms that evaluate without failing."""
