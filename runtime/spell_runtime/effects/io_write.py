"""Writing and editing files: ``io/write-file``, ``io/spit``, ``io/str-replace``, ``io/replace-lines`` (runtime.md §2.2.3).

Every success answers with the path as a receipt. Whole-file writes go through
``atomic.write_atomic`` so a failure never leaves a half-written file. The two
editors decode with surrogate escapes, so bytes that are not UTF-8 outside the
edited text are written back exactly (the reference would have replaced them).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Optional

from ..data.atoms import Keyword
from ..data.fn import is_truthy
from ..data.hashmap import SpellMap
from ..data.vector import vec
from .args import NO_ARG, is_integer, items_of, reject, require_map, require_path
from .atomic import append_bytes, decode_for_edit, encode_text, write_atomic
from .envelope import fail, ok
from .paths import PathRefused, open_checked, os_message, resolve
from .render import pr, string_literal, text

if TYPE_CHECKING:
    from .context import EffectContext

K_APPEND = Keyword("append")
K_ALL = Keyword("all")


def _write(ctx: EffectContext, fn_name: str, path: Any, content: Any, append: bool) -> SpellMap:
    path = require_path(fn_name, path)
    data = encode_text(text(content))
    real = resolve(ctx, path)
    try:
        parent = os.path.dirname(real)
        if parent and not os.path.exists(parent):
            os.makedirs(parent, exist_ok=True)
        if append:
            append_bytes(real, data, ctx.workspace)
        else:
            write_atomic(real, data, root=ctx.workspace)
    except PathRefused as e:
        return fail(e.message)
    except Exception as e:  # noqa: BLE001 - operational failures are envelopes
        return fail(f"Error writing file: {os_message(e, {real: path})}")
    return ok(path)


def write_file(ctx: EffectContext, path: Any, content: Any) -> SpellMap:
    """``(io/write-file path content)``: replace (or create) the file, creating parent folders."""
    return _write(ctx, "io/write-file", path, content, False)


def spit(ctx: EffectContext, path: Any, content: Any, opts: Any = NO_ARG) -> SpellMap:
    """``(io/spit path content [{:append true}])``: like write-file, or append.

    Appending writes only the new bytes (``O_APPEND``) instead of rewriting the
    whole file: a torn append can only lose part of the new text, never the old.
    """
    options = require_map("io/spit", None if opts is NO_ARG else opts)
    return _write(ctx, "io/spit", path, content, is_truthy(options.get(K_APPEND)))


def _read_for_edit(ctx: EffectContext, real: str, path: str) -> str:
    with os.fdopen(open_checked(ctx, real, path), "rb") as f:
        return decode_for_edit(f.read())


def str_replace(ctx: EffectContext, path: Any, old: Any, new: Any, opts: Any = NO_ARG) -> SpellMap:
    """``(io/str-replace path old new [{:all true}])``: literal replacement of a unique (or every) occurrence."""
    path = require_path("io/str-replace", path)
    options = require_map("io/str-replace", None if opts is NO_ARG else opts)
    if old is None:
        return fail("old-str cannot be nil")
    if new is None:
        return fail("new-str cannot be nil")
    if type(old) is not str:
        reject(f"io/str-replace: old-str must be a string, got {pr(old)}")
    if type(new) is not str:
        reject(f"io/str-replace: new-str must be a string, got {pr(new)}")
    if old == "":
        return fail("old-str cannot be empty")
    replace_all = is_truthy(options.get(K_ALL))
    real = resolve(ctx, path)
    try:
        content = _read_for_edit(ctx, real, path)
        count = content.count(old)
        if count == 0:
            return fail(f"String not found in file: {string_literal(old)}")
        if count > 1 and not replace_all:
            return fail(f"String appears {count} times (must be unique): {string_literal(old)}")
        write_atomic(real, encode_text(content.replace(old, new, -1 if replace_all else 1)), root=ctx.workspace)
    except FileNotFoundError:
        return fail(f"File not found: {path}")
    except Exception as e:  # noqa: BLE001
        return fail(f"Error: {os_message(e, {real: path})}")
    return ok(path)


Edit = tuple[int, int, str]

_EDIT_SHAPE = "io/replace-lines: each edit must be [start end content] with integer start and end and string content, got %s"


def _edit(e: Any) -> Edit:
    parts = items_of(e)
    if parts is None or len(parts) != 3:
        reject(_EDIT_SHAPE % pr(e))
    start, end, content = parts
    if not is_integer(start) or not is_integer(end) or not (content is None or type(content) is str):
        reject(_EDIT_SHAPE % pr(e))
    return int(start), int(end), "" if content is None else content


def _parse_edits(a: Any, b: Any, c: Any) -> list[Edit]:
    if b is NO_ARG and c is NO_ARG:
        edits = items_of(a)
        if edits is None:
            reject(f"io/replace-lines: edits must be a collection of [start end content], got {pr(a)}")
        return [_edit(e) for e in edits]
    if b is NO_ARG or c is NO_ARG:
        reject("io/replace-lines: expected (io/replace-lines path start end content) "
               "or (io/replace-lines path [[start end content] ...])")
    return [_edit(vec([a, b, c]))]


_LINE_BREAK = re.compile(r"\r?\n")


def split_lines(s: str) -> list[str]:
    """Clojure ``split-lines``: split on ``\\n``/``\\r\\n``, drop trailing empty strings; ``""`` is one line."""
    if s == "":
        return [""]
    parts = _LINE_BREAK.split(s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _range_error(n: int, edit: Edit) -> Optional[str]:
    start, end, _ = edit
    if start < 1 or start > n + 1:
        return f"Start line {start} out of range (file has {n} lines)"
    if end < start or end > n + 1:
        return f"End line {end} out of range (start={start}, file has {n} lines)"
    return None


def apply_edits(content: str, edits: list[Edit]) -> tuple[Optional[str], str]:
    """(error, new text): validate ``edits`` against ``content`` and apply them, highest start first."""
    lines = split_lines(content)
    n = len(lines)
    for edit in edits:
        err = _range_error(n, edit)
        if err is not None:
            return err, content
    ordered = sorted(edits, key=lambda e: e[0])
    for prev, nxt in zip(ordered, ordered[1:], strict=False):
        if nxt[0] < prev[1]:
            return "Edits have overlapping line ranges", content
    for start, end, new in reversed(ordered):
        lines[start - 1:end - 1] = [] if new == "" else split_lines(new)
    return None, "\n".join(lines) + ("\n" if content.endswith("\n") else "")


def replace_lines(ctx: EffectContext, path: Any, a: Any, b: Any = NO_ARG, c: Any = NO_ARG) -> SpellMap:
    """``(io/replace-lines path start end content)`` / ``(io/replace-lines path [[start end content] ...])``."""
    path = require_path("io/replace-lines", path)
    edits = _parse_edits(a, b, c)
    real = resolve(ctx, path)
    try:
        err, result = apply_edits(_read_for_edit(ctx, real, path), edits)
        if err is not None:
            return fail(err)
        write_atomic(real, encode_text(result), root=ctx.workspace)
    except FileNotFoundError:
        return fail(f"File not found: {path}")
    except Exception as e:  # noqa: BLE001
        return fail(f"Error: {os_message(e, {real: path})}")
    return ok(path)
