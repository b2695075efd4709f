"""Prefix text: what the model is asked to continue (runtime.md §5.3–§5.4, §7.2).

Every prefix is an *open* program. A quine form becomes its canonical prefix
(``serialize_prefix``); plain text that does not already look like code is
wrapped as a natural-language task bound with ``(quine prompt "...")``, so the
model always continues a program rather than answers prose.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from spell_runtime.data import PList, SpellMap, Symbol, is_vector, plist, vec
from spell_runtime.data.hashmap import SpellSet
from spell_runtime.printer import display_str, pr_str
from spell_runtime.valueform import value_form

from .incremental import render_prefix

S_QUINE: Final = Symbol("quine")
S_QUOTE: Final = Symbol("quote")
S_FN: Final = Symbol("fn")
S_LET: Final = Symbol("let")
S_LOOP: Final = Symbol("loop")

NL_PREFIX: Final = '(quine completion (eval (do (quine prompt "%s") '
"""PRODUCT STRING: the prefix of a natural-language self-call (runtime.md §5.4)."""

ROOT_PROGRAM: Final = '(quine completion (eval (do (quine prompt "%s") \'(!extend))))'
"""PRODUCT FORMAT: the root program of a ``:prompt`` run (runtime.md §7.2)."""


def escape_prompt(text: str) -> str:
    """The prompt escaping of §5.4: backslash, double quote, newline and tab only."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def root_program(prompt: str) -> str:
    """The program a ``:prompt`` run starts from — wrapped even when the prompt looks like code."""
    return ROOT_PROGRAM % escape_prompt(prompt)


def natural_language_prefix(text: str) -> str:
    """The open prefix that asks the model to work on a natural-language task."""
    return NL_PREFIX % escape_prompt(text)


def text_prefix(text: str) -> str:
    """A text prompt as a prefix: verbatim when it already starts with ``(``, else wrapped."""
    if text.strip().startswith("("):
        return text
    return natural_language_prefix(text)


def is_quine_form(x: Any) -> bool:
    """A list headed by ``quine`` (shape errors are left to ``serialize_prefix``)."""
    return type(x) is PList and x.count > 0 and x.first is S_QUINE


def prompt_prefix(prompt: Any, env: Mapping[Any, Any]) -> str:
    """The prefix for ``(!llm-self prompt)``: a quine's canonical prefix, an expanded list's text, or text."""
    if is_quine_form(prompt):
        return text_prefix(render_prefix(prompt))  # serialize_prefix, with a reader checkpoint (issue 14)
    if type(prompt) is PList:
        return text_prefix(pr_str(expand_free_symbols(prompt, env)))
    if isinstance(prompt, str):
        return text_prefix(prompt)
    return text_prefix(display_str(prompt))


def expand_free_symbols(form: Any, env: Mapping[Any, Any], bound: frozenset[Symbol] = frozenset()) -> Any:
    """``form`` with every free symbol that ``env`` binds replaced by the source form of its value.

    Quoted data is left alone, and names bound by ``fn``/``let``/``loop`` inside
    the form shadow the caller's bindings, so the text shows the program the
    model is meant to continue with the caller's values filled in.
    """
    if type(form) is Symbol:
        if form not in bound and form in env:
            try:
                return value_form(env[form])
            except Exception:  # noqa: BLE001 - a value with no source form stays a symbol
                return form
        return form
    if type(form) is PList:
        if form.count == 0:
            return form
        head = form.first
        items = list(form)
        if head is S_QUOTE:
            return form
        if head is S_FN and len(items) >= 2 and is_vector(items[1]):
            inner = bound | _names(items[1])
            return plist([head, items[1], *[expand_free_symbols(x, env, inner) for x in items[2:]]])
        if (head is S_LET or head is S_LOOP) and len(items) >= 2 and is_vector(items[1]):
            return _expand_let(items, env, bound)
        return plist([expand_free_symbols(x, env, bound) for x in items])
    if is_vector(form):
        return vec(expand_free_symbols(x, env, bound) for x in form)
    if isinstance(form, SpellMap):
        return SpellMap.from_pairs((expand_free_symbols(k, env, bound), expand_free_symbols(v, env, bound))
                                   for k, v in form.items())
    if type(form) is SpellSet:
        return SpellSet.from_items(expand_free_symbols(x, env, bound) for x in form)
    return form


def _expand_let(items: list[Any], env: Mapping[Any, Any], bound: frozenset[Symbol]) -> PList:
    pairs = list(items[1])
    out: list[Any] = []
    inner = bound
    for i in range(0, len(pairs) - 1, 2):
        out.append(pairs[i])
        out.append(expand_free_symbols(pairs[i + 1], env, inner))
        inner = inner | _names(pairs[i])
    if len(pairs) % 2:
        out.append(pairs[-1])
    body = [expand_free_symbols(x, env, inner) for x in items[2:]]
    return plist([items[0], vec(out), *body])


def _names(pattern: Any) -> frozenset[Symbol]:
    """Every symbol a binding pattern (symbol, vector or map destructuring) can bind."""
    if type(pattern) is Symbol:
        return frozenset({pattern})
    found: set[Symbol] = set()
    stack = [pattern]
    while stack:
        x = stack.pop()
        if type(x) is Symbol:
            found.add(x)
        elif is_vector(x) or type(x) is PList:
            stack.extend(x)
        elif isinstance(x, SpellMap):
            stack.extend(x.keys())
            stack.extend(x.values())
    return frozenset(found)
