"""Directories, file manipulation and the environment (runtime.md §2.2.4, §2.2.5 ``io/env``).

The failure texts follow the reference's ``java.io.File`` semantics, whose
boolean results the spec turned into product strings: ``mkdir`` reports
``Already exists`` before a generic failure, ``mkdirs`` accepts an existing
path, ``delete`` blames a non-empty directory for any refusal, ``copy`` and
``move`` overwrite. ``exists?``, ``directory?``, ``cwd`` and ``env`` return raw
values, not envelopes (§1.6).
"""

from __future__ import annotations

import errno
import os
import tempfile
from typing import TYPE_CHECKING, Any

from ..data.atoms import Keyword
from ..data.hashmap import SpellMap
from ..data.vector import vec
from .args import NO_ARG, given, reject, require_path
from .atomic import write_atomic
from .envelope import fail, ok
from .paths import PathRefused, base_dir, checked_parent, open_checked, os_message, resolve
from .render import pr, text

if TYPE_CHECKING:
    from .context import EffectContext

K_NAME = Keyword("name")
K_SIZE = Keyword("size")
K_MODIFIED = Keyword("modified")
K_READABLE = Keyword("readable")
K_WRITABLE = Keyword("writable")
K_EXECUTABLE = Keyword("executable")
K_DIRECTORY = Keyword("directory")


def utf16_key(s: str) -> bytes:
    """Sort key ordering names by UTF-16 code units, as the reference's Java strings do (D12)."""
    return s.encode("utf-16-be", "surrogatepass")


def exists(ctx: EffectContext, path: Any) -> bool:
    """``(io/exists? path)``: raw boolean; a path outside the workspace does not exist for the program."""
    path = require_path("io/exists?", path)
    try:
        return os.path.exists(resolve(ctx, path))
    except PathRefused:
        return False


def is_directory(ctx: EffectContext, path: Any) -> bool:
    """``(io/directory? path)``: raw boolean."""
    path = require_path("io/directory?", path)
    try:
        return os.path.isdir(resolve(ctx, path))
    except PathRefused:
        return False


def cwd(ctx: EffectContext) -> str:
    """``(io/cwd)``: the directory relative paths are taken from."""
    return base_dir(ctx)


def ls(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/ls path)``: ``[{:name n :size bytes} ...]`` sorted by name; directories end in ``/``."""
    path = require_path("io/ls", path)
    real = resolve(ctx, path)
    try:
        if not os.path.isdir(real):
            return fail(f"Not a directory: {path}")
        try:
            names = os.listdir(real)
        except OSError:
            return fail(f"Could not list directory: {path}")
        entries: list[tuple[str, int]] = []
        for name in names:
            full = os.path.join(real, name)
            try:
                st = os.stat(full)
                size = st.st_size
                shown = name + "/" if os.path.isdir(full) else name
            except OSError:
                size, shown = 0, name
            entries.append((shown, size))
        entries.sort(key=lambda e: utf16_key(e[0]))
        return ok(vec(SpellMap.from_pairs([(K_NAME, n), (K_SIZE, s)]) for n, s in entries))
    except Exception as e:  # noqa: BLE001
        return fail(f"Error listing directory: {os_message(e, {real: path})}")


def mkdir(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/mkdir path)``: one directory, whose parent must exist."""
    path = require_path("io/mkdir", path)
    real = resolve(ctx, path)
    try:
        os.mkdir(real)
    except FileExistsError:
        return fail(f"Already exists: {path}")
    except OSError:
        return fail(f"Failed to create directory: {path}")
    except Exception as e:  # noqa: BLE001
        return fail(f"Error creating directory: {os_message(e, {real: path})}")
    return ok(path)


def mkdirs(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/mkdirs path)``: the directory and its missing parents; an existing path is success."""
    path = require_path("io/mkdirs", path)
    real = resolve(ctx, path)
    try:
        if not os.path.exists(real):
            os.makedirs(real, exist_ok=True)
    except OSError:
        if not os.path.exists(real):
            return fail(f"Failed to create directories: {path}")
    except Exception as e:  # noqa: BLE001
        return fail(f"Error creating directories: {os_message(e, {real: path})}")
    return ok(path)


def delete(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/delete path)``: a file, a link (not its target) or an empty directory."""
    path = require_path("io/delete", path)
    real = resolve(ctx, path, follow=False)
    try:
        if not os.path.lexists(real):
            return fail(f"File not found: {path}")
        dfd, name = checked_parent(ctx.workspace, real)  # no symlink swap between check and unlink
        try:
            if os.path.isdir(real) and not os.path.islink(real):
                os.rmdir(name, dir_fd=dfd)
            else:
                os.unlink(name, dir_fd=dfd)
        except OSError:
            return fail(f"Failed to delete (directory not empty?): {path}")
        finally:
            os.close(dfd)
    except PathRefused as e:
        return fail(e.message)
    except Exception as e:  # noqa: BLE001
        return fail(f"Error deleting: {os_message(e, {real: path})}")
    return ok(path)


def copy(ctx: EffectContext, src: Any, dest: Any) -> SpellMap:
    """``(io/copy src dest)``: copy a file's bytes and permission bits, replacing ``dest`` atomically."""
    src = require_path("io/copy", src, "source")
    dest = require_path("io/copy", dest, "destination")
    real_src = resolve(ctx, src)
    real_dest = resolve(ctx, dest)
    shown = {real_src: src, real_dest: dest}
    try:
        if not os.path.exists(real_src):
            return fail(f"Source not found: {src}")
        if os.path.isdir(real_src):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), real_src)
        with os.fdopen(open_checked(ctx, real_src, src), "rb") as f:
            write_atomic(real_dest, f, mode=os.fstat(f.fileno()).st_mode & 0o7777, root=ctx.workspace)
    except PathRefused as e:
        return fail(e.message)
    except Exception as e:  # noqa: BLE001
        return fail(f"Error copying: {os_message(e, shown)}")
    return ok(dest)


def move(ctx: EffectContext, src: Any, dest: Any) -> SpellMap:
    """``(io/move src dest)``: rename (or copy and remove across file systems), replacing ``dest``."""
    src = require_path("io/move", src, "source")
    dest = require_path("io/move", dest, "destination")
    real_src = resolve(ctx, src, follow=False)
    real_dest = resolve(ctx, dest, follow=False)
    shown = {real_src: src, real_dest: dest}
    try:
        if not os.path.lexists(real_src):
            return fail(f"Source not found: {src}")
        src_dir, src_name = checked_parent(ctx.workspace, real_src)
        try:
            dest_dir, dest_name = checked_parent(ctx.workspace, real_dest)
            try:  # both directories pinned and checked: no symlink swap between check and rename
                os.replace(src_name, dest_name, src_dir_fd=src_dir, dst_dir_fd=dest_dir)
            finally:
                os.close(dest_dir)
        except OSError as e:
            if e.errno != errno.EXDEV:  # only a move to another file system needs copying
                raise
            import shutil

            if os.path.lexists(real_dest) and not os.path.isdir(real_dest):
                os.unlink(real_dest)
            shutil.move(real_src, real_dest)
        finally:
            os.close(src_dir)
    except PathRefused as e:
        return fail(e.message)
    except Exception as e:  # noqa: BLE001
        return fail(f"Error moving: {os_message(e, shown)}")
    return ok(dest)


def stat(ctx: EffectContext, path: Any) -> SpellMap:
    """``(io/stat path)``: ``{:size :modified :readable :writable :executable :directory}``."""
    path = require_path("io/stat", path)
    real = resolve(ctx, path)
    try:
        if not os.path.exists(real):
            return fail(f"File not found: {path}")
        st = os.stat(real)
        return ok(SpellMap.from_pairs([
            (K_SIZE, st.st_size),
            (K_MODIFIED, st.st_mtime_ns // 1_000_000),
            (K_READABLE, os.access(real, os.R_OK)),
            (K_WRITABLE, os.access(real, os.W_OK)),
            (K_EXECUTABLE, os.access(real, os.X_OK)),
            (K_DIRECTORY, os.path.isdir(real)),
        ]))
    except Exception as e:  # noqa: BLE001
        return fail(f"Error getting file info: {os_message(e, {real: path})}")


def temp_file(ctx: EffectContext, prefix: Any = NO_ARG, suffix: Any = NO_ARG) -> SpellMap:
    """``(io/temp-file)`` / ``(io/temp-file prefix suffix)``: the absolute path of a new empty file.

    With a workspace the file is made inside it (a path the program could not
    then use would be useless); otherwise in ``EffectContext.temp_dir`` or the
    system's temporary directory.
    """
    args = given(prefix, suffix)
    if len(args) == 1:
        reject("io/temp-file: expected no arguments or a prefix and a suffix")
    pre, suf = args if args else ("spell", ".tmp")
    for label, v in (("prefix", pre), ("suffix", suf)):
        if v is not None and type(v) is not str:
            reject(f"io/temp-file: {label} must be a string, got {pr(v)}")
    directory = ctx.temp_dir if ctx.temp_dir is not None else ctx.workspace
    try:
        fd, name = tempfile.mkstemp(suffix=".tmp" if suf is None else suf, prefix="" if pre is None else pre,
                                    dir=directory)
        os.close(fd)
    except Exception as e:  # noqa: BLE001
        return fail(f"Error creating temp file: {os_message(e)}")
    return ok(os.path.abspath(name))


def env(ctx: EffectContext, name: Any = NO_ARG) -> Any:
    """``(io/env)`` → map of every variable (string keys); ``(io/env name)`` → value or nil."""
    if name is NO_ARG:
        return SpellMap.from_pairs(os.environ.items())
    return os.environ.get(text(name))
