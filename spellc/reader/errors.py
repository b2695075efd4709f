"""The reader's one exception type.

The message is exactly the Clojure reader's text (language.md §2.9) because the
runtime shows it to the model as ``Reader error: <message>`` and the reference
never adds a position. The position rides alongside as data, so tools (the CLI,
tracebacks, recovery) can point at the text without changing the message.
"""

from __future__ import annotations

from typing import Optional

from spell_runtime.errors import SpellError


class ReaderError(SpellError):
    """Unreadable Spell text: ``str(e)`` is the reference message, ``line``/``column`` say where."""

    line: int
    column: int

    def __init__(self, message: str, line: int = 1, column: int = 1, source_name: Optional[str] = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.position = (line, column - 1, line, column)
        self.source_name = source_name


class ReadFailure(Exception):
    """Raised by the reader's helpers; the reader turns it into a positioned ``ReaderError``.

    ``offset`` is where in the sanitized text the problem was detected, when the
    helper knows better than the reader (e.g. a bad escape deep inside a string).
    """

    def __init__(self, message: str, offset: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
