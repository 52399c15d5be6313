"""A set of output files replaced as a whole: ``c.bin`` with ``c.bin.idx`` and ``c.bin.json``.

Each file is written under a locked temp name beside its target (see
:mod:`.atomic`).  To switch, a small journal (``.FIRST.commit``) naming every
temp and its target is put in place atomically, the temps are renamed over
the targets, and the journal is removed.  A run killed during the renames
leaves the journal: the next :class:`FileSet` on the same output finishes
them before anything else, so the set readers see is the old one or the new
one, never a mix after that.  A run killed before the journal leaves only
temp files, which the next write to the same names removes (their lock died
with the writer).  A device or FIFO among the targets is written through.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable, Iterator, Sequence, cast

from ..errors import FileError, InputError
from .atomic import _create_temp, _write_error, atomic_write_bytes, is_stream, keep_mode, temp_prefix, write_target
from .output import check_output


def _journal(first: Path) -> Path:
    return first.with_name(temp_prefix(first.name, first.parent if str(first.parent) else ".") + ".commit")


def roll_forward(first: str | os.PathLike) -> None:
    """Finish the switch a killed run started on the set whose first file is ``first``."""
    journal = _journal(write_target(first)[0])
    try:
        pairs = json.loads(journal.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        pairs = []  # a torn journal cannot be: it is written atomically; an unreadable one is dropped
    for tmp, target in pairs:
        if os.path.exists(tmp):
            os.replace(tmp, target)
    journal.unlink(missing_ok=True)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_dead_partials(target: Path) -> None:
    """Remove ``.NAME.<pid>.partial`` files (the name older versions wrote) whose process is gone."""
    pattern = re.compile(re.escape(f".{target.name}") + r"\.(\d+)\.partial")
    try:
        names = os.listdir(target.parent if str(target.parent) else ".")
    except OSError:
        return
    for name in names:
        match = pattern.fullmatch(name)
        if match and int(match.group(1)) != os.getpid() and not _pid_alive(int(match.group(1))):
            try:
                os.unlink(target.with_name(name))
            except OSError:
                pass


class _Unclosed(io.BufferedIOBase):
    """Standard output as one of the set's handles: flushed, never closed."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw

    def write(self, data) -> int:
        return self._raw.write(data)

    def flush(self) -> None:
        self._raw.flush()

    def fileno(self) -> int:
        return self._raw.fileno()

    def close(self) -> None:
        self.flush()


class FileSet:
    """Open handles for every target; :meth:`commit` switches them all, :meth:`discard` removes the temps."""

    def __init__(self, targets: Sequence[str | os.PathLike]):
        self.handles: list[BinaryIO] = []
        self._pairs: list[tuple[Path, Path]] = []  # (temp, target) of the regular files
        self._first: Path | None = None
        checked = self._checked(targets)  # every target, before any file is made
        try:
            for target, st in checked:
                if target is None:  # standard output: written through, never closed here
                    self.handles.append(cast(BinaryIO, _Unclosed(sys.stdout.buffer)))
                    continue
                folder = target.parent if str(target.parent) else Path(".")
                if is_stream(st):  # a device or FIFO: written through, never renamed over
                    try:
                        self.handles.append(open(target, "wb"))
                    except OSError as exc:
                        raise _write_error(target, exc) from None
                    continue
                remove_dead_partials(target)
                fd, tmp = _create_temp(target, folder)
                keep_mode(fd, st)
                self.handles.append(os.fdopen(fd, "wb"))
                self._pairs.append((tmp, target))
        except BaseException:
            self.discard()
            raise

    def _checked(self, targets: Sequence[str | os.PathLike]) -> list[tuple[Path | None, os.stat_result | None]]:
        """Where each target lands and what is there now (None, None: standard output).  A folder
        where a file goes, or a missing folder, is refused here: found at the switch, it had left
        the files renamed before it new and the journal behind (issue #37, 9)."""
        checked: list[tuple[Path | None, os.stat_result | None]] = []
        for given in targets:
            if os.fspath(given) == "-":
                checked.append((None, None))
                continue
            target, st = write_target(given)
            if self._first is None:
                self._first = target
                roll_forward(target)
                target, st = write_target(given)
            folder = target.parent if str(target.parent) else Path(".")
            if not folder.is_dir():
                raise FileError(f"{folder}: no such folder", code="file.no_folder", path=str(target),
                                folder=str(folder))
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise FileError(f"{target}: is a folder, where the output has a file; move it or choose another "
                                f"output", code="file.directory", path=str(target))
            checked.append((target, st))
        return checked

    def commit(self) -> None:
        """Flush every file to disk, then switch the set (see the module docstring)."""
        for fh in self.handles:
            fh.flush()
            try:
                os.fsync(fh.fileno())
            except OSError:
                pass  # a pipe or device cannot be synced
        if self._pairs and self._first is not None:
            journal = _journal(self._first)
            atomic_write_bytes(journal, json.dumps([[str(t), str(p)] for t, p in self._pairs]).encode())
            # The temps stay open (and locked) while renamed: nobody can take them for stale.
            # Windows renames no open file (and has no such locks): close first there.
            if os.name == "nt":
                self._close()
            for tmp, target in self._pairs:
                os.replace(tmp, target)
            journal.unlink()
        self._pairs = []
        self._close()

    def _close(self) -> None:
        for fh in self.handles:
            try:
                fh.close()
            except OSError:
                pass  # a full disk fails the flush again; the descriptor is closed all the same
        self.handles = []

    @contextlib.contextmanager
    def writing(self, name: str | os.PathLike) -> Iterator[FileSet]:
        """``with files.writing(name):`` write through ``handles``; the set is committed when the
        block ends, discarded when anything raises, and an OS error is one line about ``name``."""
        try:
            yield self
            self.commit()
        except OSError as exc:
            self.discard()
            raise FileError(f"{os.fspath(name)}: cannot write ({exc.strerror or exc})") from None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Close and remove every temp file, whatever closing says (ENOSPC raises again on close)."""
        self._close()
        for tmp, _ in self._pairs:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        self._pairs = []


def write_folder(path: str | os.PathLike, fill: Callable[[str], object],
                 inputs: Sequence[str | os.PathLike] = ()) -> None:
    """``fill(tmp)`` writes a folder's files into a temporary folder beside ``path``; they are
    then moved in file by file, so a failure leaves no half folder.  No file it would replace
    may be one of ``inputs`` (checked by inode, before any move)."""
    target = os.path.abspath(os.fspath(path))
    if os.path.exists(target) and not os.path.isdir(target):
        raise InputError(f"{target}: exists and is not a folder")
    tmp = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.", dir=os.path.dirname(target))
    try:
        fill(tmp)
        names = sorted(os.listdir(tmp))
        for name in names:
            check_output(os.path.join(target, name), inputs)
        os.makedirs(target, exist_ok=True)
        for name in names:
            os.replace(os.path.join(tmp, name), os.path.join(target, name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
