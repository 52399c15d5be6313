"""Real small or read-only file systems for the reliability tests (tmpfs mounts, as root)."""
from __future__ import annotations

import contextlib
import errno
import subprocess
from pathlib import Path
from typing import Iterator

from system import require


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], capture_output=True, text=True, check=True)


@contextlib.contextmanager
def small_tmpfs(folder: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``folder``: a disk that really fills up."""
    require("root", "mount")
    folder.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte; the filler's path (delete it to free the space)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh:
        block = b"\0" * 4096
        try:
            while True:
                fh.write(block)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
        # Then byte by byte, so that not even a small page is left.
        try:
            while True:
                fh.write(b"\0")
        except OSError:
            pass
    return filler


def remount_read_only(folder: Path) -> None:
    """Make ``folder`` (a mount point) read-only for everyone, root included."""
    _mount("-o", "remount,ro", str(folder))


def remount_read_write(folder: Path) -> None:
    _mount("-o", "remount,rw", str(folder))
