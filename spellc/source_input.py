"""Reading a program's bytes from a path or from standard input (``-``).

The CLI commands share this so that stdin is read one way everywhere: straight
from ``sys.stdin.buffer`` rather than through click's stream helpers, whose
typing and deprecation status change between click releases (click 8.5 typed
``get_binary_stream`` so that ``mypy --strict`` rejected its callers).
"""

from __future__ import annotations

import sys

STDIN_NAME = "<stdin>"


def read_source_bytes(path: str) -> tuple[str, bytes]:
    """(display name, raw bytes) of ``path``; ``-`` reads standard input to its end.

    OSError from opening a file propagates: each command words its own refusal.
    """
    if path == "-":
        return STDIN_NAME, sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return path, fh.read()


BYTE_ORDER_MARK = "\ufeff"


class SourceDecodeError(Exception):
    """A program file that is not UTF-8 text; ``str()`` is the one-line report every command prints."""


def decode_source(name: str, data: bytes) -> str:
    """The text of a program file: UTF-8, with one leading byte-order mark skipped (issue 16.6).

    Editors on Windows write a BOM; read as text it would be an invisible first symbol
    (``Unbound symbol: \\ufeff…``). Bytes that are not UTF-8 are refused with their offset
    rather than replaced, so a wrong-encoding file is never silently run as something else.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SourceDecodeError(f"{name}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    return text[1:] if text.startswith(BYTE_ORDER_MARK) else text


def read_source_text(path: str) -> tuple[str, str]:
    """(display name, text) of ``path`` (``-``: stdin); ``SourceDecodeError`` when not UTF-8."""
    name, data = read_source_bytes(path)
    return name, decode_source(name, data)
