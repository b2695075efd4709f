"""Short lines for the Python text ``spellc build`` writes (issue 12.5: readable built output).

``ast.unparse`` writes each statement on one line, and a call site's inline fast path, macro
check and fallbacks make lines of thousands of characters. Python lets a line break anywhere
inside brackets, so a long line is cut there — after a comma or an opening bracket, or before
``if``/``else``/``and``/``or``/``for`` — with the continuation indented two steps (two spaces) past
the statement. Breaks never fall inside a token, so the tree is unchanged (``call_spans`` walks the
emitter's tree and the parsed text in step, and still pairs every node); a stretch with no
bracket around it (the top of a ``return a if c else b``) stays as long as it is. Breaking costs
a newline and an indentation per cut, so pieces are filled up to ``WIDTH``, not cut per argument.
"""

from __future__ import annotations

import io
import tokenize

WIDTH = 120
"""Characters of code a wrapped line holds before its next break (continuations included): each
break costs a newline and an indentation (3.7 KB on compile-300's 107 KB build at 120)."""

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_BREAK_AFTER = frozenset(",({")  # not "[": a cut subscript (`x[\n0]`) reads badly
_BREAK_BEFORE = frozenset(("if", "else", "and", "or", "for"))


def wrap_long_lines(text: str, width: int = WIDTH) -> str:
    """``text`` (Python source) with every line longer than ``width`` broken inside its brackets."""
    lines = text.splitlines(keepends=True)
    long_lines = {i + 1 for i, line in enumerate(lines) if len(line) > width + 1}
    if not long_lines:
        return text
    breaks: dict[int, list[int]] = {n: [] for n in long_lines}  # line → columns a continuation may start at
    depth = 0
    previous = ""
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        (row, col), (end_row, _) = tok.start, tok.end
        if end_row != row:  # a multi-line string: its lines are text, never cut
            for n in range(row, end_row + 1):
                breaks.pop(n, None)
        elif row in breaks and depth > 0 and (previous in _BREAK_AFTER or tok.string in _BREAK_BEFORE):
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT) and tok.string not in _CLOSE:
                breaks[row].append(col)
        if tok.type == tokenize.OP:
            if tok.string in _OPEN:
                depth += 1
            elif tok.string in _CLOSE:
                depth -= 1
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok.string
    for n, columns in breaks.items():
        lines[n - 1] = _cut(lines[n - 1], columns, width)
    return "".join(lines)


def _cut(line: str, columns: list[int], width: int) -> str:
    """``line`` cut at some of ``columns`` so that each piece fits ``width`` where it can."""
    indent = len(line) - len(line.lstrip(" "))
    follow = " " * (indent + 2)  # two steps of the module's one-space indentation (``source.INDENT``)
    pieces: list[str] = []
    start, room = 0, width
    candidate: int | None = None  # the last column where the current piece could end
    for col in [*columns, len(line.rstrip("\n"))]:  # the line's end closes the last piece
        if col - start > room and candidate is not None:
            pieces.append(line[start:candidate].rstrip(" "))
            start, room = candidate, width - len(follow)
        candidate = col
    pieces.append(line[start:])
    return ("\n" + follow).join(pieces)


__all__ = ["wrap_long_lines", "WIDTH"]
