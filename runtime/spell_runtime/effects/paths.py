"""Where an ``io/`` path points, and whether the program may touch it.

Programs name files relative to the working directory (runtime.md §2.2); the
effect context may pin that directory (``EffectContext.cwd``) so a run does not
depend on the host process's ``chdir``.

Workspace confinement (project extension): when the context has a workspace
root, every file path an ``io/`` function receives must resolve — following
symlinks, ``..`` and absolute spellings — to the root or below it. A path that
escapes is *refused*: the function answers with a failure envelope naming the
path (or ``false`` for the raw predicates), and nothing is opened. The decision
is made on ``os.path.realpath``, so a symlink inside the workspace that points
outside is refused just like ``../x``. Paths that do not exist yet (write
targets) are resolved through their deepest existing ancestor. Shell commands
(``io/sh``, ``io/exec``) cannot be confined this way; they only start in the
workspace. The check is a guard against a confused program, not a sandbox
against a hostile one (a symlink created between check and use can still win).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .context import EffectContext


class PathRefused(Exception):
    """A path the workspace does not allow; ``message`` is the envelope's ``:err``."""

    def __init__(self, path: str, message: Optional[str] = None) -> None:
        self.message = message if message is not None else f"Path outside workspace: {path}"
        super().__init__(self.message)


def base_dir(ctx: EffectContext) -> str:
    """The directory relative paths are taken from."""
    return ctx.cwd if ctx.cwd is not None else os.getcwd()


def resolve(ctx: EffectContext, path: str, *, follow: bool = True) -> str:
    """The host path to operate on for the program's ``path``.

    With ``follow=False`` the last component is not dereferenced, for operations
    on a link itself (delete, move): only its parent must lie in the workspace.
    Raises ``PathRefused`` when the workspace forbids the path.
    """
    joined = path if ctx.cwd is None else os.path.join(ctx.cwd, path)
    root = ctx.workspace
    if root is None:
        return joined
    try:
        if follow:
            real = os.path.realpath(joined)
        else:
            parent, name = os.path.split(os.path.normpath(joined))
            real = os.path.join(os.path.realpath(parent), name) if name not in ("", "..") else \
                os.path.realpath(joined)
    except (ValueError, OSError) as e:
        # An unresolvable path (NUL byte, symlink loop) cannot be shown to lie inside.
        raise PathRefused(path, f"Invalid path: {e}") from None
    if not within(root, real):
        raise PathRefused(path)
    return real


def within(root: str, real: str) -> bool:
    """True when the resolved ``real`` is ``root`` or lies below it."""
    try:
        return os.path.commonpath([root, real]) == root
    except ValueError:
        return False


def os_message(e: BaseException, shown: Optional[dict[str, str]] = None) -> str:
    """A host error's text in the JVM's ``<file> (<reason>)`` style, naming files as the program did."""
    if isinstance(e, OSError) and e.strerror:
        names = shown or {}
        file1 = e.filename
        if file1 is None:
            return e.strerror
        text = names.get(str(file1), str(file1))
        if e.filename2 is not None:
            text += " -> " + names.get(str(e.filename2), str(e.filename2))
        return f"{text} ({e.strerror})"
    message = str(e)
    return message if message else type(e).__name__
