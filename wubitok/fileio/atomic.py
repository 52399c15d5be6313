"""Atomic writes: readers see the old file or the new one, never half of one."""
from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path
from typing import Iterable

from ..errors import FileError
from .encoding import encode_text
from .output import check_output_name


def _write_error(path: Path, exc: OSError) -> FileError:
    if isinstance(exc, FileNotFoundError) and not path.parent.exists():
        return FileError(f"{path}: cannot write: folder {path.parent} does not exist",
                         code="file.no_folder", path=str(path), folder=str(path.parent))
    reason = str(exc.strerror or exc)
    return FileError(f"{path}: cannot write ({reason})", code="file.unwritable", path=str(path), reason=reason)


# Temp files are ``.NAME.<12 hex>.tmp`` beside NAME; the part of NAME kept is
# cut so that the whole name fits the filesystem's limit (NAME_MAX).
_TEMP_SUFFIX_BYTES = len(".") + 1 + 12 + len(".tmp")


def temp_prefix(name: str, folder: str | os.PathLike) -> str:
    """The ``.NAME`` part of a temp file name for ``name``, cut so that a suffix
    of up to 18 bytes (``.<12 hex>.tmp``, ``.<pid>.partial``) fits NAME_MAX."""
    try:
        name_max = os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):
        name_max = 255
    # Cut on a character boundary; the same name always gives the same prefix.
    kept = os.fsencode(name)[: name_max - _TEMP_SUFFIX_BYTES].decode("utf-8", "ignore")
    return "." + (kept or "_")


def _lock(fd: int, *, wait: bool) -> bool:
    """An exclusive lock on an open temp file: held while it is written, so that a
    lockable one belongs to a writer that is gone.  Without fcntl (Windows) a
    temp file is never taken for stale: an open file there cannot be removed anyway."""
    try:
        import fcntl
    except ImportError:
        return wait
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _remove_stale_temps(folder: Path, prefix: str) -> None:
    """Remove temp files of ours for the same target that a killed writer left."""
    pattern = re.compile(re.escape(prefix) + r"\.[0-9a-f]{12}\.tmp")
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and pattern.fullmatch(n)]
    except OSError:
        return
    for name in names:
        try:
            fd = os.open(folder / name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError:
            continue
        try:
            if _lock(fd, wait=False):
                os.unlink(folder / name)
        except OSError:
            pass
        finally:
            os.close(fd)


def _create_temp(p: Path, folder: Path) -> tuple[int, Path]:
    prefix = temp_prefix(p.name, folder)
    _remove_stale_temps(folder, prefix)
    for _ in range(100):
        tmp = folder / f"{prefix}.{secrets.token_hex(6)}.tmp"
        # os.open with mode 0o666 (not mkstemp's 0o600) so the file gets the
        # permissions the user's umask gives any new file.
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _write_error(p, exc) from None
        _lock(fd, wait=True)
        if os.fstat(fd).st_nlink > 0:
            return fd, tmp
        os.close(fd)  # another writer took it for stale between open and lock
    raise FileError(f"{p}: cannot create a temporary file in {folder}", code="file.no_temp", path=str(p),
                    folder=str(folder))


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one.

    The temp file sits in the same folder so that ``os.replace`` is a rename on
    one filesystem, never a copy that could be interrupted half-way.  Temp
    files a killed writer left for the same path are removed first.
    """
    atomic_write_many([(path, data)])


def write_target(path: str | os.PathLike) -> tuple[Path, os.stat_result | None]:
    """Where a write to ``path`` lands, and what is there now (None: nothing yet).

    A symbolic link is followed to its end, so that the link stays a link (a
    settings file kept in a dotfiles folder goes on updating) and the file it
    names gets the new content.  What is there decides how it is written: a
    regular file is replaced atomically (keeping its permission bits), anything
    else that is not a folder (a character device, a FIFO) is written through.
    """
    p = check_output_name(path)
    if p.is_symlink():
        p = Path(os.path.realpath(p))
    try:
        return p, os.stat(p)
    except (OSError, ValueError):
        return p, None


def is_stream(st: os.stat_result | None) -> bool:
    """Whether an existing output is a device, FIFO or socket: written through, never renamed over."""
    return st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)


def keep_mode(fd: int, st: os.stat_result | None) -> None:
    """Give a temp file the permissions (and, where allowed, the owner) of the file it replaces:
    a 0600 file stays 0600.  A new file keeps what the umask gave it."""
    if st is None or not stat.S_ISREG(st.st_mode) or not hasattr(os, "fchmod"):
        return
    try:
        os.fchmod(fd, stat.S_IMODE(st.st_mode))
    except OSError:
        pass
    if hasattr(os, "fchown") and (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)  # root writing a user's file; others cannot
        except OSError:
            pass


def _write_through(p: Path, data: bytes) -> None:
    try:
        with open(p, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise _write_error(p, exc) from None


def atomic_write_many(files: Iterable[tuple[str | os.PathLike, bytes]]) -> None:
    """Write several files, each atomically, all written before any is replaced:
    an error or Ctrl-C while writing leaves every old file as it was.  A device or
    FIFO among them is written through, after the files are in place."""
    temps: list[tuple[Path, Path]] = []
    streams: list[tuple[Path, bytes]] = []
    try:
        for path, data in files:
            p, st = write_target(path)
            if is_stream(st):
                streams.append((p, data))
                continue
            folder = p.parent if str(p.parent) else Path(".")
            fd, tmp = _create_temp(p, folder)
            temps.append((tmp, p))
            keep_mode(fd, st)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:
                raise _write_error(p, exc) from None
        for i, (tmp, p) in enumerate(temps):
            try:
                os.replace(tmp, p)
            except OSError as exc:
                raise _write_error(p, exc) from None
            temps[i] = (p, p)  # replaced: nothing to clean up
    except BaseException:
        for tmp, p in temps:
            if tmp != p:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
        raise
    for p, data in streams:
        _write_through(p, data)


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Save ``text`` in ``encoding`` (e.g. the one :func:`read_text_file` reported)."""
    atomic_write_bytes(path, encode_text(text, encoding, path=path))
