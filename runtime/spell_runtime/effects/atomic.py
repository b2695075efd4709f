"""Atomic file replacement for every ``io/`` write.

A model-driven program can be interrupted at any point (timeouts, a crashed
run, a full disk). Writing a new version next to the file and renaming it over
the old one (``os.replace`` is atomic on POSIX within one directory) means a
reader — or the next turn — sees either the old content or the new, never a
torn file, and a failed write leaves the old content untouched.

The replacement keeps the old file's permission bits (a new file gets the
usual ``0666 & ~umask``), and a symlink is written *through*, as a plain
``open(..., "w")`` would: the link stays and its target changes. Hard links to
the old inode are not updated (the inevitable cost of rename-based writes).
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
from typing import BinaryIO, Optional

_umask: Optional[int] = None


def _process_umask() -> int:
    """The umask, read without changing it (``os.umask`` would race with other threads)."""
    global _umask
    if _umask is None:
        mask = 0o022
        try:
            with open("/proc/self/status", encoding="ascii", errors="replace") as f:
                for line in f:
                    if line.startswith("Umask:"):
                        mask = int(line.split()[1], 8)
                        break
        except (OSError, ValueError):
            pass
        _umask = mask
    return _umask


def write_atomic(path: str, data: bytes | BinaryIO, mode: Optional[int] = None, root: Optional[str] = None) -> None:
    """Replace the content of ``path`` with ``data`` (bytes, or a binary file read to its end) in one step.

    ``mode`` overrides the permission bits (a copy takes its source's). With a
    workspace ``root`` the target's directory is opened once and checked, and the
    temporary file is created and renamed relative to that descriptor, so swapping
    a path component for a symlink after the check cannot send the write outside
    (issue 16.4, see ``paths``). Raises ``OSError`` on failure, naming ``path``.
    """
    from .paths import checked_parent

    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    dfd, name = checked_parent(root, target)
    try:
        if mode is None:
            try:
                mode = stat.S_IMODE(os.stat(name, dir_fd=dfd).st_mode)
            except FileNotFoundError:
                mode = 0o666 & ~_process_umask()
        tmp, fd = _create_temp(dfd, name)
        try:
            with os.fdopen(fd, "wb") as f:
                if isinstance(data, bytes):
                    f.write(data)
                else:
                    shutil.copyfileobj(data, f)
                f.flush()
                os.fchmod(f.fileno(), mode)
                os.fsync(f.fileno())
            try:
                os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            except OSError as e:
                # Name the file the caller wrote, not our temporary one.
                raise OSError(e.errno, e.strerror, path) from e
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dfd)
            except OSError:
                pass
            raise
    finally:
        os.close(dfd)


def _create_temp(dfd: int, name: str) -> tuple[str, int]:
    """A new ``.<name>.<random>.tmp`` in the directory ``dfd`` (never following a planted link)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = ".%s.%s.tmp" % (name, secrets.token_hex(4))
        try:
            return tmp, os.open(tmp, flags, 0o600, dir_fd=dfd)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "No usable temporary file name", name)


def append_bytes(path: str, data: bytes, root: Optional[str] = None) -> None:
    """Append ``data`` to ``path`` (created if missing) through its checked directory, link not followed."""
    from .paths import checked_parent

    dfd, name = checked_parent(root, os.path.realpath(path))
    try:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(name, flags, 0o666, dir_fd=dfd)
        with os.fdopen(fd, "ab") as f:
            f.write(data)
    finally:
        os.close(dfd)


def encode_text(text: str) -> bytes:
    """UTF-8 bytes of ``text``; bytes that were undecodable on read (surrogate escapes) come back unchanged.

    A lone surrogate that is not such an escape cannot be UTF-8; it is written as
    ``?``, the JVM's replacement for unmappable characters.
    """
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return "".join(_safe_char(c) for c in text).encode("utf-8", "surrogateescape")


def _safe_char(c: str) -> str:
    o = ord(c)
    if 0xD800 <= o <= 0xDFFF and not 0xDC80 <= o <= 0xDCFF:
        return "?"
    return c


def decode_for_edit(data: bytes) -> str:
    """Text for an in-place edit: invalid UTF-8 bytes survive as surrogate escapes so the edit keeps them."""
    return data.decode("utf-8", "surrogateescape")
