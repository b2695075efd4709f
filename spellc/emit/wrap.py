"""Short lines for the Python text ``spellc build`` writes (issue 12.5: readable built output).

``ast.unparse`` writes each statement on one line, and a call site's inline fast path, macro
check and fallbacks make lines of thousands of characters. Python lets a line break anywhere
inside brackets, so a long line is cut there — after a comma or an opening bracket, or before
``if``/``else``/``and``/``or``/``for`` — with the continuation indented two steps (two spaces) past
the statement. Breaks never fall inside a token, so the tree is unchanged (``call_spans`` walks the
emitter's tree and the parsed text in step, and still pairs every node); a stretch with no
bracket around it (the top of a ``return a if c else b``) stays as long as it is. Breaking costs
a newline and an indentation per cut, so pieces are filled up to ``WIDTH``, not cut per argument.

A string constant longer than a line (a CSV table a program defines) is first written as adjacent
literals, ``'a,b\\n' 'c,d\\n'``, cut after its newlines where it has them: Python joins adjacent
literals into the one constant while it parses, so the tree is still the same, and the cut pass may
then break between the pieces. Only a plain literal inside brackets is split (no prefix, no
triple quotes: docstrings and f-strings keep their text as written).
"""

from __future__ import annotations

import ast
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
    literals: dict[int, list[tuple[int, int, list[str]]]] = {}  # line → its too-long literals' (col, end, pieces)
    depth = 0
    previous = ""
    after_string = False  # the previous token was a string literal: a break may fall between two
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        (row, col), (end_row, end_col) = tok.start, tok.end
        if end_row != row:  # a multi-line string: its lines are text, never cut
            for n in range(row, end_row + 1):
                breaks.pop(n, None)
        elif row in breaks and depth > 0:
            if previous in _BREAK_AFTER or tok.string in _BREAK_BEFORE or (after_string and tok.type == tokenize.STRING):
                if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT) and tok.string not in _CLOSE:
                    breaks[row].append(col)
            if tok.type == tokenize.STRING:
                line = lines[row - 1]
                room = width - (len(line) - len(line.lstrip(" "))) - 2  # from a continuation's first column
                pieces = _string_pieces(tok.string, room) if end_col - col > room else None
                if pieces is not None:
                    literals.setdefault(row, []).append((col, end_col, pieces))
        if tok.type == tokenize.OP:
            if tok.string in _OPEN:
                depth += 1
            elif tok.string in _CLOSE:
                depth -= 1
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok.string
            after_string = tok.type == tokenize.STRING
    for n, columns in breaks.items():
        line = lines[n - 1]
        if n in literals:
            line, columns = _with_pieces(line, literals[n], columns)
        lines[n - 1] = _cut(line, columns, width)
    return "".join(lines)


def _with_pieces(line: str, literals: list[tuple[int, int, list[str]]],
                 columns: list[int]) -> tuple[str, list[int]]:
    """``line`` with each of its ``literals`` (col, end col, pieces; in order) written as its adjacent
    pieces, and the break ``columns`` moved with the text, plus one before every piece but the first."""
    out: list[str] = []
    moved: list[int] = []
    shift = at = k = 0  # text added so far; where the copy of ``line`` stands; the next column to move
    for col, end, pieces in literals:
        while k < len(columns) and columns[k] <= col:
            moved.append(columns[k] + shift)
            k += 1
        joined = " ".join(pieces)
        start = col + shift
        for piece in pieces[:-1]:
            start += len(piece) + 1
            moved.append(start)
        out += [line[at:col], joined]
        at = end
        shift += len(joined) - (end - col)
    moved += [c + shift for c in columns[k:]]
    out.append(line[at:])
    return "".join(out), moved


def _string_pieces(literal: str, room: int) -> list[str] | None:
    """The string ``literal`` as adjacent literals of at most about ``room`` characters each, cut
    after newlines where it has them; None for a literal this does not split (a prefixed or
    triple-quoted one)."""
    if literal[:1] not in ("'", '"') or literal[:3] in ("'''", '"""'):
        return None
    value = ast.literal_eval(literal)
    if type(value) is not str:
        return None
    budget = max(room - 2, 8)  # less the piece's own quotes
    pieces: list[str] = []
    current, size = "", 0  # short lines gathered into one piece, and their written length
    for line in value.splitlines(keepends=True):
        cost = len(repr(line)) - 2
        if current and size + cost > budget:
            pieces.append(current)
            current, size = "", 0
        if cost > budget:  # a line longer than a piece: cut into runs
            pieces += _runs(line, budget)
            continue
        current += line
        size += cost
        if size > budget // 2:  # past half a piece: the next line starts a piece of its own
            pieces.append(current)
            current, size = "", 0
    if current:
        pieces.append(current)
    return [repr(piece) for piece in pieces] if len(pieces) > 1 else None


def _runs(line: str, budget: int) -> list[str]:
    """``line`` cut into runs whose literals are at most ``budget`` characters long (escapes counted)."""
    runs: list[str] = []
    start = 0
    while start < len(line):
        take = budget
        written = len(repr(line[start:start + take])) - 2
        while take > 1 and written > budget:  # escapes: shrink in proportion, at least by one
            take = max(1, min(take - 1, take * budget // written))
            written = len(repr(line[start:start + take])) - 2
        runs.append(line[start:start + take])
        start += take
    return runs


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
