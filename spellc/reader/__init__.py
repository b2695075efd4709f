"""The Spell reader: source text to forms with positions (language.md §2).

``read_all``/``read_first`` sanitize first (comment markers, then string-escape
repair), exactly as the reference does before handing text to the Clojure
reader; ``sanitize`` and the two passes are exposed for the runtime, which also
uses ``paren_balance``/``balance_parens`` on truncated completions.
"""

from .balance import balance_parens, paren_balance
from .entry import read_all, read_all_with_spans, read_first, read_first_span, read_strict
from .errors import ReaderError
from .sanitize import sanitize, sanitize_comment_markers, sanitize_string_escapes, sanitize_with_inserts

__all__ = [
    "read_all",
    "read_all_with_spans",
    "read_first",
    "read_first_span",
    "read_strict",
    "sanitize",
    "sanitize_comment_markers",
    "sanitize_string_escapes",
    "sanitize_with_inserts",
    "paren_balance",
    "balance_parens",
    "ReaderError",
]
