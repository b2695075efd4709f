"""spellc's own system prompt (runtime.md §5.10).

The model never sees a chat: it sees the beginning of a Spell program and
writes the rest. Everything it must know to do that well — the wrapper, where
effects may run, what inserted results are and are not, how to keep context
small — has to be taught here, because nothing else reaches it. The texts are
spellc's (the reference's are not copied); what they must teach is fixed by
§5.10. Composition: the core guide below, then the profile's ``:system-prompt``
(the agent's own instructions extend the guide rather than replace it, so a
profile cannot silently drop what the loop depends on), the core namespaces' short docs, a ``NAMESPACES`` section
for the agent's effect namespaces, and a ``RETURN VALUE`` section when a
``:format`` is configured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Optional

from spell_runtime.data import Keyword, SpellMap, Symbol

K_SHORT: Final = Keyword("short-docs")
K_DETAIL: Final = Keyword("detail")
K_DOCS: Final = Keyword("docs")
DOC_KEYS: Final = frozenset({K_SHORT, K_DETAIL, K_DOCS})
CORE_NAMESPACE_ORDER: Final = ("strings", "math", "builtins", "skills")

LEAF_SYSTEM: Final = "You are a helpful assistant. Respond concisely."
"""Default system prompt of ``leaf-llm`` (runtime.md §2.5)."""

CORE_GUIDE: Final = """\
You write Spell, a small Clojure-like Lisp. You are never answering a chat message: you are given the \
beginning of a Spell program and you write the rest of it. Your text is appended to what you were given, \
the missing closing parentheses are added, the first complete form is read and evaluated, and its value \
is the answer of this turn. Anything after that first form is ignored. Emit Spell code only.

THE WRAPPER
Every program has this shape:
  (quine completion (eval (do
    <pure forms> ...
    '<trailing expression>)))
`quine` binds `completion` to the program itself, as data. The forms of the `do` body are pure: they are \
re-evaluated from scratch on every turn, so they must only compute and `def` values. The last form is \
quoted; `eval` evaluates it once, with the body's definitions visible. If you end with a plain value \
instead, that value is the final result of the task.

EFFECTS ONLY IN THE TRAILING EXPRESSION
Effect namespaces (io/, web/, globals/ ...) and effect functions (!llm-self ...) exist only while `eval` \
runs the trailing expression. `(def files (io/ls "."))` in the body fails; write `'(!call-now files \
(io/ls "."))` instead. Never nest `(eval ...)` in the body: it would run its effects again every turn.

CONTINUING: ONE TURN = ONE TRAILING EXPRESSION
  '(!call-now name expr ...)    evaluate each expr (effects run once, in order), append (def name <value>) \
and continue writing after it.
  '(!peek name expr ...)        like !call-now, but the bindings are shown for one turn only: a (prune N) \
marker removes them (and the !peek call) at the next edit. Use it for bulky output you only need to look at.
  '(!print expr ...)            append the values themselves, without names.
  '(!extend)                    continue with no new value (after think/rethink/persist edits).
  '(!llm-self (wrap-cat form ...))  start a fresh, short program containing only the given forms; its value \
comes back to this trailing expression.
Old trailing expressions stay in the text but are inert: they never run again.

EDIT MARKERS (applied when the next prefix is prepared)
  (think "note" ...)            a visible note; stays.
  (rethink "note")              removes the form before it and leaves (think "note").
  (prune) / (prune k)           removes the k forms before it (default 1) and itself.
  (persist name expr)           like def, but the next prefix shows (persist name <value>) instead of the \
computation: keep a small exact result, drop the work that produced it.

INSERTED RESULTS ARE BOUNDED SNAPSHOTS
Every value inserted by !call-now, !peek, !print or serialize is a snapshot: an ordinary Spell value, small \
enough to show. There is no hidden full original, no handle and no way to fetch the rest later. Anything \
left out is replaced by omission data, and omission data is missing evidence, not content:
  a string keeps its head and tail around "... [omitted N UTF-16; H..T of L] ...";
  a collection keeps its kind with {:spell/omitted N} in place of N elements (:unknown when not counted);
  a map gains a :spell/omitted entry (or :spell/omitted-1 ... when that key is taken) counting dropped entries;
  values that cannot be shown become {:spell/representation-unavailable true ...}.
Each output has its own target (default 10000 characters). A value whose full text is at most 120% of \
the target is shown whole; a longer one is shortened toward the target itself. Ask for a different \
target per call with a leading options map: '(!call-now {:max-chars 2000} page (io/read-lines "f.py" 1 200)) \
(also !peek, !print, and (serialize v 2000)); targets are integers of at least 128.
Compute inside the trailing expression what you need exactly (counts, sums, searches, the one line you \
need) and insert only that. Values you must keep exactly belong in explicit state: a file, a globals \
entry, or a small persisted binding.

RESULT ENVELOPES
Effects return {:ok true :out <payload> :err nil} or {:ok false :out <partial output or nil> :err "why"}; \
processes add :exit, HTTP adds :status. Read the payload from :out. When a display boundary shows an \
envelope it adds :truncated: true means something inside was omitted, false means you see all of it. \
Requesting a line range or a character window is not truncation.

LINES AND WINDOWS
io/read-lines returns a numbered vector shown as (first-line 41 ["row" ; 41 ...]): the comments are the \
source line numbers. File line ranges are one-based and half-open: (io/read-lines path 10 20) is lines \
10..19. Inside the vector, indices are local and zero-based: (subvec rows 2 5) keeps rows 2..4 and their \
line numbers. For a single giant line ask for a character window: (io/read-lines path {:char-start 0 \
:char-end 2000}) (zero-based UTF-16 offsets, per line).

NEVER REPLAY EFFECTS TO RECOVER OUTPUT
If a snapshot omitted something you need, read exactly that part again with a narrower request (a line \
range, a window, a grep) — a fresh read is new evidence of current contents. Never rerun a command or a \
write merely to see output that was omitted; never claim to have inspected what you did not see.

ERRORS
If your program fails, you will see it again with a `_error` map describing the failure, or a recovery \
prompt asking for a `(quine task "...")` and a `(quine context-summary "...")`. Fix the cause; do not \
repeat the mistake."""


def compose_system_prompt(base: Optional[str], effect_namespaces: dict[str, SpellMap],
                          core_namespaces: Optional[dict[str, Any]] = None, format_spec: Any = None) -> str:
    """The system prompt of one compiled agent."""
    parts = [CORE_GUIDE]
    if base:
        parts.append(base)
    core = core_namespaces if core_namespaces is not None else _core_namespace_maps()
    core_lines = [_short_line(name, ns) for name, ns in core.items()]
    core_lines = [line for line in core_lines if line]
    if core_lines:
        parts.append("CORE NAMESPACES (always available, pure)\n" + "\n".join(core_lines))
    if effect_namespaces:
        parts.append(namespaces_section(effect_namespaces))
    if format_spec is not None:
        parts.append(format_section(format_spec))
    return "\n\n".join(parts)


def namespaces_section(namespaces: dict[str, SpellMap]) -> str:
    """``NAMESPACES``: every effect namespace with its documented items (first line of each doc)."""
    header = ("NAMESPACES (effect namespaces: use them only in the trailing expression)\n"
              "Call members with qualified symbols: (io/read-lines \"f.txt\" 1 40). "
              "'(!describe io) shows a namespace guide, '(!describe io :sh) one item.")
    return namespace_guide(header, namespaces, DOC_KEYS,
                           lambda name, key, first, member: "  %s/%s%s" % (name, key.name,
                                                                          (": " + first) if first else ""))


ItemLine = Callable[[str, Keyword, str, Any], str]
"""How one member is listed: (namespace name, member key, first doc line or "", member value) -> line."""


def namespace_guide(header: str, namespaces: dict[str, SpellMap], skip: frozenset[Keyword],
                    item_line: ItemLine) -> str:
    """A prompt section: ``header``, then a ``## name`` block per namespace with its short docs and members.

    Shared by the effect ``NAMESPACES`` section and a package's ``LIBRARIES``
    section, which differ only in which keys are documentation (``skip``) and
    how a member's line reads.
    """
    blocks = [header]
    for name, ns in namespaces.items():
        lines = ["## %s" % name]
        short = ns.get(K_SHORT)
        if isinstance(short, str) and short:
            lines.append(short)
        detail = ns.get(K_DETAIL)
        documented = detail if isinstance(detail, SpellMap) else SpellMap()
        for key in ns.keys():
            if type(key) is not Keyword or key in skip:
                continue
            doc = documented.get(key)
            first = doc.strip().splitlines()[0] if isinstance(doc, str) and doc.strip() else ""
            lines.append(item_line(name, key, first, ns.get(key)))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def format_section(format_spec: Any) -> str:
    """``RETURN VALUE``: the map keys a ``:format`` requires (peripheral)."""
    from spell_runtime.printer import render_form

    required = format_spec.get(Keyword("required")) if isinstance(format_spec, SpellMap) else None
    optional = format_spec.get(Keyword("optional")) if isinstance(format_spec, SpellMap) else None
    text = "RETURN VALUE\nThe final value of your program must be a map"
    if required is not None:
        text += " with the keys " + render_form(required)
    text += "."
    if optional is not None:
        text += "\nOptional keys: " + render_form(optional)
    return text


def _short_line(name: str, ns: Any) -> str:
    if not isinstance(ns, SpellMap):
        return ""
    short = ns.get(K_SHORT)
    return "  %s/ %s" % (name, short) if isinstance(short, str) and short else ""


def _core_namespace_maps() -> dict[str, Any]:
    from spell_runtime import library
    from spell_runtime.core.registry import BUILTINS

    library.load()
    return {name: BUILTINS.get(Symbol(name)) for name in CORE_NAMESPACE_ORDER}
