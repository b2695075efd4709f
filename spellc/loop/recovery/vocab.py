"""The keywords and symbols recovery reads from error results and writes into programs.

Keywords and symbols are interned, so naming each one once here lets every
module compare with ``is`` and keeps the product spellings (``_error``,
``_recovery_prompt``, ``:receive?``) in a single place where a typo would be
caught by the byte-exact tests.
"""

from __future__ import annotations

from typing import Final

from spell_runtime.data import Keyword, Symbol

# Keys of an error result map (language.md §15.1, runtime.md §6.1).
K_ERR: Final = Keyword("err")
K_EXPR: Final = Keyword("expr")
K_TRACE: Final = Keyword("trace")
K_CONTAINING: Final = Keyword("containing-form")
K_THROWN: Final = Keyword("thrown")
K_RESULT: Final = Keyword("result")
K_RECOVERY_PHASE: Final = Keyword("recovery-phase", "spell")
K_TRAILING: Final = Keyword("trailing-expression")
K_COMPLETION_ERROR: Final = Keyword("completion-error", "spell")

# Fault classification keys (runtime.md §9.1).
K_FAULT: Final = Keyword("fault", "spell")
K_REASON_QUALIFIED: Final = Keyword("reason", "spell")
K_TYPE: Final = Keyword("type")

# Keys of the model-facing ``_error`` map (Appendix A).
K_ERROR: Final = Keyword("error")
K_IN: Final = Keyword("in")
K_RAW: Final = Keyword("raw")
K_REASON: Final = Keyword("reason")
K_RECEIVE: Final = Keyword("receive?")

# Form heads and binding names.
S_QUINE: Final = Symbol("quine")
S_COMPLETION: Final = Symbol("completion")
S_EVAL: Final = Symbol("eval")
S_DO: Final = Symbol("do")
S_QUOTE: Final = Symbol("quote")
S_DEF: Final = Symbol("def")
S_PRUNE: Final = Symbol("prune")
S_REOPEN: Final = Symbol("reopen")
S_LLM_SELF: Final = Symbol("!llm-self")
S_ERROR: Final = Symbol("_error")
S_RECOVERY_PROMPT: Final = Symbol("_recovery_prompt")
