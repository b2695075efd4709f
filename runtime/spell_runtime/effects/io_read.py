"""Reading files: ``io/slurp``, ``io/slurp-bytes``, ``io/read-file``, ``io/read-lines`` (runtime.md §2.2.1–2.2.2).

Text is UTF-8 with undecodable bytes replaced by U+FFFD, so a binary or
mis-encoded file still reads (a model can see that it is not text) instead of
failing. A missing file is ``File not found: <path>``; every other host failure
is ``Error reading file: <host message>`` — both as envelopes, never raised.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..data.hashmap import SpellMap
from ..data.vector import LineVector, vec
from .args import NO_ARG, given, require_path
from .envelope import fail, ok
from .paths import PathRefused, open_checked, os_message, resolve
from .selection import parse_selection, select_lines

if TYPE_CHECKING:
    from .context import EffectContext


def _open_text(ctx: EffectContext, real: str, path: str) -> Any:
    return os.fdopen(open_checked(ctx, real, path), encoding="utf-8", errors="replace", newline="")


def _read_failure(e: BaseException, path: str, real: str) -> SpellMap:
    if isinstance(e, PathRefused):
        return fail(e.message)  # what was opened turned out to lie outside the workspace
    if isinstance(e, FileNotFoundError):
        return fail(f"File not found: {path}")
    return fail(f"Error reading file: {os_message(e, {real: path})}")


def slurp(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/slurp path)``: the entire text."""
    path = require_path("io/slurp", path)
    real = resolve(ctx, path)
    try:
        with _open_text(ctx, real, path) as f:
            return ok(f.read())
    except Exception as e:  # noqa: BLE001 - every host failure becomes the envelope
        return _read_failure(e, path, real)


def slurp_bytes(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/slurp-bytes path)``: the entire content as a byte string."""
    path = require_path("io/slurp-bytes", path)
    real = resolve(ctx, path)
    try:
        with os.fdopen(open_checked(ctx, real, path), "rb") as f:
            return ok(f.read())
    except Exception as e:  # noqa: BLE001
        return _read_failure(e, path, real)


def read_file(ctx: EffectContext, path: Any, a: Any = NO_ARG, b: Any = NO_ARG, c: Any = NO_ARG) -> SpellMap:
    """``(io/read-file path [start end] [opts])``: selected lines with their original terminators."""
    path = require_path("io/read-file", path)
    sel = parse_selection(given(a, b, c))
    real = resolve(ctx, path)
    try:
        with _open_text(ctx, real, path) as f:
            if sel.everything:
                return ok(f.read())
            return ok("".join(body + term for body, term in select_lines(f, sel)))
    except Exception as e:  # noqa: BLE001
        return _read_failure(e, path, real)


def read_lines(ctx: EffectContext, path: Any, a: Any = NO_ARG, b: Any = NO_ARG, c: Any = NO_ARG) -> SpellMap:
    """``(io/read-lines path [start end] [opts])``: a fresh numbered vector of selected line texts."""
    path = require_path("io/read-lines", path)
    sel = parse_selection(given(a, b, c))
    real = resolve(ctx, path)
    try:
        with _open_text(ctx, real, path) as f:
            rows = vec(body for body, _term in select_lines(f, sel))
    except Exception as e:  # noqa: BLE001
        return _read_failure(e, path, real)
    return ok(LineVector(rows, ((sel.first_line, len(rows)),)))
