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
workspace.

No symlink-swap window (issue 16.4): a program that can write in the workspace
could replace a checked directory by a symlink between the check and the use.
So the check is repeated on what was actually opened: reads re-check the opened
file descriptor's real path (``open_checked``); writes open the target's
directory once, check that descriptor, and create, rename or unlink relative to
it (``checked_parent`` + ``dir_fd``), so a later swap of any path component
cannot redirect them (a link swapped in as the last component is replaced by
the rename, not written through).
"""

from __future__ import annotations

import errno
import os
import stat
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


def _fd_path(fd: int) -> Optional[str]:
    """The real path of an open descriptor (Linux ``/proc``; None where it cannot be known)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def verify_fd(root: Optional[str], fd: int, path: str, checked: str) -> None:
    """Refuse (closing ``fd``) when what ``fd`` opened is not inside ``root``.

    Without ``/proc`` the descriptor must be the very file ``checked`` names now
    (same device and inode), which a swapped link would not be.
    """
    if root is None:
        return
    actual = _fd_path(fd)
    if actual is not None:
        ok = within(root, actual)
    else:
        try:
            a, b = os.fstat(fd), os.stat(checked)
            ok = (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
        except OSError:
            ok = False
    if not ok:
        os.close(fd)
        raise PathRefused(path)


def open_checked(ctx: EffectContext, real: str, path: str) -> int:
    """A read-only descriptor for the resolved ``real``, re-checked after opening.

    ``O_NONBLOCK`` keeps a FIFO planted in the workspace from hanging the open
    (regular files ignore it).
    """
    fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    verify_fd(ctx.workspace, fd, path, real)
    if stat.S_ISDIR(os.fstat(fd).st_mode):  # what open() would have said, naming the file
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), real)
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return fd


def checked_parent(root: Optional[str], target: str) -> tuple[int, str]:
    """(descriptor of ``target``'s directory, checked to lie in ``root``; ``target``'s last name).

    The caller closes the descriptor.
    """
    directory, name = os.path.split(target)
    dfd = os.open(directory or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    verify_fd(root, dfd, target, directory or ".")
    return dfd, name


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
