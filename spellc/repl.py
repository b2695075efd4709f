"""The read-eval-print session behind ``spellc repl`` (the terminal and pipe handling is in ``cli_repl``).

One binding table ``D`` lives for the whole session, so definitions persist between inputs
exactly as between the top-level forms of one program. After each value, ``*1``/``*2``/``*3``
shift (Clojure's REPL names); after an error, ``*e`` is bound to the error as a Spell error
map (``{:err ... :expr ...}``, what ``spell-eval`` returns), so ``(:err *e)`` works.

Input is accumulated line by line until it reads as complete forms: more is needed while the
``(``/``)`` balance is positive (the reader's ``paren_balance``) or the reader stops at the end
of the text (an open ``[``, ``{`` or string). Text that can never become readable (a stray
``)``) is reported as a reader error at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from spell_runtime.data import Symbol

from .reader import ReaderError, paren_balance, read_all_with_spans

SOURCE_NAME = "<repl>"
HISTORY_SYMBOLS = (Symbol("*1"), Symbol("*2"), Symbol("*3"))
S_ERROR = Symbol("*e")


@dataclass
class Outcome:
    """The result of one complete input form: a printed value, or an error report."""

    value: Optional[str] = None
    error: Optional[str] = None


class ReplSession:
    """A persistent environment plus the pending (incomplete) input."""

    def __init__(self) -> None:
        from .analyze import bound
        from .api import new_env

        self.env: dict[Any, Any] = new_env()
        for sym in (*HISTORY_SYMBOLS, S_ERROR):
            self.env[sym] = None
        bound.note_bound((*HISTORY_SYMBOLS, S_ERROR))
        self.pending = ""

    @property
    def continuing(self) -> bool:
        """Whether the last line left an incomplete form (the prompt should say so)."""
        return bool(self.pending.strip())

    def feed(self, line: str) -> list[Outcome]:
        """Add one line of input; evaluate and return the outcomes of every form it completed."""
        text = self.pending + line + "\n"
        if paren_balance(text) > 0:
            self.pending = text
            return []
        try:
            forms = read_all_with_spans(text, source_name=SOURCE_NAME)
        except ReaderError as e:
            if e.message.startswith("EOF while reading"):
                self.pending = text
                return []
            self.pending = ""
            return [Outcome(error="%s:%d:%d: Reader error: %s" % (SOURCE_NAME, e.line, e.column, e.message))]
        self.pending = ""
        return [self.evaluate(form, text) for form, _ in forms]

    def finish(self) -> list[Outcome]:
        """End of input: pending text is read as it stands (an unfinished form is a reader error)."""
        text, self.pending = self.pending, ""
        if not text.strip():
            return []
        try:
            forms = read_all_with_spans(text, source_name=SOURCE_NAME)
        except ReaderError as e:
            return [Outcome(error="%s:%d:%d: Reader error: %s" % (SOURCE_NAME, e.line, e.column, e.message))]
        return [self.evaluate(form, text) for form, _ in forms]

    def cancel(self) -> None:
        """Drop the pending input (Ctrl-C at a continuation prompt)."""
        self.pending = ""

    def evaluate(self, form: Any, text: str) -> Outcome:
        from spell_runtime.bigstack import on_large_stack
        from spell_runtime.errors import SpellError
        from spell_runtime.errors_result import error_result
        from spell_runtime.printer import pr_str

        from .cli_compile import spell_error_text
        from .compiler import run_form
        from .error_position import locate_error

        try:
            # On a large stack (``spell_runtime.bigstack``): the REPL's main thread has an ordinary one,
            # which a recursion through a builtin would overflow, crashing the session.
            value, _ = on_large_stack(run_form, self.env, form, SOURCE_NAME, text)
        except SpellError as e:
            if e.position is None:
                e.position = locate_error(e, form)
            self.env[S_ERROR] = error_result(e)
            return Outcome(error=spell_error_text(e, SOURCE_NAME))
        except RecursionError:
            return Outcome(error="%s: Stack overflow" % SOURCE_NAME)
        one, two, _ = HISTORY_SYMBOLS
        self.env[HISTORY_SYMBOLS[2]] = self.env.get(two)
        self.env[two] = self.env.get(one)
        self.env[one] = value
        return Outcome(value=pr_str(value))

    def close(self) -> None:
        from spell_runtime.program import close_env

        close_env(self.env)
