"""A lock around a read-modify-write of one file, between processes.

Two programs that each read a settings file, change one key and write it back
lose one of the changes unless the read and the write happen under one lock.
The lock is a ``.NAME.lock`` file beside NAME, locked with ``flock`` (it stays
there, empty: removing it would let a third writer lock a different file).
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Iterator

from ..errors import FileError


@contextlib.contextmanager
def file_lock(path: str | os.PathLike) -> Iterator[None]:
    """Hold an exclusive lock for ``path`` while the block runs (waits for another holder)."""
    p = Path(path)
    lock = p.with_name(f".{p.name}.lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
    except OSError as exc:
        raise FileError(f"{p}: cannot lock it for writing ({exc.strerror or exc})", code="file.unlockable",
                        path=str(p)) from None
    try:
        _acquire(fd)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _acquire(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: a lock on the first byte, retried by msvcrt for about 10 s
        import msvcrt
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
