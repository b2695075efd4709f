"""Message texts that identify a failure's reason when nothing better is known.

Classification prefers facts over text: a verdict stamped where the failure
originated, then the exception class (``SpellArgumentError``, ``ProviderError``,
``ReaderError``...). Error result maps lose the exception, though, and
evaluator-produced errors have no class of their own, so the fixed product
strings of the spec (language.md §15.2, §15.5, runtime.md Appendix A) are the
remaining evidence. They are matched as prefixes or exact shapes, never as
loose substrings of arbitrary text, so a thrown string cannot impersonate them
(``:thrown`` is checked before any text).
"""

from __future__ import annotations

import re
from typing import Final, Optional

_EFFECT_GATE: Final = re.compile(r"^\S+: \S+/ is an effect namespace - use it in the trailing expression via eval$")
_FUTURE_GATE: Final = re.compile(r"^\S+: \S+/ is only available inside \(future \.\.\.\) blocks$")
_MACRO_PAIRS: Final = re.compile(r"^\S+: expected 2 args per name/expression pair, with optional leading \{:max-chars N\}")

_MACRO_TEXTS: Final = (
    "Macro expansion of ",
    "prune: expected 0 args",
    "first-line expects ",
    "Output options support only :max-chars",
    "!describe: a keyword cannot be a namespace",
    "Too few arguments to ",
    "Invalid destructuring pattern: ",
    "Not a Spell macro",
)
"""Built-in and user macros rejecting the forms they were given."""

ARGUMENT_TEXTS: Final = (
    "reopen expects a quine form",
    "reopen expects quine tail of the form (eval (do ...))",
    "Context character limit must be an integer of at least 128",
    "Value has no ordinary source representation",
    "!llm-self options must be a map with only an optional boolean :receive?",
    "Line range requires integral start and integral-or-nil end",
    "Character window requires nonnegative integral :char-start <= :char-end",
    "old-str cannot be nil",
    "new-str cannot be nil",
    "old-str cannot be empty",
    "io/sh: all command segments must be strings, got ",
    "io/exec: all argv entries must be strings, got ",
    "sh: :timeout must be numeric",
    "sh: :timeout must be >= 0",
    "io/grep: pattern collection must not be empty",
    "io/grep: every pattern in the collection must be a string",
    "io/grep: pattern must be a string or a non-empty collection of strings",
    "io/grep: :context must be a non-negative integer, got ",
    "io/grep: :max-count must be a non-negative integer, got ",
    "io/glob: :max-depth must be a non-negative integer, got ",
    "git subcommand not allowed: ",
)
"""Argument-validation messages of runtime and effect functions (§9.2 ``:invalid-argument``)."""

_RUNTIME_TEXTS: Final = (
    "Don't know how to create ISeq from: ",
    "count not supported on this type: ",
    "Unknown expression type: ",
    "No matching clause: ",
    "Stack overflow",
)
"""Evaluator failures caused by the values or shapes the program used."""


LIMIT_TEXTS: Final = {
    "Evaluation timed out after ": "timeout",
    "Collection size limit exceeded: ": "resource-limit",
    "Macro expansion too deep": "resource-limit",
    "Too many running futures: ": "resource-limit",
}
"""Evaluation limits (spell_runtime.limits); normally stamped, matched here when only text is left."""


def limit_reason(message: str) -> Optional[str]:
    for prefix, reason in LIMIT_TEXTS.items():
        if message.startswith(prefix):
            return reason
    return None


def is_argument_text(message: str) -> bool:
    """True when ``message`` is one of the documented argument-misuse texts."""
    return message.startswith(ARGUMENT_TEXTS)


def evaluator_reason(message: str) -> Optional[str]:
    """The §9.2 reason of an evaluator-produced message (one without a ``Function call failed:`` wrapper)."""
    if message.startswith("Unbound symbol: "):
        return "unbound-symbol"
    limit = limit_reason(message)
    if limit is not None:
        return limit
    if message.startswith("Namespace lookup failed: "):
        return "namespace-lookup"
    if _EFFECT_GATE.match(message):
        return "effect-outside-eval"
    if _FUTURE_GATE.match(message):
        return "future-only"
    if message.startswith("Wrong number of args"):
        return "arity"
    if message.startswith("Reader error"):
        return "reader-error"
    if message.startswith(_MACRO_TEXTS) or _MACRO_PAIRS.match(message):
        return "macro-expansion"
    if is_argument_text(message):
        return "invalid-argument"
    if message.startswith(_RUNTIME_TEXTS):
        return "expression-runtime"
    return None
