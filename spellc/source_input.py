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
